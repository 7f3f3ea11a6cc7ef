import type { BenchSize } from './result';

/** A target a case's figures are checked against, and the size whose workload it was set for. */
export interface Target {
  /** What is compared, the measured value and the bound, e.g. `git / batched: 1.62x (target >= 1.5x)`. */
  description: string;
  /** Whether the measured value is within the bound. */
  met: boolean;
  /**
   * The size whose workload the target was set for. At any other size the figure is shown but not
   * judged: a smaller workload weighs fixed costs (a process's start-up) differently, so a verdict
   * there would say nothing about the target.
   */
  size: BenchSize;
}

/**
 * The line a target prints at `size`: `met: ...` or `NOT met: ...` at the size it was set for,
 * `not judged at --size S (set for --size F): ...` at any other.
 */
export function targetLine(target: Target, size: BenchSize): string {
  if (size !== target.size) {
    return `not judged at --size ${size} (set for --size ${target.size}): ${target.description}`;
  }
  return `${target.met ? 'met' : 'NOT met'}: ${target.description}`;
}
