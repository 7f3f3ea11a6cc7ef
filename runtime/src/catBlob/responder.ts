import { GatheredWrites } from '../gatheredWrites';
import { writeOrDie, writevOrDie } from '../orDie';
import type { WriteOptions } from '../options';
import type { GitObject } from '../odb/objectType';
import type { Destination, Repository } from '../odb/repository';
import { NotABlobError } from './errors';

const LF = Buffer.from('\n');
/** The room for the headers of answers not yet written: one chunk serves many batches. */
const HOLD_CHUNK = 64 * 1024;

/**
 * How answers reach the descriptor:
 * - `'writes'`: three writes per answer (header, payload, LF), as Git's fast-import did before its
 *   writev change; kept to measure what the change gained.
 * - `'writev'`: one `writevInFull` per answer, as Git does now.
 * - `'batched'`: answers gathered several to one `writevInFull` while more requests are already
 *   waiting, flushed as soon as the input pauses.
 */
export type ResponseMode = 'writes' | 'writev' | 'batched';

/**
 * In `'batched'` mode, the bytes of waiting answers worth a write of their own (default): once this
 * many are held they go out at once. Gathering is for small answers, whose system calls cost more
 * than their bytes; holding a large answer back while the next one is read only delays it, and
 * into a pipe that stalls the reader: with answers of about 42 KB into a drained pipe, gathering up
 * to 64 KiB or more was slower than one writev per answer, and 16 KiB was as fast (the timings are
 * in the CHANGELOG).
 */
export const DEFAULT_BATCH_BYTES = 16 * 1024;

/** Options of a {@link CatBlobResponder}. */
export interface ResponderOptions extends WriteOptions {
  /** How answers are written (default `'batched'`). */
  mode?: ResponseMode;
  /**
   * In `'batched'` mode, the bytes of waiting answers that are written at once (default
   * {@link DEFAULT_BATCH_BYTES}).
   */
  batchBytes?: number;
}

/**
 * Writes `cat-blob` answers for one repository to one descriptor. In `'batched'` mode, answers are
 * held until {@link CatBlobResponder.flush}, until `batchBytes` bytes of them are waiting, or until
 * the next one would take a gathered write past `iovMax` buffers or `maxIoSize` bytes. The bytes on
 * the descriptor are the same in every mode; only the number of calls differs.
 *
 * The caller decides when the input has paused and must call `flush` then: a frontend waits for
 * each answer before it sends the next request, so nothing may be held back while it waits.
 */
export class CatBlobResponder {
  /** The write mode in use. */
  readonly mode: ResponseMode;
  /** Answers given so far. */
  answers = 0;
  /** Bytes of answers handed to the descriptor so far (flushed or not). */
  bytes = 0;
  /** The batched mode's queue (its limits are checked in every mode). */
  private readonly queue: GatheredWrites;
  private readonly batchBytes: number;
  /** Where headers are written; reused from its start once they are out. */
  private chunk = Buffer.allocUnsafeSlow(HOLD_CHUNK);
  /** Bytes of {@link CatBlobResponder.chunk} in use. */
  private held = 0;

  constructor(
    private readonly fd: number,
    private readonly repo: Repository,
    private readonly options: ResponderOptions = {},
  ) {
    this.mode = options.mode ?? 'batched';
    this.queue = new GatheredWrites(fd, options);
    this.batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
  }

  /**
   * Answers `cat-blob <oid>` (a full hexadecimal id, either case). In `'batched'` mode the answer
   * may still be pending when this returns.
   *
   * @throws {@link NotABlobError} for a non-blob (answers before it are not flushed by this call);
   * the reader's errors; `WriteError`/`BrokenPipeError` when a write fails.
   */
  answer(oid: string): void {
    const { text, object } = lookUpAnswer(this.repo, oid);
    const payload = object === undefined || object.size === 0 ? undefined : object.data;
    const size = text.length + (object === undefined ? 0 : object.size + 1);
    this.answers++;
    this.bytes += size;
    switch (this.mode) {
      case 'writes': {
        const header = this.copy(text);
        writeOrDie(this.fd, header, this.options);
        if (payload !== undefined) writeOrDie(this.fd, payload, this.options);
        if (object !== undefined) writeOrDie(this.fd, LF, this.options);
        this.written();
        return;
      }
      case 'writev':
        writevOrDie(this.fd, answerBuffers(this.copy(text), object, payload), this.options);
        this.written();
        return;
      case 'batched': {
        const count = object === undefined ? 1 : payload === undefined ? 2 : 3;
        if (this.queue.pendingBuffers > 0) {
          this.queue.makeRoom(count, size);
          if (this.queue.pendingBuffers === 0) this.written();
        }
        this.queue.push(this.copy(text));
        if (payload !== undefined) this.queue.push(payload);
        if (object !== undefined) this.queue.push(LF);
        if (this.queue.pendingBytes >= this.batchBytes) this.flush();
        return;
      }
    }
  }

  /** Whether answers are waiting for {@link CatBlobResponder.flush}. */
  get hasPending(): boolean {
    return this.queue.pendingBuffers > 0;
  }

  /** Writes every pending answer with one `writevInFull`. */
  flush(): void {
    if (this.queue.flush()) this.written();
  }

  /** Everything handed over is written: the header room and the reader's bytes may be reused. */
  private written(): void {
    this.held = 0;
    this.repo.releaseShared();
  }

  /** `text` (an answer's header, ASCII) copied into the hold chunk. */
  private copy(text: string): Buffer {
    const length = text.length;
    this.reserve(length);
    this.chunk.write(text, this.held, length, 'latin1');
    const view = this.chunk.subarray(this.held, this.held + length);
    this.held += length;
    return view;
  }

  /**
   * Makes room for `length` more bytes: a fresh chunk when the current one is full (the full one
   * lives on in the views of it that are pending).
   */
  private reserve(length: number): void {
    if (this.held + length <= this.chunk.length) return;
    this.chunk = Buffer.allocUnsafeSlow(Math.max(HOLD_CHUNK, length));
    this.held = 0;
  }
}

/**
 * The object that answers `cat-blob <oid>` and its header line (`<oid> blob <size>\n`, or
 * `<oid> missing\n` when the object is undefined). The object's bytes are the reader's own
 * ({@link Repository.readObjectShared}): valid until `releaseShared`. With `destination`, they may
 * be made in the memory it gives (see {@link Repository.readObjectShared}).
 *
 * @throws {@link NotABlobError} for a tree, commit or tag; the reader's errors.
 */
export function lookUpAnswer(
  repo: Repository,
  oid: string,
  destination?: Destination,
): { text: string; object: GitObject | undefined } {
  const hex = oid.toLowerCase();
  const object = repo.readObjectShared(hex, destination);
  if (object !== undefined && object.type !== 'blob') throw new NotABlobError(hex, object.type);
  return { text: object === undefined ? `${hex} missing\n` : `${hex} blob ${object.size}\n`, object };
}

/** The buffers of one answer, as git fast-import writes them; an empty payload is left out. */
function answerBuffers(header: Buffer, object: GitObject | undefined, payload: Buffer | undefined): Buffer[] {
  if (object === undefined) return [header];
  return payload === undefined ? [header, LF] : [header, payload, LF];
}
