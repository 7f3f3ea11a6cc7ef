/**
 * Serves one smart HTTP request inside the server's process: upload-pack's stateless serving code
 * (the advertisement, `ls-refs`, `fetch` and v0 negotiation rounds) runs on the request's body and
 * writes through a {@link ResponseSink}, so no Node process starts per request. `git pack-objects`
 * is still a child, as it is under `git http-backend`.
 *
 * What running inside the server risks, and what is done about it:
 * - one request's failure (bad input, a throw, a pack-objects that dies) answers that request (a
 *   500 before any byte, else the `ERR` line or band-3 message already sent, then the end, as the
 *   spawned upload-pack's exit would) and never escapes: every path of the serve is awaited here;
 * - a client that leaves, the idle timeout and the server's shutdown abort the serve: pack-objects
 *   (its process group) is stopped and the cached pack's descriptor closed by the serve's own
 *   `finally`;
 * - concurrent requests share no mutable state: each gets its options, its sink and its reader,
 *   and the environment of its git children through `withServeEnv`, never through `process.env`;
 * - a slow client: the pack waits for the response to drain (see `OutputFlow`);
 * - the request body is read whole before serving (it is bounded, 10 MiB by default): the serving
 *   code reads synchronously, and a stateless client sends its whole request before it reads.
 *
 * What stays: the serving code calls git (`for-each-ref` when the refs changed, `cat-file`,
 * `rev-list` for negotiation) synchronously, so those calls hold the event loop for their duration.
 * Run with a spawned upload-pack (`--spawn`) where that matters more than a Node start per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { WriteError } from '../errors';
import { ChunkSource } from '../protocol/byteSource';
import { withServeEnv } from '../uploadPack/childEnv';
import { parseOptions } from '../uploadPack/options';
import { recordTiming, serveUploadPack, type ServeReport } from '../uploadPack/server';
import { HttpRequestError } from './errors';
import { RESPONSE_FD, ResponseSink } from './responseSink';
import type { RequestRun } from './spawned';

/** Reads a request body to its end; rejects with the body stream's error (413, 408, 400). */
function readWhole(body: Readable, onData: () => void): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      onData();
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks));
    body.once('close', () => reject(new Error('the request body ended early')));
  });
}

/** Milliseconds since the process started, as the serve's report counts them. */
function sinceStart(): number {
  return process.uptime() * 1000;
}

/**
 * Serves one request in process; see the module comment. Never throws: every outcome is an
 * answer, a refusal through `run.refuse`, or a response cut off.
 */
export function serveInProcess(
  run: RequestRun,
  req: IncomingMessage,
  res: ServerResponse,
  gitDir: string,
  protocol: string | undefined,
  body: Readable | undefined,
): void {
  const env = { ...run.env };
  delete env.GIT_PROTOCOL;
  if (protocol !== undefined) env.GIT_PROTOCOL = protocol;
  const controller = new AbortController();
  let done = false;
  let idle: NodeJS.Timeout | undefined;
  const key = {};

  const finish = (): void => {
    done = true;
    clearTimeout(idle);
    run.running.delete(key);
  };
  const fail = (err: Error): void => {
    if (done) return;
    finish();
    controller.abort(err);
    run.refuse(req, res, err, body !== undefined && !req.complete);
  };
  const touch = (): void => {
    // Data may still arrive after the answer is over (a stopped upload-pack's last output): a timer
    // armed then would keep the server's process alive for the whole idle limit.
    if (done) return;
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        fail(
          new HttpRequestError(
            'ERR_HTTP_UPLOAD_PACK_FAILED',
            `upload-pack sent nothing for ${run.idleTimeoutMs / 1000} s`,
          ),
        ),
      run.idleTimeoutMs,
    );
  };
  run.running.set(key, fail);
  touch();
  // The client hung up: nobody is left to read the answer.
  res.on('close', () => {
    if (!res.writableFinished) fail(new Error('the client closed the connection'));
  });
  res.on('error', () => undefined);

  const serve = async (): Promise<void> => {
    const input = body ? await readWhole(body, touch) : [];
    if (done) return;
    const options = parseOptions(['--stateless-rpc', ...(body ? [] : ['--advertise-refs']), gitDir], env);
    const sink = new ResponseSink(res, body === undefined, touch, controller.signal);
    const startedAt = sinceStart();
    let report: ServeReport;
    try {
      report = await withServeEnv(env, () =>
        serveUploadPack(options, {
          input: new ChunkSource(input),
          output: RESPONSE_FD,
          sys: sink,
          log: (line) => run.log(`upload-pack ${gitDir}: ${line}`),
          flow: sink,
        }),
      );
    } catch (err) {
      if (done) return;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof WriteError) {
        // The response is gone: a client that left (EPIPE), or the sink failed under it.
        finish();
        run.log(`upload-pack ${gitDir}: ${message}`);
        res.destroy();
        return;
      }
      if (!sink.answered) {
        run.log(`upload-pack ${gitDir}: ${message}`);
        fail(new HttpRequestError('ERR_HTTP_UPLOAD_PACK_FAILED', 'upload-pack failed before answering'));
        return;
      }
      // Its whole answer, an ERR line or band-3 message included: the client reads the error from
      // the protocol, as it does when a spawned upload-pack exits 128 after answering.
      finish();
      run.log(`upload-pack ${gitDir}: fatal: ${message}`);
      sink.end();
      return;
    }
    if (done) return;
    finish();
    sink.end();
    if (options.timingFile) {
      // Times from the request's arrival in this process, as a spawned serve's are from its start.
      const { requestAt, endAt } = report;
      try {
        recordTiming(options.timingFile, {
          ...report,
          ...(requestAt === undefined ? {} : { requestAt: requestAt - startedAt }),
          endAt: endAt - startedAt,
        });
      } catch (err) {
        run.log(`cannot record the timing in ${options.timingFile}: ${String(err)}`);
      }
    }
  };
  serve().catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
}
