/**
 * What every smart HTTP answer starts with, however upload-pack runs (a child process or inside the
 * server): git http-backend's content types and no-cache headers, and, for a v0 advertisement, the
 * `# service=git-upload-pack` preamble. Whether the advertisement is v0 or v2 is read from its first
 * pkt-line, so the head waits for that line.
 */
import type { ServerResponse } from 'node:http';

/** The headers git http-backend sends with every answer, so no cache between keeps refs or packs. */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = {
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  Pragma: 'no-cache',
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
};

/** The `Content-Type` of `info/refs?service=git-upload-pack` answers. */
export const ADVERTISEMENT_TYPE = 'application/x-git-upload-pack-advertisement';
/** The `Content-Type` a `POST <repo>/git-upload-pack` must carry. */
export const REQUEST_TYPE = 'application/x-git-upload-pack-request';
/** The `Content-Type` of `git-upload-pack` answers. */
export const RESULT_TYPE = 'application/x-git-upload-pack-result';

/** `# service=git-upload-pack` and a flush: what a v0 advertisement over HTTP starts with. */
const SERVICE_PREAMBLE = Buffer.from('001e# service=git-upload-pack\n0000', 'latin1');

/** Whether the first pkt-line of an advertisement is `version 2`: v2 has no service preamble. */
function isVersion2(head: Buffer): boolean {
  const first = head.toString('latin1', 0, Math.min(head.length, 14));
  return first === '000eversion 2\n' || first.startsWith('000dversion 2');
}

/** The length of the first pkt-line in `head`, or `undefined` while its header is incomplete. */
function firstPacketLength(head: Buffer): number | undefined {
  if (head.length < 4) return undefined;
  const length = parseInt(head.toString('latin1', 0, 4), 16);
  // A malformed or special packet decides nothing more: pass it on as it is.
  return Number.isNaN(length) || length < 4 ? 4 : length;
}

/**
 * The start of one answer: holds upload-pack's first bytes back until the head can be written
 * (at once for a POST; once the first pkt-line is whole for an advertisement), then writes the
 * status line, the headers, the preamble when v0 asks for it, and the bytes held.
 */
export class AnswerHead {
  private held: Buffer = Buffer.alloc(0);

  constructor(
    private readonly res: ServerResponse,
    /** Whether this answers `info/refs` (the advertisement) rather than a POST. */
    private readonly advertise: boolean,
  ) {}

  /** Whether the head has been written; bytes are then the caller's to write. */
  get written(): boolean {
    return this.res.headersSent;
  }

  /** Bytes held back so far. */
  get heldBytes(): number {
    return this.held.length;
  }

  /**
   * Takes upload-pack's next bytes while the head is not written. Returns whether it now is (the
   * bytes taken were written after it).
   */
  take(chunk: Buffer): boolean {
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const first = this.advertise ? firstPacketLength(this.held) : 0;
    if (first === undefined || this.held.length < first) return false;
    this.write();
    return true;
  }

  /** Writes the head and whatever is held, however little that is. */
  write(): void {
    this.res.writeHead(200, {
      ...NO_CACHE_HEADERS,
      'Content-Type': this.advertise ? ADVERTISEMENT_TYPE : RESULT_TYPE,
    });
    if (this.advertise && !isVersion2(this.held)) this.res.write(SERVICE_PREAMBLE);
    if (this.held.length > 0) this.res.write(this.held);
    this.held = Buffer.alloc(0);
  }
}
