import { constants as bufferConstants } from 'node:buffer';
import { constants as zlibConstants, Inflate, inflateSync } from 'node:zlib';
import { ObjectCorruptError } from './errors';

/** Where compressed bytes came from, for error messages. */
export interface Place {
  /** The file the bytes were read from. */
  readonly file: string;
  /** The offset of the first compressed byte in {@link Place.file}. */
  readonly offset: number;
}

/**
 * How {@link inflateExact} runs zlib: `'reused'` (default) resets one stream per process and
 * falls back to `'per-call'` (`zlib.inflateSync`) where Node's binding is not as expected.
 */
export type InflateEngine = 'reused' | 'per-call';

/**
 * Inflates one complete zlib stream that must hold exactly `expectedSize` bytes.
 *
 * zlib's Adler-32 check covers the payload; on top of it the output length must match, the stream
 * must end (a truncated stream is corrupt, not short), and no byte may follow the stream's end.
 * Output is capped at one byte past `expectedSize`, so a corrupt size can never make this allocate
 * more than the object claims.
 *
 * With `scratch` longer than `expectedSize`, the reused engine inflates into it and returns a view
 * of it, valid until the caller reuses `scratch`: no allocation for bytes that are used at once.
 *
 * @throws {@link ObjectCorruptError} naming `place` for any of these failures.
 */
export function inflateExact(
  input: Uint8Array,
  expectedSize: number,
  place: Place,
  engine: InflateEngine = 'reused',
  scratch?: Buffer,
): Buffer {
  if (expectedSize >= bufferConstants.MAX_LENGTH) {
    throw new ObjectCorruptError(
      place.file,
      place.offset,
      `object claims ${expectedSize} bytes, more than one buffer can hold`,
    );
  }
  const inflate = (engine === 'reused' ? reusedEngine()?.inflate : undefined) ?? inflateOnce;
  const { out, consumed } = inflate(input, expectedSize, place, scratch);
  if (out.length !== expectedSize) {
    // Output stops one byte past the expected size, so a longer stream shows as that byte.
    const problem =
      out.length > expectedSize
        ? `zlib data inflates to more than ${expectedSize} bytes`
        : `zlib data inflates to ${out.length} bytes, ${expectedSize} expected`;
    throw new ObjectCorruptError(place.file, place.offset, problem);
  }
  if (consumed !== input.length) {
    throw new ObjectCorruptError(
      place.file,
      place.offset + consumed,
      `${input.length - consumed} bytes of garbage after the zlib stream`,
    );
  }
  return out;
}

/** What one inflation gave: the output, and the input consumed up to the stream's end. */
interface Inflated {
  readonly out: Buffer;
  readonly consumed: number;
}

/** Inflates with `zlib.inflateSync`: a new engine (and zlib stream) per call. */
function inflateOnce(input: Uint8Array, expectedSize: number, place: Place): Inflated {
  try {
    // With `info`, Node returns the engine too; its bytesWritten is the input consumed up to the
    // stream's end (the type declarations do not model this overload).
    // One output chunk of the expected size (plus one byte to notice excess) spares Node from
    // inflating into 16 KiB pieces and concatenating them: a copy and an allocation per piece.
    const result = inflateSync(input, {
      info: true,
      chunkSize: Math.max(64, expectedSize + 1),
      maxOutputLength: expectedSize + 1,
    }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { out: result.buffer, consumed: result.engine.bytesWritten };
  } catch (err) {
    throw new ObjectCorruptError(place.file, place.offset, describeInflateError(err, expectedSize), err);
  }
}

/** The parts of Node's native zlib binding that {@link ReusedEngine} drives. */
interface NativeZlib {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  reset(): void;
  onerror: (message: string, errno: number) => void;
}

/**
 * One zlib inflate stream reset and reused for every object. `inflateSync` builds a stream object,
 * initialises zlib (allocating its 32 KiB window) and tears both down on every call: more than
 * inflating a typical delta of a few hundred bytes, and a large share of a request for many small
 * blobs. Node offers no public way to reuse a synchronous engine, so this drives
 * the native handle behind `zlib.Inflate` directly, as minizlib (npm's own zlib layer) does; it
 * checks that the handle has the expected shape and otherwise {@link reusedEngine} gives
 * `undefined` and callers fall back to `inflateSync`.
 */
class ReusedEngine {
  private failure: { message: string; errno: number } | undefined;

  private constructor(
    private readonly handle: NativeZlib,
    /** The binding's results after each write: [output space left, input left]. */
    private readonly state: Uint32Array,
  ) {
    // Errors arrive through this callback during writeSync; the stream object that would
    // normally receive them (and destroy itself) is bypassed.
    handle.onerror = (message, errno) => {
      this.failure = { message, errno };
    };
  }

  static create(): ReusedEngine | undefined {
    const engine = new Inflate() as unknown as { _handle?: Partial<NativeZlib>; _writeState?: unknown };
    const handle = engine._handle;
    const state = engine._writeState;
    if (
      typeof handle?.writeSync !== 'function' ||
      typeof handle.reset !== 'function' ||
      !(state instanceof Uint32Array) ||
      state.length < 2
    ) {
      return undefined;
    }
    return new ReusedEngine(handle as NativeZlib, state);
  }

  readonly inflate = (input: Uint8Array, expectedSize: number, place: Place, scratch?: Buffer): Inflated => {
    // One byte of room past the expected size: running into it means the data is longer. Memory
    // of its own, not a slice of Node's shared pool: a small delta kept by a cached plan would
    // otherwise keep a whole 8 KiB pool slab alive unseen by the cache's accounting.
    const out =
      scratch !== undefined && scratch.length > expectedSize
        ? scratch.subarray(0, expectedSize + 1)
        : Buffer.allocUnsafeSlow(expectedSize + 1);
    this.failure = undefined;
    this.handle.reset();
    this.handle.writeSync(zlibConstants.Z_FINISH, input, 0, input.length, out, 0, out.length);
    if (this.failure !== undefined) {
      const { message, errno } = this.failure;
      const code = errno === zlibConstants.Z_BUF_ERROR ? 'Z_BUF_ERROR' : undefined;
      throw new ObjectCorruptError(
        place.file,
        place.offset,
        describeInflateError(Object.assign(new Error(message), { code }), expectedSize),
      );
    }
    const produced = out.length - this.state[0]!;
    return { out: out.subarray(0, produced), consumed: input.length - this.state[1]! };
  };
}

let engine: ReusedEngine | null | undefined;

/** The process's reused engine, made on first use; undefined where Node's binding differs. */
function reusedEngine(): ReusedEngine | undefined {
  if (engine === undefined) engine = ReusedEngine.create() ?? null;
  return engine ?? undefined;
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
