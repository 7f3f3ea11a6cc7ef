// Write helpers read from their calls alone: a name that says it writes, called with a descriptor
// first, whose body the analyzer cannot read (a library the program links, a file not in the tree).
// Its calls join runs without a fix, saying what was assumed; where another file holds the body, the
// body decides. Checked through the real bin over a tree with and without the defining file, and
// through the workspace index the language server keeps. The fixture call-site-helpers.c holds the
// shapes (and those left alone: datagram sockets, buffers freed between, names that say more).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintTree as lintTreeIn } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-callsite-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Two calls of a helper this file only declares. */
const CALLER = `#include <string.h>
#include <sys/types.h>

void out_write(int out_fd, const char *s, size_t n);

void greet(int out_fd, const char *name)
{
\tout_write(out_fd, "hello ", 6);
\tout_write(out_fd, name, strlen(name));
}
`;

/** A definition that only appends to memory: no write at all. */
const BUFFERED = `#include <string.h>
#include <sys/types.h>

static char pending[4096];
static size_t used;

void out_write(int out_fd, const char *s, size_t n)
{
\t(void)out_fd;
\tif (used + n <= sizeof(pending)) {
\t\tmemcpy(pending + used, s, n);
\t\tused += n;
\t}
}
`;

/** A definition that writes it all, looping over short writes. */
const WRITING = `#include <errno.h>
#include <unistd.h>

void out_write(int out_fd, const char *s, size_t n)
{
\twhile (n > 0) {
\t\tssize_t done = write(out_fd, s, n);
\t\tif (done < 0) {
\t\t\tif (errno == EINTR)
\t\t\t\tcontinue;
\t\t\treturn;
\t\t}
\t\ts += done;
\t\tn -= (size_t)done;
\t}
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

describe('write helpers read from their calls', () => {
  it('the tree compiles as real C (gcc -Wall -Werror)', () => {
    const dir = mkdtempSync(join(work, 'gcc-'));
    for (const [name, text] of Object.entries({
      'caller.c': CALLER,
      'buffered.c': BUFFERED,
      'writing.c': WRITING,
    })) {
      writeFileSync(join(dir, name), text);
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', join(dir, name)], {
        encoding: 'utf8',
      });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  it('joins two calls of a helper no file defines, without a fix, saying what it assumed', () => {
    const findings = lintTree({ 'caller.c': CALLER });
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.equal(f!.code, 'adjacent-writes-unknown-fd');
    assert.equal(f!.line, 8);
    assert.match(f!.message, /out_write\(\) is not defined in the code read/);
    assert.match(f!.message, /^if out_fd is a byte stream/);
  });

  it('leaves the calls alone when another file of the tree defines the helper as something else', () => {
    assert.deepEqual(lintTree({ 'caller.c': CALLER, 'buffered.c': BUFFERED }), []);
  });

  it('reads the helper from its body when another file defines it as a write loop', () => {
    const findings = lintTree({ 'caller.c': CALLER, 'writing.c': WRITING });
    assert.equal(findings.length, 1);
    assert.match(findings[0]!.message, /own write loop/);
    assert.doesNotMatch(findings[0]!.message, /not defined in the code read/);
  });

  it('the workspace index gives the editor the same answers, and a definition added later changes them', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    const caller = join(work, 'ws-caller.c');
    const helper = join(work, 'ws-helper.c');
    index.set(caller, a.wrappers(caller, CALLER, DEFAULT_SETTINGS));
    const codes = () => a.analyze(caller, CALLER, DEFAULT_SETTINGS, { index }).map((f) => f.code);
    assert.deepEqual(codes(), ['adjacent-writes-unknown-fd']);
    index.set(helper, a.wrappers(helper, BUFFERED, DEFAULT_SETTINGS));
    assert.deepEqual(codes(), []);
    index.delete(helper);
    assert.deepEqual(codes(), ['adjacent-writes-unknown-fd']);
  });
});
