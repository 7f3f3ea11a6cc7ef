import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BenchEvent, CaseResult } from '@writev/runtime';

const CLI = join(__dirname, '..', '..', '..', '..', 'runtime', 'bin', 'writev-bench.js');

function bench(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('writev-bench', () => {
  it('streams JSON lines and counts the syscalls each mode made', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-bench-test-'));
    try {
      const json = join(dir, 'out.json');
      const r = bench([
        '--suite',
        'writev',
        '--size',
        'tiny',
        '--runs',
        '1',
        '--jsonl',
        '--json',
        json,
        '--cache-dir',
        dir,
      ]);
      assert.equal(r.status, 0, r.stderr);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as BenchEvent);
      assert.deepEqual(events[0], { type: 'suite', suite: 'writev', title: 'write vs writev', size: 'tiny' });
      assert.ok(events.some((e) => e.type === 'progress'));
      const results = events.filter((e): e is Extract<BenchEvent, { type: 'result' }> => e.type === 'result');
      assert.equal(results.length, 2);
      const sideBand = results[0]!.result;
      const records = Number(sideBand.parameters!.records);
      const calls = (mode: string): Record<string, number> =>
        sideBand.results.find((m) => m.command === mode)!.syscalls!;
      assert.equal(calls('two writes').write, 2 * records);
      assert.equal(calls('one writev').writev, records);
      assert.equal(calls('batched writev').writev, Math.ceil(records / 512));
      const exported = JSON.parse(readFileSync(json, 'utf8')) as { cases: CaseResult[] };
      assert.deepEqual(
        exported.cases[0]!.results.map((m) => m.command),
        ['two writes', 'one writev', 'batched writev'],
      );
      assert.equal(exported.cases[0]!.results[0]!.times.length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects an unknown suite with the list of known ones and status 2', () => {
    const r = bench(['--suite', 'nope']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown suite 'nope' \(known: writev, input-buffer, eagain/);
  });

  it('lists its suites, each case as --case would name it, and the cases that download their data', () => {
    const r = bench(['--list']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^writev +write vs writev:/m);
    assert.match(r.stdout, /^ {2}--case writev\/side-band-64k$/m);
    assert.match(r.stdout, /^ {2}--case cat-blob\/small-pipe$/m);
    assert.match(r.stdout, /^ {2}--case cat-blob\/real-pipe {2}\(downloads its data the first time\)$/m);
  });

  it('runs only the case --case names, and prints its headline ratio', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-bench-test-'));
    try {
      const json = join(dir, 'out.json');
      const r = bench([
        '--case',
        'writev/side-band-64k',
        '--size',
        'tiny',
        '--runs',
        '1',
        '--json',
        json,
        '--cache-dir',
        dir,
      ]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^== writev \/ side-band-64k:/m);
      assert.doesNotMatch(r.stdout, /^== writev \/ side-band:/m);
      assert.match(
        r.stdout,
        /^Headline: 'batched writev' ran \d+\.\d\d ± \d+\.\d\d times (faster|slower) than 'two writes'$/m,
      );
      const exported = JSON.parse(readFileSync(json, 'utf8')) as { cases: CaseResult[] };
      assert.deepEqual(
        exported.cases.map((c) => [c.case, c.headline]),
        [['side-band-64k', { mode: 'batched writev', reference: 'two writes' }]],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects a --case that names no case, with the suite's cases and status 2", () => {
    const unknownCase = bench(['--case', 'writev/side-band-16k']);
    assert.equal(unknownCase.status, 2);
    assert.match(
      unknownCase.stderr,
      /--case 'writev\/side-band-16k': suite writev has no case 'side-band-16k' \(its cases: side-band, side-band-64k\)/,
    );
    const noSuite = bench(['--case', 'side-band']);
    assert.equal(noSuite.status, 2);
    assert.match(
      noSuite.stderr,
      /--case 'side-band': expected SUITE\/CASE with a suite of writev, input-buffer/,
    );
  });
});
