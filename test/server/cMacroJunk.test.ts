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
