// The LSP base protocol's framing (`Content-Length: N\r\n\r\n` then N bytes of JSON), checked before
// the JSON-RPC reader sees it. The reader of vscode-jsonrpc stops at the first bad header and then
// reads every later message as more bad headers, so one malformed frame leaves the server running
// and deaf. This filter passes well-formed frames through unchanged, and reports a bad one and
// finds the next frame: a header block (`Content-Length:` ... a blank line) can never occur inside a
// JSON body, whose strings cannot hold a raw CR or LF and whose tokens never spell a header name.
import { Transform, type TransformCallback } from 'node:stream';

/** Larger frames are refused: a document this big is never analysed, and buffering it is the risk. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/** Headers longer than this without their blank line are junk, not a header block. */
const MAX_HEADER_BYTES = 8 * 1024;

/** A header block: `Content-Length: digits` (any case, any other headers), then a blank line. */
const HEADER_START = /content-length[ \t]*:/i;
/** Inside a body: a header line that a valid JSON body can never hold, so a frame was cut short. */
const HEADER_INSIDE = /^content-length[ \t]*:[ \t]*\d+\r\n/i;
/** What a body is searched for first, natively: the header name's tail as clients spell it. */
const NEEDLES = [Buffer.from('ength'), Buffer.from('ENGTH')];

/**
 * Where a `Content-Length: N` header line starts in `body`, or -1. The name's tail is searched for
 * natively in the bytes, so a large body is never decoded or matched by a regular expression whole;
 * each hit (a JSON `length`) is checked in place.
 */
function headerInside(body: Buffer): number {
  let first = -1;
  for (const needle of NEEDLES) {
    for (let at = body.indexOf(needle, 9); at >= 0; at = body.indexOf(needle, at + 1)) {
      if (first >= 0 && at - 9 >= first) break;
      if (HEADER_INSIDE.test(body.toString('latin1', at - 9, at + 40))) {
        first = at - 9;
        break;
      }
    }
  }
  return first;
}
/** Characters kept from a scan for a header start split across two chunks. */
const OVERLAP = 64;

/** A frame the filter dropped, for the log. */
export interface FrameProblem {
  /** What was wrong, with the header value quoted when one is to blame (never the body). */
  readonly message: string;
  /** Bytes dropped. */
  readonly skipped: number;
}

/** `Name: value`, as HTTP spells a header line. */
const HEADER_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*:/;

/**
 * Where the header block ending `text` (the text before a blank line) begins: after the last line
 * that is not a header, or inside it where a Content-Length begins (a header glued to the end of a
 * bad frame's body).
 */
function headerStart(text: string): number {
  let start = text.length;
  while (start > 0) {
    const lineStart = text.lastIndexOf('\r\n', start - 3) + 1;
    const begin = lineStart === 0 ? 0 : lineStart + 1;
    const line = text.slice(begin, start === text.length ? start : start - 2);
    if (!HEADER_LINE.test(line)) {
      const glued = line.search(HEADER_START);
      return glued > 0 ? begin + glued : start;
    }
    start = begin;
  }
  return 0;
}

/** Shortens an untrusted header value for a message. */
function quoted(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(printable.length > 40 ? `${printable.slice(0, 40)}...` : printable);
}

/**
 * A byte stream of LSP frames in, the same frames out, minus the malformed ones: a header block
 * without a Content-Length, a Content-Length that is not a byte count or is over
 * {@link MAX_FRAME_BYTES}, bytes between frames, a body cut short by the next header. Each is passed
 * to `report`, and reading resumes at the next header block.
 */
export class FrameFilter extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** The body length being read; -1 while reading headers. */
  private length = -1;
  /** The body read so far, in the chunks it came in (joined once, when complete). */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** The last bytes of the body read so far, scanned again with the next chunk. */
  private tail: Buffer = Buffer.alloc(0);
  /** The header block of the frame being read, passed on with its body. */
  private header: Buffer = Buffer.alloc(0);
  /** Set from a reported bad frame until the next good one: what lies between is that frame's. */
  private skipping = false;

  constructor(private readonly report: (problem: FrameProblem) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      let data: Buffer | undefined = chunk;
      while (data !== undefined && (data.length > 0 || this.length === 0)) {
        if (this.length >= 0) {
          data = this.readBody(data);
          continue;
        }
        this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
        data = undefined;
        while (this.length < 0 && this.readHeader());
        if (this.length >= 0) {
          // The body's bytes go to readBody, which never copies a large body more than once.
          data = this.buffer;
          this.buffer = Buffer.alloc(0);
        }
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    const left = this.buffer.length + (this.length >= 0 ? this.header.length + this.partBytes : 0);
    if (left > 0 && this.buffer.toString('latin1').trim() !== '')
      this.report({ message: 'the input ended inside a frame', skipped: left });
    done();
  }

  /**
   * Drops `count` bytes, reporting `message` when given. Once a bad frame is reported, what follows
   * it up to the next good frame is the rest of that frame and is dropped without another report, so
   * one bad frame makes one log line.
   */
  private skip(count: number, message?: string): void {
    this.buffer = this.buffer.subarray(count);
    if (message !== undefined && !this.skipping) this.report({ message, skipped: count });
    this.skipping ||= message !== undefined;
  }

  /** Reads one header block; true when there is more to read before the next body or chunk. */
  private readHeader(): boolean {
    const scan = Math.min(this.buffer.length, MAX_HEADER_BYTES);
    const text = this.buffer.toString('latin1', 0, scan);
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.buffer.length < MAX_HEADER_BYTES) return false;
      // No blank line in all that: junk, but for a tail a header may be starting in.
      this.skip(scan - OVERLAP, 'bytes that are not a frame were skipped');
      return true;
    }
    const start = headerStart(text.slice(0, end));
    if (start > 0) {
      const blank = text.slice(0, start).trim() === '';
      this.skip(start, blank ? undefined : 'bytes that are not a frame were skipped');
      return true;
    }
    const block = text.slice(0, end);
    const lengths = block
      .split('\r\n')
      .map((line) => /^content-length[ \t]*:(.*)$/i.exec(line)?.[1]?.trim())
      .filter((v): v is string => v !== undefined);
    if (lengths.length === 0) {
      this.skip(end + 4, 'a header block without a Content-Length was skipped');
      return true;
    }
    const value = lengths[0] as string;
    const length = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (lengths.length !== 1 || !(length <= MAX_FRAME_BYTES)) {
      const why =
        lengths.length > 1
          ? 'a frame has more than one Content-Length header'
          : /^\d+$/.test(value)
            ? `a frame's Content-Length ${value} is over the limit of ${MAX_FRAME_BYTES} bytes`
            : `a frame's Content-Length ${quoted(value)} is not a byte count`;
      this.skipping = false; // a new bad frame: reported on its own
      this.skip(end + 4, `${why}; the frame was skipped and reading goes on at the next one`);
      return true;
    }
    this.header = this.buffer.subarray(0, end + 4);
    this.buffer = this.buffer.subarray(end + 4);
    this.length = length;
    return false;
  }

  /**
   * Takes the bytes of the current frame's body from `data`; returns what is left of `data` (the
   * next frame, or bytes from where a header inside the body showed the frame was cut short).
   */
  private readBody(data: Buffer): Buffer | undefined {
    const take = data.subarray(0, this.length - this.partBytes);
    const rest = data.subarray(take.length);
    // Only the new bytes (and the few before them) are scanned, so a large body costs one pass.
    // The last bytes before this chunk and its first ones, for a header split between the two.
    const seam = this.tail.length > 0 ? Buffer.concat([this.tail, take.subarray(0, OVERLAP)]) : undefined;
    const inSeam = seam ? headerInside(seam) : -1;
    const inTake = inSeam >= 0 ? -1 : headerInside(take);
    if (inSeam >= 0 || inTake >= 0) {
      const cut = inSeam >= 0 ? this.partBytes - this.tail.length + inSeam : this.partBytes + inTake;
      const from =
        inSeam >= 0
          ? Buffer.concat([(seam as Buffer).subarray(inSeam), take.subarray(OVERLAP)])
          : take.subarray(inTake);
      this.report({
        message: `a frame's body ended after ${cut} of the ${this.length} bytes its Content-Length declared (the next frame began there); the frame was skipped`,
        skipped: this.header.length + cut,
      });
      this.reset();
      return Buffer.concat([from, rest]);
    }
    this.parts.push(take);
    this.partBytes += take.length;
    const last = take.length >= OVERLAP ? take : Buffer.concat([this.tail, take]);
    this.tail = Buffer.from(last.subarray(Math.max(0, last.length - OVERLAP)));
    if (this.partBytes < this.length) return undefined;
    // Passed on as the chunks came: the reader after this joins them, so a large body is not copied.
    this.push(this.header);
    for (const part of this.parts) this.push(part);
    this.reset();
    this.skipping = false;
    return rest;
  }

  /** Back to reading headers. */
  private reset(): void {
    this.length = -1;
    this.header = Buffer.alloc(0);
    this.parts = [];
    this.partBytes = 0;
    this.tail = Buffer.alloc(0);
  }
}
