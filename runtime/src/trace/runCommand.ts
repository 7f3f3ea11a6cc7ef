/**
 * Runs the traced command as a shell runs a foreground job, so that signals reach it as they would
 * untraced, and lets `writev-trace` end as the command ended: with its exit status, or by the same
 * signal, re-raised after the trace is written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';

/** How the traced command ended. */
export interface Ending {
  /** The exit status, or 128 + the signal's number for a death by signal (as a shell reports it). */
  readonly code: number;
  /** The signal that killed it, if one did. */
  readonly signal?: NodeJS.Signals;
}

// The terminal sends these to the whole foreground process group, the command included: passing
// them on would deliver them twice (a program that counts its Ctrl-Cs would count two). So
// writev-trace only outlives them, as a shell waiting for a job does.
const FROM_THE_TERMINAL = ['SIGINT', 'SIGQUIT'] as const;
// These come to writev-trace alone (`kill`, `timeout`, a closing terminal's SIGHUP to the session
// leader, a supervisor): they are for the command, so writev-trace passes them on.
const PASSED_ON = ['SIGTERM', 'SIGHUP', 'SIGUSR2'] as const;

/** The first child of `pid` (from `/proc`), or undefined when it has none or `/proc` cannot say. */
export function firstChildOf(pid: number): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first ? Number(first) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `program` with stdio passed through and resolves with how it ended. Meanwhile SIGINT and
 * SIGQUIT leave writev-trace running (the command has them from the terminal too), and SIGTERM, SIGHUP
 * and SIGUSR2 are passed to `target(child)`: the command itself, or for strace, which blocks those
 * signals while it traces, the traced process under it.
 */
export function runCommand(
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  target: (child: ChildProcess) => number | undefined = (child) => child.pid,
): Promise<Ending> {
  return new Promise((done, fail) => {
    let child: ChildProcess;
    try {
      child = spawn(program, args, { stdio: 'inherit', env });
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const listeners = new Map<NodeJS.Signals, () => void>();
    for (const signal of FROM_THE_TERMINAL) listeners.set(signal, () => undefined);
    for (const signal of PASSED_ON) {
      listeners.set(signal, () => {
        const pid = target(child) ?? child.pid;
        try {
          if (pid !== undefined) process.kill(pid, signal);
        } catch {
          // It ended meanwhile: its ending is on its way.
        }
      });
    }
    for (const [signal, listener] of listeners) process.on(signal, listener);
    const stop = (): void => {
      for (const [signal, listener] of listeners) process.removeListener(signal, listener);
    };
    child.once('error', (error) => {
      stop();
      fail(error);
    });
    child.once('exit', (code, signal) => {
      stop();
      if (signal) done({ code: 128 + (constants.signals[signal] ?? 0), signal });
      else done({ code: code ?? 0 });
    });
  });
}

/**
 * Ends this process as the command ended: by the same signal when it died of one (so a shell or CI
 * above sees a death by that signal, not an exit status), otherwise with its exit status. Never
 * returns. A signal Node keeps for itself or ignores (SIGUSR1 starts its inspector, SIGPIPE is
 * ignored) cannot be re-raised; then the exit status is 128 + its number, as a shell would report.
 */
export function endAs(ending: Ending): never {
  if (ending.signal && ending.signal !== 'SIGUSR1' && ending.signal !== 'SIGPIPE') {
    // With no listener left, the signal takes its default action, as it did in the command.
    process.removeAllListeners(ending.signal);
    try {
      process.kill(process.pid, ending.signal);
    } catch {
      // Not a signal this process may send itself: exit with the status instead.
    }
  }
  process.exit(ending.code);
}
