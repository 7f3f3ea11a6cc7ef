// A bound on the work one block's run search may do. The search is linear on ordinary code, but a
// block of many conditional writes that never make a run makes it try again from every write: on a
// machine-made function of thousands of statements that is quadratic, and the language server repeats
// it on every keystroke. Past the bound the block is given up, and its function reports nothing.

/**
 * Steps a block's search may visit beyond {@link PER_STEP} per step. On real trees the search visits
 * each step about once; this leaves room for hundreds of times that.
 */
export const BLOCK_BUDGET = 20_000;

/** Visits per step of the block on top of {@link BLOCK_BUDGET}, so long linear blocks always pass. */
export const PER_STEP = 4;

/** Thrown when a block's search has visited more steps than its budget. */
export class BudgetExceeded extends Error {
  readonly code = 'BUDGET_EXCEEDED';

  constructor(readonly visited: number) {
    super(`the search for write runs gave up after ${visited} steps`);
  }
}

/** Counts the steps a search visits and stops it past `limit`. */
export class Budget {
  private visited = 0;

  constructor(private readonly limit = BLOCK_BUDGET) {}

  /** The budget for one block of `steps` steps. */
  static forBlock(block: { readonly steps: readonly unknown[] }): Budget {
    return new Budget(BLOCK_BUDGET + PER_STEP * block.steps.length);
  }

  /** Counts one visited step; throws {@link BudgetExceeded} past the limit. */
  visit(): void {
    if (++this.visited > this.limit) throw new BudgetExceeded(this.visited);
  }

  /** Steps visited so far. */
  get spent(): number {
    return this.visited;
  }
}
