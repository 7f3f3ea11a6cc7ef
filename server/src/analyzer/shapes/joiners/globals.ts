// Globals between writes. A call between may change globals, so a later write that sends one would
// send something else once moved before the call (front ends mark calls that may do more than compute
// on their arguments as `output`). And a global set between (a message the die path prints, set before
// each write) may be what the error path reports: a gathered write would fail with one message where
// each write had its own.
import { callsOut, end, type Joiner, type Rules } from './joiner';

const CALLED = end('globals', 'a call between the writes may change a global the later write sends');
const SET = end('globals', "a global set between the writes may be what a write's error path reports");

const RULES: Rules = {
  write(step, run) {
    if (run.pending.some(callsOut) && step.reads.some((n) => !run.locals.has(n) && !run.names.has(n)))
      return CALLED;
    return run.pending.some((p) => p.setsGlobal) ? SET : step;
  },
};

/** A write that sends a global after a call, or any write after a global was set, ends the run. */
export const globals: Joiner = {
  name: 'globals',
  facts: [
    'write.reads',
    'other.calls',
    'other.output',
    'other.setsGlobal',
    'run.pending',
    'run.locals',
    'run.names',
  ],
  rules: RULES,
};
