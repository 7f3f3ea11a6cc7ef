// Write helpers that pace their writes only under a configured rate (c/configuredPacing.ts), reached
// directly and through a printf-style front that tests the length it formatted
// (c/formattedLengthTests.ts). The fixture's markers say where each run is found (cShapes.test.ts);
// here, what a user reads about them: no fix, and the assumption the reading makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/configured-pacing.c';

describe('write helpers paced only under a configured rate', () => {
  it('reports runs of them without a fix, naming the configuration assumed', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    assert.equal(found.length, 2);
    for (const f of found) {
      assert.equal(f.fix, undefined, f.message);
      assert.match(
        f.message,
        /assuming conn->rate > 0 is false \(cp_conn_write\(\) paces its writes otherwise\)/,
      );
    }
    const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
    const lines = found.map((f) => lineOf(f.span.start));
    assert.deepEqual(
      lines.map((l) => text.split('\n')[l - 1]!.trim().split(/[\s(]/)[0]),
      ['cp_printf', 'if'],
    );
    // The front keeps its own reason for having no fix, and inherits the assumption.
    assert.match(found[0]!.message, /cp_printf\(\) formats its text before writing it/);
  });

  it('reads no helper paced in every configuration, by a local, or writing only in a mode', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['cp_slow_pair', 'cp_log_pair', 'cp_burst_pair'])
      assert.deepEqual(inFunction(found, text, fn), [], fn);
  });
});
