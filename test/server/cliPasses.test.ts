// writev-lint's two passes over a tree: the second (callers of wrappers exported by other files) uses
// the texts the first kept on the thread that read them, and must find what reading again finds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SourceStore } from 'writev-lint/out/cli/lintFile';
import { REPO } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-passes-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const BIN = join(REPO, 'node_modules', '.bin', 'writev-lint');

/** A tree of `callers` files that each call log_line() (defined in lib.c) twice, and `others` quiet ones. */
function tree(name: string, callers: number, others: number): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(
    join(dir, 'lib.c'),
    'int log_fd = 2;\nvoid log_line(const char *line)\n{\n\twrite_str_in_full(log_fd, line);\n}\n',
  );
  for (let i = 0; i < callers; i++)
    writeFileSync(
      join(dir, i % 2 ? 'sub' : '.', `caller${i}.c`),
      `void log_line(const char *line);\n\nvoid pair${i}(const char *k, const char *v)\n{\n\tlog_line(k);\n\tlog_line(v);\n}\n`,
    );
  for (let i = 0; i < others; i++)
    writeFileSync(join(dir, `quiet${i}.c`), `int quiet${i}(int x)\n{\n\treturn x + ${i};\n}\n`);
  return dir;
}

function lint(args: string[]): { status: number | null; findings: { path: string; line: number }[] } {
  const run = spawnSync(BIN, ['--format', 'json', ...args], { cwd: REPO, encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  const report = JSON.parse(run.stdout) as { findings: { path: string; line: number }[] };
  return { status: run.status, findings: report.findings.map((f) => ({ path: f.path, line: f.line })) };
}

describe('writev-lint second pass', () => {
  it('finds every caller of a wrapper from another file, on two threads as on one', () => {
    // 100 files: two worker threads, each reading about half of the callers in the first pass.
    const dir = tree('two-threads', 60, 39);
    const one = lint(['--jobs', '1', dir]);
    const two = lint(['--jobs', '2', dir]);
    assert.equal(one.findings.length, 60);
    assert.deepEqual(two, one);
  });

  it('finds them in a small folder linted on the worker started for it', () => {
    const dir = tree('small', 5, 3);
    const small = lint([dir]);
    assert.equal(small.findings.length, 5);
    assert.deepEqual(small, lint(['--jobs', '1', dir]));
  });
});

describe('SourceStore', () => {
  it('gives each kept text back once, and keeps none past its budget', () => {
    const store = new SourceStore(10);
    store.keep('a.c', 'abcdef');
    store.keep('b.c', 'ghijkl'); // 12 characters: over the budget, not kept
    assert.equal(store.take('a.c'), 'abcdef');
    assert.equal(store.take('a.c'), undefined);
    assert.equal(store.take('b.c'), undefined);
    store.keep('b.c', 'ghijkl'); // room again once a.c was taken
    assert.equal(store.take('b.c'), 'ghijkl');
  });
});
