// The joiners, in the order the engine asks them. Those that only end a run may come in any order;
// those that change a joining write (earlyExit, computed) come after them, and of the rules on a
// branch, the first that answers decides (an early exit before the others).
import { address } from './address';
import { argumentCalls } from './argumentCalls';
import { chain } from './chain';
import { choices } from './choices';
import { computed } from './computed';
import { computingBranch } from './computingBranch';
import { computingLoop } from './computingLoop';
import { conditions } from './conditions';
import { crossing } from './crossing';
import { descriptor } from './descriptor';
import { distance } from './distance';
import { earlyExit } from './earlyExit';
import { exclusiveTests } from './exclusiveTests';
import { failureState } from './failureState';
import { frees } from './frees';
import { gates } from './gates';
import { globals } from './globals';
import { iovMax } from './iovMax';
import type { Joiner } from './joiner';
import { leaves } from './leaves';
import { opening } from './opening';
import { passage } from './passage';
import { positional } from './positional';
import { results } from './results';
import { staticReturns } from './staticReturns';

export type { BranchVerdict, End, Fact, Joiner, Rules, RunSoFar } from './joiner';

/** Every idiom the run engine knows, in the order it asks them. */
export const JOINERS: readonly Joiner[] = [
  descriptor,
  chain,
  positional,
  gates,
  results,
  failureState,
  distance,
  globals,
  frees,
  choices,
  staticReturns,
  address,
  crossing,
  argumentCalls,
  earlyExit,
  iovMax,
  passage,
  opening,
  computed,
  leaves,
  conditions,
  exclusiveTests,
  // Last of the branch rules: only a branch none of the others answers for is folded.
  computingBranch,
  computingLoop,
];
