// Writes whose test is kept in a variable (stored-tests.c): they join a run like a write whose count is
// kept, without a fix, and never when the count is kept too, the test calls something, or the variable
// is read or handed on before the next write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/stored-tests.c';

/** The finding inside function `fn` of the fixture, if any. */

describe('C writes whose test is kept', () => {
  it('joins the write to the writes after it, saying why there is no fix', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const [fn, name] of [
      ['stored_then_key', 'ok'],
      ['declared', 'sent'],
    ] as const) {
      const f = inFunction(found, text, fn)[0];
      assert.equal(f?.syscalls, 2, fn);
      assert.equal(f?.fix, undefined, fn);
      assert.match(f?.message ?? '', new RegExp(`whether write\\(\\) succeeded is kept in ${name}`), fn);
    }
  });

  it('keeps the writes apart when the test is not all that is kept or it is read before the next write', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of [
      'count_kept',
      'length_called',
      'test_read_between',
      'address_taken',
      'leaves_on_success',
      'count_leaves_on_success',
    ])
      assert.equal(inFunction(found, text, fn)[0], undefined, fn);
  });
});
