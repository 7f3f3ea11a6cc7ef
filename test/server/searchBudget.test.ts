// The run search's cost on any input shape: counted in operations (steps visited, and properties of
// steps read), never timed by the clock. A block of thousands of conditional writes that never make a
// run once took cubic time; now each visited step costs a bounded number of reads, and past a block's
// budget the function reports nothing and the analyzer logs one line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Analyzer, DEFAULT_SETTINGS } from 'writev-lint';
import type { Block, OtherStep, Step, WriteStep } from 'writev-lint/out/analyzer/model';
import { Budget, BudgetExceeded, BLOCK_BUDGET, PER_STEP } from 'writev-lint/out/analyzer/shapes/budget';
import { findRuns } from 'writev-lint/out/analyzer/shapes/sequences';

/** Counts every property read of the steps a search looks at (nested arms included). */
function counted(steps: readonly Step[], counter: { reads: number }): Step[] {
  return steps.map((step) => {
    const inner: Step =
      step.kind === 'branch'
        ? { ...step, arms: step.arms.map((a) => ({ ...a, steps: counted(a.steps, counter) })) }
        : step;
    return new Proxy(inner, {
      get(target, key, receiver) {
        counter.reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  });
}

let offset = 0;
const span = () => ({ start: offset, end: (offset += 10) });

function write(target: string, buf: string, condition?: string): WriteStep {
  return {
    kind: 'write',
    span: span(),
    target,
    fdText: target,
    targetNames: [target],
    callee: 'write',
    family: 'writev',
    pieces: [{ buf, len: 'n' }],
    reads: [buf, 'n'],
    template: { before: '', after: ';', indent: '  ' },
    ...(condition ? { condition } : {}),
  };
}

function other(reads: string[], writes: string[], calls: string[] = []): OtherStep {
  return { kind: 'other', span: span(), reads, writes, calls, barrier: false, output: calls.length > 0 };
}

/** Statement kinds real functions mix, as the front ends summarise them, writes to `fd` the most. */
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'hdr').map((buf) => write('fd', buf)), weight: 6 },
  fc
    .record({ fd: fc.constantFrom('fd', 'fd', 'out'), buf: fc.constantFrom('a', 'b', 'hdr') })
    .map(({ fd, buf }) => write(fd, buf)),
  fc
    .record({ buf: fc.constantFrom('a', 'b'), test: fc.constantFrom('(n == 1)', '(verbose)', '(x)', '(n)') })
    .map(({ buf, test }) => write('fd', buf, test)),
  fc
    .record({ w: fc.constantFrom('a', 'i', 'len'), r: fc.constantFrom('n', 'i') })
    .map(({ w, r }) => other([r], [w])),
  fc.constant(0).map(() => other(['a'], ['a'], ['memcpy'])),
  fc.constant(0).map((): OtherStep => ({ ...other([], []), comment: true })),
  fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 3 }).map((bufs): Step => ({
    kind: 'branch',
    span: span(),
    arms: [{ steps: bufs.map((b) => write('fd', b)), declares: [] }],
    partial: { condition: '(more)' },
  })),
);

/** Statements that let a run go on (writes, computations, comments, ifs that only write): long runs. */
const runningArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'hdr').map((buf) => write('fd', buf)), weight: 8 },
  { arbitrary: fc.constantFrom('i', 'len').map((name) => other(['n'], [name])), weight: 3 },
  { arbitrary: fc.constant(0).map((): OtherStep => ({ ...other([], []), comment: true })), weight: 1 },
  {
    arbitrary: fc.constant(0).map((): Step => ({
      kind: 'branch',
      span: span(),
      arms: [{ steps: [write('fd', 'a'), write('fd', 'b')], declares: [] }],
      partial: { condition: '(more)' },
    })),
    weight: 1,
  },
  { arbitrary: fc.constantFrom('(n == 1)', '(verbose)').map((test) => write('fd', 'a', test)), weight: 1 },
);

/** A block of `n` steps drawn from `arb`. */
const blockArb = (arb: fc.Arbitrary<Step>, max: number) =>
  fc.array(arb, { minLength: 1, maxLength: max, size: 'max' }).map((steps): Block => ({
    steps,
    locals: new Set(['fd', 'a', 'b', 'n', 'i', 'len', 'hdr', 'x', 'more']),
    indent: '  ',
  }));

/** Steps of a block, nested arms included. */
function size(steps: readonly Step[]): number {
  return steps.reduce(
    (sum, s) => sum + 1 + (s.kind === 'branch' ? size(s.arms.flatMap((a) => a.steps)) : 0),
    0,
  );
}

/** Runs the search over `block` with its budget, counting operations; undefined reads when it gave up. */
function search(block: Block): { visited: number; reads: number; gaveUp: boolean } {
  const counter = { reads: 0 };
  const budget = Budget.forBlock(block);
  let gaveUp = false;
  try {
    findRuns({ ...block, steps: counted(block.steps, counter) }, 2, budget);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    gaveUp = true;
  }
  return { visited: budget.spent, reads: counter.reads, gaveUp };
}

describe('the run search on any input shape', () => {
  for (const [kind, arb] of [
    ['mixtures of statements', stepArb],
    ['long runs of writes, computations and ifs that only write', runningArb],
  ] as const) {
    it(`reads a bounded number of step properties per step it visits, on random ${kind}`, () => {
      fc.assert(
        fc.property(blockArb(arb, 600), (block) => {
          const { visited, reads } = search(block);
          // A search that rebuilt what a run sent at each step would read every earlier write again.
          assert.ok(reads <= 30 * (visited + size(block.steps)), `${reads} reads for ${visited} visits`);
        }),
        { numRuns: 40, seed: 20261201 },
      );
    });
  }

  it('never visits more steps than a block budget allows, and gives up only past it', () => {
    fc.assert(
      fc.property(blockArb(stepArb, 400), (block) => {
        const { visited, gaveUp } = search(block);
        const limit = BLOCK_BUDGET + PER_STEP * block.steps.length;
        assert.ok(visited <= limit + 1, `${visited} visits, limit ${limit}`);
        assert.equal(gaveUp, visited > limit);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('keeps a long run of unconditional writes linear: one visit per step, found whole', () => {
    const steps = Array.from({ length: 3000 }, (_, k) => (k % 2 ? write('fd', 'a') : other(['i'], ['len'])));
    const block: Block = { steps, locals: new Set(['fd', 'a', 'i', 'len']), indent: '  ' };
    const budget = new Budget(Number.MAX_SAFE_INTEGER);
    const runs = findRuns(block, 2, budget);
    assert.ok(budget.spent <= 2 * steps.length, `${budget.spent} visits for ${steps.length} steps`);
    // One writev takes at most IOV_MAX (1024) buffers: 1,500 writes make two runs.
    assert.deepEqual(
      runs.map((r) => r.writes.length),
      [1024, 476],
    );
  });

  it('counts operations that grow linearly with the size of the worst shape, once past the budget', () => {
    const worst = (n: number): Block => ({
      steps: Array.from({ length: n }, (_, k) => write('fd', 'a', `(n == ${k})`)),
      locals: new Set(['fd', 'a', 'n']),
      indent: '  ',
    });
    const small = search(worst(1500));
    const large = search(worst(3000));
    assert.ok(small.gaveUp && large.gaveUp, 'both give up');
    assert.ok(
      large.reads < 1.5 * small.reads,
      `${small.reads} reads at 1,500 steps, ${large.reads} at 3,000`,
    );
  });
});

describe('a function of thousands of conditional writes', () => {
  const lines = (n: number, line: (k: number) => string) =>
    Array.from({ length: n }, (_, k) => line(k)).join('\n');

  for (const [language, path, text] of [
    [
      'C',
      '/tmp/shape.c',
      `void write_or_die(int fd, const void *buf, unsigned long n);\nvoid f(int fd, const char *a, int n)\n{\n${lines(
        3000,
        (k) => `  if (n == ${k}) { write_or_die(fd, a, n); }`,
      )}\n}\n`,
    ],
    [
      'TS',
      '/tmp/shape.ts',
      `import { writeSync } from 'node:fs';\nexport function f(fd: number, a: Buffer, n: number) {\n${lines(
        3000,
        (k) => `  if (n === ${k}) { writeSync(fd, a); }`,
      )}\n}\n`,
    ],
  ] as const) {
    it(`(${language}) reports nothing and logs one line naming the file and where it gave up`, async () => {
      const logged: string[] = [];
      const analyzer = await Analyzer.create((line) => logged.push(line));
      assert.deepEqual(analyzer.analyze(path, text, DEFAULT_SETTINGS), []);
      assert.equal(logged.length, 1, logged.join('\n'));
      assert.match(
        logged[0]!,
        new RegExp(`^${path}: .*line \\d+: the search for write runs gave up after \\d+ steps`),
      );
    });
  }
});
