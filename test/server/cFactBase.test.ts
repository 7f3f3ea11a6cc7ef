// The whole-tree fact base: which of a project's functions do no output, worked out from their bodies
// wherever they are defined, to a fixed point across calls and files. A run of writes to stdout may cross
// a call to such a function (a header filler, a checksum) and must stop at one that may print. Checked
// through the real CLI over a two-file tree, and through the workspace index the language server keeps,
// where editing the helper's body changes its callers' findings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintBin } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-facts-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEADER = `#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct frame { unsigned int len; unsigned int sum; };
`;

/** Helpers in one file: two that only compute (one through the other), one that prints. */
const HELPERS = `${HEADER}
static unsigned int mix(unsigned int sum, unsigned char c)
{
\treturn (sum << 5) + sum + c;
}

unsigned int checksum(const void *data, size_t n)
{
\tconst unsigned char *p = data;
\tunsigned int sum = 5381;
\twhile (n--)
\t\tsum = mix(sum, *p++);
\treturn sum;
}

void seal(struct frame *f, const char *body, size_t n)
{
\tf->len = htonl((unsigned int)n);
\tf->sum = htonl(checksum(body, n));
}

void note(const char *what)
{
\tfprintf(stderr, "note: %s\\n", what);
}
`;

/** Callers in another file: a run to stdout across seal() (quiet) and one across note() (may print). */
const CALLERS = `${HEADER}
void seal(struct frame *f, const char *body, size_t n);
void note(const char *what);

int framed(const char *body, size_t n, const char *trailer)
{
\tstruct frame f, t;

\tseal(&f, body, n);
\tif (write(STDOUT_FILENO, &f, sizeof f) != sizeof f)
\t\treturn -1;
\tseal(&t, trailer, strlen(trailer));
\tif (write(STDOUT_FILENO, body, n) != (ssize_t)n)
\t\treturn -1;
\tif (write(STDOUT_FILENO, &t, sizeof t) != sizeof t)
\t\treturn -1;
\treturn 0;
}

int noted(const char *body, size_t n)
{
\tif (write(STDOUT_FILENO, "[", 1) != 1)
\t\treturn -1;
\tnote(body);
\tif (write(STDOUT_FILENO, body, n) != (ssize_t)n)
\t\treturn -1;
\treturn 0;
}

int main(void) { return framed("ab", 2, "z") + noted("cd", 2); }
`;

interface JsonFinding {
  readonly path: string;
  readonly line: number;
  readonly code: string;
}

/** The lines of the findings the real CLI reports over a tree of `files`. */
function lintTree(files: Record<string, string>): JsonFinding[] {
  const dir = mkdtempSync(join(work, 'tree-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = lintBin(['--format', 'json', '--exit-zero', '.'], { cwd: dir });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { findings: JsonFinding[] }).findings;
}

/** The 1-based line of the first line of `text` that holds `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('the fact base: functions that do no output, from their bodies in any file', () => {
  it('the tree compiles and runs as real C', () => {
    const a = join(work, 'helpers.c');
    const b = join(work, 'callers.c');
    writeFileSync(a, HELPERS);
    writeFileSync(b, CALLERS);
    const exe = join(work, 'framed');
    const cc = spawnSync('gcc', ['-Wall', '-Werror', '-o', exe, a, b], { encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    const ran = spawnSync(exe, { encoding: 'latin1' });
    assert.equal(ran.status, 0);
    assert.equal(ran.stderr, 'note: cd\n');
  });

  it('a run to stdout crosses a call whose body, in another file, only computes', () => {
    const found = lintTree({ 'helpers.c': HELPERS, 'callers.c': CALLERS });
    const lines = found.filter((f) => f.path.endsWith('callers.c')).map((f) => f.line);
    assert.deepEqual(lines, [lineOf(CALLERS, 'write(STDOUT_FILENO, &f')]);
  });

  it('a helper that computes through a function that prints is no quiet helper', () => {
    const loud = HELPERS.replace(
      '\treturn (sum << 5) + sum + c;',
      '\tputchar(c);\n\treturn (sum << 5) + sum + c;',
    );
    const found = lintTree({ 'helpers.c': loud, 'callers.c': CALLERS });
    // seal() now prints through checksum() and mix(): the run starts after it.
    const lines = found.filter((f) => f.path.endsWith('callers.c')).map((f) => f.line);
    assert.deepEqual(lines, [lineOf(CALLERS, 'write(STDOUT_FILENO, body, n)')]);
  });

  it('a write whose arguments call a function that does no output joins a run, without a fix; one whose arguments may print only opens one', () => {
    const measure = `${HEADER}
size_t span_of(const char *s)
{
\tsize_t n = 0;
\twhile (s[n] && s[n] != '\\n')
\t\tn++;
\treturn n;
}

void stamp(char *s)
{
\tfprintf(stderr, "%s\\n", s);
}
`;
    const use = `${HEADER}
size_t span_of(const char *s);
void stamp(char *s);

int lines(const char *a, const char *b)
{
\tif (write(STDOUT_FILENO, a, span_of(a)) < 0)
\t\treturn -1;
\tif (write(STDOUT_FILENO, b, span_of(b)) < 0)
\t\treturn -1;
\treturn 0;
}

int loud(char *a, char *b)
{
\tif (write(STDOUT_FILENO, a, strlen(a)) < 0)
\t\treturn -1;
\tif (write(STDOUT_FILENO, b, (stamp(b), strlen(b))) < 0)
\t\treturn -1;
\treturn 0;
}

int loud_first(char *a, char *b)
{
\tif (write(STDOUT_FILENO, b, (stamp(b), strlen(b))) < 0)
\t\treturn -1;
\tif (write(STDOUT_FILENO, a, strlen(a)) < 0)
\t\treturn -1;
\treturn 0;
}
`;
    const dir = mkdtempSync(join(work, 'args-'));
    writeFileSync(join(dir, 'measure.c'), measure);
    writeFileSync(join(dir, 'use.c'), use);
    const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', join(dir, 'use.c')], {
      encoding: 'utf8',
    });
    assert.equal(cc.status, 0, cc.stderr);
    const r = lintBin(['--format', 'json', '--exit-zero', '.'], { cwd: dir });
    const found = (JSON.parse(r.stdout) as { findings: (JsonFinding & { message: string })[] }).findings;
    // In loud(), stamp() would print before the first write: the second write ends the run. In
    // loud_first(), it runs before any write either way: the run starts there, with a fix.
    assert.deepEqual(
      found.map((f) => f.line),
      [lineOf(use, 'write(STDOUT_FILENO, a, span_of(a))'), lineOf(use, 'int loud_first') + 2],
    );
    assert.match(found[0]!.message, /a call in its arguments would run before the earlier writes/);
    assert.doesNotMatch(found[1]!.message, /no automatic fix/);
  });

  it('a framing helper whose header is filled by a quiet function of another file writes its frame per call', () => {
    const framing = `${HEADER}
void seal(struct frame *f, const char *body, size_t n);

static void send_all(int fd, const char *p, size_t n)
{
\twhile (n > 0) {
\t\tssize_t w = write(fd, p, n);
\t\tif (w <= 0)
\t\t\treturn;
\t\tp += w;
\t\tn -= (size_t)w;
\t}
}

static void send_frame(int fd, const char *body, size_t n)
{
\tstruct frame f;
\tseal(&f, body, n);
\tsend_all(fd, (const char *)&f, sizeof f);
\tsend_all(fd, body, n);
}

void reply(int fd, const char *body, size_t n)
{
\tsend_frame(fd, body, n);
\tsend_all(fd, "\\n", 1);
}
`;
    const found = lintTree({ 'helpers.c': HELPERS, 'framing.c': framing });
    const lines = found.filter((f) => f.path.endsWith('framing.c')).map((f) => f.line);
    // The frame's own two writes, and the reply's frame with its newline: three syscalls.
    assert.deepEqual(lines, [
      lineOf(framing, 'send_all(fd, (const char *)&f'),
      lineOf(framing, 'send_frame(fd, body, n);'),
    ]);
    // seal() made to print: the frame is no plain sequence of writes, and neither run is one.
    const loud = HELPERS.replace(
      '\tf->len = htonl((unsigned int)n);',
      '\tnote("sealing");\n\tf->len = htonl((unsigned int)n);',
    );
    const quiet = lintTree({ 'helpers.c': loud, 'framing.c': framing });
    assert.deepEqual(
      quiet.filter((f) => f.path.endsWith('framing.c')).map((f) => f.line),
      [lineOf(framing, 'send_all(fd, (const char *)&f')],
    );
  });

  it("--cache: a helper made to print in another file changes its callers' cached findings", () => {
    const dir = mkdtempSync(join(work, 'cached-'));
    writeFileSync(join(dir, 'helpers.c'), HELPERS);
    writeFileSync(join(dir, 'callers.c'), CALLERS);
    const run = () => {
      const r = lintBin(['--cache', '--format', 'json', '--exit-zero', '.'], { cwd: dir });
      assert.equal(r.status, 0, r.stderr);
      return (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings.map((f) => f.line);
    };
    assert.deepEqual(run(), [lineOf(CALLERS, 'write(STDOUT_FILENO, &f')]);
    assert.deepEqual(run(), [lineOf(CALLERS, 'write(STDOUT_FILENO, &f')]);
    writeFileSync(
      join(dir, 'helpers.c'),
      HELPERS.replace('\treturn (sum << 5) + sum + c;', '\tputchar(c);\n\treturn (sum << 5) + sum + c;'),
    );
    assert.deepEqual(run(), [lineOf(CALLERS, 'write(STDOUT_FILENO, body, n)')]);
  });

  it("the workspace index gives the editor the same facts, and a helper's edit changes its callers", async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    const helpers = join(work, 'ws-helpers.c');
    const callers = join(work, 'ws-callers.c');
    index.set(helpers, a.wrappers(helpers, HELPERS, DEFAULT_SETTINGS));
    index.set(callers, a.wrappers(callers, CALLERS, DEFAULT_SETTINGS));
    const syscalls = () => a.analyze(callers, CALLERS, DEFAULT_SETTINGS, { index }).map((f) => f.syscalls);
    assert.deepEqual(syscalls(), [3]);
    const loud = HELPERS.replace(
      '\tf->len = htonl((unsigned int)n);',
      '\tnote("sealing");\n\tf->len = htonl((unsigned int)n);',
    );
    index.set(helpers, a.wrappers(helpers, loud, DEFAULT_SETTINGS));
    assert.deepEqual(syscalls(), [2]);
  });
});
