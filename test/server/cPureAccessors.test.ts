// Pure functions read from their bodies: an accessor (`return l->fd;`), short and assigning nothing,
// that calls only pure functions gives the same value each time and changes nothing. A descriptor
// spelled through one in each write (`write(lock_fd(l), ...)`) is one descriptor, wherever the
// accessor is defined; a getter that counts its calls is not pure. Checked on real C compiled by gcc,
// through the real CLI over a two-file tree, and through the workspace index the language server keeps.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintTree as lintTreeIn } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-pure-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEADER = `#include <string.h>
#include <unistd.h>

struct lock { int fd; int uses; };
int lock_fd(const struct lock *l);
int next_fd(struct lock *l);
`;

/** The accessors: one pure (through another pure one), one that counts its calls. */
const ACCESSORS = `${HEADER}
static int valid(const struct lock *l)
{
	return l->fd >= 0;
}

int lock_fd(const struct lock *l)
{
	return valid(l) ? l->fd : -1;
}

int next_fd(struct lock *l)
{
	l->uses++;
	return l->fd;
}
`;

const CALLERS = `${HEADER}
void note(const struct lock *l, const char *s)
{
	write(lock_fd(l), "# ", 2);
	write(lock_fd(l), s, strlen(s));
}

void counted(struct lock *l, const char *s)
{
	write(next_fd(l), "# ", 2);
	write(next_fd(l), s, strlen(s));
}

int main(void)
{
	struct lock l = { 1, 0 };
	note(&l, "one\\n");
	counted(&l, "two\\n");
	return l.uses == 2 ? 0 : 1;
}
`;

function lintTree(files: Record<string, string>): { path: string; line: number }[] {
  return lintTreeIn(work, files).map((f) => ({ path: basename(f.path), line: f.line }));
}

const NOTE_LINE = CALLERS.split('\n').findIndex((l) => l.includes('"# ", 2')) + 1;

describe('pure accessors, from their bodies in any file', () => {
  it('the tree compiles and runs as real C', () => {
    const dir = join(work, 'built');
    mkdirSync(dir);
    writeFileSync(join(dir, 'accessors.c'), ACCESSORS);
    writeFileSync(join(dir, 'callers.c'), CALLERS);
    const exe = join(dir, 'locks');
    const cc = spawnSync(
      'gcc',
      ['-Wall', '-Werror', '-o', exe, join(dir, 'accessors.c'), join(dir, 'callers.c')],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(cc.status, 0, cc.stderr);
    const ran = spawnSync(exe, { encoding: 'utf8' });
    assert.equal(ran.status, 0);
    assert.equal(ran.stdout, '# one\n# two\n');
  });

  it('a descriptor spelled through a pure accessor of another file is one descriptor; through a counting getter it is not', () => {
    assert.deepEqual(lintTree({ 'accessors.c': ACCESSORS, 'callers.c': CALLERS }), [
      { path: 'callers.c', line: NOTE_LINE },
    ]);
    // Alone, the caller's file does not show what lock_fd() does.
    assert.deepEqual(lintTree({ 'callers.c': CALLERS }), []);
    // In one file, the same.
    const one = `${ACCESSORS}${CALLERS.slice(HEADER.length)}`;
    const lines = lintTree({ 'one.c': one }).map((f) => f.line);
    assert.deepEqual(lines, [one.split('\n').findIndex((l) => l.includes('"# ", 2')) + 1]);
  });

  it('an accessor made to count its calls is no longer pure, for the CLI and the workspace index', async () => {
    const counting = ACCESSORS.replace(
      '\treturn valid(l) ? l->fd : -1;',
      '\t((struct lock *)l)->uses++;\n\treturn valid(l) ? l->fd : -1;',
    );
    assert.deepEqual(lintTree({ 'accessors.c': counting, 'callers.c': CALLERS }), []);
    const a = await analyzer();
    const index = new WrapperIndex();
    const accessors = join(work, 'ws-accessors.c');
    const callers = join(work, 'ws-callers.c');
    index.set(accessors, a.wrappers(accessors, ACCESSORS, DEFAULT_SETTINGS));
    index.set(callers, a.wrappers(callers, CALLERS, DEFAULT_SETTINGS));
    const lines = () => a.analyze(callers, CALLERS, DEFAULT_SETTINGS, { index }).map((f) => f.syscalls);
    assert.deepEqual(lines(), [2]);
    index.set(accessors, a.wrappers(accessors, counting, DEFAULT_SETTINGS));
    assert.deepEqual(lines(), []);
  });
});
