// What a call changes, closed over the call graph (assignedGlobals.ts): the closure shares sets between
// functions that change the same names and reads each file once, and must still answer what the plain
// fixed point answers (every function: its own names and every callee's, to no change) on any graph,
// recursion and functions defined twice included. And the tree's waiting helpers (waitingHelpers.ts),
// which read a file again only when it calls a name found in the last round.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  closedAssignments,
  treeAssignments,
  type AssigningFunction,
} from 'writev-lint/out/analyzer/c/assignedGlobals';
import { quietFunctions, type CFunctionFact } from 'writev-lint/out/analyzer/c/functionFacts';
import { waitingFunctions } from 'writev-lint/out/analyzer/c/waitingFunctions';
import { treeWaiting } from 'writev-lint/out/analyzer/c/waitingHelpers';
import { libraryWaits } from 'writev-lint/out/analyzer/catalogue';

/** The plain fixed point: rounds over every call until no set grows (the closure as first written). */
function naive(
  facts: readonly AssigningFunction[],
  elsewhere: (name: string) => ReadonlySet<string> | undefined,
): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const f of facts) {
    const set = sets.get(f.name) ?? new Set<string>();
    for (const n of f.assigns ?? []) set.add(n);
    sets.set(f.name, set);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const f of facts) {
      const set = sets.get(f.name)!;
      for (const c of f.calls) {
        if (c === f.name) continue;
        for (const n of sets.get(c) ?? (sets.has(c) ? [] : (elsewhere(c) ?? [])))
          if (!set.has(n)) {
            set.add(n);
            grew = true;
          }
      }
    }
  }
  return new Map([...sets].filter(([, s]) => s.size > 0).map(([name, s]) => [name, [...s].sort()]));
}

const sorted = (found: ReadonlyMap<string, ReadonlySet<string>>) =>
  new Map([...found].map(([name, s]) => [name, [...s].sort()]));

const NAMES = ['f', 'g', 'h', 'k', 'm', 'x'];
const GLOBALS = ['a', 'b', 'c', 'd'];

const fact: fc.Arbitrary<AssigningFunction> = fc.record({
  name: fc.constantFrom(...NAMES),
  exported: fc.boolean(),
  calls: fc.array(fc.constantFrom(...NAMES, 'ext1', 'ext2', 'printf'), { maxLength: 4 }),
  assigns: fc.array(fc.constantFrom(...GLOBALS), { maxLength: 2 }),
});

describe('closedAssignments', () => {
  it('answers the plain fixed point on any call graph, other files’ sets included', () => {
    const outside = new Map([
      ['ext1', new Set(['e1', 'a'])],
      ['ext2', new Set(['e2'])],
    ]);
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 8 }), (facts) => {
        const before = JSON.stringify([...outside].map(([n, s]) => [n, [...s]]));
        const found = closedAssignments(facts, (name) => outside.get(name));
        assert.deepEqual(
          sorted(found),
          naive(facts, (name) => outside.get(name)),
        );
        // The sets other files gave are shared, never modified.
        assert.equal(JSON.stringify([...outside].map(([n, s]) => [n, [...s]])), before);
      }),
    );
  });

  it('shares the set of the one helper a function’s names all come from', () => {
    const found = closedAssignments(
      [
        { name: 'fatal', calls: ['cleanup'], assigns: [] },
        { name: 'cleanup', calls: [], assigns: ['state', 'pidfile'] },
        { name: 'send_reply', calls: ['fatal', 'write'], assigns: [] },
        { name: 'refill', calls: ['fatal'], assigns: ['gbuf'] },
      ],
      () => undefined,
    );
    assert.equal(found.get('send_reply'), found.get('cleanup'));
    assert.equal(found.get('fatal'), found.get('cleanup'));
    assert.deepEqual([...found.get('refill')!], ['gbuf', 'state', 'pidfile']);
  });
});

describe('treeAssignments', () => {
  it('answers, for what other files can call, the plain fixed point over every file', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fact, { maxLength: 5 }), fc.boolean()), { maxLength: 4 }),
        (files) => {
          const found = sorted(treeAssignments(files));
          const shown = new Set(
            files.flatMap(([facts, shared]) => facts.filter((f) => shared || f.exported).map((f) => f.name)),
          );
          // The plain fixed point over one graph whose nodes are (file, name): a call of a name the file
          // does not define reaches every file's definition others can see (a name two files show
          // changes what either does).
          const key = (i: number, name: string) => `${i}:${name}`;
          const nodes: AssigningFunction[] = files.flatMap(([facts], i) => {
            const own = new Set(facts.map((f) => f.name));
            return facts.map((f) => ({
              name: key(i, f.name),
              assigns: f.assigns ?? [],
              calls: f.calls.flatMap((c) =>
                c === f.name
                  ? []
                  : own.has(c)
                    ? [key(i, c)]
                    : files.flatMap(([other, shared], j) =>
                        other.some((g) => g.name === c && (shared || g.exported)) ? [key(j, c)] : [],
                      ),
              ),
            }));
          });
          const closed = naive(nodes, () => undefined);
          const expected = new Map<string, string[]>();
          for (const name of shown) {
            const union = new Set<string>();
            files.forEach(([facts, shared], i) => {
              if (facts.some((f) => f.name === name && (shared || f.exported)))
                for (const n of closed.get(key(i, name)) ?? []) union.add(n);
            });
            if (union.size > 0) expected.set(name, [...union].sort());
          }
          assert.deepEqual(found, expected);
        },
      ),
    );
  });
});

/** The tree's waiting helpers as first written: every file that calls a wait read again each round. */
function everyRound(
  files: readonly (readonly [readonly CFunctionFact[], boolean])[],
  quiet: (name: string) => boolean,
): Set<string> {
  const visible = new Map<string, number>();
  const shown = files.map(
    ([facts, shared]) => new Set(facts.filter((f) => shared || f.exported).map((f) => f.name)),
  );
  for (const names of shown) for (const name of names) visible.set(name, (visible.get(name) ?? 0) + 1);
  const found = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    const counts = new Map<string, number>();
    files.forEach(([facts], i) => {
      if (!facts.some((f) => f.calls.some((c) => libraryWaits(c) || found.has(c)))) return;
      const own = new Set(facts.map((f) => f.name));
      const elsewhere = (name: string) => found.has(name) && !own.has(name);
      const ownQuiet = quietFunctions(facts, (name) => quiet(name) || elsewhere(name));
      const waiting = waitingFunctions(facts, (name) => ownQuiet.has(name), elsewhere);
      for (const name of shown[i]!) if (waiting.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    for (const [name, n] of counts)
      if (!found.has(name) && n === visible.get(name)) {
        found.add(name);
        grew = true;
      }
  }
  return found;
}

describe('treeWaiting', () => {
  it('answers as reading every file that calls a wait in every round', () => {
    const waitingFact: fc.Arbitrary<CFunctionFact> = fc.record({
      name: fc.constantFrom('f', 'g', 'h', 'k', 'poll'),
      exported: fc.boolean(),
      opaque: fc.boolean(),
      calls: fc.array(fc.constantFrom('f', 'g', 'h', 'k', 'poll', 'usleep', 'printf', 'strlen'), {
        maxLength: 3,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(waitingFact, { maxLength: 4 }), fc.boolean()), { maxLength: 4 }),
        (files) => {
          const quiet = (name: string) => name === 'strlen';
          assert.deepEqual([...treeWaiting(files, quiet)].sort(), [...everyRound(files, quiet)].sort());
        },
      ),
      { numRuns: 500 },
    );
  });
});
