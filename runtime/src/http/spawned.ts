/**
 * Serves one smart HTTP request with an upload-pack child, as `git http-backend` runs git's:
 * `<upload-pack> --stateless-rpc [--advertise-refs] <git dir>`, the body on its standard input,
 * its standard output streamed as the answer. Any upload-pack that accepts those flags can serve
 * this way, git's own included; the handler's `spawn` mode runs writev-upload-pack so, isolated in
 * a process of its own.
 *
 * Each child runs in a process group of its own, so stopping it (the client left, the idle timeout,
 * the server's shutdown) stops what it started (`git pack-objects`) too: SIGTERM, then SIGKILL.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { AnswerHead } from './answer';
import { HttpRequestError, quoted } from './errors';
import { requestEnv, ServeState, type RequestRun } from './serveState';
import type { UploadPackCommand } from './uploadPackCommand';

/** How long a stopped child has after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** Runs `command` for one request and streams its answer; never throws. */
export function serveSpawned(
  run: RequestRun,
  command: UploadPackCommand,
  req: IncomingMessage,
  res: ServerResponse,
  gitDir: string,
  protocol: string | undefined,
  body: Readable | undefined,
): void {
  const env = requestEnv(run, protocol);
  const args = [...command.args, '--stateless-rpc', ...(body ? [] : ['--advertise-refs']), gitDir];
  // A process group of its own, so stopping it stops what it started (git's pack-objects) too.
  const child = spawn(command.file, args, {
    stdio: [body ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    env,
    detached: true,
  });
  const head = new AnswerHead(res, body === undefined);
  let exited = false;
  let stderr = '';

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
  const state = new ServeState(run, req, res, stop, body !== undefined, child);
  const fail = (err: Error): void => state.fail(err);
  const touch = (): void => state.touch();

  /** Holds the answer back until its head can be written, then streams the rest. */
  const collect = (chunk: Buffer): void => {
    if (!head.take(chunk)) return;
    child.stdout!.off('data', collect);
    child.stdout!.pipe(res, { end: false });
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
    if (stderr.trim() !== '') run.log(`upload-pack ${gitDir}: ${stderr.trim()}`);
    if (state.done) return;
    // A success is a whole answer, however short: none at all (a v2 request for nothing) is an
    // empty one, as git http-backend gives it.
    if (!head.written && code === 0) head.write();
    if (!head.written) {
      fail(
        new HttpRequestError(
          'ERR_HTTP_UPLOAD_PACK_FAILED',
          `upload-pack ${signal ? `was killed by ${signal}` : `exited with status ${code}`} before answering`,
        ),
      );
      return;
    }
    state.finish();
    if (signal === null) {
      // Its whole answer, an ERR line included: the client reads the error from the protocol, as
      // it does from git http-backend, whose web server ends the response however the CGI exits.
      if (code !== 0) run.log(`upload-pack ${gitDir}: exited with status ${code} after answering`);
      res.end();
    } else {
      // Cut off mid-answer: the response must not end as if it were whole.
      run.log(`upload-pack ${gitDir}: killed by ${signal} while answering`);
      res.destroy();
    }
  });
  if (body) {
    body.on('data', touch);
    body.on('error', fail);
    child.stdin!.on('error', () => undefined); // upload-pack may exit before reading everything
    body.pipe(child.stdin!);
  }
}
