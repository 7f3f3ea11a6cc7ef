import { closeSync } from 'node:fs';
import { join } from 'node:path';
import type { SyscallCounts } from '../../syscall';
import { DrainedPipe } from '../fifo';
import { measureProcess } from '../measure';
import type { RunSample } from '../result';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite } from '../suite';

const CHILD = join(__dirname, '..', 'children', 'eagainWriter.js');
const STRATEGIES = ['spin', 'sleep', 'auto'] as const;

/** Runs the writer child once and reads back its counts. */
async function runWriter(
  bytes: number,
  wait: string,
  target: 'pipe' | 'socket',
  pipe: DrainedPipe,
): Promise<RunSample> {
  const args = [CHILD, '--bytes', String(bytes), '--wait', wait, '--target', target];
  let run;
  if (target === 'pipe') {
    const { fd, drained } = pipe.openForChild();
    const running = measureProcess(process.execPath, args, { stdio: ['ignore', fd] });
    closeSync(fd);
    [run] = await Promise.all([running, drained]);
  } else {
    run = await measureProcess(process.execPath, args);
  }
  if (run.status !== 0)
    throw new Error(`eagain writer (${wait}, ${target}) exited ${run.status}: ${run.stderr}`);
  const counts = JSON.parse(run.stderr.trim().split('\n').pop()!) as SyscallCounts;
  const { status: _status, stderr: _stderr, ...sample } = run;
  return {
    ...sample,
    syscalls: { write: counts.write, writev: counts.writev, EAGAIN: counts.errors.EAGAIN ?? 0 },
    extra: { waits: counts.waits },
  };
}

/**
 * Waiting after EAGAIN: the same bytes into a non-blocking pipe and a non-blocking socket pair,
 * retrying at once (spin), sleeping with backoff, or the default (a blocking twin for pipes,
 * backoff for sockets). Whole-process times, so user and system CPU show what spinning burns.
 */
export const eagainWaitSuite: Suite = {
  id: 'eagain',
  title: 'waiting after EAGAIN',
  description:
    'Non-blocking pipe and socket pair: retry at once, sleep with backoff, or block through a twin.',
  cases: ['pipe', 'socket-pair'],
  async run(ctx) {
    const bytes = bySize(ctx.size, { tiny: 4 << 20, quick: 64 << 20, full: 100 << 20 });
    const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 10 });
    const pipe = new DrainedPipe();
    try {
      const results = [];
      for (const target of ['pipe', 'socket'] as const) {
        const id = target === 'pipe' ? 'pipe' : 'socket-pair';
        if (!wantsCase(ctx, id)) continue;
        const modes: Mode[] = STRATEGIES.map((wait) => ({
          name: wait,
          run: () => runWriter(bytes, wait, target, pipe),
        }));
        results.push(
          await runCase(
            {
              suite: this.id,
              case: id,
              title: `${bytes / 2 ** 20} MiB into a non-blocking ${target === 'pipe' ? 'pipe' : 'spawn socket pair'}`,
              modes,
              runs,
              warmup: 1,
              references: ['spin'],
              headline: { mode: 'auto', reference: 'spin' },
              parameters: { bytes },
            },
            ctx,
          ),
        );
      }
      return results;
    } finally {
      pipe.dispose();
    }
  },
};
