// A batch run parses only the top-level parts of a C file that can matter. What it finds must be what
// a parse of the whole file finds (the editor's keyed path parses whole files): these files need parts
// that name no write function, chosen only by what other parts define.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { partCuts, unguarded } from 'writev-lint/out/analyzer/c/parts';
import { analyzer } from './helpers';

/** The parts of `text` as strings. */
function parts(text: string): string[] {
  const cuts = partCuts(text);
  return cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
}

/** Findings (line:code:syscalls) of a batch run and of a whole-file parse of `text`. */
async function both(text: string): Promise<{ batch: string[]; whole: string[] }> {
  const a = await analyzer();
  const show = (findings: ReturnType<typeof a.analyze>) =>
    findings.map((f) => `${text.slice(0, f.span.start).split('\n').length}:${f.code}:${f.syscalls}`);
  const batch = show(a.analyze('/parts/f.c', text, DEFAULT_SETTINGS));
  const key = `/parts/whole-${Math.random()}.c`;
  const whole = show(a.analyze(key, text, DEFAULT_SETTINGS, { key }));
  return { batch, whole };
}

/** Asserts that a batch run of `text` finds `count` findings, the same as a whole-file parse. */
async function assertSameAsWhole(text: string, count: number): Promise<void> {
  const { batch, whole } = await both(text);
  assert.equal(batch.length, count);
  assert.deepEqual(batch, whole);
}

const UNRELATED = 'static int unrelated(int a)\n{\n\treturn a * 2;\n}\n';

describe('C top-level parts', () => {
  it('cuts after each line that starts with }, and the parts make the whole text', () => {
    const text = `${UNRELATED}\nint x;\nvoid f(void)\n{\n\tif (x) {\n\t\tx++;\n\t}\n}\nint y;\n`;
    assert.deepEqual(parts(text), [
      UNRELATED,
      '\nint x;\nvoid f(void)\n{\n\tif (x) {\n\t\tx++;\n\t}\n}\n',
      'int y;\n',
    ]);
  });

  it('does not cut at a } line inside a comment or a string', () => {
    const text = [
      'void f(void)\n{\n/* a comment\n}\nstill the comment */\n\tputs("a \\',
      '}\\',
      ' b");\n}\n',
      'void g(void)\n{\n}\n',
    ].join('\n');
    assert.deepEqual(parts(text).length, 2);
    assert.ok(parts(text)[0]!.endsWith('b");\n}\n'));
  });

  it('keeps an #if block that spans } lines in one part', () => {
    const text = '#ifdef A\nvoid f(void)\n{\n}\n#else\nvoid f(int a)\n{\n}\n#endif\nvoid g(void)\n{\n}\n';
    assert.deepEqual(parts(text), [
      '#ifdef A\nvoid f(void)\n{\n}\n#else\nvoid f(int a)\n{\n}\n#endif\nvoid g(void)\n{\n}\n',
    ]);
  });

  it('does not cut at a } line that leaves a brace open (a badly indented block)', () => {
    const f = 'void f(int fd)\n{\n\tif (fd) {\n\t\tfd++;\n}\n\twrite(fd, "a", 1);\n}\n';
    assert.deepEqual(parts(`${f}${UNRELATED}`), [f, UNRELATED]);
  });

  it('counts the braces of one branch of a conditional, so the cuts after it remain', () => {
    const f = 'void f(int a)\n{\n#ifdef A\n\tif (a) {\n#else\n\tif (!a) {\n#endif\n\t\ta++;\n\t}\n}\n';
    assert.deepEqual(parts(`${f}${UNRELATED}${UNRELATED}`), [f, UNRELATED, UNRELATED]);
  });

  it('cuts K&R definitions after their closing line', () => {
    const text = 'int f(a, b)\nint a;\nchar *b;\n{\n\treturn a;\n}\nint g(c)\nint c;\n{\n\treturn c;\n}\n';
    assert.deepEqual(parts(text), [
      'int f(a, b)\nint a;\nchar *b;\n{\n\treturn a;\n}\n',
      'int g(c)\nint c;\n{\n\treturn c;\n}\n',
    ]);
  });
});

describe('a batch run parses the parts that other parts make matter', () => {
  it('finds the calls of a wrapper defined after an unrelated function and after its callers', async () => {
    const text = [
      '#include <string.h>',
      '#include <unistd.h>',
      UNRELATED,
      'void use(void)\n{\n\tput("a");\n\tput("b");\n}\n',
      UNRELATED.replace('unrelated', 'other'),
      'void put(const char *s)\n{\n\twrite_in_full(1, s, strlen(s));\n}\n',
    ].join('\n');
    await assertSameAsWhole(text, 1);
  });

  it('finds the calls of a same-file macro that writes', async () => {
    const text = [
      '#include <string.h>',
      '#include <unistd.h>',
      'void use(int fd)\n{\n\tSAY("a");\n\tSAY("b");\n}\n',
      UNRELATED,
      '#define SAY(x) \\\n\twrite_in_full(1, x, strlen(x))',
      '',
    ].join('\n');
    await assertSameAsWhole(text, 1);
  });

  it('lets the callers of a static function decide that its descriptor is a stream', async () => {
    const send = 'static void two(int fd)\n{\n\twrite(fd, "a", 1);\n\twrite(fd, "b", 1);\n}\n';
    const caller = 'void run(const char *path)\n{\n\tint fd = open(path, O_WRONLY);\n\ttwo(fd);\n}\n';
    const stream = [UNRELATED, send, UNRELATED.replace('unrelated', 'other'), caller].join('\n');
    const found = await both(stream);
    assert.equal(found.batch.length, 1);
    assert.deepEqual(found.batch, found.whole);
    // A socket of a type the call leaves to a variable: a datagram socket may be, so nothing.
    const unknown = await both(stream.replace('open(path, O_WRONLY)', 'socket(AF_INET, type, 0)'));
    assert.deepEqual(unknown.batch, []);
    assert.deepEqual(unknown.whole, []);
  });

  it('reads a stream from a function of the file that returns one', async () => {
    const text = [
      UNRELATED,
      'static int make(const char *path)\n{\n\treturn open(path, O_WRONLY | O_CREAT, 0644);\n}\n',
      'void run(const char *path)\n{\n\tint fd = make(path);\n\twrite(fd, "a", 1);\n\twrite(fd, "b", 1);\n}\n',
    ].join('\n');
    await assertSameAsWhole(text, 1);
  });

  it('reads a function whose inner block closes in column 0 whole', async () => {
    const text = [
      UNRELATED,
      'void f(int fd, const char *a)\n{\n\tif (!a) {\n\t\treturn;\n}\n\twrite_in_full(fd, "x", 1);\n\twrite_in_full(fd, a, 3);\n}\n',
    ].join('\n');
    await assertSameAsWhole(text, 1);
  });

  it('keeps the findings of the other parts when one part has a parse error', async () => {
    const seq = (name: string) =>
      `void ${name}(int fd, const char *a)\n{\n\twrite_in_full(fd, "x", 1);\n\twrite_in_full(fd, a, 3);\n}\n`;
    const text = [
      seq('one'),
      'void broken(void)\n{\n\tif (x {\n\t\tput("a");\n}\n',
      seq('two'),
      UNRELATED,
      seq('three'),
    ].join('\n');
    await assertSameAsWhole(text, 3);
  });

  it('finds the same with prototypes of write functions and wrappers around the definitions', async () => {
    // The prototypes' parts hold no body and no macro: nothing there to read, and they are not parsed.
    const text = [
      'ssize_t write_in_full(int fd, const void *buf, size_t count);',
      'void put(const char *s);',
      'void use(void)\n{\n\tput("a");\n\tput("b");\n}\n',
      'void put(const char *s);\nint write_str_in_full(int fd, const char *s);',
      'void put(const char *s)\n{\n\twrite_in_full(1, s, strlen(s));\n}\n',
      'void put(const char *s);\n# define SAY(x) \\\n\twrite_in_full(1, x, strlen(x))',
      'void say(void)\n{\n\tSAY("a");\n\tSAY("b");\n}\n',
    ].join('\n');
    await assertSameAsWhole(text, 2);
  });

  it('finds the same in a header with an include guard as in a whole-file parse', async () => {
    const header = [
      '/* out.h */',
      '#ifndef OUT_H',
      '#define OUT_H',
      'ssize_t write_in_full(int fd, const void *buf, size_t count);',
      'struct out {\n\tint fd;\n};\n',
      'static inline void two(struct out *o, const char *a)\n{\n\twrite_in_full(o->fd, a, 3);\n\twrite_in_full(o->fd, "x", 1);\n}\n',
      '#ifdef EXTRA\nvoid extra(void);\n#endif',
      'static inline void pair(int fd)\n{\n\twrite_in_full(fd, "a", 1);\n\twrite_in_full(fd, "b", 1);\n}\n',
      '#endif /* OUT_H */',
      '',
    ].join('\n');
    await assertSameAsWhole(header, 2);
  });
});

describe('include guards', () => {
  const body = 'struct a {\n\tint x;\n};\n#if X\nint y;\n#endif\n';

  it('blanks the lines of a guard, keeping offsets and lines, and cuts inside it', () => {
    const text = `// c\n#ifndef A_H\n#define A_H 1\n${body}#endif // A_H\n\n`;
    const out = unguarded(text);
    assert.equal(out, text.replace('#ifndef A_H', ' '.repeat(11)).replace('#endif // A_H', ' '.repeat(13)));
    assert.ok(partCuts(out).length > partCuts(text).length);
  });

  it('leaves a file alone whose first or last line of code is not the guard', () => {
    for (const text of [
      `int before;\n#ifndef A_H\n#define A_H\n${body}#endif\n`,
      `#ifndef A_H\n#define A_H\n${body}#endif\nint after;\n`,
      `#ifndef A_H\n#define B_H\n${body}#endif\n`,
      `#ifndef A_H\n#define A_H\n${body}#else\nint other;\n#endif\n`,
      `#ifndef A_H\n#define A_H\n${body}#endif\nint between;\n#if Y\n#endif\n`,
    ])
      assert.equal(unguarded(text), text);
  });

  it('reads a file that starts with many lines of slashes in one pass', () => {
    // Each line of slashes can be read as one comment or several: a search that tries every
    // reading never ends on a file like busybox's networking/ifupdown.c.
    const text = `${'////////:config X\n'.repeat(200)}#include <a.h>\nint x;\n#endif\n`;
    assert.equal(unguarded(text), text);
  });
});
