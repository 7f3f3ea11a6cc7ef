// The TS/JS shapes: every fixture finds exactly what its `expect:` markers say, and nothing in negatives.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { applyEdits, DEFAULT_SETTINGS } from 'writev-lint';
import { analyzeFixture, analyzer, expectations, fixture, fixtures, FIXTURES, observed } from './helpers';

/** The idioms every front end finds, one fixture each. */
const IDIOMS = ['adjacent', 'betweenStatements', 'branchTails', 'wrappers', 'loops'];

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

  it('has a fixture with expected findings for each idiom', () => {
    for (const idiom of IDIOMS) {
      const name = `ts/${idiom}.ts`;
      assert.ok(fixtures('ts', '.ts').includes(name), name);
      assert.ok(expectations(fixture(name)).length > 0, `${name} expects findings`);
    }
  });

  it('tells how to gather a loop: cork a stream around it, collect buffers for a descriptor', async () => {
    const a = await analyzer();
    const path = join(FIXTURES, 'loopAdvice.ts');
    const text = [
      "import * as fs from 'node:fs';",
      "import type { Writable } from 'node:stream';",
      'export function lines(out: Writable, all: readonly string[]): void {',
      '  for (const line of all) out.write(line);',
      '}',
      'export function chunks(fd: number, all: readonly Uint8Array[]): void {',
      '  for (const chunk of all) fs.writeSync(fd, chunk);',
      '}',
      '',
    ].join('\n');
    const messages = a.analyze(path, text, DEFAULT_SETTINGS).map((f) => `${f.code}: ${f.message}`);
    assert.deepEqual(messages, [
      'loop-writes: one syscall per iteration to out (out.write()): cork() the stream before the loop and uncork() it after, so its writes go out as one writev',
      'loop-writes: one syscall per iteration to fd (fs.writeSync()): collect the buffers and send them with one writevInFull() after the loop',
    ]);
  });

  it('a quick fix swaps the import it leaves unused for the one it needs', async () => {
    const a = await analyzer();
    const path = join(FIXTURES, 'quick.ts');
    const text = [
      "import { writeInFull } from '@writev/runtime';",
      'export function frame(fd: number, a: Uint8Array, b: Uint8Array): void {',
      '  writeInFull(fd, a);',
      '  writeInFull(fd, b);',
      '}',
      '',
    ].join('\n');
    const [finding] = a.analyze(path, text, DEFAULT_SETTINGS);
    assert.ok(finding, 'a finding');
    const fixed = applyEdits(text, a.fixEdits(path, text, finding) ?? []);
    assert.equal(
      fixed,
      [
        "import { writevInFull } from '@writev/runtime';",
        'export function frame(fd: number, a: Uint8Array, b: Uint8Array): void {',
        '  writevInFull(fd, [a, b]);',
        '}',
        '',
      ].join('\n'),
    );
  });
});
