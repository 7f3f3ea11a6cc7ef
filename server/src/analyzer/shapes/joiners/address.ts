// A write that sends a variable's address (`write(fd, &len, sizeof len)`) sends its value at the time
// of the call; a gathered write, or a vector filled where each write stands, points at the variable,
// so assigning it between the writes would change what the earlier write sends.
import type { Span } from '../../model';
import { meets } from '../branches';
import { end, type Joiner } from './joiner';

const REASSIGNED = end(
  'address',
  'a statement between assigns a variable whose address an earlier write sent',
);

/** The variable a buffer expression takes the address of (`&len`, `&(len)`), if it is one. */
export function addressOf(buf: string): string | undefined {
  // `&len`, `(char *) &len`: a cast in front points at the variable all the same.
  return /^(?:\(\s*[\w\s*]+\)\s*)*&\s*\(?\s*([A-Za-z_]\w*)\s*\)?$/.exec(buf)?.[1];
}

const ADDRESSED = {};

/**
 * The spans of the branches passed whose one arm writes and then leaves (`if (!*cp) { ok = 0;
 * put(&ok); return; }`): what follows the branch never runs after those writes, so assigning a
 * variable they sent the address of changes nothing they send.
 */
const LEAVING = {};

/** A statement that assigns a variable whose address the run sent ends it. */
export const address: Joiner = {
  name: 'address',
  facts: ['write.pieces', 'write.span', 'other.writes', 'branch.partial', 'branch.span'],
  rules: {
    taken(step, run) {
      const leaving = run.recalled<Span[]>(LEAVING);
      if (leaving?.some((s) => s.start <= step.span.start && step.span.end <= s.end)) return;
      for (const p of step.pieces ?? []) {
        const name = addressOf(p.buf);
        // The variables whose address a write of the run sent.
        if (name) run.memory(ADDRESSED, () => new Set<string>()).add(name);
      }
    },
    cross(step, run) {
      const addressed = run.recalled<Set<string>>(ADDRESSED);
      return addressed && meets(step.writes, addressed) ? REASSIGNED : undefined;
    },
    // A test that assigns as it tests (`if ((len = next(p)) > 0)`, see ../quietTests.ts) runs between
    // the writes before the branch and those in its arms, as such a statement would.
    branch(step, run) {
      if (step.partial?.exitLast) run.memory<Span[]>(LEAVING, () => []).push(step.span);
      const addressed = run.recalled<Set<string>>(ADDRESSED);
      const effects = step.partial?.testEffects ?? [];
      return addressed && effects.some((e) => meets(e.writes, addressed)) ? REASSIGNED : undefined;
    },
  },
};
