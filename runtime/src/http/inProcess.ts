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
 * - a client that leaves, the idle timeout and the server's shutdown abort the serve: a git it
 *   waits on is stopped, pack-objects (its process group) is stopped and the cached pack's
 *   descriptor closed by the serve's own `finally`;
 * - concurrent requests share no mutable state: each gets its options, its sink and its reader,
 *   and the environment of its git children through `withServeEnv`, never through `process.env`;
 * - a slow client: the pack waits for the response to drain (see `OutputFlow`);
 * - the request body is read whole before serving (it is bounded, 10 MiB by default): the serving
 *   code reads synchronously, and a stateless client sends its whole request before it reads.
 *
 * - the serving code's git commands (`for-each-ref` when the refs changed, `cat-file`, `rev-list`
 *   for negotiation and shallow boundaries) run as asynchronous children: a request waiting on git
 *   holds up no other.
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
import { requestEnv, ServeState, type RequestRun } from './serveState';

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
  const env = requestEnv(run, protocol);
  const controller = new AbortController();
  const state = new ServeState(run, req, res, (err) => controller.abort(err), body !== undefined);
  const touch = (): void => state.touch();

  const serve = async (): Promise<void> => {
    const input = body ? await readWhole(body, touch) : [];
    if (state.done) return;
    const options = parseOptions(['--stateless-rpc', ...(body ? [] : ['--advertise-refs']), gitDir], env);
    const sink = new ResponseSink(res, body === undefined, touch, controller.signal);
    const startedAt = sinceStart();
    let report: ServeReport;
    try {
      report = await withServeEnv(
        env,
        () =>
          serveUploadPack(options, {
            input: new ChunkSource(input),
            output: RESPONSE_FD,
            sys: sink,
            log: (line) => run.log(`upload-pack ${gitDir}: ${line}`),
            flow: sink,
          }),
        controller.signal,
      );
    } catch (err) {
      if (state.done) return;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof WriteError) {
        // The response is gone: a client that left (EPIPE), or the sink failed under it.
        state.finish();
        run.log(`upload-pack ${gitDir}: ${message}`);
        res.destroy();
        return;
      }
      if (!sink.answered) {
        run.log(`upload-pack ${gitDir}: ${message}`);
        state.fail(
          new HttpRequestError('ERR_HTTP_UPLOAD_PACK_FAILED', 'upload-pack failed before answering'),
        );
        return;
      }
      // Its whole answer, an ERR line or band-3 message included: the client reads the error from
      // the protocol, as it does when a spawned upload-pack exits 128 after answering.
      state.finish();
      run.log(`upload-pack ${gitDir}: fatal: ${message}`);
      sink.end();
      return;
    }
    if (state.done) return;
    state.finish();
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
  serve().catch((err: unknown) => state.fail(err instanceof Error ? err : new Error(String(err))));
}
