// A syntax error in one C function hides nothing in the others: junk lines (a half-typed
// `xx write_in_full(fd, a, 3);`, unbalanced brackets, random token soup) inside one function leave
// the findings of every other function of the file as they are without the junk.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer } from './helpers';

/** Three functions with a write sequence each; `junk` goes into the first, after its first write. */
function source(junk: string | undefined): string {
  return [
    '#include <unistd.h>',
    '',
    'static void first(int fd, const char *a)',
    '{',
    '\twrite_in_full(fd, "x", 1);',
    ...(junk === undefined ? [] : [`\t${junk}`]),
    '\twrite_in_full(fd, a, 3);',
    '}',
    '',
    '#ifdef WITH_SECOND',
    'static void second(int fd, const char *buf, size_t len)',
    '{',
    '\tif (write_in_full(fd, "a", 1) < 0)',
    '\t\tdie("x");',
    '\tif (write_in_full(fd, buf, len) < 0)',
    '\t\tdie("x");',
    '}',
    '#endif',
    '',
    'int third(int fd, struct strbuf *sb)',
    '{',
    '\twrite_or_die(fd, sb->buf, sb->len);',
    '\twrite_or_die(fd, "\\n", 1);',
    '\treturn 0;',
    '}',
    '',
  ].join('\n');
}

/** The findings after the first function, as line numbers counted from the end of the file. */
async function laterFindings(text: string): Promise<string[]> {
  const a = await analyzer();
  const findings = a.analyze('junk.c', text, DEFAULT_SETTINGS);
  const lines = text.split('\n').length;
  const firstEnd = text.indexOf('\n}\n');
  return findings
    .filter((f) => f.span.start > firstEnd)
    .map((f) => `${lines - text.slice(0, f.span.start).split('\n').length}:${f.code}:${f.syscalls}`);
}

describe('C error recovery stays local to the broken function', () => {
  for (const junk of [
    'xx write_in_full(fd, a, 3);',
    'xx',
    'if (fd {',
    'while (1) {',
    '} else {',
    'foo(a, b;',
    'int = = 3;',
    'struct { int x;',
    ')))',
  ]) {
    it(`"${junk}" in the first function leaves the findings of the others`, async () => {
      const clean = await laterFindings(source(undefined));
      assert.equal(clean.length, 2);
      assert.deepEqual(await laterFindings(source(junk)), clean);
    });
  }

  it('random junk lines in the first function leave the findings of the others (property)', async () => {
    const clean = await laterFindings(source(undefined));
    const token = fc.constantFrom(
      'xx',
      'write_in_full',
      '(',
      ')',
      '{',
      '}',
      '[',
      ']',
      ';',
      ',',
      '=',
      '*',
      '&',
      'if',
      'else',
      'while',
      'return',
      'int',
      'struct',
      'fd',
      '"s"',
      "'c'",
      '3',
      '->',
      '?',
      ':',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(token, { minLength: 1, maxLength: 12 }), async (tokens) => {
        assert.deepEqual(await laterFindings(source(tokens.join(' '))), clean);
      }),
      { numRuns: 300 },
    );
  });
});
