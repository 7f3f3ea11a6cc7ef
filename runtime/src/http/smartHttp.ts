/**
 * Git's smart HTTP protocol for Node's `http` module, read-only: `GET <repo>/info/refs?service=
 * git-upload-pack` and `POST <repo>/git-upload-pack`, for the repositories of one folder. Each is
 * answered by writev-upload-pack's stateless serving code inside this process (`inProcess.ts`), or
 * by an upload-pack child run with `--stateless-rpc` as `git http-backend` runs it (`spawned.ts`):
 * a command given as `uploadPack` (git's own, say), or writev-upload-pack with `spawn: true`.
 *
 * Everything else gets a 4xx answer with a one-line message (see `errors.ts`), before anything is
 * served. A serve that fails before answering becomes a 500; one stopped while answering (the client
 * left, it fell silent, it was killed) cuts the response off, so the client never takes a partial
 * answer for a whole one.
 */
import { realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UsageError } from '../usageError';
import { parseOptions } from '../uploadPack/options';
import { ADVERTISEMENT_TYPE, NO_CACHE_HEADERS, REQUEST_TYPE } from './answer';
import { HttpRequestError, quoted } from './errors';
import { serveInProcess } from './inProcess';
import { parseRequestTarget, resolveRepository, type RequestTarget } from './repositoryPath';
import { requestBody } from './requestBody';
import type { RequestRun } from './serveState';
import { serveSpawned } from './spawned';
import { writevUploadPack, type UploadPackCommand } from './uploadPackCommand';

export { ADVERTISEMENT_TYPE, NO_CACHE_HEADERS, REQUEST_TYPE, RESULT_TYPE } from './answer';

/** What the handler serves and its bounds. */
export interface SmartHttpOptions {
  /** The folder of repositories served; requests name repositories relative to it. */
  root: string;
  /**
   * An upload-pack to run as a child per request (git's own: `GIT_UPLOAD_PACK`). Without it,
   * writev-upload-pack serves, inside this process unless `spawn` is set.
   */
  uploadPack?: UploadPackCommand;
  /**
   * Runs writev-upload-pack as a child per request (its bundled bin) instead of inside this
   * process: a Node start per request, in exchange for a process of its own (see `inProcess.ts`).
   */
  spawn?: boolean;
  /** The largest request body accepted, in bytes after gzip is undone (default 10 MiB, git's `http.maxRequestBuffer`). */
  maxRequestBytes?: number;
  /** How long a request body may take to arrive, in milliseconds (default 60 s). */
  requestTimeoutMs?: number;
  /** How long upload-pack may send nothing before it is stopped, in milliseconds (default 10 min). */
  idleTimeoutMs?: number;
  /**
   * The environment upload-pack reads and its git children start from (default `process.env`);
   * `GIT_PROTOCOL` comes from the request.
   */
  env?: NodeJS.ProcessEnv;
  /** Where refusals and failures are reported for whoever runs the server (default: nowhere). */
  log?: (line: string) => void;
}

/** A request handler for `http.createServer`, with a way to stop what it serves. */
export interface SmartHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** How many requests are being served now (each with an upload-pack child, when spawned). */
  readonly running: number;
  /**
   * Stops every request being served and cuts off its response: a spawned upload-pack gets SIGTERM
   * (its process group), a serve in this process is aborted and its pack-objects stopped.
   */
  terminate(): void;
}

const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 600_000;

/**
 * The `Git-Protocol` header as `GIT_PROTOCOL` may carry it: colon-separated `key[=value]` items
 * of plain characters, bounded, so nothing odd reaches a child's environment.
 */
function gitProtocol(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(':') : header;
  if (!/^[A-Za-z0-9=:._-]{1,1024}$/.test(value.trim())) {
    throw new HttpRequestError('ERR_HTTP_BAD_REQUEST', `bad Git-Protocol header ${quoted(value)}`);
  }
  return value.trim();
}

/** Checks the method and service of a request; returns whether it asks for the advertisement. */
function checkService(target: RequestTarget, method: string): boolean {
  const readOnly = (service: string): HttpRequestError =>
    new HttpRequestError(
      'ERR_HTTP_SERVICE_NOT_ENABLED',
      `service not enabled: '${service}': this server is read-only`,
    );
  if (target.action === 'git-receive-pack') throw readOnly('git-receive-pack');
  if (target.action === 'git-upload-pack') {
    if (method !== 'POST') {
      throw new HttpRequestError(
        'ERR_HTTP_METHOD_NOT_ALLOWED',
        `${quoted(method)} not allowed: git-upload-pack takes POST`,
        {
          Allow: 'POST',
        },
      );
    }
    return false;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    throw new HttpRequestError(
      'ERR_HTTP_METHOD_NOT_ALLOWED',
      `${quoted(method)} not allowed: info/refs takes GET`,
      {
        Allow: 'GET, HEAD',
      },
    );
  }
  const service = target.query.get('service');
  if (service === 'git-upload-pack') return true;
  if (service === 'git-receive-pack') throw readOnly(service);
  if (service === null) {
    throw new HttpRequestError(
      'ERR_HTTP_UNSUPPORTED_SERVICE',
      'only smart HTTP is served: info/refs needs ?service=git-upload-pack',
    );
  }
  throw new HttpRequestError('ERR_HTTP_UNSUPPORTED_SERVICE', `unsupported service: ${quoted(service)}`);
}

function checkRequestType(req: IncomingMessage): void {
  const type = req.headers['content-type'] ?? '';
  if (type.split(';')[0]!.trim().toLowerCase() !== REQUEST_TYPE) {
    throw new HttpRequestError(
      'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
      `expected POST with Content-Type '${REQUEST_TYPE}', but received ${quoted(type)} instead`,
    );
  }
}

/**
 * Makes the request handler. The folder is resolved once, here: a symlink to it is fine, and what
 * the requests may reach is decided against its real path.
 *
 * @throws Error when `root` is not a folder, when `env` holds a bad `WRITEV_UPLOAD_PACK_*` setting,
 *   or when `spawn` asks for this package's writev-upload-pack bin and it has not been built.
 */
export function createSmartHttpHandler(options: SmartHttpOptions): SmartHttpHandler {
  let root: string;
  try {
    root = realpathSync(options.root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT' ? 'no such folder' : code === 'EACCES' ? 'permission denied' : String(err);
    throw new Error(`cannot serve ${options.root}: ${problem}`, { cause: err });
  }
  if (!statSync(root).isDirectory()) throw new Error(`cannot serve ${options.root}: not a folder`);
  const command = options.uploadPack ?? (options.spawn ? writevUploadPack() : undefined);
  const env = options.env ?? process.env;
  if (command === undefined) {
    // The settings upload-pack reads from the environment are checked once, here, rather than
    // failing every request.
    try {
      parseOptions([root], env);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      throw new Error(`cannot serve ${options.root}: ${err.message}`, { cause: err });
    }
  }
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const running = new Map<object, (err: Error) => void>();

  /** Answers with `err`'s status and message, or cuts the response off when it has begun. */
  function refuse(req: IncomingMessage, res: ServerResponse, err: unknown, bodyUnread: boolean): void {
    const known = err instanceof HttpRequestError;
    const message = err instanceof Error ? err.message : String(err);
    const request = `${req.method ?? '?'} ${quoted(req.url ?? '')}`;
    if (res.headersSent || res.destroyed) {
      log(`${request}: response cut off: ${message}`);
      res.destroy();
      return;
    }
    log(`${request}: ${known ? err.status : 500} ${message}`);
    const answer = known ? err : new HttpRequestError('ERR_HTTP_UPLOAD_PACK_FAILED', 'internal error');
    const text = Buffer.from(`${answer.message}\n`, 'utf8');
    res.writeHead(answer.status, {
      ...NO_CACHE_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(text.length),
      ...answer.headers,
      // The rest of a refused body is not read: the connection cannot carry another request.
      ...(bodyUnread ? { Connection: 'close' } : {}),
    });
    res.end(text);
  }
  const run: RequestRun = {
    env,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    log,
    running,
    refuse,
  };

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const target = parseRequestTarget(req.url ?? '');
    const advertise = checkService(target, method);
    const gitDir = resolveRepository(root, target);
    const protocol = gitProtocol(req.headers['git-protocol']);
    if (!advertise) checkRequestType(req);
    if (method === 'HEAD') {
      res.writeHead(200, { ...NO_CACHE_HEADERS, 'Content-Type': ADVERTISEMENT_TYPE });
      res.end();
      return;
    }
    const body = advertise ? undefined : requestBody(req, { maxBytes, timeoutMs: requestTimeoutMs });
    if (command) serveSpawned(run, command, req, res, gitDir, protocol, body);
    else serveInProcess(run, req, res, gitDir, protocol, body);
  }

  const handler = ((req: IncomingMessage, res: ServerResponse): void => {
    try {
      serve(req, res);
    } catch (err) {
      try {
        refuse(req, res, err, req.method === 'POST' && !req.complete);
      } catch (failure) {
        // Whatever went wrong, this request alone pays for it: the server goes on.
        log(`${req.method ?? '?'} ${quoted(req.url ?? '')}: cannot answer: ${String(failure)}`);
        res.destroy();
      }
    }
  }) as SmartHttpHandler;
  Object.defineProperty(handler, 'running', { get: () => running.size });
  handler.terminate = () => {
    for (const fail of [...running.values()]) fail(new Error('the server is shutting down'));
  };
  return handler;
}
