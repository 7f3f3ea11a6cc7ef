import { closeSync, close, write, writeSync, writev, writevSync } from 'node:fs';
import { promisify } from 'node:util';
import { compatWritev, type CompatLimits } from './compatWritev';
import { isSystemError } from './errno';
import { newCounts, type AsyncSys, type Sys, type SyscallCounts } from './syscall';
import { waitWritableAsync, waitWritableSync, type WaitStrategy } from './waitWritable';

/** Options for the {@link Sys} that talks to the real kernel through `node:fs`. */
export interface NodeSysOptions extends CompatLimits {
  /**
   * `'native'` uses `fs.writevSync`; `'compat'` uses {@link compatWritev} over `fs.writeSync`.
   * Defaults to `'compat'` on Windows, whose writev is not atomic, and `'native'` elsewhere.
   */
  writev?: 'native' | 'compat';
  /** How to wait after EAGAIN (default `'auto'`). */
  wait?: WaitStrategy;
}

function defaultWritevMode(): 'native' | 'compat' {
  return process.platform === 'win32' ? 'compat' : 'native';
}

/** Counts a call, and its failure by errno name, then rethrows. */
function counted<T>(counts: SyscallCounts, kind: 'write' | 'writev', call: () => T): T {
  counts[kind]++;
  try {
    return call();
  } catch (err) {
    const code = isSystemError(err) ? err.code : 'UNKNOWN';
    counts.errors[code] = (counts.errors[code] ?? 0) + 1;
    throw err;
  }
}

/**
 * Makes a {@link Sys} over `node:fs` that counts its calls. Each Sys has its own counters, so a
 * benchmark or test can make one, run a workload, and read exactly what that workload cost.
 */
export function createSys(options: NodeSysOptions = {}): Sys {
  const mode = options.writev ?? defaultWritevMode();
  const strategy = options.wait ?? 'auto';
  const counts = newCounts();
  const writeOne = (fd: number, buf: Uint8Array): number =>
    counted(counts, 'write', () => writeSync(fd, buf, 0, buf.length));
  return {
    counts,
    write: writeOne,
    writev:
      mode === 'compat'
        ? (fd, bufs) => compatWritev(writeOne, fd, bufs, options)
        : (fd, bufs) => counted(counts, 'writev', () => writevSync(fd, bufs as Uint8Array[])),
    waitWritable(fd, attempt) {
      counts.waits++;
      return waitWritableSync(fd, attempt, strategy);
    },
    release: (fd) => closeSync(fd),
  };
}

const writeAsync = promisify(write);
const writevAsync = promisify(writev);
const closeAsync = promisify(close);

/** Counts an asynchronous call, and its failure by errno name, then rethrows. */
async function countedAsync<T>(
  counts: SyscallCounts,
  kind: 'write' | 'writev',
  call: () => Promise<T>,
): Promise<T> {
  counts[kind]++;
  try {
    return await call();
  } catch (err) {
    const code = isSystemError(err) ? err.code : 'UNKNOWN';
    counts.errors[code] = (counts.errors[code] ?? 0) + 1;
    throw err;
  }
}

/**
 * Makes an {@link AsyncSys} over `node:fs`'s callback API (libuv's thread pool), counting its
 * calls like {@link createSys}.
 */
export function createAsyncSys(options: NodeSysOptions = {}): AsyncSys {
  const mode = options.writev ?? defaultWritevMode();
  const strategy = options.wait ?? 'auto';
  const counts = newCounts();
  const writeOne = (fd: number, buf: Uint8Array): Promise<number> =>
    countedAsync(counts, 'write', async () => (await writeAsync(fd, buf, 0, buf.length)).bytesWritten);
  return {
    counts,
    write: writeOne,
    async writev(fd, bufs) {
      if (mode === 'compat') {
        // Validate synchronously, then make the one write the emulation chose.
        let chosen: Uint8Array | undefined;
        const n = compatWritev((_fd, buf) => ((chosen = buf), buf.length), fd, bufs, options);
        return chosen === undefined ? n : writeOne(fd, chosen);
      }
      return countedAsync(
        counts,
        'writev',
        async () => (await writevAsync(fd, bufs as Uint8Array[])).bytesWritten,
      );
    },
    async waitWritable(fd, attempt) {
      counts.waits++;
      return waitWritableAsync(fd, attempt, strategy);
    },
    release: (fd) => closeAsync(fd),
  };
}

let shared: Sys | undefined;
let sharedAsync: AsyncSys | undefined;

/** The process-wide {@link Sys} the stack uses when a call passes none; created on first use. */
export function defaultSys(): Sys {
  return (shared ??= createSys());
}

/** The process-wide {@link AsyncSys} the promise twins use when a call passes none. */
export function defaultAsyncSys(): AsyncSys {
  return (sharedAsync ??= createAsyncSys());
}
