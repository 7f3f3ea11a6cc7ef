// The run engine over steps built by hand, one idiom at a time: each joiner ends (or changes) the run
// where its idiom says, and the run names the joiner that stopped it. The front ends' own tests
// (cShapes, tsShapes...) check the same rules from source text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BranchStep, LoopStep, OtherStep, Step, WriteStep } from 'writev-lint/out/analyzer/model';
import { JOINERS } from 'writev-lint/out/analyzer/shapes/joiners';
import { findRuns, type WriteRun } from 'writev-lint/out/analyzer/shapes/sequences';

const SPAN = { start: 0, end: 0 };

function write(buf: string, extra: Partial<WriteStep> = {}): WriteStep {
  return {
    kind: 'write',
    span: SPAN,
    target: 'fd',
    fdText: 'fd',
    targetNames: ['fd'],
    callee: 'write_in_full',
    family: 'writev_in_full',
    pieces: [{ buf, len: 'n' }],
    reads: [buf.replace(/^&/, ''), 'n'],
    template: { before: '', after: ';', indent: '' },
    ...extra,
  };
}

function other(extra: Partial<OtherStep> = {}): OtherStep {
  return { kind: 'other', span: SPAN, reads: [], writes: [], calls: [], barrier: false, ...extra };
}

function branch(arms: readonly (readonly Step[])[], partial?: BranchStep['partial']): BranchStep {
  return { kind: 'branch', span: SPAN, arms: arms.map((steps) => ({ steps, declares: [] })), partial };
}

const LOOP: LoopStep = { kind: 'loop', span: SPAN, body: [], varying: [], mutated: [] };

/** The runs of `steps` (spans numbered in order, so a run's span says which steps it covers). */
function runs(steps: readonly Step[], locals = ['fd', 'a', 'b', 'c', 'd', 'n', 'x', 'more']): WriteRun[] {
  const numbered = steps.map((s, k) => ({ ...s, span: { start: k, end: k + 1 } }));
  return findRuns({ steps: numbered, locals: new Set(locals), indent: '' }, 2);
}

/** The one run's writes (by first buffer) and the joiner that ended it. */
function only(steps: readonly Step[], locals?: string[]): { bufs: string[]; ended?: string } {
  const found = runs(steps, locals);
  assert.equal(found.length, 1, `runs: ${JSON.stringify(found.map((r) => r.span))}`);
  const r = found[0]!;
  return { bufs: r.writes.map((w) => w.pieces?.[0]?.buf ?? '?'), ended: r.ended?.joiner };
}

describe('the run engine and its joiners', () => {
  it('lists each joiner once, by a unique name, with the facts it reads', () => {
    const names = JOINERS.map((j) => j.name);
    assert.equal(new Set(names).size, names.length, names.join(' '));
    for (const j of JOINERS) assert.ok(j.facts.length > 0, `${j.name} reads no facts`);
  });

  it('descriptor: a write to another descriptor ends the run', () => {
    assert.deepEqual(only([write('a'), write('b'), write('c', { target: 'out', targetNames: ['out'] })]), {
      bufs: ['a', 'b'],
      ended: 'descriptor',
    });
  });

  it('chain: a statement that does more than write joins nothing before it', () => {
    assert.deepEqual(only([write('a'), write('b'), write('c', { alone: true })]), {
      bufs: ['a', 'b'],
      ended: 'chain',
    });
  });

  it('positional: a write away from the previous end ends the run', () => {
    const at = (a: string, next: string) => ({ position: { at: a, next: [next] } });
    assert.deepEqual(only([write('a', at('0', '1')), write('b', at('1', '2')), write('c', at('9', '10'))]), {
      bufs: ['a', 'b'],
      ended: 'positional',
    });
  });

  it("results: a write that sends an earlier write's kept result ends the run", () => {
    assert.deepEqual(only([write('a', { assigns: ['x'] }), write('b'), write('&x')]), {
      bufs: ['a', 'b'],
      ended: 'results',
    });
  });

  it('distance: four unrelated statements between two writes end the run', () => {
    const unrelated = ['c', 'd', 'x', 'more'].map((n) => other({ writes: [n] }));
    assert.deepEqual(only([write('a'), write('b'), ...unrelated, write('n')]), {
      bufs: ['a', 'b'],
      ended: 'distance',
    });
  });

  it('globals: a global sent after a call, or any write after a global was set, ends the run', () => {
    const call = other({ calls: ['log'], output: true });
    assert.deepEqual(only([write('a'), write('b'), call, write('g')]), {
      bufs: ['a', 'b'],
      ended: 'globals',
    });
    const set = other({ writes: ['msg'], setsGlobal: true });
    assert.deepEqual(only([write('a'), write('b'), set, write('c')]), { bufs: ['a', 'b'], ended: 'globals' });
  });

  it('frees: releasing memory a write sent ends the run', () => {
    assert.deepEqual(only([write('a'), write('b'), other({ frees: ['b'], writes: ['b'] }), write('c')]), {
      bufs: ['a', 'b'],
      ended: 'frees',
    });
  });

  it('address: assigning a variable whose address a write sent ends the run', () => {
    assert.deepEqual(only([write('&x'), write('b'), other({ writes: ['x'] }), write('c')]), {
      bufs: ['&x', 'b'],
      ended: 'address',
    });
  });

  it('crossing: a statement that may do I/O ends the run', () => {
    assert.deepEqual(only([write('a'), write('b'), other({ barrier: true }), write('c')]), {
      bufs: ['a', 'b'],
      ended: 'crossing',
    });
  });

  it('earlyExit: writes after an early exit join under its negated test, without a fix', () => {
    const exit = branch([[other({ barrier: true })]], { condition: '(!more)', exit: { reads: ['more'] } });
    const [r] = runs([write('a'), exit, write('b')]);
    assert.ok(r);
    assert.equal(r.writes[1]?.condition, '(!(!more))');
    assert.match(r.writes[1]?.noFix ?? '', /early exit/);
    const global = branch([[other({ barrier: true })]], { condition: '(!g)', exit: { reads: ['g'] } });
    assert.deepEqual(only([write('a'), write('b'), global, write('c')]), {
      bufs: ['a', 'b'],
      ended: 'earlyExit',
    });
  });

  it('iovMax: a run stops at as many writes as one writev takes', () => {
    const found = runs(Array.from({ length: 1030 }, () => write('a')));
    assert.deepEqual(
      found.map((r) => [r.writes.length, r.ended?.joiner]),
      [
        [1024, 'iovMax'],
        [6, undefined],
      ],
    );
    // A frame wrapper sends several buffers a call: the run counts buffers, not calls.
    const frames = runs(Array.from({ length: 600 }, () => write('a', { syscalls: 2 })));
    assert.deepEqual(
      frames.map((r) => [r.writes.length, r.syscalls, r.ended?.joiner]),
      [
        [512, 1024, 'iovMax'],
        [88, 176, undefined],
      ],
    );
  });

  it('passage: the run goes on through an if/else whose arms only write', () => {
    // Two arms' writes are two statements, with spans of their own (a write two switch cases share
    // is listed once, by its span).
    const c = write('c', { span: { start: 10, end: 11 } });
    const r = only([write('a'), branch([[write('b')], [c]]), write('d')]);
    assert.deepEqual(r, { bufs: ['a', 'b', 'c', 'd'], ended: undefined });
  });

  it('opening: the writes that open an if end the run', () => {
    const ifBody = branch([[write('c'), other({ barrier: true })]], { condition: '(x)' });
    assert.deepEqual(only([write('a'), write('b'), ifBody, write('d')]), {
      bufs: ['a', 'b', 'c'],
      ended: 'opening',
    });
  });

  it('computed: a write whose buffer a statement between computed joins without a fix', () => {
    const [r] = runs([write('a'), other({ writes: ['b'] }), write('b')]);
    assert.ok(r);
    assert.match(r.writes[1]?.noFix ?? '', /computes what a later one sends/);
    assert.deepEqual(only([write('a'), write('b'), other({ writes: ['b'] }), write('b')]), {
      bufs: ['a', 'b'],
      ended: 'computed',
    });
  });

  it('leaves: a write that returns is the last of its run', () => {
    assert.deepEqual(only([write('a'), write('b', { leaves: true }), write('c')]), {
      bufs: ['a', 'b'],
      ended: 'leaves',
    });
  });

  it('conditions: writes under tests that may exclude each other make no run', () => {
    assert.deepEqual(runs([write('a', { condition: '(x)' }), write('b', { condition: '(!x)' })]), []);
    const [r] = runs([write('a', { condition: '(bell)' }), write('b', { condition: '(prompt)' })]);
    assert.ok(r);
    assert.match(r.writes[0]?.noFix ?? '', /every write is under a test/);
  });

  it('the engine: a loop between the writes ends the run', () => {
    assert.deepEqual(only([write('a'), write('b'), LOOP, write('c')]), { bufs: ['a', 'b'], ended: 'engine' });
  });
});
