// A write that sends (or writes to) the result an earlier write kept (`(n = write(...)) < 0`, then
// `write(fd, &n, ...)`) depends on that write having run: it cannot be gathered with it.
import { meets } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

const DEPENDS = end('results', "the write sends an earlier write's result");

const RULES: Rules = {
  write: (step, run) =>
    meets(step.reads, run.results) || meets(step.targetNames, run.results) ? DEPENDS : step,
};

/** A write that reads an earlier write's kept result ends the run before it. */
export const results: Joiner = {
  name: 'results',
  facts: ['write.reads', 'write.targetNames', 'write.assigns', 'run.results'],
  rules: RULES,
};
