// A write gated on the result the write before it kept (`ret = write(a); if (ret != -1) ret = write(b);`,
// see `gate` in ../../model.ts): right after that write, the test only says the run has not failed yet,
// as a chained `&&` of success checks does. The write joins unconditionally, without a fix; after
// anything else, the test is a condition like any other and the results joiner judges its read. A gate
// that is one term of a conjunction (`if (ret == 0 && body != NULL)`, see c/conjoinedGates.ts) leaves
// the other terms as the write's own condition.
import type { WriteStep } from '../../model';
import type { Joiner, Rules } from './joiner';

const RULES: Rules = {
  write(step, run): WriteStep {
    const gate = step.gate;
    const prev = run.writes[run.writes.length - 1];
    if (!gate || !prev || !prev.assigns?.includes(gate)) return step;
    // The write before may itself be gated on the same variable (the first of a chain that starts from
    // a status set earlier): its test then stands for the whole run. Or the status held success before
    // it (`gateHeld`): where its own test failed, the gate holds all the same.
    if (prev.condition && prev.gate !== gate && !step.gateHeld) return step;
    const { condition: _test, gate: _gate, gateRest, gateHeld: _held, ...rest } = step;
    const reads = step.reads.filter((n) => n !== gate);
    // A gate that is one term of a conjunction leaves the other terms as the write's own condition.
    // Where they fail the status keeps the success it was tested for, so the gate stays, for the
    // write after to be read as gated on this one (as a chain of gates is).
    return gateRest === undefined ? { ...rest, reads } : { ...rest, condition: gateRest, gate, reads };
  },
};

/** A write gated on the previous write's success joins the run as that run's own failure check. */
export const gates: Joiner = {
  name: 'gates',
  facts: [
    'write.gate',
    'write.gateRest',
    'write.gateHeld',
    'write.condition',
    'write.reads',
    'write.assigns',
    'run.writes',
  ],
  rules: RULES,
};
