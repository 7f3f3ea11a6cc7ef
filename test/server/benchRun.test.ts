// `npm run bench:analyzer` without any corpus tree: it says so, instead of a total over nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
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
});
