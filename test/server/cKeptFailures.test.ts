// Kept results checked in other shapes (a failure noted and passed over, the assignment as the truth
// value) and the loops that only look like one write per item: what the findings say and offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/kept-failures.c';
const LOOPS = 'c/rewritten-loops.c';

/** The findings that start inside function `fn` of `text`. */

describe('C kept results in other shapes', () => {
  it('joins writes whose failures are only counted, without a fix, and says why', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['kf_log_line', 'kf_counted', 'kf_flagged']) {
      const [run, ...more] = inFunction(found, text, fn);
      assert.equal(more.length, 0, fn);
      assert.equal(run?.syscalls, 2, fn);
      assert.equal(run?.fix, undefined, fn);
      assert.match(run?.message ?? '', /kept and checked by the statements after it/, fn);
    }
  });

  it('never joins across a step that reads what a failure path updated', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['kf_flag_tested', 'kf_count_sent', 'kf_error_sent', 'kf_failure_drops'])
      assert.deepEqual(inFunction(found, text, fn), [], fn);
  });

  it('reads `(ret = put(...))` as a failure test only for a helper that returns 0 on success', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['kf_put_two', 'kf_put_chained']) {
      const [run] = inFunction(found, text, fn);
      assert.equal(run?.syscalls, 2, fn);
      assert.match(run?.message ?? '', /kf_put\(\) is this project's own write loop/, fn);
    }
    assert.deepEqual(inFunction(found, text, 'kf_count_two'), []);
  });

  it('reports no loop of writes for a write-in-full loop or a variable rewritten each iteration', async () => {
    const text = fixture(LOOPS);
    const found = await analyzeFixture(LOOPS);
    for (const fn of ['kf_copy_in_full', 'kf_whole', 'kf_save_ranges', 'kf_save_lows'])
      assert.deepEqual(inFunction(found, text, fn), [], fn);
    for (const fn of ['kf_items', 'kf_save_members'])
      assert.equal(inFunction(found, text, fn)[0]?.code, 'loop-writes', fn);
  });
});
