// Definitions whose head or end a macro writes (c-treebracingmacros/): `BM_BEGIN_ACTION(name)` ...
// `BM_END_ACTION` from a header, or a pasted head closed by the file's own brace. The analysis reads
// the expansions, as the compiler does, and reports the runs inside at their places in the text as
// written; a run whose write is in an expansion has no fix. Reads, datagram sockets, exclusive
// branches, a changed buffer and the end of a function still end a run.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { bracingDefines, expandBracingMacros } from 'writev-lint/out/analyzer/c/bracingMacros';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treebracingmacros');

/** The 1-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

describe('macros that open or close a brace', () => {
  it('are the definitions whose braces do not pair up, those written over one, and statement words', () => {
    const header = [
      '#define OPEN(n) static int n(int fd) { \\',
      '\tint r = 0;',
      '#define CLOSE return r; }',
      '#define OPEN_CMD(v) OPEN(cmd_##v)',
      '#define INIT { 0, 0 }',
      "#define BRACE_CHAR(c) ((c) == '{')",
      '#define MAX(a, b) ((a) > (b) ? (a) : (b))',
      '#define CODESTART /* statements follow */',
      '#define DEF_RET int r = 0',
    ].join('\n');
    assert.deepEqual(bracingDefines(header), [
      '#define OPEN(n) static int n(int fd) { \\\n\tint r = 0;',
      '#define CLOSE return r; }',
      '#define OPEN_CMD(v) OPEN(cmd_##v)',
      '#define CODESTART /* statements follow */',
    ]);
  });

  it('are expanded on their use’s first line, every other line kept', () => {
    const text = [
      '#define OPEN(n) static int n(int fd) {',
      '#define CLOSE return 0; }',
      'OPEN(',
      '  hello)',
      '\twrite(fd, "a", 1);',
      'CLOSE',
    ].join('\n');
    const copy = expandBracingMacros(text, []);
    assert.ok(copy);
    const lines = copy.text.split('\n');
    assert.equal(lines.length, 6);
    assert.equal(lines[2], 'static int hello(int fd) {');
    assert.equal(lines[3], '');
    assert.equal(lines[4], '\twrite(fd, "a", 1);');
    assert.equal(lines[5], 'return 0; }');
  });

  it('leave the file as written when a name is defined twice over, or the braces do not pair up', () => {
    const twice = [
      '#ifdef TRACE',
      '#define OPEN(n) static int n(int fd) { trace(#n);',
      '#else',
      '#define OPEN(n) static int n(int fd) {',
      '#endif',
      'OPEN(a) return 0; }',
    ].join('\n');
    assert.equal(expandBracingMacros(twice, []), undefined);
    const unpaired = ['#define OPEN(n) static int n(int fd) {', 'OPEN(a)', 'OPEN(b) return 0; }'].join('\n');
    assert.equal(expandBracingMacros(unpaired, []), undefined);
  });

  it('expand a statement word alone on its line only, and none defined twice over', () => {
    const header = [
      '#define OPEN(n) static int n(int fd) {',
      '#define CLOSE return 0; }',
      '#define START /* statements follow */',
      '#ifdef TRACE',
      '#define MARK trace();',
      '#else',
      '#define MARK',
      '#endif',
    ].join('\n');
    const text = ['OPEN(a)', 'START', 'MARK', '\tSTART write(fd, "a", 1);', 'CLOSE'].join('\n');
    const copy = expandBracingMacros(text, bracingDefines(header));
    assert.ok(copy);
    assert.deepEqual(copy.text.split('\n').slice(1), [
      '',
      'MARK',
      '\tSTART write(fd, "a", 1);',
      'return 0; }',
    ]);
  });

  it('report a run inside a definition a file’s own macros write, at the writes’ lines', async () => {
    const text = [
      '#include <unistd.h>',
      '#define HANDLER(name) static int name(void) { \\',
      '\tint out = 1;',
      '#define END_HANDLER return 0; }',
      'HANDLER(greet)',
      '\twrite(out, "a", 1);',
      '\twrite(out, "b", 1);',
      'END_HANDLER',
    ].join('\n');
    const found = (await analyzer()).analyze('own.c', text, DEFAULT_SETTINGS);
    assert.equal(found.length, 1);
    const [f] = found;
    assert.equal(lineOf(text, f!.span.start), 6);
    assert.deepEqual(
      f!.related.map((r) => lineOf(text, r.span.start)),
      [6, 7],
    );
    assert.ok(f!.fix, 'the writes stand in the file: the fix rewrites them');
  });
});

describe('C definitions made by a header’s macros', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run, a run ending in a macro’s write without a fix', async () => {
    const found = await assertBatchFindsMarkers(TREE);
    assert.deepEqual(
      found.map((f) => `${f.line} ${f.fixable}`),
      ['26 true', '33 true', '43 false'],
    );
  });
});
