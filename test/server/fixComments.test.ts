// A fix never deletes a comment: the notes between the writes it gathers move, in order, above the
// gathered call, and a directive of another tool (eslint-disable-next-line, @ts-expect-error, NOLINT)
// withholds the fix with the reason. Through the installed bin (--fix once, --stdin --fix), main() in
// this process for the other cases (the analyzer, and TypeScript's parser, loaded once), and the language
// server's quick fixes, which are built by the same code; fixed C compiles and writes the same bytes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lintBin, lintHere } from './cliHelpers';
import { FIXTURES } from './helpers';
import { messageText, TestServer } from './lspClient';

const work = mkdtempSync(join(tmpdir(), 'writev-fix-comments-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** What a `writev-lint --fix` run did: its status and output, and the file after it. */
interface FixRun {
  status: number | null;
  out: string;
  err: string;
  fixed: string;
}

/** Writes `text` to `name` in a fresh folder, runs the installed `writev-lint --fix` on it. */
function fixFileThroughBin(name: string, text: string): FixRun {
  const dir = mkdtempSync(join(work, 'fix-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  const result = lintBin(['--fix', '--no-config-lookup', name], { cwd: dir });
  return { status: result.status, out: result.stdout, err: result.stderr, fixed: readFileSync(path, 'utf8') };
}

/** The same through main() in this process (which takes the file by its full path). */
async function fixFile(name: string, text: string): Promise<FixRun> {
  const dir = mkdtempSync(join(work, 'fix-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  const result = await lintHere(['--fix', '--no-config-lookup', path], { cwd: dir });
  return { status: result.status, out: result.stdout, err: result.stderr, fixed: readFileSync(path, 'utf8') };
}

/** Every comment of `text` (C or TS, no comment markers inside strings in these tests), in order. */
function commentsOf(text: string): string[] {
  return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
}

const C_NOTES = [
  '#include "git-style.h"',
  '',
  'void hello(int fd, const char *name, size_t len)',
  '{',
  '\twrite_or_die(fd, "hello, ", 7); /* the greeting */',
  '\t/*',
  '\t * the name, as given',
  '\t */',
  '\twrite_or_die(fd, name, len); // no terminator yet',
  '\t// a newline ends the line',
  '\twrite_or_die(fd, "\\n", 1);',
  '}',
  '',
].join('\n');

function gcc(args: string[]): string {
  const result = spawnSync('gcc', ['-std=gnu11', '-Wall', '-Wno-unused-function', '-Werror', ...args], {
    encoding: 'utf8',
  });
  return result.status === 0 ? '' : `${result.stderr}${result.error?.message ?? ''}`;
}

describe('--fix keeps the comments between the writes it gathers', () => {
  it('C: the notes move above the gathered call in order; it compiles and writes the same bytes', () => {
    const { status, err, fixed } = fixFileThroughBin('hello.c', C_NOTES);
    assert.equal(status, 0, err);
    assert.match(fixed, /writev_or_die\(fd, iov, 3\);/);
    assert.deepEqual(commentsOf(fixed), commentsOf(C_NOTES));
    // Above the gathered block, at the statement's indent.
    assert.ok(fixed.indexOf('// a newline ends the line') < fixed.indexOf('struct iovec'));
    assert.match(fixed, /\n\t\/\* the greeting \*\/\n/);

    const include = join(FIXTURES, 'c');
    const driver = join(work, 'hello.main.c');
    writeFileSync(
      driver,
      '#include "git-style.h"\nvoid hello(int fd, const char *name, size_t len);\nint main(void) { hello(1, "writev", 6); return 0; }\n',
    );
    const support = join(FIXTURES, 'c-run', 'support.c');
    const bytes: string[] = [];
    for (const [tag, source] of [
      ['before', C_NOTES],
      ['after', fixed],
    ] as const) {
      const file = join(work, `hello-${tag}.c`);
      writeFileSync(file, source);
      assert.equal(gcc(['-fsyntax-only', '-I', include, file]), '', `${tag}: gcc -fsyntax-only`);
      const exe = join(work, `hello-${tag}`);
      assert.equal(
        gcc(['-I', include, '-o', exe, file, support, driver, '-Wl,--wrap=write,--wrap=writev']),
        '',
      );
      bytes.push(spawnSync(exe, [], { encoding: 'latin1' }).stdout);
    }
    assert.equal(bytes[0], 'hello, writev\n');
    assert.equal(bytes[1], bytes[0]);
  });

  for (const directive of ['// NOLINT(writev)', '/* NOLINTNEXTLINE */', '// clang-format off']) {
    it(`C: a directive between the writes (${directive}) withholds the fix and says why`, async () => {
      const text = C_NOTES.replace('\t// a newline ends the line', `\t${directive}`);
      const { status, out, fixed } = await fixFile('directive.c', text);
      assert.equal(status, 1);
      assert.equal(fixed, text, 'the file is not touched');
      assert.match(out, /no automatic fix: the comment .*is a directive tied to its place/);
    });
  }

  it('TS: notes are kept, in order, and a trailing one stays after the call', async () => {
    const text = [
      "import { writeSync } from 'node:fs';",
      'export function send(fd: number, head: Buffer, body: Buffer): void {',
      '  writeSync(fd, head); // the header first',
      '  /* then the body */',
      '  writeSync(fd, body); // last',
      '  // after the run',
      '}',
      '',
    ].join('\n');
    const { status, err, fixed } = await fixFile('send.ts', text);
    assert.equal(status, 0, err);
    assert.match(fixed, /writevInFull\(fd, \[head, body\]\);/);
    assert.deepEqual(commentsOf(fixed), commentsOf(text));
  });

  for (const directive of [
    '// eslint-disable-next-line @typescript-eslint/no-floating-promises',
    '// @ts-expect-error: a string',
    '// @ts-ignore',
    '// prettier-ignore',
  ]) {
    it(`TS: a directive between the writes (${directive}) withholds the fix and says why`, async () => {
      const text = [
        "import { writeSync } from 'node:fs';",
        'export function send(fd: number, head: Buffer, body: Buffer): void {',
        '  writeSync(fd, head);',
        `  ${directive}`,
        '  writeSync(fd, body);',
        '}',
        '',
      ].join('\n');
      const { status, out, fixed } = await fixFile('send.ts', text);
      assert.equal(status, 1);
      assert.equal(fixed, text);
      assert.match(out, /no automatic fix: the comment .*is a directive tied to its place/);
    });
  }

  it('TS: --stdin --fix keeps the notes too', () => {
    const text = [
      "import { writeInFull } from '@writev/runtime';",
      'export function send(fd: number, a: Uint8Array, b: Uint8Array, tail: boolean): void {',
      '  writeInFull(fd, a); // "//" in a note',
      "  if (tail) writeInFull(fd, b); /* only with a tail: '/*' */",
      '}',
      '',
    ].join('\n');
    const result = lintBin(['--stdin', '--stdin-filename', 'send.ts', '--fix', '--no-config-lookup'], {
      input: text,
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /writevInFull\(fd, iov\)/);
    assert.ok(result.stdout.includes('// "//" in a note'));
    assert.ok(result.stdout.includes("/* only with a tail: '/*' */"));
  });
});

describe('the language server quick fixes keep the comments too', () => {
  it('the quick fix moves the notes, and a directive leaves no quick fix', async () => {
    const dir = mkdtempSync(join(work, 'lsp-'));
    const server = await TestServer.start(dir, { workspace: { configuration: true } });
    try {
      const open = async (name: string, text: string) => {
        const uri = `file://${join(dir, name)}`;
        await server.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'c', version: 1, text },
        });
        const [diagnostic] = await server.published(uri, 1);
        assert.ok(diagnostic, `${name} has a finding`);
        const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: diagnostic.range,
          context: { diagnostics: [diagnostic], only: ['quickfix'] },
        });
        return { uri, actions, diagnostic };
      };
      const notes = await open('notes.c', C_NOTES);
      const gather = notes.actions.find((a) => /Gather/.test(a.title));
      assert.ok(gather, 'a quick fix is offered');
      const change = gather.edit?.documentChanges?.[0];
      assert.ok(change && 'edits' in change);
      const doc = TextDocument.create(notes.uri, 'c', 1, C_NOTES);
      const fixed = TextDocument.applyEdits(doc, change.edits as TextEdit[]);
      assert.deepEqual(commentsOf(fixed), commentsOf(C_NOTES));

      const nolint = await open('nolint.c', C_NOTES.replace('// a newline', '// NOLINT: a newline'));
      assert.equal(nolint.actions.filter((a) => /Gather/.test(a.title)).length, 0);
      assert.match(messageText(nolint.diagnostic), /is a directive tied to its place/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
