// A write through a helper that picks its path by a test of the connection (its TLS session or its
// descriptor, see c/sessionChoices.ts) goes where that test says when it runs. A statement between two
// such writes that changes what the test reads (`c->secure = 1;`, `start_tls(c);`) sends the later
// writes by another path: one gathered call would send them all by the first.
import type { OtherStep } from '../../model';
import { end, type Joiner, type Rules } from './joiner';

const CHANGED = end(
  'choices',
  "a statement between changes what picks the writes' path (a session or the descriptor)",
);

/** The run's writes' choices, remembered as they are taken. */
const CHOSEN = {};

/** True when `step` may change `chosen` (a member path or a name, canonical). */
function changes(step: OtherStep, chosen: string): boolean {
  const root = /^[A-Za-z_]\w*/.exec(chosen)?.[0];
  if (!root || !step.writes.includes(root)) return false;
  const members = step.members?.filter((p) => p.startsWith(`${root}->`) || p.startsWith(`${root}.`));
  // Changed otherwise than through assignments of its members (handed to a call, assigned whole).
  if (chosen === root || !members || members.length === 0) return true;
  const within = (inner: string, outer: string) =>
    inner === outer || ['.', '->', '['].some((sep) => inner.startsWith(outer + sep));
  return members.some((p) => within(p, chosen) || within(chosen, p));
}

const RULES: Rules = {
  taken: (step, run) => {
    if (step.chosenBy) for (const c of step.chosenBy) run.memory(CHOSEN, () => new Set<string>()).add(c);
  },
  cross: (step, run) => {
    const chosen = run.recalled<Set<string>>(CHOSEN);
    if (!chosen || step.writes.length === 0) return undefined;
    for (const c of chosen) if (changes(step, c)) return CHANGED;
    return undefined;
  },
};

/** A statement changing what picks a session helper's path ends the run. */
export const choices: Joiner = {
  name: 'choices',
  facts: ['write.chosenBy', 'other.writes', 'other.members'],
  rules: RULES,
};
