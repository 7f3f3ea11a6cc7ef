// The diagnostics kept from one analysis of a document to the next must be exactly those a fresh
// conversion gives, whatever the edit did to the lines around them: same-length edits, typed and
// deleted characters, line breaks put in or taken out (a `\n` after a `\r` included).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Analyzer, DEFAULT_SETTINGS, LineIndex } from 'writev-lint';
import { toDiagnostic } from 'writev-lint/out/lsp/convert';
import { KeptDiagnostics } from 'writev-lint/out/lsp/keptDiagnostics';
import { messageJson } from 'writev-lint/out/lsp/diagnosticsJson';

/** `count` functions that each write a header and a payload to one descriptor (one finding each). */
function source(count: number, eol = '\n'): string {
  const out = ['#include <unistd.h>', ''];
  for (let i = 0; i < count; i++)
    out.push(
      `static int put_pair_${i}(int fd, const char *head, const char *body, size_t n)`,
      '{',
      `\tif (write_in_full(fd, head, ${(i % 7) + 1}) < 0)`,
      '\t\treturn -1;',
      '\tif (write_in_full(fd, body, n) < 0)',
      '\t\treturn -1;',
      '\treturn 0;',
      '}',
      '',
    );
  return out.join(eol);
}

/** `text` with `[at, at + removed)` replaced by `inserted`. */
function spliced(text: string, at: number, removed: number, inserted: string): string {
  return text.slice(0, at) + inserted + text.slice(at + removed);
}

describe('kept diagnostics', () => {
  it('equal a fresh conversion after every kind of edit, and keep the unmoved ones', async () => {
    const analyzer = await Analyzer.create();
    const uri = 'file:///tmp/kept-diagnostics.c';
    for (const eol of ['\n', '\r\n']) {
      const kept = new KeptDiagnostics();
      let text = source(24, eol);
      // Positions inside the 5th and 17th functions' header lengths, and the line breaks before them.
      const digit = (n: number) => text.indexOf(`head, `, text.indexOf(`put_pair_${n}(`)) + 'head, '.length;
      const lineEnd = (n: number) => text.lastIndexOf('\n', text.indexOf(`put_pair_${n}(`));
      const edits: (() => string)[] = [
        () => spliced(text, digit(5), 1, '9'), // same length, no line break
        () => spliced(text, digit(17), 1, '3'),
        () => spliced(text, digit(5), 0, '1'), // typed
        () => spliced(text, digit(5), 1, ''), // deleted
        () => spliced(text, lineEnd(9), 0, '\n'), // a line put in
        () => spliced(text, lineEnd(9), 1, ''), // and taken out
        () => spliced(text, digit(12) - 2, 1, '\n'), // same length, a space become a line break
        () => spliced(text, digit(12) - 2, 1, ' '),
        () => spliced(text, lineEnd(3), 1, ' '), // a `\n` (after `\r` in CRLF) become a space
        () => spliced(text, lineEnd(3), 1, '\n'),
        () => text, // the same text again
      ];
      let reused = 0;
      let before = new Map<string, unknown>();
      for (const edit of [() => text, ...edits]) {
        text = edit();
        const findings = analyzer.analyze('/tmp/kept-diagnostics.c', text, DEFAULT_SETTINGS, { key: uri });
        const lines = new LineIndex(text);
        const diagnostics = kept.of(uri, text, findings, lines);
        assert.deepEqual(
          diagnostics,
          findings.map((f) => toDiagnostic(f, uri, lines)),
        );
        // Each message's JSON, the kept diagnostics' texts reused, is what JSON.stringify gives.
        const msg = {
          jsonrpc: '2.0',
          method: 'textDocument/publishDiagnostics',
          params: { uri: `${uri}?"diagnostics":[]`, version: 3, diagnostics },
        };
        assert.equal(messageJson(msg), JSON.stringify(msg));
        for (const d of diagnostics) if (before.get(JSON.stringify(d)) === d) reused++;
        before = new Map(diagnostics.map((d) => [JSON.stringify(d), d]));
      }
      assert.ok(reused > 0, 'some diagnostics are kept from one analysis to the next');
      const others = [
        { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, diagnostics: [] } },
        { jsonrpc: '2.0', id: 1, result: { diagnostics: [{ message: 'not a notification' }] } },
      ];
      for (const msg of others) assert.equal(messageJson(msg), JSON.stringify(msg));
      analyzer.forget(uri);
    }
  });
});
