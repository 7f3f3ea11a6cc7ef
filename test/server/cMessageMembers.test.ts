// Members assigned a datagram socket in another file: a write to `c->dgram` is one message whichever
// file opened it, so runs to it stay quiet, through the real CLI (with and without --cache) and the
// workspace index the language server keeps; a member assigned a stream socket there is still reported.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintBin } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-members-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEADER = `#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct conn { int sock; int dgram; };
`;

const OPEN = `${HEADER}
int conn_open(struct conn *c)
{
	c->sock = socket(AF_INET, SOCK_STREAM, 0);
	c->dgram = socket(AF_INET, SOCK_DGRAM, 0);
	return c->sock < 0 || c->dgram < 0 ? -1 : 0;
}
`;

const USE = `${HEADER}
void hello(struct conn *c, const char *s)
{
	send(c->sock, "C ", 2, 0);
	send(c->sock, s, strlen(s), 0);
}

void ping(struct conn *c, const char *s)
{
	send(c->dgram, "P ", 2, 0);
	send(c->dgram, s, strlen(s), 0);
}
`;

const lineOf = (needle: string) => USE.split('\n').findIndex((l) => l.includes(needle)) + 1;

function lint(dir: string, args: string[] = []): number[] {
  const run = lintBin(['--format', 'json', '--no-config-lookup', ...args, '.'], { cwd: dir });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return (JSON.parse(run.stdout) as { findings: { path: string; line: number }[] }).findings
    .filter((f) => f.path.endsWith('use.c'))
    .map((f) => f.line);
}

describe('message descriptors assigned to members in another file', () => {
  it('the tree compiles as real C (gcc -Wall -Werror)', () => {
    for (const [name, text] of [
      ['open.c', OPEN],
      ['use.c', USE],
    ]) {
      const path = join(work, name!);
      writeFileSync(path, text!);
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', path], { encoding: 'utf8' });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  it('keeps the datagram member quiet and reports the stream member, with and without --cache', () => {
    const dir = mkdtempSync(join(work, 'tree-'));
    writeFileSync(join(dir, 'open.c'), OPEN);
    writeFileSync(join(dir, 'use.c'), USE);
    const hello = lineOf('"C "');
    assert.deepEqual(lint(dir), [hello]);
    const cache = ['--cache', '--cache-location', join(dir, 'cache.json')];
    assert.deepEqual(lint(dir, cache), [hello]);
    assert.deepEqual(lint(dir, cache), [hello]);
    // The socket made a stream: its runs come back, in the cached run too.
    writeFileSync(join(dir, 'open.c'), OPEN.replace('SOCK_DGRAM', 'SOCK_STREAM'));
    assert.deepEqual(lint(dir, cache), [hello, lineOf('"P "')]);
    assert.deepEqual(lint(dir), [hello, lineOf('"P "')]);
  });

  it('follows a stream socket made a datagram one in a cached run: the unchanged file is read again', () => {
    const dir = mkdtempSync(join(work, 'turned-'));
    writeFileSync(join(dir, 'open.c'), OPEN.replace('SOCK_DGRAM', 'SOCK_STREAM'));
    writeFileSync(join(dir, 'use.c'), USE);
    const cache = ['--cache', '--cache-location', join(dir, 'cache.json')];
    assert.deepEqual(lint(dir, cache), [lineOf('"C "'), lineOf('"P "')]);
    writeFileSync(join(dir, 'open.c'), OPEN);
    assert.deepEqual(lint(dir, cache), [lineOf('"C "')]);
    assert.deepEqual(lint(dir, cache), [lineOf('"C "')]);
  });

  it('the file alone does not show what c->dgram is: both runs are reported', () => {
    const dir = mkdtempSync(join(work, 'alone-'));
    writeFileSync(join(dir, 'use.c'), USE);
    assert.deepEqual(lint(dir), [lineOf('"C "'), lineOf('"P "')]);
  });

  it('the workspace index gives the editor the same answer', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    const open = join(work, 'ws-open.c');
    const use = join(work, 'ws-use.c');
    index.set(open, a.wrappers(open, OPEN, DEFAULT_SETTINGS));
    index.set(use, a.wrappers(use, USE, DEFAULT_SETTINGS));
    const lines = () =>
      a
        .analyze(use, USE, DEFAULT_SETTINGS, { index })
        .map((f) => USE.slice(0, f.span.start).split('\n').length);
    assert.deepEqual(lines(), [lineOf('"C "')]);
    index.set(open, a.wrappers(open, OPEN.replace('SOCK_DGRAM', 'SOCK_STREAM'), DEFAULT_SETTINGS));
    assert.deepEqual(lines(), [lineOf('"C "'), lineOf('"P "')]);
  });
});
