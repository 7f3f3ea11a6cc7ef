// Where runs stop, for a development census of the joiners (scripts/run-stops.js): an observer that a
// tool sets and the engine calls each time a run stops before its block's end, or a run it gathered
// is dropped by a joiner's last word on it. Shipped behaviour never sets one; unset, the engine pays
// one test of a module variable per run that stops.
import type { Step, WriteStep } from '../model';
import type { End } from './joiners';

/** A run that stopped growing before its block's end, as the engine saw it. */
export interface Stop {
  /** The block's steps (the same array for every stop of one block). */
  readonly steps: readonly Step[];
  /** The index of the step the run opened at. */
  readonly from: number;
  /** The index of the run's last step (its last write, or a branch it took writes from). */
  readonly last: number;
  /** The index of the step the run stopped at (for `finish`, the step after `last`). */
  readonly at: number;
  /** The run's descriptor, canonical. */
  readonly target: string;
  /** The writes the run had gathered (after its head, if any). */
  readonly writes: readonly WriteStep[];
  /** Why: the joiner that ended it and its reason. */
  readonly ended: End;
  /**
   * `walk`: a step ended the run; `opening`: a statement after a branch's writes kept it from
   * opening; `finish`: a joiner dropped the run it had gathered.
   */
  readonly where: 'walk' | 'opening' | 'finish';
}

/** Called for every stop while set. */
export type StopObserver = (stop: Stop) => void;

let observer: StopObserver | undefined;

/** Sets (or with undefined, clears) the observer of stops; returns the one it replaces. */
export function observeStops(next: StopObserver | undefined): StopObserver | undefined {
  const previous = observer;
  observer = next;
  return previous;
}

/** The observer, if a tool set one: the engine asks this before it builds a {@link Stop}. */
export function stopObserver(): StopObserver | undefined {
  return observer;
}
