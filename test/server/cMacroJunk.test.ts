// Macros a parser of expansions must survive: recursive and mutually recursive definitions, a `do {`
// opened in one macro and closed in another, variadic arguments, `#` and `##`, a use missing its `)`,
// and an expansion of more writes than one writev takes. Each is analysed without a throw or a hang,
// no fix edits inside an expansion, and no run claims more than IOV_MAX buffers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer } from './helpers';

const TEXT = `#include <unistd.h>
#include <string.h>
#define W(fd, s) do { if (write(fd, s, strlen(s)) < 0) return -1; } while (0)
#define REC(x) REC(x) W(1, x)
#define A(x) B(x)
#define B(x) A(x) W(1, "b")
#define OPEN(x) do { if (write(1, x, 1) < 0) return -1;
#define CLOSE } while (0)
#define VAR(fd, ...) do { char *v[] = { __VA_ARGS__ }; W(fd, v[0]); } while (0)
#define STR(x) #x
#define CAT(a, b) a##b
#define TWICE(x) W(1, x); W(1, x)
#define HUGE(x) TWICE(x); TWICE(x); TWICE(x); TWICE(x); TWICE(x); TWICE(x); TWICE(x); TWICE(x)
#define HUGER(x) HUGE(x); HUGE(x); HUGE(x); HUGE(x); HUGE(x); HUGE(x); HUGE(x); HUGE(x); HUGE(x)
#define HUGEST(x) HUGER(x); HUGER(x); HUGER(x); HUGER(x); HUGER(x); HUGER(x); HUGER(x); HUGER(x)
int jk_rec(void) { REC("a"); REC("b"); return 0; }
int jk_mutual(void) { A("x"); A("y"); return 0; }
int jk_split(void) { OPEN("x") CLOSE; OPEN("y") CLOSE; return 0; }
int jk_var(int fd) { VAR(fd, "a", "b"); VAR(fd, "c"); return 0; }
int jk_str(void) { W(1, STR(x)); W(1, "y"); return 0; }
int jk_huge(void) { HUGEST("a"); return 0; }
int jk_unclosed(void) { W(1, "a"; W(1, "b"); return 0; }
int jk_cat(void) { W(1, CAT("a", )); W(1, "b"); return 0; }
`;

describe('C macros the expansion must survive', () => {
  it('analyses junk macros without a throw, a fix inside a macro, or a run past IOV_MAX', async () => {
    const a = await analyzer();
    const found = a.analyze('/virtual/junk-macros.c', TEXT, DEFAULT_SETTINGS);
    const defines = TEXT.lastIndexOf('#define');
    for (const f of found) {
      assert.ok(f.syscalls <= 1024, `${f.syscalls} syscalls in one run at ${f.span.start}`);
      for (const e of f.fix?.edits ?? []) assert.ok(e.span.start > defines, 'a fix edits a macro definition');
    }
    // The 1,152 writes of HUGEST() are found, in runs of at most 1024 buffers.
    const huge = found.filter(
      (f) => f.span.start > TEXT.indexOf('jk_huge') && f.span.start < TEXT.indexOf('jk_unclosed'),
    );
    assert.equal(
      huge.reduce((n, f) => n + f.syscalls, 0),
      1152,
    );
    assert.ok(huge.length >= 2);
  });
});

describe('function-like macros whose parameter list is no list of names', () => {
  // Half typed in the editor, or never compiled: `(fd(, t)` defines no function-like macro, and a
  // reading that took its words for names built a pattern of `fd(` and failed the whole file.
  const loop = (params: string) => `#include <unistd.h>
#include <errno.h>
#define WAIT_OUT(${params}) poll_one(fd, 4, t)
extern int poll_one(int fd, int ev, int t);
static int put(int fd, const char *s, size_t n) {
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EAGAIN) { WAIT_OUT(fd, 100); continue; }
			return -1;
		}
		s += w; n -= w;
	}
	return 0;
}
int two(int fd) { put(fd, "a", 1); put(fd, "b", 1); return 0; }
`;

  it('finds the run where the wait macro is well formed', async () => {
    const a = await analyzer();
    const found = a.analyze('/virtual/wait-params.c', loop('fd, t'), DEFAULT_SETTINGS);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.syscalls, 2);
  });

  for (const params of ['fd(, t', 'fd[, t', '+', 'a|b', 'x?', '.*, t'])
    it(`analyses the file with a wait macro of parameters "${params}"`, async () => {
      const a = await analyzer();
      // The loop's wait is then a call of no known body: whether the helper is one write is left open,
      // but the file is read, and its other functions too.
      const text = `${loop(params)}int three(int fd) { write(fd, "a", 1); write(fd, "b", 1); return 0; }\n`;
      const found = a.analyze('/virtual/junk-params.c', text, DEFAULT_SETTINGS);
      assert.ok(found.some((f) => f.syscalls === 2 && f.span.start > text.indexOf('three')));
    });

  it('reads a variadic macro wait as a wait of its named parameter', async () => {
    const a = await analyzer();
    const text = loop('fd, ...').replace('poll_one(fd, 4, t)', 'poll_one(fd, 4, __VA_ARGS__)');
    const found = a.analyze('/virtual/variadic-wait.c', text, DEFAULT_SETTINGS);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.syscalls, 2);
  });
});
