// writev-lint's two passes over a tree: the second analyses again the callers of wrappers exported by
// other files, on any thread, whatever the encoding of the caller.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WrapperIndex } from 'writev-lint';
import type { CWrapper } from 'writev-lint/out/analyzer/wrapper';
import { SecondPass } from 'writev-lint/out/cli/secondPass';
import { chainTree } from './cliHelpers';
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

  it('finds a caller whose file is Latin-1 (not UTF-8) as one that is UTF-8', () => {
    const dir = tree('latin1', 2, 0);
    // 0xE9 alone is not UTF-8: the file is read as Latin-1, one character per byte.
    writeFileSync(
      join(dir, 'caller0.c'),
      Buffer.concat([
        Buffer.from('/* caf'),
        Buffer.from([0xe9]),
        Buffer.from(
          ' */\nvoid log_line(const char *line);\n\nvoid pair0(const char *k, const char *v)\n{\n\tlog_line(k);\n\tlog_line(v);\n}\n',
        ),
      ]),
    );
    const run = lint(['--jobs', '1', dir]);
    assert.deepEqual(
      run.findings.map((f) => f.path).sort(),
      ['caller0.c', 'sub/caller1.c'].map((p) => join(dir, p)).sort(),
    );
  });

  it('finds them in a small folder linted on the worker started for it', () => {
    const dir = tree('small', 5, 3);
    const small = lint([dir]);
    assert.equal(small.findings.length, 5);
    assert.deepEqual(small, lint(['--jobs', '1', dir]));
  });

  it("keeps the findings of a file that calls its own wrapper, and of one whose static wrapper has another file's name", () => {
    const dir = tree('own', 2, 1);
    // lib.c calls its own log_line() twice: a finding the first pass already has.
    writeFileSync(
      join(dir, 'lib.c'),
      'int log_fd = 2;\nvoid log_line(const char *line)\n{\n\twrite_str_in_full(log_fd, line);\n}\n\n' +
        'void banner(void)\n{\n\tlog_line("a");\n\tlog_line("b");\n}\n',
    );
    // A static log_line() of its own, to another descriptor: it overrides lib.c's.
    writeFileSync(
      join(dir, 'local.c'),
      'static void log_line(const char *line)\n{\n\twrite_str_in_full(3, line);\n}\n\n' +
        'void twice(void)\n{\n\tlog_line("c");\n\tlog_line("d");\n}\n',
    );
    const one = lint(['--jobs', '1', dir]);
    assert.deepEqual(
      one.findings.map((f) => `${f.path}:${f.line}`).sort(),
      [
        ['caller0.c', 5],
        ['lib.c', 9],
        ['local.c', 8],
        ['sub/caller1.c', 5],
      ].map(([p, l]) => `${join(dir, p as string)}:${l}`),
    );
    assert.deepEqual(lint(['--jobs', '2', dir]), one);
  });
});

describe('helpers built on helpers across files', () => {
  it("finds a caller of a helper that is one only through another file's helper, on one thread and two", () => {
    const dir = chainTree(join(tmp, 'chain'));
    // 100 files, so that --jobs 2 reads them on two threads.
    for (let i = 0; i < 97; i++)
      writeFileSync(join(dir, `quiet${i}.c`), `int quiet${i}(int x)\n{\n\treturn x + ${i};\n}\n`);
    for (const jobs of ['1', '2']) {
      const run = lint(['--jobs', jobs, dir]);
      assert.deepEqual(run.findings, [{ path: join(dir, 'main.c'), line: 5 }]);
    }
    // Without the loop's file, neither is a helper.
    const alone = lint([join(dir, 'proto.c'), join(dir, 'main.c')]);
    assert.deepEqual(alone.findings, []);
  });
});

describe('second pass filter', () => {
  const wrapper = (name: string, exported = true): CWrapper => ({
    name,
    exported,
    fd: { param: 0 },
    buf: 1,
    len: 2,
    family: 'write',
    arity: 3,
  });
  const index = new WrapperIndex();
  index.set('/t/html.c', { c: [wrapper('html'), wrapper('html_raw')], ts: [] });
  index.set('/t/log.c', { c: [wrapper('log_line'), wrapper('put', false)], ts: [] });
  index.set('/t/put.c', { c: [wrapper('put')], ts: [] });
  index.set('/t/a.c', { c: [wrapper('both')], ts: [] });
  index.set('/t/b.c', { c: [wrapper('both')], ts: [] });
  const second = new SecondPass(['html', 'html_raw', 'log_line', 'put', 'both'], index);
  const wants = (path: string, text: string) => second.forPath(path).pattern.test(text);

  it('analyses again a file calling a wrapper another file exports', () => {
    assert.ok(wants('/t/ui.c', 'void f(void) { html("<p>"); }'));
    assert.ok(wants('/t/ui.h', 'void f(void) { log_line ("x"); }'));
    assert.ok(!wants('/t/ui.c', 'void f(void) { htmlx("<p>"); html; }'));
  });

  it('passes over a file that calls only the wrappers it defines', () => {
    assert.ok(!wants('/t/html.c', 'void f(void) { html("<p>"); html_raw("x", 1); }'));
    assert.ok(wants('/t/html.c', 'void f(void) { html("<p>"); log_line("x"); }'));
  });

  it("analyses again a file whose static wrapper has another file's exported name", () => {
    assert.ok(wants('/t/log.c', 'void f(void) { put("x"); }'));
  });

  it('passes over a call to a name two files export: it could mean either', () => {
    assert.ok(!wants('/t/ui.c', 'void f(void) { both("x"); }'));
  });

  it('keeps every name for TS/JS files', () => {
    assert.ok(wants('/t/html.ts', 'html("x")'));
  });

  it('analyses again for a member other files store a write helper in only a file calling through it', () => {
    const members = new WrapperIndex();
    members.set('/t/conn.c', {
      c: [wrapper('conn_write')],
      ts: [],
      memberFunctions: [{ member: 'write', fn: 'conn_write', own: true }],
    });
    const through = new SecondPass(['conn_write', 'write'], members);
    const asks = (text: string) => through.forPath('/t/proto.c').pattern.test(text);
    assert.ok(asks('void f(struct conn *c) { c->write(c, "x", 1); }'));
    assert.ok(asks('void f(struct conn c) { c . write (&c, "x", 1); }'));
    assert.ok(asks('void f(struct conn *c) { conn_write(c, "x", 1); }'));
    // The member's name as a function of its own: the C library's write() reads as it did alone.
    assert.ok(!asks('void f(int fd) { write(fd, "x", 1); write(fd, "y", 1); }'));
  });
});
