// The C shapes: every fixture finds exactly what its `expect:` markers say, and nothing in negatives.c.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, parseSettings } from 'writev-lint';
import { analyzeFixture, analyzer, expectations, fixture, fixtures, FIXTURES, observed } from './helpers';

/** The idioms every front end finds, one fixture each. */
const IDIOMS = ['adjacent', 'betweenStatements', 'branchTails', 'wrappers', 'loops'];

describe('C analysis', () => {
  for (const name of fixtures('c', '.c')) {
    it(`${name} yields exactly the findings its markers expect`, async () => {
      const text = fixture(name);
      const found = await analyzeFixture(name);
      assert.deepEqual(observed(text, found), expectations(text));
    });
  }

  it('flags nothing in the negative fixture (every "never flag" case)', async () => {
    assert.deepEqual(await analyzeFixture('c/negatives.c'), []);
  });

  it('has a fixture with expected findings for each idiom', () => {
    for (const idiom of IDIOMS) {
      const name = `c/${idiom}.c`;
      assert.ok(fixtures('c', '.c').includes(name), name);
      assert.ok(expectations(fixture(name)).length > 0, `${name} expects findings`);
    }
  });

  it('reports a warning with the syscall count, the descriptor, related writes and the sequence range', async () => {
    const text = fixture('c/betweenStatements.c');
    const [first] = await analyzeFixture('c/betweenStatements.c');
    assert.ok(first, 'a finding');
    assert.equal(first.code, 'adjacent-writes');
    assert.equal(first.severity, 'warning');
    assert.match(first.message, /^3 syscalls to out_fd can become one/);
    assert.equal(first.related.length, 3);
    assert.match(first.related[0]!.message, /through wrapper emit\(\)/);
    assert.equal(text.slice(first.span.start, first.span.start + 5), 'emit(');
    assert.ok(text.slice(first.span.start, first.span.end).endsWith('emit("\\n", 1);'));
  });

  it('moves the statement that frees the first buffer after the gathered write (statements between the writes)', async () => {
    const [first] = await analyzeFixture('c/betweenStatements.c');
    const edit = first?.fix?.edits.find((e) => e.newText.includes('writev_in_full'));
    assert.ok(edit, 'a fix with writev_in_full');
    assert.ok(
      edit.newText.indexOf('strbuf_release(line);') > edit.newText.indexOf('writev_in_full(out_fd, iov, 3)'),
    );
    assert.match(
      edit.newText,
      /if \(writev_in_full\(out_fd, iov, 3\) < 0\)\n\s+die_errno\("unable to write to output"\);/,
    );
  });

  it('compares a "!= len" check with the sum of the lengths', async () => {
    const found = await analyzeFixture('c/adjacent.c');
    const edit = found[found.length - 1]?.fix?.edits.find((e) => e.newText.includes('writev_in_full'));
    assert.match(edit?.newText ?? '', /if \(writev_in_full\(fd, iov, 2\) != \(4 \+ len\)\)/);
  });

  it('keeps _or_die as _or_die and a checked write checked', async () => {
    const found = await analyzeFixture('c/adjacent.c');
    const texts = found.map((f) => f.fix?.edits.map((e) => e.newText).join('') ?? '');
    assert.match(texts[0] ?? '', /writev_or_die\(fd, iov, 2\);/);
    assert.match(texts[1] ?? '', /if \(writev_in_full\(fd, iov, 2\) < 0\)[^\n]*\n\s+return error_errno/);
  });

  it('offers no fix where the buffers of a writev cannot be listed', async () => {
    const found = await analyzeFixture('c/adjacent.c');
    const absorbing = found.find((f) => f.message.includes('xwritev'));
    assert.ok(absorbing);
    assert.equal(absorbing.fix, undefined);
  });

  it('uses wrappers from other workspace files but offers no fix through them', async () => {
    const found = await analyzeFixture('c/wrappers.c');
    const log = found.find((f) => f.target === 'log_fd');
    assert.ok(log, 'log_line() from wrappersLib.c counts as a write to log_fd');
    assert.equal(log.fix, undefined);
  });

  it('honours the minimum sequence length, severity and language settings', async () => {
    const three = parseSettings({ minSequenceLength: 3, severity: { adjacentWrites: 'error' } });
    const found = await analyzeFixture('c/adjacent.c', three);
    assert.deepEqual(
      found.map((f) => [f.syscalls, f.severity]),
      [[3, 'error']],
    );
    const off = parseSettings({ languages: { c: false } });
    assert.deepEqual(await analyzeFixture('c/adjacent.c', off), []);
  });

  it('counts user-declared write functions and wrappers', async () => {
    const a = await analyzer();
    const text =
      'void f(int fd) { my_put(fd, "a", 1); my_put(fd, "b", 1); }\nvoid g(void) { out_str("x"); out_str("y"); }\n';
    const settings = parseSettings({
      writeFunctions: [{ name: 'my_put', fd: 0, buf: 1, len: 2, gatheredName: 'my_putv' }],
      wrappers: [{ name: 'out_str', fd: 'out_fd', buf: 0 }],
    });
    const found = a.analyze(join(FIXTURES, 'user.c'), text, settings);
    assert.deepEqual(
      found.map((f) => f.target),
      ['fd', 'out_fd'],
    );
    assert.deepEqual(a.analyze(join(FIXTURES, 'user.c'), text, DEFAULT_SETTINGS), []);
  });

  it('reparses incrementally and stays right after edits', async () => {
    const a = await analyzer();
    const key = 'incremental.c';
    let text = fixture('c/adjacent.c');
    assert.equal(a.analyze(key, text, DEFAULT_SETTINGS, { key }).length, 6);
    text = text.replace('write_or_die(fd, buf, len);', 'write_or_die(2, buf, len);');
    assert.equal(a.analyze(key, text, DEFAULT_SETTINGS, { key }).length, 5);
    text = text.replace('write_or_die(2, buf, len);', 'write_or_die(fd, buf, len);');
    assert.equal(a.analyze(key, text, DEFAULT_SETTINGS, { key }).length, 6);
    a.forget(key);
  });

  it('gives the same findings after any sequence of edits as a fresh parse', async () => {
    const a = await analyzer();
    const key = 'edits.c';
    let text =
      fixture('c/betweenStatements.c') + fixture('c/adjacent.c').replace('#include "git-style.h"', '');
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['write_or_die(fd, "x", 1);\n', '}', '{', ' ', '\n', 'fd', '/*', '*/', ';', 'if (x) '];
    for (let i = 0; i < 60; i++) {
      const at = random(text.length + 1);
      const cut = random(4);
      text = text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at + cut);
      const incremental = a.analyze(key, text, DEFAULT_SETTINGS, { key }).map((f) => [f.span, f.message]);
      const fresh = a.analyze(key, text, DEFAULT_SETTINGS).map((f) => [f.span, f.message]);
      assert.deepEqual(incremental, fresh, `after edit ${i}`);
    }
    a.forget(key);
  });
});
