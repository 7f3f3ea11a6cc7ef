// Memory a write already sent is released between the writes (`free(buf)`): a gathered write would
// send it after that.
import { meets } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

const FREED = end('frees', 'a statement between releases memory an earlier write sent');

const RULES: Rules = {
  cross: (step, run) => (step.frees && meets(step.frees, run.sent) ? FREED : undefined),
};

/** A statement that frees what the run sent ends it. */
export const frees: Joiner = { name: 'frees', facts: ['other.frees', 'run.sent'], rules: RULES };
