import { readSync } from 'node:fs';
import { DEFAULT_IO_BUFFER_SIZE } from '../constants';
import { hasCode } from '../errno';
import { backoffDelay } from '../waitWritable';
import { CatBlobCommandError } from './errors';

/** Reads into `buf` from `offset`, at most `length` bytes; returns the count, 0 at end of input. */
export type ReadFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

/** Options of a {@link LineInput}. */
export interface LineInputOptions {
  /** The input buffer's size in bytes (default {@link DEFAULT_IO_BUFFER_SIZE}, 128 KiB); also the longest line. */
  bufferSize?: number;
  /** The read call (default `fs.readSync`); tests inject short reads and EAGAIN through it. */
  read?: ReadFn;
  /** Input already read from the descriptor by another reader, read before anything new. */
  initial?: Uint8Array;
  /** Lines already read before {@link LineInputOptions.initial}: numbering goes on from there. */
  linesBefore?: number;
  /** Whether the other reader saw the end of input: nothing more is read. */
  ended?: boolean;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const LF = 10;

/** `fs.readSync` at the current position. */
const readCurrent: ReadFn = (fd, buf, offset, length) => readSync(fd, buf, offset, length, null);

/**
 * Command lines read from a descriptor through one buffer, as Git reads a fast-import stream: each
 * read fills as much of the buffer as the kernel has, so a burst of requests costs one read, and
 * {@link LineInput.hasBufferedLine} tells whether another request is already here (the responder
 * may then keep gathering) or the next one must be waited for (it must flush first).
 *
 * A non-blocking descriptor's EAGAIN is waited out with sleeps that start at 20 µs and back off to
 * 1 ms (Node has no poll(2) for a raw descriptor); it never reaches the caller.
 */
export class LineInput {
  /** Read calls made so far (including the one that saw the end of input). */
  reads = 0;
  /** Lines returned so far. */
  lineNumber = 0;
  private readonly buf: Buffer;
  private readonly read: ReadFn;
  private start = 0;
  private end = 0;
  private eof = false;

  constructor(
    private readonly fd: number,
    options: LineInputOptions = {},
  ) {
    this.buf = Buffer.allocUnsafe(options.bufferSize ?? DEFAULT_IO_BUFFER_SIZE);
    this.read = options.read ?? readCurrent;
    const initial = options.initial ?? new Uint8Array(0);
    if (initial.length > this.buf.length) throw new RangeError('initial input is longer than the buffer');
    this.buf.set(initial);
    this.end = initial.length;
    this.lineNumber = options.linesBefore ?? 0;
    this.eof = options.ended ?? false;
  }

  /**
   * Whether at least `count` whole lines are buffered: the input arrives in bulk rather than a
   * request at a time.
   */
  hasBufferedLines(count: number): boolean {
    let at = this.start;
    for (let seen = 0; seen < count; seen++) {
      const lf = this.buf.indexOf(LF, at);
      if (lf === -1 || lf >= this.end) return false;
      at = lf + 1;
    }
    return true;
  }

  /** Whether the end of input has been seen. */
  get ended(): boolean {
    return this.eof;
  }

  /** Hands over the input read but not yet returned as lines (a copy); this reader is empty after. */
  takeBuffered(): Buffer {
    const rest = Buffer.from(this.buf.subarray(this.start, this.end));
    this.start = this.end;
    return rest;
  }

  /** Whether a whole line is already buffered, so {@link LineInput.readLine} will not block. */
  hasBufferedLine(): boolean {
    const lf = this.buf.indexOf(LF, this.start);
    return lf !== -1 && lf < this.end;
  }

  /**
   * Reads (blocking) until a whole line is buffered or the input has ended, and returns nothing:
   * a caller can then look at what one read brought ({@link LineInput.hasBufferedLines}) before
   * taking any line.
   *
   * @throws {@link CatBlobCommandError} for a line longer than the buffer.
   */
  bufferLine(): void {
    while (!this.eof && !this.hasBufferedLine()) this.fill();
  }

  /**
   * The next line without its LF, reading (and blocking) as needed; a last line without LF counts.
   * Returns undefined at the end of input.
   *
   * @throws {@link CatBlobCommandError} for a line longer than the buffer.
   */
  readLine(): string | undefined {
    for (;;) {
      const lf = this.buf.subarray(this.start, this.end).indexOf(LF);
      if (lf !== -1) {
        const line = this.buf.toString('utf8', this.start, this.start + lf);
        this.start += lf + 1;
        this.lineNumber++;
        return line;
      }
      if (this.eof) {
        if (this.start === this.end) return undefined;
        const line = this.buf.toString('utf8', this.start, this.end);
        this.start = this.end;
        this.lineNumber++;
        return line;
      }
      this.fill();
    }
  }

  /** Moves the partial line to the front and reads once into the free space. */
  private fill(): void {
    if (this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    if (this.end === this.buf.length) {
      const head = this.buf.toString('utf8', 0, 80);
      throw new CatBlobCommandError(
        `command line longer than ${this.buf.length} bytes: ${head}...`,
        head,
        this.lineNumber + 1,
      );
    }
    const n = this.readRetrying();
    if (n === 0) this.eof = true;
    this.end += n;
  }

  private readRetrying(): number {
    for (let attempt = 0; ; attempt++) {
      try {
        this.reads++;
        return this.read(this.fd, this.buf, this.end, this.buf.length - this.end);
      } catch (err) {
        if (hasCode(err, 'EINTR')) continue;
        if (!hasCode(err, 'EAGAIN')) throw err;
        Atomics.wait(sleeper, 0, 0, backoffDelay(attempt));
      }
    }
  }
}
