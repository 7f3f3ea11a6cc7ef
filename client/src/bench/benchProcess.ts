import { spawn } from 'node:child_process';
import type { BenchEvent, BenchSize } from '@writev/runtime/bench';
import { JsonLinesDecoder } from './jsonLines';

/** How to run the benchmark command-line tool. */
export interface BenchCommand {
  /** A Node executable; in the extension host, `process.execPath` (run as Node, see {@link nodeEnv}). */
  node: string;
  /** The bundled `writev-bench` script. */
  cli: string;
  /** Working directory of the child. */
  cwd?: string;
  /** Variables added to the child's environment (e.g. `TMPDIR` for its scratch files). */
  env?: Record<string, string>;
}

/** Which benchmarks to run. */
export interface BenchRequest {
  suites: readonly string[];
  size: BenchSize;
  /** Measured runs per mode; the suite's default for the size when absent. */
  runs?: number;
}

/** How a run ended. */
export interface BenchOutcome {
  /** True when it was stopped through the signal. */
  cancelled: boolean;
  /** The child's exit status (1 when a suite failed), or undefined when killed. */
  status: number | undefined;
  /** The tail of its standard error. */
  stderr: string;
}

/**
 * The environment for a Node child of the extension host: inside desktop VS Code `process.execPath`
 * is Electron, which behaves as Node only with `ELECTRON_RUN_AS_NODE`.
 */
export function nodeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, ELECTRON_RUN_AS_NODE: '1' };
}

/** The command-line arguments for a request. */
export function benchArgs(request: BenchRequest): string[] {
  const args = ['--jsonl', '--size', request.size];
  for (const suite of request.suites) args.push('--suite', suite);
  if (request.runs !== undefined) args.push('--runs', String(request.runs));
  return args;
}

/** How long a cancelled benchmark's processes have to exit on SIGTERM before they are killed. */
const KILL_GRACE_MS = 2000;

/**
 * Runs the benchmarks in a child process (never in the caller's process: they spin the CPU and
 * spawn helpers), passing each streamed event to `onEvent` as it arrives.
 *
 * The child leads its own process group, so cancelling stops it together with the helpers it spawned
 * (pipe drainers, measured children) and leaves nothing behind.
 */
export function runBench(
  command: BenchCommand,
  request: BenchRequest,
  onEvent: (event: BenchEvent) => void,
  signal?: AbortSignal,
): Promise<BenchOutcome> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return resolve({ cancelled: true, status: undefined, stderr: '' });
    const child = spawn(command.node, [command.cli, ...benchArgs(request)], {
      cwd: command.cwd,
      env: nodeEnv(command.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const decoder = new JsonLinesDecoder();
    let stderr = '';
    let failure: Error | undefined;
    const signalGroup = (name: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, name);
        else child.kill(name);
      } catch {
        // Already gone: the group exited between the check and the kill.
      }
    };
    const kill = (): void => {
      signalGroup('SIGTERM');
      // A helper that outlives the request (busy in a long write, or started while the benchmark was
      // stopping) must not stay behind: what is left of the group a moment later is killed outright.
      setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
    };
    const onAbort = (): void => kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        for (const event of decoder.push(chunk)) onEvent(event);
      } catch (err) {
        failure = err as Error;
        kill();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr = (stderr + s).slice(-16384);
    });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (!failure && !signal?.aborted) {
        try {
          decoder.end();
        } catch (err) {
          failure = err as Error;
        }
      }
      if (failure) return reject(failure);
      resolve({ cancelled: signal?.aborted ?? false, status: code ?? undefined, stderr });
    });
  });
}

/** Runs `writev-bench --list` and returns its output. */
export function listSuitesText(command: BenchCommand): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.node, [command.cli, '--list'], {
      cwd: command.cwd,
      env: nodeEnv(command.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`writev-bench --list exited with ${code}: ${err.trim()}`));
    });
  });
}
