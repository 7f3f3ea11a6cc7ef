// A statement between the writes may compute what a later write sends (filling a header's fields one
// by one): a fix cannot move it after the gathered call, but filling the vector where each write
// stands still sends the same bytes, so the write joins without a fix. Unless a call between may do
// I/O (or fail loudly), which is a reason to split, or a statement changed in place a buffer an
// earlier write sent: then the run ends before this write.
import { meets } from '../branches';
import type { WriteStep } from '../../model';
import { callsOut, end, type Joiner, type Rules, type RunSoFar } from './joiner';

const COMPUTED =
  'a statement between the writes computes what a later one sends; gathering them means filling the vector where each write stands';

const CALLED = end(
  'computed',
  'a call between may do I/O, and a statement between computes what the write sends',
);
const CLOBBERED = end('computed', 'a statement between changes a buffer an earlier write sent');

const RULES: Rules = {
  write(step, run) {
    if (!meets(step.reads, run.changedSoFar) && !meets(step.reads, run.changedInArms)) return step;
    // (A front end that does not mark calls as quiet with `output: false` gets no such run.)
    if (run.movedCalls || run.pending.some(callsOut)) return CALLED;
    // Each statement against the writes before it: one that fills a header before the write that
    // sends it is the preparation, not a change of bytes already queued.
    if (run.clobbered || run.pending.some((p) => run.sentBuffers.changedBy(p))) return CLOBBERED;
    if (run.armsClobber) return CLOBBERED;
    return { ...step, noFix: step.noFix ?? COMPUTED };
  },
};

/**
 * True when writes a run takes from inside a branch (opening its arms, or passing through it) may send
 * what a statement before the branch computed (`tail = size % 4;` then `if (tail) write(fd, pad, 4 -
 * tail);`): no call between may do I/O, and nothing changed a buffer an earlier write sent. Such writes
 * are already reported without a fix (they stand in an arm), so the vector is filled where each stands.
 * True too when they read nothing computed between.
 */
export function armsMaySendComputed(writes: readonly WriteStep[], run: RunSoFar): boolean {
  if (!writes.some((w) => meets(w.reads, run.changedSoFar))) return true;
  if (run.movedCalls || run.pending.some(callsOut)) return false;
  return !run.clobbered && !run.armsClobber && !run.pending.some((p) => run.sentBuffers.changedBy(p));
}

/** A write whose buffers a statement between computed joins without a fix, when nothing sent changed. */
export const computed: Joiner = {
  name: 'computed',
  facts: [
    'write.reads',
    'write.noFix',
    'other.mutated',
    'other.mutatedPaths',
    'other.writes',
    'run.changedSoFar',
    'run.changedInArms',
    'run.movedCalls',
    'run.pending',
    'run.clobbered',
    'run.sentBuffers',
    'run.armsClobber',
  ],
  rules: RULES,
};
