// A write's result kept in a variable (`n = write(...)`, `(n = write(...)) < 0`) stands for that write
// alone. Whatever reads it between the writes depends on that write having run by itself: a write that
// sends it (`write(fd, &n, ...)`, `write(fd, p + n, len - n)`), a statement that computes with it
// (`total += n;`, `p += n;`), a branch that tests it (`if (n < 0) perror(...)`, a retry). The run ends
// before any of them; a read after the run's last write is left to the finding, which then has no fix.
import type { OtherStep, Step } from '../../model';
import { meets, type NameLookup } from '../branches';
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';

const DEPENDS = end('results', "the write sends an earlier write's result");
const READ = end('results', "a statement between uses an earlier write's result");
const TESTED = end('results', "a branch between tests or uses an earlier write's result");

/** `(void)n;` only silences an unused-result warning: it reads nothing that matters. */
function discards(step: OtherStep): boolean {
  return !step.barrier && step.writes.length === 0 && step.calls.length === 0;
}

/**
 * True when `step` may read one of `results`: a write sending it, a statement computing with it, a test
 * of it, anywhere down its arms and bodies. A write that only keeps its own result there is no read.
 */
function reads(step: Step, results: NameLookup): boolean {
  switch (step.kind) {
    case 'write':
      return meets(step.reads, results) || meets(step.targetNames, results);
    case 'other':
      return !discards(step) && meets(step.reads, results);
    case 'branch':
      return (
        meets(step.tests ?? [], results) || step.arms.some((arm) => arm.steps.some((s) => reads(s, results)))
      );
    case 'loop':
      return meets(step.varying, results) || step.body.some((s) => reads(s, results));
  }
}

/** This joiner's memory of a run: a print between showed an earlier write's result. */
const SHOWN = {};

const SHOWN_WHY =
  "a print to a standard stream between shows an earlier write's result, which a gathered call would not give it";

/**
 * A statement that only prints to a standard stream the written descriptor cannot be (see
 * c/standardPrints.ts): showing a result changes nothing the writes depend on, but the gathered call
 * would give the print another count, so the run goes on without a fix.
 */
function shows(step: OtherStep, run: RunSoFar): boolean {
  return step.printsApart !== undefined && step.printsApart.has(run.lead.target);
}

const RULES: Rules = {
  write: (step, run) =>
    meets(step.reads, run.results) || meets(step.targetNames, run.results)
      ? DEPENDS
      : run.recalled(SHOWN)
        ? { ...step, noFix: step.noFix ?? SHOWN_WHY }
        : step,
  // A result its own checks tested is the whole length past them: summing it reads no partial count.
  cross: (step, run) => {
    if (discards(step) || !meets(step.reads, run.untested)) return undefined;
    if (!shows(step, run)) return READ;
    run.memory(SHOWN, () => true);
    return undefined;
  },
  branch: (step, run) => (reads(step, run.untested) ? TESTED : undefined),
};

/** A step that reads an earlier write's kept result ends the run before it. */
export const results: Joiner = {
  name: 'results',
  facts: [
    'write.reads',
    'write.targetNames',
    'write.assigns',
    'other.reads',
    'other.writes',
    'other.calls',
    'other.barrier',
    'other.printsApart',
    'branch.tests',
    'branch.arms',
    'run.results',
    'run.untested',
    'run.lead',
    'write.noFix',
  ],
  rules: RULES,
};
