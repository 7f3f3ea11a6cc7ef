// `return write(...)`: the path ends with the write, so no write can follow it (and none precede it
// in a run that it opens: the engine opens no run there).
import { end, type Joiner, type Rules } from './joiner';

const RETURNS = end('leaves', 'the write leaves the function');

const RULES: Rules = { after: (step) => (step.leaves ? RETURNS : undefined) };

/** A write that leaves the function is the last of its run. */
export const leaves: Joiner = { name: 'leaves', facts: ['write.leaves'], rules: RULES };
