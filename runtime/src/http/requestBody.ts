/**
 * A POST body on its way to upload-pack: gzip undone when the client compressed it (git does for
 * requests over 1 KiB), its size bounded after decompression (so a small gzip bomb cannot grow past
 * the limit), and its arrival bounded in time (so a client that stops sending cannot hold a child
 * process forever).
 */
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { HttpRequestError } from './errors';

/** How much a request may send, and for how long. */
export interface BodyLimits {
  /** The most bytes accepted, counted after gzip is undone. */
  maxBytes: number;
  /** How long the whole body may take to arrive, in milliseconds. */
  timeoutMs: number;
}

/** Counts the bytes passing and fails the stream once they exceed the limit. */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(
    private readonly maxBytes: number,
    /** Whether the bytes counted come out of gunzip, for the message. */
    private readonly decompressed: boolean,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      done(
        new HttpRequestError(
          'ERR_HTTP_PAYLOAD_TOO_LARGE',
          `request body larger than ${this.maxBytes} bytes${this.decompressed ? ' once decompressed' : ''}`,
        ),
      );
      return;
    }
    done(null, chunk);
  }
}

/**
 * Checks the request's headers and returns its body as a stream of the bytes upload-pack should
 * read. The stream fails with an {@link HttpRequestError} (413 too large, 408 too slow, 400 bad
 * gzip) and never destroys `req`, so the caller can still answer on the same connection.
 *
 * @throws {@link HttpRequestError} at once for a `Content-Encoding` other than gzip (415) or a
 *   `Content-Length` over the limit (413).
 */
export function requestBody(req: IncomingMessage, limits: BodyLimits): Transform {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const gzip = encoding === 'gzip' || encoding === 'x-gzip';
  if (!gzip && encoding !== 'identity') {
    throw new HttpRequestError(
      'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
      `Content-Encoding '${encoding}' is not supported (gzip or none)`,
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    throw new HttpRequestError(
      'ERR_HTTP_PAYLOAD_TOO_LARGE',
      `request body larger than ${limits.maxBytes} bytes (Content-Length: ${declared})`,
    );
  }
  const limit = new ByteLimit(limits.maxBytes, gzip);
  const timer = setTimeout(() => {
    limit.destroy(
      new HttpRequestError(
        'ERR_HTTP_REQUEST_TIMEOUT',
        `request body not received within ${limits.timeoutMs / 1000} s`,
      ),
    );
  }, limits.timeoutMs);
  req.once('end', () => clearTimeout(timer));
  limit.once('close', () => clearTimeout(timer));
  // A hang-up before the end: upload-pack must not take a cut-off request for a whole one.
  req.once('close', () => {
    if (!req.complete)
      limit.destroy(new Error('the client closed the connection before the end of its request'));
  });
  req.once('error', (err) => limit.destroy(err));
  if (gzip) {
    const gunzip = createGunzip();
    gunzip.once('error', (err) =>
      limit.destroy(new HttpRequestError('ERR_HTTP_BAD_REQUEST', `gzip request body: ${err.message}`)),
    );
    // Stop reading once the limit has failed: pipe() leaves `req` itself alone.
    limit.once('close', () => {
      req.unpipe(gunzip);
      gunzip.destroy();
    });
    req.pipe(gunzip).pipe(limit);
  } else {
    limit.once('close', () => req.unpipe(limit));
    req.pipe(limit);
  }
  return limit;
}
