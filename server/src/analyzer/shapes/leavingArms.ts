// An arm that only leaves (`else break;`, `else return;`) writes nothing and ends its path. A run that
// opens at the branch has written nothing yet where that path leaves, so such an arm is no reason to
// stop: the writes after the branch run on the other paths only, as the vector filled arm by arm would
// (`if (line[1]) put(fd, line + 1); else break; put(fd, "\r\n");` in a copy loop). Only where nothing
// of the run was written before the leave: writes made before it would have to be sent before leaving,
// which is an early exit's case (see joiners/earlyExit.ts).
import type { Step } from '../model';

/** True when the arm `steps` hold one statement that only leaves the block (and comments). */
export function leavesOnly(steps: readonly Step[]): boolean {
  const own = steps.filter((s) => !(s.kind === 'other' && s.comment));
  const only = own[0];
  return own.length === 1 && only?.kind === 'other' && only.quietLeave === true;
}
