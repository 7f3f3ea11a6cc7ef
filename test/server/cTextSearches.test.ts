// Searches of a file's text made cheaper answer as the patterns they stand for: a parameter's declared
// name read back from its end, file-level array declarations tried only at lines that can hold one,
// and a kept text's called names standing before a pass's search for calls of its words. Texts made to
// catch where the two could part (array bounds, digits, other white space, other line ends, `$`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DECLARED_NAME, parameterName } from 'writev-lint/out/analyzer/c/parameterName';
import { FILE_ARRAY, fileArrayDeclarations } from 'writev-lint/out/analyzer/c/staticReturns';
import { calledNames, mayCall } from 'writev-lint/out/cli/calledNames';
import { callPattern } from 'writev-lint/out/cli/secondPass';

/** Every string of up to `length` pieces of `alphabet`, in a fixed pseudo-random sample of `count`. */
function samples(alphabet: readonly string[], length: number, count: number): string[] {
  let seed = 46;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const found: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = Math.floor(next() * (length + 1));
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(next() * alphabet.length)]!;
    found.push(s);
  }
  return found;
}

describe('parameterName', () => {
  const texts = [
    'const char *buf',
    'int fd',
    'int v[2]',
    'char a[N][M]',
    'int 9x',
    'unsigned long  n\t',
    'void',
    '',
    'int x\u00a0',
    'struct s *p[',
    'char b[3]]',
    'int _',
    ...samples(
      ['a', '_', '1', ' ', '\t', '\n', '*', '[', ']', 'const ', 'x2', '\u00a0', '\u2028', 'é', ','],
      10,
      20000,
    ),
  ];
  it('gives what the anchored search gives', () => {
    for (const text of texts)
      assert.equal(parameterName(text), DECLARED_NAME.exec(text)?.[1] ?? '', JSON.stringify(text));
  });
});

describe('fileArrayDeclarations', () => {
  const texts = [
    'static char buf[64];\nint f(void)\n{\n\tchar local[8];\n}\nchar *names[] = { "a", "b" };\n',
    'static\nchar split[4];\nint\nhead [2];\nx = y[3];\n',
    'int a[2]; int b[3];\nlong c[4]\n;\n',
    'char crlf[2];\r\nint after[3];\r\n',
    'typedef int t[2];\nreturn v[1];\nunsigned char *p [N];',
    ...samples(
      [
        'a',
        'static ',
        'int ',
        'x',
        '1',
        '_',
        ' ',
        '\t',
        '\n',
        '\n',
        '*',
        '[',
        ']',
        ';',
        '{',
        '}',
        '(',
        '\v',
        '\f',
        '\u00a0',
        '= ',
        '\r',
      ],
      25,
      20000,
    ),
  ];
  it('finds what the pattern finds', () => {
    for (const text of texts)
      assert.deepEqual(
        fileArrayDeclarations(text),
        [...text.matchAll(FILE_ARRAY)].map((m) => m[0]),
        JSON.stringify(text),
      );
  });
});

describe('calledNames', () => {
  const words = ['send_all', 'xwrite', 'put', 'a$b', 'w9'];
  const texts = [
    'n = send_all (fd, b, n);',
    'xsend_all(fd); put\n\t(x); c->xwrite(1);',
    'a$b(1); w9\u00a0(2);',
    'if (put) return; "put(";',
    ...samples(
      ['send_all', 'xwrite', 'put', 'a$b', 'w9', 'x', ' ', '\n', '\u00a0', '(', ')', '->', '.', ';', '$'],
      12,
      20000,
    ),
  ];
  it('stands only before texts no call of the words is found in', () => {
    for (let k = 1; k <= words.length; k++) {
      const some = words.slice(0, k);
      const { pattern, words: searched } = callPattern(some.slice(0, 3), some.slice(3));
      for (const text of texts)
        if (pattern.test(text)) assert.ok(mayCall(calledNames(text), searched), JSON.stringify([some, text]));
    }
  });
  it('reads the names a ( follows', () => {
    assert.deepEqual(calledNames('a = f (x) + g\n(y) * (z); h[1](2); f(w);'), '\nf\ng\n');
  });
});
