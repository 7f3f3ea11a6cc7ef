import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_BATCH_BYTES, type BenchEvent, type CaseResult } from '@writev/runtime';
import { parseStraceSummary } from '@writev/runtime/dist/bench/suites/catBlob';

const REPO = join(__dirname, '..', '..', '..', '..');
const CLI = join(REPO, 'runtime', 'bin', 'writev-bench.js');
/**
 * Where the suite's histories are kept between runs: the real one is built from eslint's releases,
 * downloaded from the npm registry, which is the slow part. Like the end-to-end suite's code-server, in
 * the user's cache folder (`$XDG_CACHE_HOME` or `~/.cache`, then `writev/bench`), so every clone on the
 * machine shares them, unless WRITEV_BENCH_CACHE names another. The suite keys each history by its
 * shape and marks it done only once built, so a kept one is never a half-built one.
 */
const CACHE =
  process.env.WRITEV_BENCH_CACHE ??
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'writev', 'bench');

describe('the cat-blob benchmark suite', () => {
  it('runs at tiny size: generated and real histories, five responders agree, two sinks, syscalls as each write mode promises', () => {
    mkdirSync(CACHE, { recursive: true });
    const r = spawnSync(
      process.execPath,
      [CLI, '--suite', 'cat-blob', '--size', 'tiny', '--runs', '1', '--jsonl', '--cache-dir', CACHE],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as BenchEvent);
    const results = events.flatMap<CaseResult>((e) => (e.type === 'result' ? [e.result] : []));
    assert.deepEqual(
      results.map((c) => c.case),
      ['devnull', 'pipe', 'small-devnull', 'small-pipe', 'real-devnull', 'real-pipe'],
    );
    for (const c of results) {
      const blobs = Number(c.parameters?.blobs);
      assert.ok(blobs > 100);
      const byName = new Map(c.results.map((m) => [m.command, m]));
      assert.deepEqual(
        [...byName.keys()],
        [
          'git fast-import',
          'writev-cat-blob (writes)',
          'writev-cat-blob (writev)',
          'writev-cat-blob (batched)',
          'git cat-file --batch',
        ],
      );
      const calls = (name: string, call: string): number => byName.get(name)?.syscalls?.[call] ?? 0;
      if (byName.get('git fast-import')?.syscalls === undefined) continue; // no strace here
      assert.ok(calls('writev-cat-blob (writes)', 'write') >= 3 * blobs);
      assert.equal(calls('writev-cat-blob (writev)', 'writev'), blobs);
      // Batched: a write once 16 KiB wait, plus one each time the 128 KiB input buffer runs dry.
      const bytes = Number(c.parameters?.bytes);
      const requestBytes = blobs * 'cat-blob \n'.length + blobs * 40;
      const bound = Math.ceil(bytes / DEFAULT_BATCH_BYTES) + Math.ceil(requestBytes / (128 * 1024)) + 1;
      assert.ok(calls('writev-cat-blob (batched)', 'writev') <= bound, `at most ${bound}`);
      assert.ok(calls('writev-cat-blob (batched)', 'writev') < blobs / 2, 'several answers per write');
    }
  });

  it('reads strace -c summaries', () => {
    const text = [
      '% time     seconds  usecs/call     calls    errors syscall',
      '------ ----------- ----------- --------- --------- ----------------',
      ' 60.00    0.000600           3       192           writev',
      ' 40.00    0.000400           4        95         2 read',
      '------ ----------- ----------- --------- --------- ----------------',
      '100.00    0.001000           3       287         2 total',
    ].join('\n');
    assert.deepEqual(parseStraceSummary(text), { writev: 192, read: 95 });
  });
});
