// Fix safety classes and --diff, as ruff has them: a fix that moves a statement or gives a write another
// failure path is unsafe; --fix applies the safe ones, --unsafe-fixes adds the others, --diff prints what
// --fix would write as a patch that the real `git apply` and `patch -p1` take, and the editor's fix-all
// applies safe fixes only. Through the real language server, and the installed bin for one case of each
// flag (--unsafe-fixes, --fix --unsafe-fixes, --diff, --diff --stdin); the other cases run main() in this
// process, which loads the analyzer once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lintBin, lintHere } from './cliHelpers';
import { TestServer } from './lspClient';

const tmp = mkdtempSync(join(tmpdir(), 'writev-fixsafety-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Line 3-4: a safe run (same error handling, side by side). */
const SAFE = [
  'int safe(int fd, const char *h, size_t hl, const char *b, size_t bl)',
  '{',
  '\tif (write_in_full(fd, h, hl) < 0)',
  '\t\treturn error("write failed");',
  '\tif (write_in_full(fd, b, bl) < 0)',
  '\t\treturn error("write failed");',
  '\treturn 0;',
  '}',
  '',
];

/** A run with a statement between the writes: the gathered call moves it after the writes. */
const MOVES = [
  'void moves(int fd, struct strbuf *sb, const char *b, size_t bl)',
  '{',
  '\twrite_or_die(fd, sb->buf, sb->len);',
  '\tstrbuf_release(sb);',
  '\twrite_or_die(fd, b, bl);',
  '}',
  '',
];

/** Writes of different families: xwrite() would now fail as writev_in_full() does (retrying). */
const MIXED = [
  'void mixed(int fd, const char *b, size_t bl)',
  '{',
  '\t(void)write_in_full(fd, b, bl);',
  '\t(void)xwrite(fd, "\\n", 1);',
  '}',
  '',
];

const SOURCE = ['#include <sys/uio.h>', '', ...SAFE, ...MOVES, ...MIXED].join('\n');

interface JsonFinding {
  line: number;
  fixable: boolean;
  fixSafety?: 'safe' | 'unsafe';
}

/** A fresh folder holding `x.c` with `text`. */
function project(name: string, text = SOURCE): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'x.c'), text);
  return dir;
}

/** writev-lint on `dir`/x.c through the installed bin, as a user runs it. */
function lintThroughBin(dir: string, ...args: string[]) {
  return lintBin([...args, '--no-config-lookup', 'x.c'], { cwd: dir });
}

/** The same run through main() in this process (which takes operands as given: x.c by its full path). */
function lint(dir: string, ...args: string[]) {
  return lintHere([...args, '--no-config-lookup', join(dir, 'x.c')], { cwd: dir });
}

describe('fix safety classes', () => {
  it('classes each fix by what it does: side by side with the same handling is safe; moving a statement or another failure path is unsafe', async () => {
    const dir = project('classes');
    const { stdout } = await lint(dir, '--format', 'json');
    const found = (JSON.parse(stdout) as { findings: JsonFinding[] }).findings;
    assert.deepEqual(
      found.map((f) => [f.line, f.fixSafety]),
      [
        [5, 'safe'],
        [14, 'unsafe'],
        [21, 'unsafe'],
      ],
    );
  });

  it('text output marks only what --fix fixes with [*], and says how many unsafe fixes --unsafe-fixes adds', async () => {
    const dir = project('marks');
    const plain = await lint(dir, '--format', 'concise');
    assert.deepEqual(
      plain.stdout
        .trim()
        .split('\n')
        .map((l) => l.endsWith('[*] [adjacent-writes]')),
      [true, false, false],
    );
    assert.match(
      plain.stderr,
      /\[\*\] 1 fixable with --fix \(2 hidden fixes can be enabled with --unsafe-fixes\)/,
    );
    const all = lintThroughBin(dir, '--format', 'concise', '--unsafe-fixes');
    assert.ok(
      all.stdout
        .trim()
        .split('\n')
        .every((l) => l.endsWith('[*] [adjacent-writes]')),
    );
    assert.match(all.stderr, /\[\*\] 3 fixable with --fix --unsafe-fixes\n/);
    const sarif = JSON.parse((await lint(dir, '--format', 'sarif')).stdout) as {
      runs: { results: { fixes?: { description: { text: string } }[] }[] }[];
    };
    assert.deepEqual(
      sarif.runs[0]!.results.map((r) => /\(unsafe: /.test(r.fixes?.[0]?.description.text ?? '')),
      [false, true, true],
    );
    const stats = await lint(dir, '--statistics');
    assert.match(stats.stdout, /^3\tadjacent-writes\t\[\*\] 1 fixable\t/);
  });

  it('--fix applies the safe fixes only; --fix --unsafe-fixes applies them all', async () => {
    const safe = project('fix-safe');
    const run = await lint(safe, '--fix', '--format', 'concise');
    assert.equal(run.status, 1, run.stderr);
    const fixed = readFileSync(join(safe, 'x.c'), 'utf8');
    assert.match(fixed, /writev_in_full\(fd, iov, 2\) < 0\)\n\t\t\treturn error\("write failed"\);/);
    assert.match(
      fixed,
      /\twrite_or_die\(fd, sb->buf, sb->len\);\n\tstrbuf_release\(sb\);/,
      'the unsafe fix is not applied',
    );
    assert.match(fixed, /\(void\)xwrite\(fd, "\\n", 1\);/);
    assert.equal(run.stdout.trim().split('\n').length, 2, 'the two unsafe findings remain');
    assert.match(run.stderr, /1 file fixed/);
    assert.match(
      run.stderr,
      /no finding is fixable with --fix \(2 hidden fixes can be enabled with --unsafe-fixes\)/,
    );

    const all = project('fix-all');
    const both = lintThroughBin(all, '--fix', '--unsafe-fixes');
    assert.equal(both.status, 0, both.stderr);
    const text = readFileSync(join(all, 'x.c'), 'utf8');
    assert.doesNotMatch(text, /write_or_die|\(void\)xwrite\(/);
    assert.match(text, /writev_or_die\(fd, iov, 2\);\n\t\}\n\tstrbuf_release\(sb\);/);
  });
});

/** Applies `diff` in a copy of `dir` with `tool` and returns x.c as it then reads. */
function applied(dir: string, diff: string, tool: 'git' | 'patch', name: string): string {
  const copy = join(tmp, name);
  cpSync(dir, copy, { recursive: true });
  const result =
    tool === 'git'
      ? spawnSync('git', ['apply', '--whitespace=nowarn', '-'], { cwd: copy, input: diff, encoding: 'utf8' })
      : spawnSync('patch', ['-p1', '--batch', '--silent'], { cwd: copy, input: diff, encoding: 'utf8' });
  assert.equal(result.status, 0, `${tool}: ${result.stderr}${result.stdout}`);
  return readFileSync(join(copy, 'x.c'), 'latin1');
}

describe('--diff', () => {
  for (const [label, extra] of [
    ['safe fixes', []],
    ['with --unsafe-fixes', ['--unsafe-fixes']],
  ] as const) {
    it(`prints what --fix would write (${label}) as a diff git apply and patch -p1 take, changes nothing, exits 1`, async () => {
      const dir = project(`diff-${extra.length}`);
      const before = statSync(join(dir, 'x.c'));
      // Through the bin with --unsafe-fixes, the plain --diff in this process.
      const run = extra.length > 0 ? lintThroughBin(dir, '--diff', ...extra) : await lint(dir, '--diff');
      assert.equal(run.status, 1, run.stderr);
      assert.equal(readFileSync(join(dir, 'x.c'), 'utf8'), SOURCE, 'nothing written');
      assert.equal(statSync(join(dir, 'x.c')).mtimeMs, before.mtimeMs);
      assert.match(run.stdout, /^--- a\/x\.c\n\+\+\+ b\/x\.c\n@@ -\d+(,\d+)? \+\d+(,\d+)? @@\n/);
      assert.match(
        run.stderr,
        extra.length > 0
          ? /would fix 3 findings in 1 file\n/
          : /would fix 1 finding in 1 file \(2 hidden fixes can be enabled with --unsafe-fixes\)\n/,
      );
      // The same bytes --fix writes.
      const fixedDir = project(`diff-fix-${extra.length}`);
      await lint(fixedDir, '--fix', ...extra);
      const fixed = readFileSync(join(fixedDir, 'x.c'), 'latin1');
      assert.notEqual(fixed, SOURCE);
      assert.equal(applied(dir, run.stdout, 'git', `git-${extra.length}`), fixed);
      assert.equal(applied(dir, run.stdout, 'patch', `patch-${extra.length}`), fixed);
    });
  }

  it('keeps CRLF line ends and a last line without a line break in a patch that applies', async () => {
    const text = `${SOURCE.replace(/\n/g, '\r\n')}/* end */`;
    const dir = project('diff-crlf', text);
    const run = await lint(dir, '--diff', '--unsafe-fixes');
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /\\ No newline at end of file\n/);
    const fixedDir = project('diff-crlf-fix', text);
    await lint(fixedDir, '--fix', '--unsafe-fixes');
    const fixed = readFileSync(join(fixedDir, 'x.c'), 'latin1');
    assert.equal(applied(dir, run.stdout, 'git', 'git-crlf'), fixed);
    assert.equal(applied(dir, run.stdout, 'patch', 'patch-crlf'), fixed);
  });

  it('prints nothing and exits 0 when there is nothing to fix (unsafe fixes only count with --unsafe-fixes)', async () => {
    const dir = project('diff-none', [...MOVES].join('\n'));
    const run = await lint(dir, '--diff');
    assert.deepEqual([run.status, run.stdout], [0, '']);
    assert.match(run.stderr, /nothing to fix \(1 hidden fix can be enabled with --unsafe-fixes\)/);
    assert.equal((await lint(dir, '--diff', '--unsafe-fixes')).status, 1);
  });

  it('works on standard input, under the --stdin-filename', async () => {
    const dir = project('diff-stdin');
    const run = lintBin(['--diff', '--stdin', '--stdin-filename', 'x.c', '--no-config-lookup'], {
      cwd: dir,
      input: SOURCE,
    });
    assert.equal(run.status, 1, run.stderr);
    const fixed = (
      await lintHere(['--fix', '--stdin', '--stdin-filename', 'x.c', '--no-config-lookup'], {
        cwd: dir,
        input: SOURCE,
      })
    ).stdout;
    assert.equal(applied(dir, run.stdout, 'git', 'git-stdin'), fixed);
  });

  it('refuses what it cannot combine with, naming it', async () => {
    const dir = project('diff-usage');
    const run = await lint(dir, '--diff', '--output-file', 'r.txt');
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /--diff prints a diff to standard output: no --update-baseline, --statistics or --output-file/,
    );
  });
});

describe('the editor', () => {
  it('fix-all applies the safe fixes only; each unsafe fix stays a quick fix that says why', async () => {
    const dir = project('lsp');
    const server = await TestServer.start(dir, { workspace: { configuration: true } });
    try {
      const uri = `file://${join(dir, 'x.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version: 1, text: SOURCE },
      });
      const diagnostics = await server.published(uri, 1);
      assert.equal(diagnostics.length, 3);
      const ask = (only: string[], range = diagnostics[0]!.range) =>
        server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range,
          context: { diagnostics, only },
        });
      const [fixAll] = await ask(['source.fixAll']);
      assert.ok(fixAll, 'a fix-all action');
      const change = fixAll.edit?.documentChanges?.[0];
      assert.ok(change && 'edits' in change);
      const doc = TextDocument.create(uri, 'c', 1, SOURCE);
      const fixed = TextDocument.applyEdits(doc, change.edits as TextEdit[]);
      assert.match(fixed, /writev_in_full\(fd, iov, 2\) < 0/);
      assert.match(fixed, /\twrite_or_die\(fd, sb->buf, sb->len\);\n\tstrbuf_release\(sb\);/);
      assert.match(fixed, /\(void\)xwrite\(fd, "\\n", 1\);/);

      const safe = (await ask(['quickfix'])).find((a) => /^Gather/.test(a.title));
      assert.ok(safe && !/unsafe/.test(safe.title) && safe.isPreferred === true, JSON.stringify(safe?.title));
      const moving = (await ask(['quickfix'], diagnostics[1]!.range)).find((a) => /^Gather/.test(a.title));
      assert.ok(moving, 'the unsafe fix is still offered');
      assert.match(
        moving.title,
        /\(unsafe: moves the 1 statement between the writes to after the gathered call\)$/,
      );
      assert.notEqual(moving.isPreferred, true);
      const mixed = (await ask(['quickfix'], diagnostics[2]!.range)).find((a) => /^Gather/.test(a.title));
      assert.match(
        mixed?.title ?? '',
        /\(unsafe: a failure of xwrite\(\) now takes the path of writev_in_full\(\)/,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
