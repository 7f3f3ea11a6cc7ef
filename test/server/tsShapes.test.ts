// The C shapes: every fixture finds exactly what its `expect:` markers say, and nothing in negatives.c.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, expectations, fixture, fixtures, observed } from './helpers';

describe('TS/JS analysis', () => {
  for (const name of fixtures('ts', '.ts', '.js')) {
    it(`${name} yields exactly the findings its markers expect`, async () => {
      const text = fixture(name);
      const found = await analyzeFixture(name);
      assert.deepEqual(observed(text, found), expectations(text));
    });
  }

  it('flags nothing in the negative fixture (every "never flag" case)', async () => {
    assert.deepEqual(await analyzeFixture('ts/negatives.ts'), []);
  });
});
