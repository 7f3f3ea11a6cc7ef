// A branch whose arms only write to the run's descriptor and compute (see `through` in ../branches.ts):
// the run goes on through it, its writes joining in each arm's order (reported without a fix).
import { through, writesOnEveryPath } from '../branches';
import { callsOut, type Joiner, type Rules } from './joiner';
import { armsMaySendComputed } from './computed';
import { contiguous } from './positional';

const RULES: Rules = {
  branch(step, run) {
    // After a head (an if/else whose arms end in writes) as after a plain write: the run is reported
    // without a fix either way once it takes writes from arms. A stream's head is corked in place.
    if (run.head && run.lead.stream) return undefined;
    // A call before the branch that may do I/O: its writes cannot move before it. One known to do no
    // output (`addr = getenv("REMOTE_ADDR");`) only computes what the arm may test or send.
    if (run.pending.some(callsOut)) return undefined;
    const lead = run.lead;
    const passage = through(step, lead.target, run.names, run.locals, run.sent, !!lead.stream, run.budget);
    if (!passage) return undefined;
    const prev = run.writes[run.writes.length - 1];
    // `through` never returns a passage without writes.
    if (prev && !contiguous(prev, passage.writes[0]!)) return undefined;
    if (!armsMaySendComputed(passage.writes, run)) return undefined;
    return {
      kind: 'take',
      writes: passage.writes,
      changed: passage.changed,
      everyPath: writesOnEveryPath(step),
    };
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
    'run.movedCalls',
    'run.clobbered',
    'run.sentBuffers',
    'run.armsClobber',
  ],
  rules: RULES,
};
