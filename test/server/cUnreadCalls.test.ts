// Calls in a later write's arguments to functions whose bodies the analyzer cannot read (a library the
// program links, a file not in the tree): a gathered write makes them before the earlier writes, which
// is harmless when they do no output and change nothing an earlier write sent. With no body to ask,
// the run is reported without a fix, its message saying what was taken for granted; where another file
// holds the body, the body decides. Checked through the real bin over a tree with and without the
// defining file, and through the workspace index the language server keeps.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintTree as lintTreeIn } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-unread-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A header, then a message whose bytes an accessor of another library hands over. */
const CALLER = `#include <stdio.h>
#include <unistd.h>

struct message;
const char *message_bytes(const struct message *m);
size_t message_size(const struct message *m);

int show(const char *head, const struct message *m)
{
\tif (write(STDOUT_FILENO, head, 4) != 4)
\t\treturn -1;
\tif (write(STDOUT_FILENO, message_bytes(m), message_size(m)) != (ssize_t)message_size(m))
\t\treturn -1;
\treturn 0;
}

/* Given the buffer the first write sent: it may change it. */
const char *next_line(const char *from);

void lines(const char *text)
{
\twrite(STDOUT_FILENO, text, 8);
\twrite(STDOUT_FILENO, next_line(text), 8);
}

/* A library call known to read input: the second write's bytes do not exist before the first. */
void echo_line(char *line, int size)
{
\twrite(STDOUT_FILENO, "> ", 2);
\twrite(STDOUT_FILENO, fgets(line, size, stdin), 8);
}
`;

/** The accessors as the library defines them: they only read. */
const ACCESSORS = `#include <stddef.h>

struct message {
\tconst char *bytes;
\tsize_t size;
};

const char *message_bytes(const struct message *m)
{
\treturn m->bytes;
}

size_t message_size(const struct message *m)
{
\treturn m->size;
}
`;

/** The same names defined to trace what they hand over: output of their own. */
const TRACING = `#include <stdio.h>

struct message {
\tconst char *bytes;
\tsize_t size;
};

const char *message_bytes(const struct message *m)
{
\tfprintf(stderr, "sending %zu bytes\\n", m->size);
\treturn m->bytes;
}

size_t message_size(const struct message *m)
{
\treturn m->size;
}
`;

interface Reported {
  code: string;
  message: string;
  line: number;
}

function lintTree(files: Record<string, string>): Reported[] {
  return lintTreeIn<Reported>(work, files);
}

describe('calls in a later write to functions whose bodies are not read', () => {
  it('the tree compiles as real C (gcc -Wall -Werror)', () => {
    const dir = mkdtempSync(join(work, 'gcc-'));
    for (const [name, text] of Object.entries({
      'caller.c': CALLER,
      'accessors.c': ACCESSORS,
      'tracing.c': TRACING,
    })) {
      writeFileSync(join(dir, name), text);
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', join(dir, name)], {
        encoding: 'utf8',
      });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  it('joins the writes without a fix, naming the calls it took to do no output', () => {
    const findings = lintTree({ 'caller.c': CALLER });
    assert.deepEqual(
      findings.map((f) => [f.code, f.line]),
      [['adjacent-writes', 10]],
    );
    assert.match(
      findings[0]!.message,
      /taken that message_bytes\(\), message_size\(\), whose body is not in the code read/,
    );
  });

  it('reads the bodies when another file of the tree defines them: accessors join, as known', () => {
    const findings = lintTree({ 'caller.c': CALLER, 'accessors.c': ACCESSORS });
    assert.deepEqual(
      findings.map((f) => [f.code, f.line]),
      [['adjacent-writes', 10]],
    );
    assert.doesNotMatch(findings[0]!.message, /taken that/);
  });

  it('leaves the writes apart when another file defines one of them with output of its own', () => {
    assert.deepEqual(lintTree({ 'caller.c': CALLER, 'tracing.c': TRACING }), []);
  });

  it('the workspace index gives the editor the same answers, and a definition added later changes them', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    const caller = join(work, 'ws-caller.c');
    const library = join(work, 'ws-library.c');
    index.set(caller, a.wrappers(caller, CALLER, DEFAULT_SETTINGS));
    const lines = () => a.analyze(caller, CALLER, DEFAULT_SETTINGS, { index }).map((f) => f.code);
    assert.deepEqual(lines(), ['adjacent-writes']);
    index.set(library, a.wrappers(library, TRACING, DEFAULT_SETTINGS));
    assert.deepEqual(lines(), []);
    index.delete(library);
    assert.deepEqual(lines(), ['adjacent-writes']);
  });
});
