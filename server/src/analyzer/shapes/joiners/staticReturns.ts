// A write sends the result of a function returning static storage (`ctime(&t)`, a formatter's
// `static char buf[16]`), and a later call of that function comes before a later write (between them,
// or in that write's own arguments): the call overwrites the bytes the earlier write sent, and one
// writev, reading every buffer when it runs, would send the last value twice.
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';

/** This joiner's memory of a run: the functions whose static storage its writes sent. */
const SENT = {};

const OVERWRITTEN = end(
  'staticReturns',
  'a call before the write overwrites the static storage an earlier write sent (the function returns the same buffer each time)',
);

function overwrites(called: readonly string[] | undefined, run: RunSoFar): boolean {
  if (!called) return false;
  const sent = run.recalled<Set<string>>(SENT);
  return sent !== undefined && called.some((n) => sent.has(n));
}

const RULES: Rules = {
  write: (step, run) => (overwrites(step.staticCalls, run) ? OVERWRITTEN : step),
  cross: (step, run) => (overwrites(step.staticCalls, run) ? OVERWRITTEN : undefined),
  taken(step, run) {
    if (!step.staticSent) return;
    const sent = run.memory(SENT, () => new Set<string>());
    for (const n of step.staticSent) sent.add(n);
  },
};

/** A call overwriting the static storage an earlier write of the run sent ends the run. */
export const staticReturns: Joiner = {
  name: 'staticReturns',
  facts: ['write.staticCalls', 'write.staticSent', 'other.staticCalls'],
  rules: RULES,
};
