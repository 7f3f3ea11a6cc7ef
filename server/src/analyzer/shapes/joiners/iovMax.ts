// One writev takes at most IOV_MAX buffers (1024 on Linux): a longer run is not one gathered write.
// A statement may stand for several buffers (a frame wrapper, a chain, a macro of several writes), so
// the run counts the syscalls its statements make, not the statements.
import type { WriteStep } from '../../model';
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';

/** Linux's IOV_MAX: the most buffers one writev takes, so the most writes one run gathers. */
const MAX_WRITES = 1024;

const FULL = end('iovMax', 'the run holds as many writes as one writev takes');

/** Per run (its lead write): the buffers counted so far, and the writes they were counted over. */
const counted = new WeakMap<WriteStep, { writes: number; last: WriteStep | undefined; buffers: number }>();

/**
 * The buffers the run's straight-line writes send so far. Counted on from where the last question about
 * the same run left off, so a run of n writes costs n reads, not n² (the search is budgeted per step).
 */
function buffers(run: RunSoFar): number {
  const { writes } = run;
  const seen = counted.get(run.lead);
  const resume = seen !== undefined && seen.writes <= writes.length && writes[seen.writes - 1] === seen.last;
  let sum = resume ? seen.buffers : 0;
  for (let k = resume ? seen.writes : 0; k < writes.length; k++) sum += writes[k]?.syscalls ?? 1;
  counted.set(run.lead, { writes: writes.length, last: writes[writes.length - 1], buffers: sum });
  return sum;
}

const RULES: Rules = {
  write: (step, run) => (buffers(run) + (step.syscalls ?? 1) > MAX_WRITES ? FULL : step),
  branch: (_step, run) => (!run.head && buffers(run) >= MAX_WRITES ? FULL : undefined),
};

/** Ends a run that holds as many writes as one gathered write takes. */
export const iovMax: Joiner = { name: 'iovMax', facts: ['run.writes', 'run.head'], rules: RULES };
