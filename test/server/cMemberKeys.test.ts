// Member facts are facts about one struct's member: another program's datagram socket in its own
// `af->fd` does not silence a driver's `p->fd` (its own struct, filled with `open()` in its init
// function), while a file that shares the struct through a header stays quiet, through the real CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer } from './helpers';
import { lintBin } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-member-keys-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Another program of the tree: its own struct, whose `fd` holds a socket of a type left to a variable. */
const DEMO = `#include <sys/socket.h>

struct endpoint {
	int family;
	int fd;
};

int endpoint_open(struct endpoint *e)
{
	int type = SOCK_DGRAM;

	e->fd = socket(e->family, type, 0);
	return e->fd;
}
`;

/** A driver with its own private struct and its own `fd`, opened in its init function. */
const DRIVER = `#include <fcntl.h>
#include <unistd.h>

typedef struct lcd_private {
	char device[64];
	int fd;
} PrivateData;

int lcd_init(PrivateData *p)
{
	p->fd = open(p->device, O_RDWR | O_NOCTTY);
	return p->fd < 0 ? -1 : 0;
}

void lcd_home(PrivateData *p, const char *row, size_t n)
{
	write(p->fd, "\\x1b[H", 3);
	write(p->fd, row, n);
}
`;

/** A header shared by two files, and a datagram socket put in its member by one of them. */
const HEADER = `struct link {
	int fd;
};
`;

const LINK_OPEN = `#include <sys/socket.h>
#include "link.h"

int link_open(struct link *l)
{
	l->fd = socket(AF_INET, SOCK_DGRAM, 0);
	return l->fd;
}
`;

const LINK_USE = `#include <string.h>
#include <unistd.h>
#include "link.h"

struct session {
	struct link *link;
};

void link_ping(struct link *l, const char *s)
{
	write(l->fd, "P ", 2);
	write(l->fd, s, strlen(s));
}

void session_ping(struct session *s, const char *t)
{
	write(s->link->fd, "S ", 2);
	write(s->link->fd, t, strlen(t));
}
`;

/** A file that cannot see `struct link`: its chained member of the same name stays of unknown kind. */
const OTHER = `#include <string.h>
#include <unistd.h>

struct pipe_end {
	int fd;
};

struct job {
	struct pipe_end *out;
};

void job_note(struct job *j, const char *t)
{
	write(j->out->fd, "J ", 2);
	write(j->out->fd, t, strlen(t));
}
`;

interface Found {
  path: string;
  line: number;
  code: string;
}

function lint(dir: string): Found[] {
  const run = lintBin(['--format', 'json', '--no-config-lookup', '.'], { cwd: dir });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return (JSON.parse(run.stdout) as { findings: Found[] }).findings.map((f) => ({
    path: f.path.replace(/^.*[\\/]/, ''),
    line: f.line,
    code: f.code,
  }));
}

const lineIn = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(work, 'tree-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('member facts keyed by their struct', () => {
  it('the trees compile as real C (gcc -Wall -Werror)', () => {
    const dir = tree({ 'demo.c': DEMO, 'driver.c': DRIVER, 'link.h': HEADER, 'open.c': LINK_OPEN });
    writeFileSync(join(dir, 'use.c'), LINK_USE);
    writeFileSync(join(dir, 'other.c'), OTHER);
    for (const name of ['demo.c', 'driver.c', 'open.c', 'use.c', 'other.c']) {
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', '-I', dir, join(dir, name)], {
        encoding: 'utf8',
      });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  it("another struct's datagram member leaves the driver's own stream member reported, as a stream", () => {
    const found = lint(tree({ 'demo.c': DEMO, 'driver.c': DRIVER }));
    assert.deepEqual(found, [
      { path: 'driver.c', line: lineIn(DRIVER, '"\\x1b[H"'), code: 'adjacent-writes' },
    ]);
  });

  it('a file sharing the struct through its header stays quiet, chained members too', () => {
    const found = lint(tree({ 'link.h': HEADER, 'open.c': LINK_OPEN, 'use.c': LINK_USE, 'other.c': OTHER }));
    assert.deepEqual(found, [
      { path: 'other.c', line: lineIn(OTHER, '"J "'), code: 'adjacent-writes-unknown-fd' },
    ]);
  });

  it('the workspace facts carry the struct of each member', async () => {
    const a = await analyzer();
    assert.deepEqual(a.wrappers('demo.c', DEMO, DEFAULT_SETTINGS).messageMembers, ['fd@endpoint']);
    assert.deepEqual(a.wrappers('open.c', LINK_OPEN, DEFAULT_SETTINGS).messageMembers, ['fd@link']);
  });
});

describe('writers guessed from their names', () => {
  const calls = (name: string, args: [string, string][]) =>
    `int f(int bus_fd, const char *buf, size_t n)\n{\n${args
      .map(([a, b]) => `\tif (${name}(bus_fd, ${a}, ${b}) < 0)\n\t\treturn -1;\n`)
      .join('')}\treturn 0;\n}\n`;

  it('a helper given only constants after the descriptor writes no buffer: register writes stay quiet', async () => {
    const a = await analyzer();
    const quiet = calls('reg_write_word', [
      ['0x26', '0x0400'],
      ['0x2c', "'x'"],
    ]);
    assert.deepEqual(a.analyze(join(work, 'regs.c'), quiet, DEFAULT_SETTINGS), []);
    const loud = calls('frame_write', [
      ['buf', 'n'],
      ['"\\n"', '1'],
    ]);
    assert.deepEqual(
      a.analyze(join(work, 'frames.c'), loud, DEFAULT_SETTINGS).map((f) => [f.code, f.syscalls]),
      [['adjacent-writes-unknown-fd', 2]],
    );
  });
});
