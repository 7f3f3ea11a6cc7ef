/**
 * `git http-backend` behind Node's `http` module: a minimal CGI gateway, so git's own smart HTTP
 * server can be compared with this package's handler behind the same Node server (the tests compare
 * status codes and headers, the load benchmark compares wall time and memory).
 *
 * Each request runs `git http-backend` with the CGI variables it reads (`GIT_PROJECT_ROOT`,
 * `GIT_HTTP_EXPORT_ALL`, `PATH_INFO`, `QUERY_STRING`, `REQUEST_METHOD`, `CONTENT_TYPE`, the
 * `Git-Protocol` header as `GIT_PROTOCOL` ...), passes the request body through as it came (the
 * backend undoes gzip itself), and streams its response, whose `Status:` header becomes the status.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { quoted } from './errors';

/** Where the backend serves from, and how it is run. */
export interface GitHttpBackendOptions {
  /** `GIT_PROJECT_ROOT`: the folder of repositories. Every repository in it is exported. */
  root: string;
  /** The git program (default `git` on `PATH`). */
  git?: string;
  /** The environment of the backend besides the CGI variables (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where the backend's stderr and gateway failures are reported (default: nowhere). */
  log?: (line: string) => void;
}

/** The most a CGI header section may hold before the gateway gives up on it. */
const MAX_HEADER_BYTES = 64 * 1024;

/** The end of the CGI header section, and the index where the body starts. */
function headerEnd(data: Buffer): { end: number; body: number } | undefined {
  const crlf = data.indexOf('\r\n\r\n');
  const lf = data.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { end: crlf, body: crlf + 4 };
  if (lf >= 0) return { end: lf, body: lf + 2 };
  return undefined;
}

/**
 * Makes a request handler that answers every request with `git http-backend`. A client that hangs
 * up stops the backend (its whole process group); a backend that fails before its headers gets a
 * 502 answer, one that dies mid-answer a response cut off.
 */
export function createGitHttpBackendHandler(
  options: GitHttpBackendOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const log = options.log ?? (() => undefined);
  return (req, res) => {
    try {
      gateway(req, res);
    } catch (err) {
      // One request's failure (spawn refusing an argument, say) must not stop the server.
      log(`${req.method ?? '?'} ${quoted(req.url ?? '')}: 502 ${String(err)}`);
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'Content-Type': 'text/plain', Connection: 'close' }).end('bad gateway\n');
    }
  };

  function gateway(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    let pathInfo: string;
    try {
      // A web server hands CGI the decoded path; git http-backend judges it from there.
      pathInfo = decodeURIComponent(queryAt < 0 ? target : target.slice(0, queryAt));
    } catch {
      pathInfo = '\0';
    }
    // A NUL cannot travel in an environment variable (spawn would throw): no CGI program can be asked.
    if (pathInfo.includes('\0')) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`bad path ${quoted(target)}\n`);
      return;
    }
    const env: NodeJS.ProcessEnv = {
      ...(options.env ?? process.env),
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: pathInfo,
      QUERY_STRING: queryAt < 0 ? '' : target.slice(queryAt + 1),
      REMOTE_ADDR: req.socket.remoteAddress ?? '',
    };
    delete env.GIT_PROTOCOL;
    delete env.CONTENT_LENGTH;
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    for (const [name, variable] of [
      ['content-type', 'CONTENT_TYPE'],
      ['content-length', 'CONTENT_LENGTH'],
      ['content-encoding', 'HTTP_CONTENT_ENCODING'],
      ['git-protocol', 'HTTP_GIT_PROTOCOL'],
      ['git-protocol', 'GIT_PROTOCOL'],
    ] as const) {
      const value = header(name);
      if (value !== undefined) env[variable] = value;
    }
    const child = spawn(options.git ?? 'git', ['http-backend'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
      detached: true,
    });
    let exited = false;
    let head: Buffer = Buffer.alloc(0);
    let started = false;
    const stop = (): void => {
      if (exited || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let failed = false;
    const gatewayError = (message: string): void => {
      if (failed) return;
      failed = true;
      log(`${req.method ?? '?'} ${quoted(target)}: 502 ${message}`);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`${message}\n`);
    };
    const collect = (chunk: Buffer): void => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const found = headerEnd(head);
      if (found === undefined) {
        if (head.length > MAX_HEADER_BYTES) {
          stop();
          gatewayError(`git http-backend sent more than ${MAX_HEADER_BYTES} bytes of headers`);
        }
        return;
      }
      child.stdout.off('data', collect);
      started = true;
      let status = 200;
      for (const line of head.toString('latin1', 0, found.end).split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10) || 500;
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(found.body));
      child.stdout.pipe(res, { end: false });
    };
    child.stdout.on('data', collect);
    child.stderr.setEncoding('utf8').on('data', (text: string) => log(`git http-backend: ${text.trim()}`));
    child.stdin.on('error', () => undefined); // the backend may answer without reading the body
    child.on('error', (err) => gatewayError(`cannot run git http-backend: ${err.message}`));
    child.on('exit', () => {
      exited = true;
    });
    child.on('close', (code, signal) => {
      exited = true;
      if (failed) return;
      if (!started) gatewayError(`git http-backend ended (${signal ?? `status ${code}`}) before its headers`);
      else if (signal !== null) res.destroy();
      else res.end();
    });
    res.on('close', () => {
      if (!res.writableFinished) stop();
    });
    res.on('error', () => undefined);
    req.pipe(child.stdin);
  }
}
