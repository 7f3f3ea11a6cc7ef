// The writes that open an `if` body (see `leading` in ../branches.ts) continue the run when the
// condition holds; the run ends there, and the same branch may end with writes that start the next.
import { leading } from '../branches';
import { end, type Joiner, type Rules } from './joiner';
import { armsMaySendComputed } from './computed';
import { contiguous } from './positional';

const OPENS = end('opening', 'the writes open the arms of an if: the run goes on only where its test holds');

const RULES: Rules = {
  branch(step, run) {
    if (run.head) return undefined;
    const lead = run.lead;
    const opening = leading(step, lead.target, run.names, run.sent, run.budget);
    if (!opening) return undefined;
    const prev = run.writes[run.writes.length - 1];
    if (prev && !contiguous(prev, opening[0]!)) return undefined;
    if (!armsMaySendComputed(opening, run)) return undefined;
    // A call before the branch may do I/O: its writes cannot move before it.
    if (run.pending.some((p) => p.calls.length > 0)) return undefined;
    return { kind: 'take', writes: opening, ends: OPENS };
  },
};

/** The writes opening a branch's arms end the run. */
export const opening: Joiner = {
  name: 'opening',
  facts: [
    'branch.arms',
    'branch.partial',
    'run.head',
    'run.pending',
    'run.writes',
    'run.sent',
    'run.changedSoFar',
    'run.movedCalls',
    'run.clobbered',
    'run.sentBuffers',
    'run.armsClobber',
  ],
  rules: RULES,
};
