// A loop between two writes that only computes (`while (n > 0 && s[n - 1] == '\n') n--;`, a checksum
// summed over a buffer) is, for a run, one statement: the front end summarises it (LoopStep's
// `computation`: no write in it, no call that may print, nothing that leaves the function). The
// joiners then judge it as any statement between writes: a later write sending what it computed joins
// without a fix; otherwise a fix moves the loop after the gathered write, as it moves any statement.
import type { Joiner, Rules } from './joiner';

const RULES: Rules = {
  loop: (step) => step.computation,
};

/** A loop that only computes is one statement between the writes. */
export const computingLoop: Joiner = {
  name: 'computingLoop',
  facts: ['loop.computation'],
  rules: RULES,
};
