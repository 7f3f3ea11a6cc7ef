// Between the CLI's passes, the fact base picks the files to analyse again: a file whose function writes
// twice and calls a helper another file defines that turns out quiet. Analysing one again is as costly as
// the first time (a parse, every function read), and it can only change the findings where the first
// analysis asked about a name that the fact base now finds quiet: a file whose questions all keep their
// answers is left with its first-pass findings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import type { FileWrappers } from 'writev-lint/out/analyzer/wrapperIndex';
import { factBasePass } from 'writev-lint/out/cli/factBase';
import { analyzer } from './helpers';

/** A file of helpers that only compute (`seal` through the file's own `mix`). */
const HELPERS: FileWrappers = {
  c: [],
  ts: [],
  functions: [
    { name: 'mix', exported: false, calls: [], opaque: false },
    { name: 'seal', exported: true, calls: ['mix', 'htonl'], opaque: false },
  ],
};

/** A caller whose function writes twice and calls `seal`, having asked the rules about `loud`. */
function caller(loud: readonly string[] | undefined, own: FileWrappers['functions'] = []): FileWrappers {
  return {
    c: [],
    ts: [],
    functions: [
      {
        name: 'framed',
        exported: true,
        calls: ['seal', 'write', 'frame'],
        repeated: ['write'],
        opaque: false,
      },
      ...(own ?? []),
    ],
    ...(loud && { loud }),
  };
}

function redo(callers: FileWrappers): readonly string[] {
  return factBasePass(
    [
      ['/t/helpers.c', HELPERS],
      ['/t/callers.c', callers],
    ],
    [DEFAULT_SETTINGS],
  ).redo;
}

describe('the fact base between the passes', () => {
  it('a file whose analysis asked about a helper now known quiet is analysed again', () => {
    assert.deepEqual(redo(caller(['seal'])), ['/t/callers.c']);
  });

  it('a file whose analysis asked about no name the fact base changed keeps its first findings', () => {
    assert.deepEqual(redo(caller([])), []);
    // `puts` prints for the fact base as it did for the first pass: the answer stands.
    assert.deepEqual(redo(caller(['puts'])), []);
  });

  it("a file's own function that becomes quiet through another file's helper counts as a change", () => {
    const own = [{ name: 'frame', exported: false, calls: ['seal'], opaque: false }];
    assert.deepEqual(redo(caller(['frame'], own)), ['/t/callers.c']);
    const printing = [{ name: 'frame', exported: false, calls: ['seal', 'puts'], opaque: false }];
    assert.deepEqual(redo(caller(['frame'], printing)), []);
  });

  it('a file whose questions are unknown (an index entry, an older cache) is analysed again', () => {
    assert.deepEqual(redo(caller(undefined)), ['/t/callers.c']);
  });

  it('the analysis names the calls it asked about and was told may print', async () => {
    const text = `#include <unistd.h>
void seal(char *f);
static int sum(const char *s) { int n = 0; while (*s) n += *s++; return n; }
int framed(char *f, const char *body, int n)
{
\tseal(f);
\twrite(1, f, 8);
\tsum(body);
\twrite(1, body, n);
\treturn 0;
}
`;
    const { wrappers } = (await analyzer()).inspect('/t/callers.c', text, DEFAULT_SETTINGS);
    // seal() is defined elsewhere (unknown before the fact base); sum() is the file's own and quiet.
    assert.ok(wrappers.loud?.includes('seal'), JSON.stringify(wrappers.loud));
    assert.ok(!wrappers.loud?.includes('sum'), JSON.stringify(wrappers.loud));
  });
});

/** A header defining a wait for a writable descriptor and a log statement, both named like I/O. */
const WAITS_H: FileWrappers = {
  c: [],
  ts: [],
  defines: [
    '#define put_write_wait(fd, t) put_poll_one((fd), 4, (t))',
    '#define put_log_error(...) put_log_line(3, __VA_ARGS__)',
  ],
};

/** A helper that writes once, waits with the header's macro and logs its failure with the other. */
function waiter(helperLoud: readonly string[] | undefined): FileWrappers {
  return {
    c: [],
    ts: [],
    functions: [
      {
        name: 'put_all',
        exported: true,
        calls: ['put_write_wait', 'write', 'put_log_error'],
        opaque: false,
      },
    ],
    loud: [],
    ...(helperLoud && { helperLoud }),
  };
}

function waitsRedo(helper: FileWrappers): readonly string[] {
  return factBasePass(
    [
      ['/t/waits.h', WAITS_H],
      ['/t/put.c', helper],
    ],
    [DEFAULT_SETTINGS],
  ).redo;
}

describe("the fact base and a helper's wait in a header's macro", () => {
  it('a file whose helper handed its descriptor to the macro is analysed again with its expansion', () => {
    assert.deepEqual(waitsRedo(waiter(['put_write_wait'])), ['/t/put.c']);
  });

  it('a file whose helper handed the macros nothing of its descriptor keeps its first reading', () => {
    // A log statement beside the write is no second write of it, whatever it expands to.
    assert.deepEqual(waitsRedo(waiter([])), []);
  });

  it('a file whose helper reading was told the log macro may do output is analysed again', () => {
    // Its expansion may do none (a formatter that logs what it sends becomes a helper then).
    assert.deepEqual(waitsRedo(waiter(['put_log_error'])), ['/t/put.c']);
  });

  it("a file whose helpers' questions are unknown (an index entry, an older cache) is analysed again", () => {
    assert.deepEqual(waitsRedo(waiter(undefined)), ['/t/put.c']);
  });

  it('the analysis names the calls a helper handed its descriptor to, not a log given a format first', async () => {
    const text = `#include <errno.h>
#include <unistd.h>
#include "waits.h"
ssize_t put_all(int fd, const char *buf, size_t len, int t)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n;
		if (put_write_wait(fd, t) < 0)
			return -1;
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			put_log_error("write to %d failed", fd);
			return -1;
		}
		p += n;
		len -= n;
	}
	return p - buf;
}
`;
    const { wrappers } = (await analyzer()).inspect('/t/put.c', text, DEFAULT_SETTINGS);
    assert.deepEqual(wrappers.helperLoud, ['put_write_wait']);
  });

  it('the analysis names the calls a formatter asked about and was told may do output', async () => {
    const text = `#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "waits.h"
void put_line(int fd, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	put_log_error("sending %s", line);
	write(fd, line, strlen(line));
}
`;
    const { wrappers } = (await analyzer()).inspect('/t/line.c', text, DEFAULT_SETTINGS);
    assert.ok(wrappers.helperLoud?.includes('put_log_error'), JSON.stringify(wrappers.helperLoud));
  });
});
