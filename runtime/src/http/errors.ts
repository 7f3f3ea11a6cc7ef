/**
 * The answers the smart HTTP handler gives instead of running upload-pack. Each is an HTTP status
 * with a `code` a caller can test and a message a person can act on; the message is the body of the
 * answer, so it names the request's path as the client sent it, never where the folder lives.
 */

/** Every refusal, by code, with its HTTP status. */
export const HTTP_ERROR_STATUS = {
  /** A path that is malformed or tries to leave the served folder by its spelling (`..`, `//`, `%2f`). */
  ERR_HTTP_BAD_PATH: 400,
  /** A request the handler cannot read: a bad `Git-Protocol` header, a damaged gzip body. */
  ERR_HTTP_BAD_REQUEST: 400,
  /** A path whose repository, once symlinks are followed, lies outside the served folder. */
  ERR_HTTP_OUTSIDE_ROOT: 403,
  /** `git-receive-pack`: the server is read-only. */
  ERR_HTTP_SERVICE_NOT_ENABLED: 403,
  /** A service other than git-upload-pack, or no service at all (the dumb protocol). */
  ERR_HTTP_UNSUPPORTED_SERVICE: 403,
  /** Nothing at the path, or a path that is not a smart HTTP request. */
  ERR_HTTP_NOT_FOUND: 404,
  /** Something at the path that is not a git repository. */
  ERR_HTTP_NOT_A_REPOSITORY: 404,
  /** GET where POST is needed, or the other way round. */
  ERR_HTTP_METHOD_NOT_ALLOWED: 405,
  /** The request body did not arrive in time. */
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  /** The request body is larger than the limit (counted after gzip is undone). */
  ERR_HTTP_PAYLOAD_TOO_LARGE: 413,
  /** A POST with the wrong `Content-Type`, or a `Content-Encoding` other than gzip. */
  ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: 415,
  /** upload-pack could not be started, failed before answering, or fell silent. */
  ERR_HTTP_UPLOAD_PACK_FAILED: 500,
} as const;

/** The code of an {@link HttpRequestError}. */
export type HttpErrorCode = keyof typeof HTTP_ERROR_STATUS;

/**
 * A request the handler refuses or cannot complete. `status` is the HTTP status it answers with,
 * `headers` any header that status needs (`Allow` for 405).
 */
export class HttpRequestError extends Error {
  readonly code: HttpErrorCode;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Headers the answer carries besides the common ones. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: HttpErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpRequestError';
    this.code = code;
    this.status = HTTP_ERROR_STATUS[code];
    this.headers = headers;
  }
}

/**
 * Quotes a string from the request for a message: control characters and non-ASCII shown as
 * `\xNN` (or `\uNNNN`) escapes, and at most 200 characters, so an answer or a log line stays one
 * readable line.
 */
export function quoted(text: string): string {
  const shown = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  // eslint-disable-next-line no-control-regex
  const escaped = shown.replace(/[\x00-\x1f\x7f-\uffff]/g, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : `\\x${code.toString(16).padStart(2, '0')}`;
  });
  return `'${escaped}'`;
}
