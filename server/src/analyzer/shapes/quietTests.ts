// An `if` whose test computes as it tests (`if ((p = getenv("HTTP_REFERER")) != NULL && *p != '\0')`,
// an optional header line between a request's unconditional lines): the test runs before the arms, once,
// like a statement placed at the head of every arm. When what it does is what a statement between
// writes may do (it calls nothing that may do I/O, and changes no descriptor, no global and nothing a
// write before it sent), the branch is, for the writes in its arms, a branch whose tests only read with
// that statement in front: a run may pass through it, or take the writes opening its arms.
import type { BranchStep, OtherStep } from '../model';

/**
 * The names the tests of `branch` change, when `computes` (the run's judgement of a statement at the
 * head of an arm) accepts every effect the front end listed for them; undefined when a test does more,
 * or the front end did not say what the tests do. A branch whose tests only read changes nothing (`[]`).
 * Reads no step but the branch's own test effects; changes nothing.
 */
export function quietTestChanges(
  branch: BranchStep,
  computes: (effect: OtherStep) => boolean,
): readonly string[] | undefined {
  if (!branch.partial?.opaque) return [];
  const effects = branch.partial.testEffects;
  if (!effects || effects.length === 0) return undefined;
  if (!effects.every((e) => !e.barrier && computes(e))) return undefined;
  return effects.flatMap((e) => e.writes);
}
