// A statement that chains writes in one condition and goes on testing after them (`|| close(fd) < 0`)
// is a run of its own (the engine opens it alone): it joins nothing before it.
import { end, type Joiner, type Rules } from './joiner';

const ALONE = end('chain', 'the statement does more than write: it is a run of its own');

const RULES: Rules = { write: (step) => (step.alone ? ALONE : step) };

/** A write statement that does more than write ends the run before it. */
export const chain: Joiner = { name: 'chain', facts: ['write.alone'], rules: RULES };
