/**
 * The life of one smart HTTP request's serve, however upload-pack runs (a child process or inside
 * the server): registered with the handler while it runs, stopped by an idle timer, by the client
 * leaving or by the server's shutdown, refused when it fails before its answer, and over exactly
 * once. Each mode says only how its upload-pack is stopped.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpRequestError } from './errors';

/** What the handler shares with each request it serves, however it serves it. */
export interface RequestRun {
  /** The environment of upload-pack and its git children; `GIT_PROTOCOL` comes from the request. */
  readonly env: NodeJS.ProcessEnv;
  readonly idleTimeoutMs: number;
  readonly log: (line: string) => void;
  /** The requests being served, each with the way to stop it. */
  readonly running: Map<object, (err: Error) => void>;
  /** Answers with `err`'s status and message, or cuts the response off when it has begun. */
  refuse(req: IncomingMessage, res: ServerResponse, err: unknown, bodyUnread: boolean): void;
}

/** The environment of one request's upload-pack: the handler's, with the request's `GIT_PROTOCOL` only. */
export function requestEnv(run: RequestRun, protocol: string | undefined): NodeJS.ProcessEnv {
  const env = { ...run.env };
  delete env.GIT_PROTOCOL;
  if (protocol !== undefined) env.GIT_PROTOCOL = protocol;
  return env;
}

/**
 * One request's serve from its start to its one end: {@link ServeState.finish} when its answer is
 * over (or given up), {@link ServeState.fail} to stop it and refuse the request. Created when the
 * serve starts: it registers with `run.running`, arms the idle timer and watches the response.
 */
export class ServeState {
  private over = false;
  private idle: NodeJS.Timeout | undefined;
  private readonly key: object;

  /**
   * @param stop - stops the serve's upload-pack (kills the child, aborts the in-process serve);
   *   called once, by the first {@link ServeState.fail}.
   * @param hasBody - whether the request has a body (a POST): a refusal before it was read whole
   *   tells the client not to send the rest.
   */
  constructor(
    private readonly run: RequestRun,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly stop: (err: Error) => void,
    private readonly hasBody: boolean,
    key: object = {},
  ) {
    this.key = key;
    run.running.set(key, (err) => this.fail(err));
    this.touch();
    // The client hung up: nobody is left to read the answer.
    res.on('close', () => {
      if (!res.writableFinished) this.fail(new Error('the client closed the connection'));
    });
    res.on('error', () => undefined);
  }

  /** Whether the serve is over: answered, refused or cut off. */
  get done(): boolean {
    return this.over;
  }

  /** Ends the serve's life here: no timer, no longer among the running. The answer is the caller's. */
  finish(): void {
    this.over = true;
    clearTimeout(this.idle);
    this.run.running.delete(this.key);
  }

  /** Stops the serve and refuses the request with `err`, unless the serve is already over. */
  fail(err: Error): void {
    if (this.over) return;
    this.finish();
    this.stop(err);
    this.run.refuse(this.req, this.res, err, this.hasBody && !this.req.complete);
  }

  /** Upload-pack or the client made progress: the idle timer starts again. */
  touch(): void {
    // Data may still arrive after the answer is over (a stopped upload-pack's last output): a timer
    // armed then would keep the server's process alive for the whole idle limit.
    if (this.over) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(
      () =>
        this.fail(
          new HttpRequestError(
            'ERR_HTTP_UPLOAD_PACK_FAILED',
            `upload-pack sent nothing for ${this.run.idleTimeoutMs / 1000} s`,
          ),
        ),
      this.run.idleTimeoutMs,
    );
  }
}
