// An early exit between the writes (`if (!more) return 0;`): the writes after it run only when its test
// fails. The run goes on past it, and each later write joins under the negated tests; there is no fix
// (gathering means filling the vector under the test by hand). The test must read only the function's
// own names, none of them an earlier write's result, and no call between may change what it reads.
import type { WriteStep } from '../../model';
import { meets } from '../branches';
import { callsOut, end, type Joiner } from './joiner';

const EXIT =
  'an early exit (a return, goto, break or continue under a test) stands between the writes; gathering them means filling the vector under its test by hand';

const GLOBAL_TEST = end(
  'earlyExit',
  "an early exit tests something other than the function's own names, or a write's result",
);
const CALLED = end('earlyExit', 'a call before an early exit may change what it tests');
const PAST = { kind: 'past' } as const;

/** The tests of the early exits the run passed. */
const EXITS = {};

/** Writes after an early exit join the run under the negation of its test, without a fix. */
export const earlyExit: Joiner = {
  name: 'earlyExit',
  facts: [
    'branch.partial',
    'write.condition',
    'write.noFix',
    'run.head',
    'run.writes',
    'run.locals',
    'run.results',
    'run.pending',
  ],
  rules: {
    branch(step, run) {
      const exit = step.partial?.exit;
      if (!exit || run.head || run.writes.length === 0) return undefined;
      if (!exit.reads.every((n) => run.locals.has(n)) || meets(exit.reads, run.results)) return GLOBAL_TEST;
      if (run.pending.some(callsOut)) return CALLED;
      run.memory<string[]>(EXITS, () => []).push(step.partial.condition);
      return PAST;
    },
    write(step, run): WriteStep {
      const exits = run.recalled<string[]>(EXITS);
      if (!exits) return step;
      return { ...step, condition: step.condition ?? `(!${exits.join(' && !')})`, noFix: EXIT };
    },
  },
};
