/**
 * A request the server cannot serve, or a repository it cannot read. The message is what the client
 * sees: before the pack it travels as an `ERR` pkt-line, during the pack on sideband 3. The server
 * then exits with status 128, as Git's upload-pack does after `die()`.
 */
export class UploadPackError extends Error {
  /** Always `'ERR_UPLOAD_PACK'`. */
  readonly code = 'ERR_UPLOAD_PACK';
  /**
   * The exact text of the `ERR` line where Git's upload-pack sends one of its own for the same
   * failure (`upload-pack: not our ref <oid>`), so clients and scripts see the same words; when
   * absent the client gets `writev-upload-pack: <message>`.
   */
  readonly wire: string | undefined;

  constructor(message: string, options?: { cause?: unknown; wire?: string }) {
    super(message, options);
    this.name = 'UploadPackError';
    this.wire = options?.wire;
  }
}

/** The refusal of a want the client may not have, in Git's words on the wire and on stderr. */
export function notOurRef(oid: string): UploadPackError {
  return new UploadPackError(`git upload-pack: not our ref ${oid}`, {
    wire: `upload-pack: not our ref ${oid}`,
  });
}
