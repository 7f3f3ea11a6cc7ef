// Bodies elsewhere in a tree and the helpers a file reads from their calls (c-treebodies/): another
// file's `static` function is that file's alone, and a body that calls through a pointer or a member
// says no more than no body; a readable exported body still decides. The language server's index and
// a batch run read them alike.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer, expectations, fixture, FIXTURES, observed } from './helpers';
import { lintRun } from './cliHelpers';

const TREE = join(FIXTURES, 'c-treebodies');

/** The C files under `dir`, by path. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.[ch]$/.test(name) ? [path] : [];
  });
}

/** The index the language server keeps for the tree: every file read alone. */
async function treeIndex(): Promise<WrapperIndex> {
  const a = await analyzer();
  const index = new WrapperIndex();
  for (const path of walk(TREE))
    index.set(path, a.wrappers(path, fixture(relative(FIXTURES, path)), DEFAULT_SETTINGS));
  return index;
}

describe('C bodies elsewhere in a tree and helpers read from their calls', () => {
  it('counts only the definitions a file can call whose bodies say what they do', async () => {
    const defined = (await treeIndex()).cDefinedFor(join(TREE, 'proto', 'greet.c'));
    assert.ok(defined.has('tb_sendq'), 'an exported body that only copies to memory');
    assert.ok(!defined.has('tb_sendall'), 'a body that sends through a member');
    assert.ok(!defined.has('tb_writeall'), "another file's static function");
  });

  it('finds what each file of the tree marks, with the workspace index', async () => {
    const a = await analyzer();
    const index = await treeIndex();
    for (const path of walk(TREE).filter((p) => p.endsWith('.c'))) {
      const text = fixture(relative(FIXTURES, path));
      const found = a.analyze(path, text, DEFAULT_SETTINGS, { index });
      assert.deepEqual(observed(text, found), expectations(text), relative(TREE, path));
    }
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    const run = await lintRun(['--no-config-lookup', '--format', 'json', TREE], TREE);
    const report = JSON.parse(run.out) as { findings: { path: string; code: string; syscalls: number }[] };
    const reported = report.findings.map((f) => `${f.path} ${f.code} ${f.syscalls}`);
    const expected = walk(TREE)
      .filter((p) => p.endsWith('.c'))
      .flatMap((p) =>
        expectations(fixture(relative(FIXTURES, p))).map(
          (e) => `${relative(TREE, p)} ${e.code} ${e.syscalls}`,
        ),
      );
    assert.deepEqual(reported.sort(), expected.sort());
    assert.equal(reported.length, 2);
  });
});
