// `npm run bench:analyzer` without any corpus tree: it says so, instead of a total over nothing. And
// its helper-change figure times what it says: the caller's findings follow each change of the helper.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { measureHelperChange } from 'writev-lint/out/bench/helperChange';
import { generatedC, lengthArgument } from 'writev-lint/out/bench/incremental';
import { targetLines, type TreeTiming } from 'writev-lint/out/bench/treeRuns';
import { REPO } from './helpers';

const empty = mkdtempSync(join(tmpdir(), 'writev-no-trees-'));
after(() => rmSync(empty, { recursive: true, force: true }));

describe('analyzer benchmark', () => {
  it('names the folder where no corpus tree was found and prints no total', () => {
    for (const trees of [empty, join(empty, 'nonexistent')]) {
      const run = spawnSync(
        process.execPath,
        [join(REPO, 'server', 'out', 'bench', 'run.js'), '--no-incremental', '--no-tree', '--trees', trees],
        { cwd: REPO, encoding: 'utf8' },
      );
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`project trees: none found under ${trees}`));
      assert.doesNotMatch(run.stdout, /NaN|--jobs 1 s/);
    }
  });

  it('holds only a tree of 400,000 lines or more to the speed target, by the median of its default runs', () => {
    const timing = (name: string, lines: number, many: number[]): TreeTiming => ({
      name,
      files: 10,
      lines,
      findings: 0,
      threads: 2,
      one: many.map((s) => s * 2),
      many,
      oneCpu: [],
      manyCpu: many.map((s) => s * 1.8),
      loads: [1.5, 2.5],
    });
    assert.deepEqual(targetLines([timing('small', 399_999, [1])]), [
      'target 250,000 lines/s over a 400,000-line tree: not measured (no tree that large here; the largest, small, has 399,999 lines)',
    ]);
    const [fast, slow, ...rest] = targetLines([
      timing('small', 10_000, [0.01]),
      timing('fast', 500_000, [1.9, 1.6, 2.5]),
      timing('slow', 400_000, [2, 1.5, 1.7]),
    ]);
    assert.equal(rest.length, 0);
    // 500,000 / 1.9 s: the median run, not the fastest; the range comes from the slowest and fastest.
    assert.match(
      fast ?? '',
      /^target .*: fast \(500,000 lines\).*: 263,158 lines\/s, median of 3 runs \(200,000-312,500\)/,
    );
    assert.match(fast ?? '', /3\.42 CPU s a run .*load average 1\.5-2\.5 as the runs started: met$/);
    assert.match(slow ?? '', /: 235,294 lines\/s, .*: NOT met$/);
  });

  it('types its incremental edits into the length of a call, whatever the density of writes', () => {
    for (const every of [1, 20]) {
      const lines = generatedC(4000, every).split('\n');
      for (const fn of [0, 1, 19, 20, 331]) {
        const { line, character } = lengthArgument(fn, every);
        const text = lines[line] ?? '';
        assert.match(
          text.slice(0, character),
          fn % every === 0 ? /write_in_full\(fd, hdr, $/ : /checksum\(fd, hdr, $/,
        );
        assert.match(text.slice(character), /^\d\) < 0\)$/, `function ${fn}: ${text}`);
        assert.match(lines[line - 4] ?? '', new RegExp(`send_record_${fn}\\(`));
      }
    }
  });

  it("times a helper's change until its caller in another open file shows the new findings", async () => {
    const result = await measureHelperChange(join(REPO, 'server', 'out', 'server.js'), 200, 2, 300);
    assert.equal(result.rounds, 2);
    // Each round is counted once: re-diagnosed by the server, or timed through an edit of the caller.
    assert.equal(result.pushed.length + result.touched.length, 2);
    for (const ms of [...result.pushed, ...result.touched]) assert.ok(ms > 0 && ms < 30_000, String(ms));
  });
});
