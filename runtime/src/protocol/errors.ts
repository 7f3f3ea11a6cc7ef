/**
 * The two ways a pkt-line conversation fails on the reading side: the bytes do not follow the
 * protocol ({@link ProtocolError}), or they do and the remote reports its own failure
 * ({@link RemoteError}).
 */

/**
 * The byte stream is not valid pkt-line or sideband framing: a length that is not hexadecimal, a
 * reserved length (0003), a length above 65520, a stream that ends inside a packet, a band that
 * does not exist. `offset` is the position in the stream, in bytes from its first byte, of the
 * packet at fault, so the message points at the place to look in a capture.
 */
export class ProtocolError extends Error {
  /** Always `'ERR_PROTOCOL'`. */
  readonly code = 'ERR_PROTOCOL';
  /** The stream offset of the packet at fault, in bytes. */
  readonly offset: number;

  constructor(offset: number, problem: string) {
    super(`protocol error at byte ${offset}: ${problem}`);
    this.name = 'ProtocolError';
    this.offset = offset;
  }
}

/**
 * The remote said it failed: an `ERR <reason>` pkt-line, or a message on sideband 3. `remoteMessage`
 * is the remote's own text without its trailing newline.
 */
export class RemoteError extends Error {
  /** Always `'ERR_REMOTE'`. */
  readonly code = 'ERR_REMOTE';
  /** What the remote said, without the trailing newline. */
  readonly remoteMessage: string;

  constructor(remoteMessage: string) {
    super(`remote error: ${remoteMessage}`);
    this.name = 'RemoteError';
    this.remoteMessage = remoteMessage;
  }
}
