// The function memo under long editing: typing in a 4,000-line function makes a new function text per
// keystroke, and each used to stay in the memo (capped at 20,000 entries, not bytes) even after the
// document was closed. The memo's own byte count must stay under its bound, keep only what the
// document's latest analyses used, and drop the document's entries when it is closed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from 'writev-lint';
import { CAnalyzer } from 'writev-lint/out/analyzer/c/analyzeC';
import { FunctionMemo, type MemoUse } from 'writev-lint/out/analyzer/c/memo';
import { sameEnds } from 'writev-lint/out/analyzer/c/textChanges';
import { CParser, loadCLanguage } from 'writev-lint/out/analyzer/c/parser';
import { DEFAULT_SETTINGS } from 'writev-lint';

/** A function of `lines` lines of table, then two writes (one finding). */
function longFunction(lines: number): string {
  const table = Array.from({ length: lines }, (_, i) => `\t\t"line ${i} of the table",`).join('\n');
  return `void big(int fd)\n{\n\tstatic const char *table[] = {\n${table}\n\t};\n\twrite_or_die(fd, "a", 1);\n\twrite_or_die(fd, table[0], 1);\n}\n`;
}

/** `text` with one more character typed at the first `line 1 `. */
function keystroke(text: string, n: number): string {
  const at = text.indexOf('line 1 ');
  return text.slice(0, at) + String.fromCharCode(97 + (n % 26)) + text.slice(at);
}

const FINDING: Finding = {
  code: 'adjacent-writes',
  severity: 'warning',
  message: '2 syscalls to fd can become one',
  span: { start: 10, end: 90 },
  related: [],
  syscalls: 2,
  target: 'fd',
};

describe('function memo', () => {
  it('stays under its byte bound while 2,000 edits are typed into a 4,000-line function', () => {
    const memo = new FunctionMemo<Finding[]>(4 * 1024 * 1024);
    let text = longFunction(4000);
    const uri = 'file:///tmp/big.c';
    let peak = 0;
    for (let n = 0; n < 2000; n++) {
      text = keystroke(text, n);
      memo.begin(uri);
      // As the C front end asks: the function's text, sliced from the document's.
      const document = `#include <unistd.h>\n${text}`;
      memo.get('context', document.slice(20), () => [FINDING]);
      memo.end();
      const use: MemoUse = memo.use();
      peak = Math.max(peak, use.bytes);
      assert.ok(use.bytes <= use.maxBytes, `${use.bytes} bytes after ${n + 1} edits, over ${use.maxBytes}`);
      assert.ok(
        use.entries <= 2,
        `${use.entries} entries after ${n + 1} edits: only the latest two are used`,
      );
    }
    assert.ok(peak >= 2 * text.length, 'the count includes the function text');
    memo.forget(uri);
    assert.deepEqual(memo.use(), { entries: 0, bytes: 0, maxBytes: 4 * 1024 * 1024, owners: 0 });
  });

  it('evicts the least recently used entries to stay within the bound', () => {
    const memo = new FunctionMemo<number>(200_000);
    const texts = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(30_000, 'x'));
    texts.forEach((t, i) => memo.get('c', t, () => i));
    assert.ok(memo.use().bytes <= 200_000);
    assert.equal(memo.use().entries, 3);
    let computed = 0;
    assert.equal(
      memo.get('c', texts[9]!, () => ++computed),
      9,
    );
    assert.equal(computed, 0, 'the latest entry is still there');
    memo.get('c', texts[0]!, () => ++computed);
    assert.equal(computed, 1, 'the oldest was evicted');
  });

  it('keeps an entry another open document still uses when one closes', () => {
    const memo = new FunctionMemo<number>();
    for (const uri of ['file:///a.c', 'file:///b.c']) {
      memo.begin(uri);
      memo.get('c', 'void shared(void) { write_or_die(1, "a", 1); }', () => 1);
      memo.end();
    }
    memo.forget('file:///a.c');
    assert.equal(memo.use().entries, 1);
    memo.forget('file:///b.c');
    assert.equal(memo.use().entries, 0);
  });
});

describe('function memo by place', () => {
  const uri = 'file:///tmp/placed.c';
  const before = 'int a(void) { return 1; }\nint b(void) { return 2; }\nint c(void) { return 3; }\n';
  // The second definition retyped: the first stands before the change, the third after it.
  const after = before.replace('return 2;', 'return 22;');
  const change = {
    ...sameEnds(before, after),
    length: after.length,
    delta: after.length - before.length,
  };
  const starts = (text: string) => [...text.matchAll(/^int/gm)].map((m) => m.index);
  const ends = (text: string) => [...text.matchAll(/\n/g)].map((m) => m.index + 1);
  const analyse = (memo: FunctionMemo<string>, text: string, computed: string[], lead = '') => {
    const found = starts(text).map((start, k) => {
      const key = lead + text.slice(start, ends(text)[k]);
      return memo.get('c', key, () => (computed.push(key), key.toUpperCase()), { start, lead });
    });
    memo.end();
    return found;
  };

  it('finds the entries of the definitions before and after the change by place', () => {
    const memo = new FunctionMemo<string>();
    memo.begin(uri);
    const first: string[] = [];
    analyse(memo, before, first);
    assert.equal(first.length, 3);
    memo.begin(uri, change);
    const second: string[] = [];
    const found = analyse(memo, after, second);
    assert.deepEqual(second, ['int b(void) { return 22; }\n'], 'only the changed definition is read');
    assert.deepEqual(
      found,
      after
        .trimEnd()
        .toUpperCase()
        .split('\n')
        .map((l) => `${l}\n`),
    );
  });

  it('reads a definition at an unchanged place again when its lead differs', () => {
    const memo = new FunctionMemo<string>();
    memo.begin(uri);
    analyse(memo, before, [], 'quiet\n');
    memo.begin(uri, change);
    const computed: string[] = [];
    const found = analyse(memo, after, computed, 'loud\n');
    assert.equal(computed.length, 3, 'no entry under another lead is taken');
    assert.ok(found.every((f) => f.startsWith('LOUD\n')));
  });

  it('takes nothing by place from an entry the memo no longer holds', () => {
    const memo = new FunctionMemo<string>();
    memo.begin(uri);
    analyse(memo, before, []);
    // Another context empties the memo; the places of the analysis before point at dropped entries.
    memo.get('other', 'x', () => 'x');
    memo.begin(uri, change);
    const computed: string[] = [];
    analyse(memo, after, computed);
    assert.equal(computed.length, 3);
  });
});

describe('C front end memos', () => {
  it('hold the latest analyses of a document being edited, and nothing once it is closed', async () => {
    const c = new CAnalyzer(new CParser(await loadCLanguage()));
    let text = longFunction(1000);
    const key = 'file:///tmp/long.c';
    for (let n = 0; n < 20; n++) {
      text = keystroke(text, n);
      assert.equal(c.analyze(text, DEFAULT_SETTINGS, key).findings.length, 1);
      for (const use of c.memoUse()) assert.ok(use.entries <= 2, JSON.stringify(c.memoUse()));
    }
    assert.ok(c.memoUse()[0]!.bytes > 2 * text.length, 'the findings memo holds the function');
    c.forget(key);
    for (const use of c.memoUse()) assert.deepEqual([use.entries, use.bytes], [0, 0]);
  });
});
