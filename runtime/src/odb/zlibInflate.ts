import { constants as bufferConstants } from 'node:buffer';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { ObjectCorruptError } from './errors';

/** Where compressed bytes came from, for error messages. */
export interface Place {
  /** The file the bytes were read from. */
  readonly file: string;
  /** The offset of the first compressed byte in {@link Place.file}. */
  readonly offset: number;
}

/** How compressed bytes relate to what follows them in the file. */
export type Trailing = 'forbidden' | 'allowed';

/**
 * Inflates one complete zlib stream that must hold exactly `expectedSize` bytes.
 *
 * zlib's Adler-32 check covers the payload; on top of it the output length must match, the stream
 * must end (a truncated stream is corrupt, not short), and with `trailing: 'forbidden'` no byte may
 * follow the stream's end. Output is capped at one byte past `expectedSize`, so a corrupt size can
 * never make this allocate more than the object claims.
 *
 * @throws {@link ObjectCorruptError} naming `place` for any of these failures.
 */
export function inflateExact(
  input: Uint8Array,
  expectedSize: number,
  place: Place,
  trailing: Trailing = 'forbidden',
): Buffer {
  if (expectedSize >= bufferConstants.MAX_LENGTH) {
    throw new ObjectCorruptError(
      place.file,
      place.offset,
      `object claims ${expectedSize} bytes, more than one buffer can hold`,
    );
  }
  let out: Buffer;
  let consumed: number;
  try {
    // With `info`, Node returns the engine too; its bytesWritten is the input consumed up to the
    // stream's end (the type declarations do not model this overload).
    // One output chunk of the expected size (plus one byte to notice excess) spares Node from
    // inflating into 16 KiB pieces and concatenating them: a copy and an allocation per piece.
    const chunkSize = Math.max(64, expectedSize + 1);
    const result = inflateSync(input, {
      info: true,
      chunkSize,
      maxOutputLength: expectedSize + 1,
    }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    out = result.buffer;
    consumed = result.engine.bytesWritten;
  } catch (err) {
    throw new ObjectCorruptError(place.file, place.offset, describeInflateError(err, expectedSize), err);
  }
  if (out.length !== expectedSize) {
    throw new ObjectCorruptError(
      place.file,
      place.offset,
      `zlib data inflates to ${out.length} bytes, ${expectedSize} expected`,
    );
  }
  if (trailing === 'forbidden' && consumed !== input.length) {
    throw new ObjectCorruptError(
      place.file,
      place.offset + consumed,
      `${input.length - consumed} bytes of garbage after the zlib stream`,
    );
  }
  return out;
}

/**
 * Inflates as much of the start of a zlib stream as `input` holds, without requiring the stream to
 * end: enough to read an object's header without inflating its payload.
 *
 * @throws {@link ObjectCorruptError} naming `place` when the bytes are not zlib data.
 */
export function inflatePrefix(input: Uint8Array, place: Place): Buffer {
  try {
    return inflateSync(input, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch (err) {
    throw new ObjectCorruptError(place.file, place.offset, describeInflateError(err, undefined), err);
  }
}

function describeInflateError(err: unknown, expectedSize: number | undefined): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_BUFFER_TOO_LARGE') return `zlib data inflates to more than ${expectedSize} bytes`;
  if (code === 'Z_BUF_ERROR') return 'zlib stream is truncated';
  const message = err instanceof Error ? err.message : String(err);
  return `bad zlib data (${message})`;
}
