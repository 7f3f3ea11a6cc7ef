// Writes far apart are rarely meant as one message, and the odds of a missed dependency grow with the
// distance: only a few statements may stand between two writes of a run, not counting those that
// compute what the next write sends (filling a header's fields one by one), which have a limit of
// their own.
import type { OtherStep, WriteStep } from '../../model';
import { meets } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

/** At most this many statements that do not prepare the next write may stand between two writes. */
const MAX_BETWEEN = 3;

/** At most this many statements in all (comments aside) may stand between two writes. */
const MAX_PREPARED = 24;

const FAR = end('distance', 'too many statements between the writes do not prepare the next one');
const LONG = end('distance', 'too many statements between the writes');

/**
 * How many statements of `between` (comments aside) do not prepare `write`: a statement prepares it
 * when it changes something the write sends, or something a later preparing statement reads.
 */
function unrelated(between: readonly OtherStep[], write: WriteStep): number {
  const needed = new Set(write.reads);
  let count = 0;
  for (const p of [...between].reverse()) {
    if (p.comment) continue;
    if (meets(p.writes, needed)) for (const n of p.reads) needed.add(n);
    else count++;
  }
  return count;
}

const RULES: Rules = {
  write: (step, run) => (unrelated(run.pending, step) > MAX_BETWEEN ? FAR : step),
  cross: (step, run) => (!step.comment && run.prepared + 1 > MAX_PREPARED ? LONG : undefined),
};

/** Ends a run where too many statements stand between two writes. */
export const distance: Joiner = {
  name: 'distance',
  facts: ['write.reads', 'other.reads', 'other.writes', 'other.comment', 'run.pending', 'run.prepared'],
  rules: RULES,
};
