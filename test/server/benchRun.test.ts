// `npm run bench:analyzer` without any corpus tree: it says so, instead of a total over nothing. And
// its helper-change figure times what it says: the caller's findings follow each change of the helper.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { measureHelperChange } from 'writev-lint/out/bench/helperChange';
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

  it("times a helper's change until its caller in another open file shows the new findings", async () => {
    const result = await measureHelperChange(join(REPO, 'server', 'out', 'server.js'), 200, 2, 300);
    assert.equal(result.rounds, 2);
    // Each round is counted once: re-diagnosed by the server, or timed through an edit of the caller.
    assert.equal(result.pushed.length + result.touched.length, 2);
    for (const ms of [...result.pushed, ...result.touched]) assert.ok(ms > 0 && ms < 30_000, String(ms));
  });
});
