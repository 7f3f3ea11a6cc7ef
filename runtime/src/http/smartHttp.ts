/**
 * Git's smart HTTP protocol for Node's `http` module, read-only: `GET <repo>/info/refs?service=
 * git-upload-pack` and `POST <repo>/git-upload-pack`, each answered by an upload-pack child run
 * with `--stateless-rpc` as `git http-backend` runs it, for the repositories of one folder.
 *
 * Everything else gets a 4xx answer with a one-line message (see `errors.ts`), before any process
 * starts. A child that fails before answering becomes a 500; one killed while answering (or stopped
 * because the client left or it fell silent) cuts the response off, so the client never takes a
 * partial answer for a whole one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { HttpRequestError, quoted } from './errors';
import { parseRequestTarget, resolveRepository, type RequestTarget } from './repositoryPath';
import { requestBody } from './requestBody';
import { writevUploadPack, type UploadPackCommand } from './uploadPackCommand';

/** What the handler serves and its bounds. */
export interface SmartHttpOptions {
  /** The folder of repositories served; requests name repositories relative to it. */
  root: string;
  /** The upload-pack to run (default: this package's `writev-upload-pack`). */
  uploadPack?: UploadPackCommand;
  /** The largest request body accepted, in bytes after gzip is undone (default 10 MiB, git's `http.maxRequestBuffer`). */
  maxRequestBytes?: number;
  /** How long a request body may take to arrive, in milliseconds (default 60 s). */
  requestTimeoutMs?: number;
  /** How long upload-pack may send nothing before it is stopped, in milliseconds (default 10 min). */
  idleTimeoutMs?: number;
  /** The environment of the children (default `process.env`); `GIT_PROTOCOL` comes from the request. */
  env?: NodeJS.ProcessEnv;
  /** Where refusals and failures are reported for whoever runs the server (default: nowhere). */
  log?: (line: string) => void;
}

/** A request handler for `http.createServer`, with a way to stop the children it runs. */
export interface SmartHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** How many upload-pack children are running now. */
  readonly running: number;
  /** Stops every running child (SIGTERM to its process group) and cuts off its response. */
  terminate(): void;
}

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

const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 600_000;
/** How long a stopped child has after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;

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
 * Makes the request handler. The folder is resolved once, here: a symlink to it is fine, and what
 * the requests may reach is decided against its real path.
 *
 * @throws Error when `root` is not a folder, or when no `uploadPack` is given and this package's
 *   writev-upload-pack has not been built.
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
  const command = options.uploadPack ?? writevUploadPack();
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const running = new Map<ChildProcess, (err: Error) => void>();

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
    run(req, res, gitDir, protocol, body);
  }

  /** Runs upload-pack for one request and streams its answer. */
  function run(
    req: IncomingMessage,
    res: ServerResponse,
    gitDir: string,
    protocol: string | undefined,
    body: Readable | undefined,
  ): void {
    const env = { ...(options.env ?? process.env) };
    delete env.GIT_PROTOCOL;
    if (protocol !== undefined) env.GIT_PROTOCOL = protocol;
    const args = [...command.args, '--stateless-rpc', ...(body ? [] : ['--advertise-refs']), gitDir];
    // A process group of its own, so stopping it stops what it started (git's pack-objects) too.
    const child = spawn(command.file, args, {
      stdio: [body ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env,
      detached: true,
    });
    let done = false;
    let exited = false;
    let stderr = '';
    let head: Buffer = Buffer.alloc(0);
    let idle: NodeJS.Timeout | undefined;

    const stop = (): void => {
      if (exited || child.pid === undefined) return;
      const pid = child.pid;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
      setTimeout(() => {
        if (!exited) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }, KILL_GRACE_MS).unref();
    };
    const finish = (): void => {
      done = true;
      clearTimeout(idle);
      running.delete(child);
    };
    const fail = (err: Error): void => {
      if (done) return;
      finish();
      stop();
      refuse(req, res, err, body !== undefined && !req.complete);
    };
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          fail(
            new HttpRequestError(
              'ERR_HTTP_UPLOAD_PACK_FAILED',
              `upload-pack sent nothing for ${idleTimeoutMs / 1000} s`,
            ),
          ),
        idleTimeoutMs,
      );
    };
    running.set(child, fail);
    touch();

    const start = (): void => {
      child.stdout!.off('data', collect);
      res.writeHead(200, { ...NO_CACHE_HEADERS, 'Content-Type': body ? RESULT_TYPE : ADVERTISEMENT_TYPE });
      if (!body && !isVersion2(head)) res.write(SERVICE_PREAMBLE);
      res.write(head);
      child.stdout!.pipe(res, { end: false });
    };
    /** Holds the answer back until its first pkt-line shows which protocol version it speaks. */
    const collect = (chunk: Buffer): void => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const first = body ? 0 : firstPacketLength(head);
      if (first !== undefined && head.length >= first) start();
    };

    child.stdout!.on('data', collect);
    child.stdout!.on('data', touch);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.on('error', (err) =>
      fail(
        new HttpRequestError(
          'ERR_HTTP_UPLOAD_PACK_FAILED',
          `cannot run ${quoted(command.file)}: ${err.message}`,
        ),
      ),
    );
    child.on('exit', () => {
      exited = true;
    });
    child.on('close', (code, signal) => {
      exited = true;
      if (stderr.trim() !== '') log(`upload-pack ${gitDir}: ${stderr.trim()}`);
      if (done) return;
      if (!res.headersSent && head.length > 0 && code === 0) start();
      if (!res.headersSent) {
        fail(
          new HttpRequestError(
            'ERR_HTTP_UPLOAD_PACK_FAILED',
            `upload-pack ${signal ? `was killed by ${signal}` : `exited with status ${code}`} before answering`,
          ),
        );
        return;
      }
      finish();
      if (signal === null) {
        // Its whole answer, an ERR line included: the client reads the error from the protocol, as
        // it does from git http-backend, whose web server ends the response however the CGI exits.
        if (code !== 0) log(`upload-pack ${gitDir}: exited with status ${code} after answering`);
        res.end();
      } else {
        // Cut off mid-answer: the response must not end as if it were whole.
        log(`upload-pack ${gitDir}: killed by ${signal} while answering`);
        res.destroy();
      }
    });
    // The client hung up: nobody is left to read the answer.
    res.on('close', () => {
      if (!res.writableFinished) fail(new Error('the client closed the connection'));
    });
    res.on('error', () => undefined);
    if (body) {
      body.on('data', touch);
      body.on('error', fail);
      child.stdin!.on('error', () => undefined); // upload-pack may exit before reading everything
      body.pipe(child.stdin!);
    }
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
