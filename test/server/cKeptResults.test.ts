// Results kept in variables (kept-results.c): which runs they join, why none has a fix, and the dead
// branches (`if (0)`, `#if 0`) a run passes as it passes a comment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/kept-results.c';

/** The finding inside function `fn` of the fixture, if any. */

describe('C results kept in variables', () => {
  it('joins a write whose result is overwritten, tested after the run, or asserted, without a fix', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['overwritten', 'tested_after']) {
      const f = inFunction(found, text, fn)[0];
      assert.equal(f?.fix, undefined, fn);
      assert.match(f?.message ?? '', /kept in n, which a gathered call would set to the total/, fn);
    }
    const asserted = inFunction(found, text, 'asserted')[0];
    assert.equal(asserted?.fix, undefined);
    assert.match(asserted?.message ?? '', /checked by the statements after it/);
  });

  it('reads a write gated on the previous result as that run going on, never as its own condition', async () => {
    const text = fixture(NAME);
    const gated = inFunction(await analyzeFixture(NAME), text, 'gated')[0];
    assert.equal(gated?.syscalls, 3);
    assert.match(gated?.message ?? '', /^3 syscalls to 1/, 'not "up to": the gates are the failure checks');
    assert.equal(gated?.fix, undefined);
  });

  it('takes writes chained by && on their bare results only where the outcome is ignored', async () => {
    const text = fixture(NAME);
    const chain = inFunction(await analyzeFixture(NAME), text, 'ignored_chain')[0];
    assert.equal(chain?.syscalls, 3);
    assert.match(chain?.message ?? '', /failures \(-1\) included/);
  });

  it('passes if (0) and #if 0, whose writes never run, and leaves them out of the vector', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['dead_debug', 'dead_block']) {
      const f = inFunction(found, text, fn)[0];
      assert.equal(f?.syscalls, 2, fn);
      const fix = f?.fix?.edits.map((e) => e.newText).join('\n') ?? '';
      assert.match(fix, /writev\(1, iov, 2\)/, fn);
      assert.doesNotMatch(fix, /iov_base = \(void \*\)"\[debug\]"/, fn);
      assert.match(fix, /\[debug\]/, `${fn}: the dead statement stays, after the gathered call`);
    }
    assert.equal(inFunction(found, text, 'all_out')[0], undefined, 'a dead write joins no loop write');
  });

  it('never joins across a use of the count: as a length, sent, a pointer step, a retry, a copy', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const traps = [
      'count_as_length',
      'count_sent',
      'rest_after_short',
      'remembered',
      'advanced_after',
      'retried',
      'shared_count',
      'gated_on_count',
    ];
    for (const fn of traps) assert.equal(inFunction(found, text, fn)[0], undefined, fn);
  });
});
