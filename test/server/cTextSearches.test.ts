// Searches of a file's text made cheaper answer as the patterns they stand for: a parameter's declared
// name read back from its end, file-level array declarations tried only at lines that can hold one,
// a kept text's called names standing before a pass's search for calls of its words, the pointers
// into file-scope objects searched for only where a `*` or a declarator spells them (and their
// declarations only from the line starts before a spelling), function-like definitions tried only at
// the lines holding `define`, and conditional directives searched for at the lines holding a `#` once
// a word to blank is found. Texts made to
// catch where the two could part (array bounds, digits, other white space, other line ends, `$`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DECLARED_NAME, parameterName } from 'writev-lint/out/analyzer/c/parameterName';
import { FILE_ARRAY, fileArrayDeclarations } from 'writev-lint/out/analyzer/c/staticReturns';
import { calledNames, mayCall } from 'writev-lint/out/cli/calledNames';
import type { CFunctionFact } from 'writev-lint/out/analyzer/c/functionFacts';
import { aliasedAssignments } from 'writev-lint/out/analyzer/c/pointerAliases';
import { blankOutsideConditions } from 'writev-lint/out/analyzer/c/conditionWords';
import { callPattern } from 'writev-lint/out/cli/secondPass';
import { functionLikeDefines } from 'writev-lint/out/analyzer/headerIncludes';

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

/**
 * The pointers into file-scope objects as whole-text searches find them: every assigned name tried as
 * a declared pointer, every object named tried as a file-scope declaration (pointerAliases.ts before
 * its triggers).
 */
function searchedTargets(clean: string, names: readonly string[]): Map<string, Set<string>> {
  const qualifiers = '(?:(?:static|const|volatile|unsigned|signed|struct|union|extern)\\s+)*';
  const declared = new RegExp(
    `^${qualifiers}[A-Za-z_]\\w*[\\s*]*\\*\\s*(${names.join('|')})\\s*(?:=\\s*(?:\\(\\s*[\\w\\s*]+\\)\\s*)?&?\\s*([A-Za-z_]\\w*)|;)`,
    'gm',
  );
  const given: [string, string][] = [];
  const pointers = new Set<string>();
  for (const m of clean.matchAll(declared)) {
    pointers.add(m[1]!);
    if (m[2] !== undefined) given.push([m[1]!, m[2]]);
  }
  const targets = new Map<string, Set<string>>();
  if (pointers.size === 0) return targets;
  const set = new RegExp(
    `\\b(${[...pointers].join('|')})\\s*=(?!=)\\s*(?:\\(\\s*[\\w\\s*]+\\)\\s*)?&?\\s*([A-Za-z_]\\w*)`,
    'g',
  );
  for (const m of clean.matchAll(set)) given.push([m[1]!, m[2]!]);
  for (const [pointer, object] of given) {
    const fileScope = new RegExp(
      `^${qualifiers}[A-Za-z_]\\w*[\\s*]+${object}\\s*(?:\\[[^\\]\\n]*\\]\\s*)*[;=,]`,
      'm',
    );
    if (pointer === object || !fileScope.test(clean)) continue;
    if (!targets.has(pointer)) targets.set(pointer, new Set());
    targets.get(pointer)!.add(object);
  }
  return targets;
}

describe('aliasedAssignments', () => {
  // What the function assigns: the pointers (and a name no object is declared as); the objects they
  // point into are what the answer adds.
  const names = ['outp', 'p', 'NULL'];
  const texts = [
    'static char outbuf[8];\nstatic char *outp = outbuf;\n',
    'char buf[4], *p;\nvoid f(void) { p = &buf[1]; }\n',
    'char\n*p;\nchar outbuf [2][3] ;\np = (char *) outbuf + 1;\n',
    'int *p = NULL;\n  char buf[2];\nreturn NULL;\n',
    ...samples(
      [
        'static char *outp = outbuf;\n',
        'char *p;\n',
        'char\n*p;\n',
        'char * p ;\n',
        'int *outp=\t(char *) buf;\n',
        'int*outbuf;\n',
        'char buf[2];\n',
        'char outbuf [2][3] ,x;\n',
        'static int\nbuf = 1;\n',
        ' char buf[2];\n',
        'char buf[2]\n',
        'char\u00a0buf;\n',
        'char buf\u00a0;\n',
        'int 9buf;\n',
        'p = &buf[1];\n',
        'outp = outbuf + 1;\n',
        'p\u00a0= buf;\n',
        'p == buf;\n',
        'p = NULL;\n',
        '\treturn NULL;\n',
        'x = *p;\n',
        '*outp = 0;\n',
        '\r\n',
        '\r',
        '\u2028',
        'char buf[2];\r',
        '*',
        ' ',
        ';',
        '\n',
      ],
      7,
      20000,
    ),
  ];
  it('gives each function the objects the whole-text searches give', () => {
    const fact: CFunctionFact = { name: 'f', exported: true, calls: [], opaque: false, assigns: names };
    for (const clean of texts) {
      // A body storing through every pointer (spelled with no `*`): what it assigns is then each
      // pointer's objects.
      const body = `{ ${names.map((n) => `${n}[0] = 0;`).join(' ')} }`;
      const text = `${clean}\n${body}`;
      const open = clean.length + 1;
      const [got] = aliasedAssignments(text, [fact], [[open, text.length - 1]]);
      const expected = new Set(names);
      for (const objects of searchedTargets(text, names).values()) for (const o of objects) expected.add(o);
      assert.deepEqual([...(got!.assigns ?? [])].sort(), [...expected].sort(), JSON.stringify(clean));
    }
  });
});

describe('functionLikeDefines', () => {
  const searched = (text: string) =>
    text.includes('define')
      ? [...text.matchAll(/^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*\([^)\n]*\)(?:[^\n\\]|\\[\s\S])*/gm)].map(
          (m) => m[0].trim(),
        )
      : [];
  const texts = [
    '#define F(a) write(1, a, 2)\n# define G() \\\n  x\n#define H 1\n',
    '  #\tdefine W(x) send(x) /* define */\n',
    ...samples(
      [
        '#define F(a) ',
        '# define G() x',
        '#define H 1',
        'define',
        '#',
        '\\\n',
        '\\\r\n',
        '\n',
        '\r',
        '\u2028',
        ' ',
        '\t',
        'x',
        '(',
        ')',
        'f(a',
      ],
      12,
      20000,
    ),
  ];
  it('finds the definitions a search from every line finds', () => {
    for (const text of texts)
      assert.deepEqual(functionLikeDefines(text), searched(text), JSON.stringify(text));
  });
});

describe('blankOutsideConditions', () => {
  const condition = /^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b(?:[^\n]*\\\r?\n)*[^\n]*/gm;
  /** The blanking as a global search of every directive first gives it. */
  const searched = (text: string, pattern: RegExp) => {
    const kept = [...text.matchAll(condition)].map((m) => [m.index, m.index + m[0].length] as const);
    return text.replace(pattern, (match: string, at: number) =>
      kept.some(([from, to]) => from <= at && at < to) ? match : ' '.repeat(match.length),
    );
  };
  const texts = samples(
    [
      '#if ',
      '#ifdef',
      '# elif',
      '#endif',
      ' ',
      '\t',
      '\n',
      '\r',
      '\r\n',
      '\u2028',
      '\\',
      'UNUSED',
      'x',
      '(',
      ')',
      ';',
      '#',
    ],
    16,
    20000,
  );
  it('keeps the words of conditional directives and blanks the others, as before', () => {
    for (const text of texts)
      assert.equal(
        blankOutsideConditions(text, /\bUNUSED\b/g),
        searched(text, /\bUNUSED\b/g),
        JSON.stringify(text),
      );
  });
});
