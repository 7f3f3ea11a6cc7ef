// One writev takes at most IOV_MAX buffers (1024 on Linux): a longer run is not one gathered write.
// A statement may stand for several buffers (a frame wrapper, a chain, a macro of several writes), so
// the run counts the syscalls its statements make, not the statements.
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';

/** Linux's IOV_MAX: the most buffers one writev takes, so the most writes one run gathers. */
const MAX_WRITES = 1024;

const FULL = end('iovMax', 'the run holds as many writes as one writev takes');

/** The buffers the run's straight-line writes send so far. */
function buffers(run: RunSoFar): number {
  return run.writes.reduce((sum, w) => sum + (w.syscalls ?? 1), 0);
}

const RULES: Rules = {
  write: (step, run) => (buffers(run) + (step.syscalls ?? 1) > MAX_WRITES ? FULL : step),
  branch: (_step, run) => (!run.head && buffers(run) >= MAX_WRITES ? FULL : undefined),
};

/** Ends a run that holds as many writes as one gathered write takes. */
export const iovMax: Joiner = { name: 'iovMax', facts: ['run.writes', 'run.head'], rules: RULES };
