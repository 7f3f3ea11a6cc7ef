// A write whose arguments call a function of the project (`write(fd, buf, frame_len(hdr))`): the first
// write of a run makes that call where it always did, before any write. A later write would make it
// before the earlier writes: harmless when the fact base says the function does no output, unless it
// may change what an earlier write sent (it is given that buffer). The write then joins without a fix,
// since moving the call is the reader's decision. A function whose body is nowhere the analyzer reads,
// and whose name the library tables do not know to do more, is taken to do no output; the finding says
// so, naming it, and a body found later (another file of the tree) decides instead. A write under an
// `if` whose test may do anything
// (`if (do_abort(c)) send_msg(...)`) may open a run, never join one.
import { assumedCalls } from '../assumptions';
import { meets } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

const MOVED =
  'a call in its arguments would run before the earlier writes; gathering them means making that call first, by hand';

const CHANGES = end(
  'argumentCalls',
  "a call in the write's arguments is given a buffer an earlier write sent",
);

const EFFECTS = end(
  'argumentCalls',
  'the test of the write calls a function that may do I/O, or changes something, between the writes',
);

const RULES: Rules = {
  write(step, run) {
    const calls = step.argumentCalls;
    if (!calls) return step;
    if (calls.io) return EFFECTS;
    if (meets(calls.changes, run.sent)) return CHANGES;
    if (calls.assumed) return { ...step, noFix: step.noFix ?? MOVED, assumes: assumedCalls(calls.assumed) };
    return { ...step, noFix: step.noFix ?? MOVED };
  },
};

/** A later write whose arguments call a function that does no output joins without a fix. */
export const argumentCalls: Joiner = {
  name: 'argumentCalls',
  facts: ['write.argumentCalls', 'write.noFix', 'write.assumes', 'run.sent'],
  rules: RULES,
};
