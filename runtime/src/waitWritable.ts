import { closeSync, constants, fstatSync, open, openSync } from 'node:fs';
import { promisify } from 'node:util';
import { hasCode } from './errno';

/**
 * How to wait after EAGAIN:
 * - `'auto'`: for a pipe or terminal, open a blocking description of the same file through
 *   `/proc/self/fd/N` and let the kernel block the retry until there is room; for anything else
 *   (the Unix socket pairs `child_process.spawn` creates give ENXIO there), sleep with backoff.
 * - `'sleep'`: always sleep with backoff.
 * - `'spin'`: retry at once. Burns a core; kept only so benchmarks can show what it costs.
 */
export type WaitStrategy = 'auto' | 'sleep' | 'spin';

/** The first sleep after EAGAIN, in milliseconds; each further EAGAIN doubles it. */
const FIRST_SLEEP_MS = 0.02;
/** The longest sleep, in milliseconds: long enough to stay idle, short enough to stay responsive. */
const LONGEST_SLEEP_MS = 1;

const openAsync = promisify(open);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** The backoff delay for the `attempt`-th consecutive EAGAIN, in milliseconds. */
export function backoffDelay(attempt: number): number {
  return Math.min(LONGEST_SLEEP_MS, FIRST_SLEEP_MS * 2 ** Math.min(attempt, 16));
}

/** Blocks the thread for `ms` milliseconds without spinning (a futex wait that nobody wakes). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Whether `fd` is a pipe or terminal whose blocking twin can be opened: a file that has a reader
 * right now. The probe opens non-blocking, so a pipe whose reader has gone gives ENXIO at once
 * instead of blocking the opener until a new reader appears (one never does for a pipe).
 */
function canReopen(fd: number): 'yes' | 'no-reader' | 'no' {
  try {
    const st = fstatSync(fd);
    if (!st.isFIFO() && !st.isCharacterDevice()) return 'no';
    closeSync(openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK));
    return 'yes';
  } catch (err) {
    return hasCode(err, 'ENXIO') ? 'no-reader' : 'no';
  }
}

/**
 * Waits after EAGAIN on `fd` per `strategy`; see {@link Sys.waitWritable}.
 *
 * A reader that exits in the microseconds between the non-blocking probe and the blocking open
 * would leave the open waiting; everywhere else the wait ends when the reader drains or exits.
 */
export function waitWritableSync(fd: number, attempt: number, strategy: WaitStrategy): number | undefined {
  if (strategy === 'spin') return undefined;
  if (strategy === 'auto') {
    const reopen = canReopen(fd);
    if (reopen === 'no-reader') return undefined; // the retry reports EPIPE
    if (reopen === 'yes') {
      try {
        return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY);
      } catch {
        // fall back to sleeping
      }
    }
  }
  sleepSync(backoffDelay(attempt));
  return undefined;
}

/** The event-loop twin of {@link waitWritableSync}: the blocking open runs in libuv's pool. */
export async function waitWritableAsync(
  fd: number,
  attempt: number,
  strategy: WaitStrategy,
): Promise<number | undefined> {
  if (strategy === 'spin') return undefined;
  if (strategy === 'auto') {
    const reopen = canReopen(fd);
    if (reopen === 'no-reader') return undefined;
    if (reopen === 'yes') {
      try {
        return await openAsync(`/proc/self/fd/${fd}`, constants.O_WRONLY);
      } catch {
        // fall back to sleeping
      }
    }
  }
  // Timers are the event loop's only sleep; they round up to whole milliseconds.
  await new Promise((resolve) => setTimeout(resolve, Math.max(1, backoffDelay(attempt))));
  return undefined;
}
