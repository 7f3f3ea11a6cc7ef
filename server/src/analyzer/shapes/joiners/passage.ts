// A branch whose arms only write to the run's descriptor and compute (see `through` in ../branches.ts):
// the run goes on through it, its writes joining in each arm's order (reported without a fix).
import { meets, through } from '../branches';
import type { Joiner, Rules } from './joiner';
import { contiguous } from './positional';

const RULES: Rules = {
  branch(step, run) {
    if (run.head) return undefined;
    // A call before the branch may do I/O: its writes cannot move before it.
    if (run.pending.some((p) => p.calls.length > 0)) return undefined;
    const lead = run.lead;
    const passage = through(step, lead.target, run.names, run.locals, run.sent, !!lead.stream, run.budget);
    if (!passage) return undefined;
    const prev = run.writes[run.writes.length - 1];
    // `through` never returns a passage without writes.
    if (prev && !contiguous(prev, passage.writes[0]!)) return undefined;
    if (passage.writes.some((w) => meets(w.reads, run.changedSoFar))) return undefined;
    return { kind: 'take', writes: passage.writes, changed: passage.changed };
  },
};

/** The run passes through a branch that only writes and computes, taking its writes. */
export const passage: Joiner = {
  name: 'passage',
  facts: [
    'branch.arms',
    'branch.partial',
    'run.head',
    'run.pending',
    'run.writes',
    'run.sent',
    'run.changedSoFar',
  ],
  rules: RULES,
};
