// What the server publishes after a run of incremental edits (each analysis reusing the last one's
// syntax tree, function facts and per-function memos) must be what a fresh analysis of the same text
// publishes: a second server is given each version as a newly opened document, and the two lists of
// diagnostics must be equal, ranges, messages and related writes included.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fixture, FIXTURES } from './helpers';
import { TestServer } from './lspClient';

const C_DIR = join(FIXTURES, 'c');

/**
 * What an edit inserts: characters that open, close or end statements, and whole writes; words a
 * definition's head or a declaration may hold (read again line by line: see headWords.ts), a call of
 * an unknown writer-named helper (callSiteWriters.ts), a directive and a literal's quote (which make
 * the readings of silentCalls.ts start again).
 */
const PIECES = [
  '{',
  '}',
  '(',
  ')',
  ';',
  '\n',
  ' ',
  'x',
  '/*',
  '*/',
  'if (n) ',
  'write_in_full(fd, "x", 1);\n',
  'UNUSED ',
  'static int ',
  'send_it(fd, "y", 1);\n',
  '#define SEND(f, b) write_in_full(f, b, 1)\n',
  '"',
];

describe('language server diagnostics after edits', () => {
  let editing: TestServer;
  let fresh: TestServer;
  before(async () => {
    const capabilities = { workspace: { configuration: true } };
    [editing, fresh] = await Promise.all([
      TestServer.start(C_DIR, capabilities),
      TestServer.start(C_DIR, capabilities),
    ]);
  });
  after(async () => {
    assert.equal(await editing.stop(), 0);
    assert.equal(await fresh.stop(), 0);
  });

  it('equal a fresh analysis of the same text after every edit', async () => {
    const uri = `file://${join(C_DIR, 'edited.c')}`;
    const text =
      fixture('c/betweenStatements.c') + fixture('c/adjacent.c').replace('#include "git-style.h"', '');
    let doc = TextDocument.create(uri, 'c', 1, text);
    await editing.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text },
    });
    await editing.published(uri, 1);
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const versions: string[] = [text];
    let found = 0;
    for (let version = 2; version <= 60; version++) {
      const current = doc.getText();
      const kind = random(10);
      let change;
      if (kind < 4) {
        // Retype a digit of the text (a length, a descriptor): the edit a user makes most.
        const digits = [...current.matchAll(/\d/g)].map((m) => m.index);
        const at = digits[random(digits.length)] ?? 0;
        const range = { start: doc.positionAt(at), end: doc.positionAt(at + 1) };
        change = { range, text: String(random(10)) };
      } else if (kind < 8) {
        const at = random(current.length + 1);
        const range = { start: doc.positionAt(at), end: doc.positionAt(at + random(4)) };
        change = { range, text: PIECES[random(PIECES.length)]! };
      } else {
        // Back to an earlier version (an undo): what the memos kept for it may be reused.
        change = { text: versions[random(versions.length)]! };
      }
      doc = TextDocument.update(doc, [change], version);
      versions.push(doc.getText());
      await editing.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [change],
      });
      const edited = await editing.published(uri, version);
      await fresh.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version, text: doc.getText() },
      });
      const expected = await fresh.published(uri, version);
      await fresh.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      assert.deepEqual(edited, expected, `version ${version}`);
      found += edited.length;
    }
    assert.ok(found > 40, `the edited versions had findings to compare (${found})`);
  });

  it('equal a fresh analysis when a change elsewhere changes what an unchanged helper is', async () => {
    // put() stands after the edited note(), unchanged, and is found again by place; whether note()
    // does output (a `puts()`) changes what put() is (its two writes one helper of two syscalls, or
    // not), and so the findings of send_pair() after it.
    const uri = `file://${join(C_DIR, 'helper-edited.c')}`;
    const quiet = '\tcounter += n;';
    const loud = '\tputs("n");';
    const text = [
      '#include <unistd.h>',
      '',
      'static int counter;',
      '',
      'static void note(int n)',
      '{',
      quiet,
      '}',
      '',
      'static int put(int fd, const char *s, size_t n)',
      '{',
      '\tif (write_in_full(fd, "[", 1) < 0)',
      '\t\treturn -1;',
      '\tnote(1);',
      '\tif (write_in_full(fd, s, n) < 0)',
      '\t\treturn -1;',
      '\treturn 0;',
      '}',
      '',
      'int send_pair(int fd, const char *a, const char *b)',
      '{',
      '\tif (put(fd, a, 1) < 0)',
      '\t\treturn -1;',
      '\tif (put(fd, b, 2) < 0)',
      '\t\treturn -1;',
      '\treturn 0;',
      '}',
      '',
    ].join('\n');
    let doc = TextDocument.create(uri, 'c', 1, text);
    await editing.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text },
    });
    await editing.published(uri, 1);
    const edits: ((current: string) => { at: number; length: number; text: string })[] = [
      (t) => ({ at: t.indexOf(quiet), length: quiet.length, text: loud }),
      (t) => ({ at: t.indexOf(loud), length: loud.length, text: quiet }),
      // A line before every definition: the unchanged ones move.
      (t) => ({ at: t.indexOf('static int counter;'), length: 0, text: 'static int other;\n' }),
      (t) => ({ at: t.indexOf('b, 2)') + 3, length: 1, text: '3' }),
      (t) => ({ at: t.indexOf(quiet), length: quiet.length, text: loud }),
      (t) => ({ at: t.indexOf('static int other;\n'), length: 'static int other;\n'.length, text: '' }),
      (t) => ({ at: t.indexOf(loud), length: loud.length, text: quiet }),
    ];
    let compared = 0;
    for (const [k, edit] of edits.entries()) {
      const version = k + 2;
      const { at, length, text: inserted } = edit(doc.getText());
      assert.ok(at >= 0, `edit ${k} finds its place`);
      const change = {
        range: { start: doc.positionAt(at), end: doc.positionAt(at + length) },
        text: inserted,
      };
      doc = TextDocument.update(doc, [change], version);
      await editing.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [change],
      });
      const edited = await editing.published(uri, version);
      await fresh.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version, text: doc.getText() },
      });
      const expected = await fresh.published(uri, version);
      await fresh.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      assert.deepEqual(edited, expected, `version ${version}`);
      compared += edited.length;
    }
    assert.ok(compared > 0, 'the versions had findings to compare');
  });
});
