// Functions that return a descriptor, defined in another file: `fd = net_connect(sa)` is a byte stream
// when net_connect() returns a SOCK_STREAM socket on every path, and a datagram socket's writes stay
// quiet, through the real CLI (with and without --cache, on one thread and two), the workspace index
// and the language server itself. A file that cannot see the opener reports both runs, with the assumption.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer } from './helpers';
import { lintBin } from './cliHelpers';
import { TestServer } from './lspClient';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';

const work = mkdtempSync(join(tmpdir(), 'writev-returned-'));
after(() => rmSync(work, { recursive: true, force: true }));

const NET = `#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int net_connect(const struct sockaddr_in *sa)
{
	int s;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return -1;
	if (connect(s, (const struct sockaddr *)sa, sizeof *sa) < 0) {
		close(s);
		return -1;
	}
	return s;
}

int net_udp(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	return s;
}

static int local_stream(void)
{
	return socket(AF_INET, SOCK_STREAM, 0);
}

int net_local(void)
{
	return local_stream();
}
`;

const USE = `#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

int net_connect(const struct sockaddr_in *sa);
int net_udp(void);
int local_stream(void);

int hello(const struct sockaddr_in *sa, const char *name)
{
	int fd = net_connect(sa);

	if (fd < 0)
		return -1;
	if (write(fd, "HELO ", 5) != 5)
		return -1;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		return -1;
	return 0;
}

int ping(const char *name)
{
	int fd = net_udp();

	if (write(fd, "PING ", 5) != 5)
		return -1;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		return -1;
	return 0;
}

int hidden(const char *name)
{
	int fd = local_stream();

	if (write(fd, "HIDE ", 5) != 5)
		return -1;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		return -1;
	return 0;
}
`;

/** Functions that return what net.c's return, in a file of their own. */
const CONN = `#include <netinet/in.h>

int net_connect(const struct sockaddr_in *sa);
int net_udp(void);

int conn_open(const struct sockaddr_in *sa)
{
	if (!sa)
		return -1;
	return net_connect(sa);
}

int conn_udp(void)
{
	return (net_udp());
}
`;

/** Their callers, which see neither body. */
const CHAINED = `#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

int conn_open(const struct sockaddr_in *sa);
int conn_udp(void);

int hello(const struct sockaddr_in *sa, const char *name)
{
	int fd = conn_open(sa);

	if (write(fd, "HELO ", 5) != 5)
		return -1;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		return -1;
	return 0;
}

int ping(const char *name)
{
	int fd = conn_udp();

	if (write(fd, "PING ", 5) != 5)
		return -1;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		return -1;
	return 0;
}
`;

const lineOf = (needle: string) => USE.split('\n').findIndex((l) => l.includes(needle)) + 1;

function lint(dir: string, args: string[] = []): [number, string][] {
  const run = lintBin(['--format', 'json', '--no-config-lookup', ...args, '.'], { cwd: dir });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return (JSON.parse(run.stdout) as { findings: { path: string; line: number; code: string }[] }).findings
    .filter((f) => f.path.endsWith('use.c'))
    .map((f) => [f.line, f.code]);
}

describe('descriptors returned by functions of another file', () => {
  it('the tree compiles as real C (gcc -Wall -Werror)', () => {
    for (const [name, text] of [
      ['net.c', NET],
      ['use.c', USE],
      ['conn.c', CONN],
      ['chained.c', CHAINED],
    ]) {
      const path = join(work, name!);
      writeFileSync(path, text!);
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', path], { encoding: 'utf8' });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  it('reports the stream as one, keeps the datagram quiet, and a static opener stays unknown', () => {
    const dir = mkdtempSync(join(work, 'tree-'));
    writeFileSync(join(dir, 'net.c'), NET);
    writeFileSync(join(dir, 'use.c'), USE);
    const expected: [number, string][] = [
      [lineOf('"HELO "'), 'adjacent-writes'],
      // local_stream() is static in net.c: the declaration in use.c names another function.
      [lineOf('"HIDE "'), 'adjacent-writes-unknown-fd'],
    ];
    assert.deepEqual(lint(dir), expected);
    assert.deepEqual(lint(dir, ['--jobs', '2']), expected);
    const cache = ['--cache', '--cache-location', join(dir, 'cache.json')];
    assert.deepEqual(lint(dir, cache), expected);
    assert.deepEqual(lint(dir, cache), expected);
    // The datagram socket made a stream: its run comes back as a stream's, in the cached run too.
    writeFileSync(join(dir, 'net.c'), NET.replace('SOCK_DGRAM', 'SOCK_STREAM'));
    const both: [number, string][] = [expected[0]!, [lineOf('"PING "'), 'adjacent-writes'], expected[1]!];
    assert.deepEqual(lint(dir, cache), both);
    assert.deepEqual(lint(dir), both);
  });

  it('the file alone does not show what the functions return: every run is reported as of unknown kind', () => {
    const dir = mkdtempSync(join(work, 'alone-'));
    writeFileSync(join(dir, 'use.c'), USE);
    assert.deepEqual(
      lint(dir).map(([line, code]) => [line, code]),
      ['"HELO "', '"PING "', '"HIDE "'].map((n) => [lineOf(n), 'adjacent-writes-unknown-fd']),
    );
  });

  it('the workspace index gives the editor the same answer, and follows an edit of the opener', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    const net = join(work, 'ws-net.c');
    const use = join(work, 'ws-use.c');
    index.set(net, a.wrappers(net, NET, DEFAULT_SETTINGS));
    index.set(use, a.wrappers(use, USE, DEFAULT_SETTINGS));
    const found = () =>
      a
        .analyze(use, USE, DEFAULT_SETTINGS, { index })
        .map((f) => [USE.slice(0, f.span.start).split('\n').length, f.code]);
    const digest = index.factsDigest(use);
    assert.deepEqual(found(), [
      [lineOf('"HELO "'), 'adjacent-writes'],
      [lineOf('"HIDE "'), 'adjacent-writes-unknown-fd'],
    ]);
    index.set(net, a.wrappers(net, NET.replace('SOCK_DGRAM', 'SOCK_STREAM'), DEFAULT_SETTINGS));
    assert.notEqual(index.factsDigest(use), digest, 'the facts digest follows what the opener returns');
    assert.deepEqual(found(), [
      [lineOf('"HELO "'), 'adjacent-writes'],
      [lineOf('"PING "'), 'adjacent-writes'],
      [lineOf('"HIDE "'), 'adjacent-writes-unknown-fd'],
    ]);
  });

  it('the language server diagnoses an open caller with them, and again when the opener changes on disk', async () => {
    const dir = mkdtempSync(join(work, 'lsp-'));
    writeFileSync(join(dir, 'net.c'), NET);
    writeFileSync(join(dir, 'use.c'), USE);
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const use = `file://${join(dir, 'use.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: use, languageId: 'c', version: 1, text: USE },
      });
      const found = () =>
        (server.diagnostics.get(use)?.diagnostics ?? []).map(
          (d) => `${d.range.start.line + 1} ${String(d.code)}`,
        );
      const expect = (lines: [string, string][]) =>
        lines.map(([n, code]) => `${lineOf(n)} ${code}`).join(', ');
      const stream = expect([
        ['"HELO "', 'adjacent-writes'],
        ['"HIDE "', 'adjacent-writes-unknown-fd'],
      ]);
      // Once the folder is indexed, net.c's answers reach the open file.
      await server.until(`use.c diagnosed as ${stream}`, () =>
        found().join(', ') === stream ? true : undefined,
      );
      writeFileSync(join(dir, 'net.c'), NET.replace('SOCK_DGRAM', 'SOCK_STREAM'));
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'net.c')}`, type: 2 }],
      });
      const both = expect([
        ['"HELO "', 'adjacent-writes'],
        ['"PING "', 'adjacent-writes'],
        ['"HIDE "', 'adjacent-writes-unknown-fd'],
      ]);
      await server.until(`use.c diagnosed again as ${both}`, () =>
        found().join(', ') === both ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('follows functions that return what another returns, across files, to the opener', () => {
    const dir = mkdtempSync(join(work, 'chain-'));
    writeFileSync(join(dir, 'net.c'), NET);
    writeFileSync(join(dir, 'conn.c'), CONN);
    writeFileSync(join(dir, 'use.c'), CHAINED);
    const chained = (needle: string) => CHAINED.split('\n').findIndex((l) => l.includes(needle)) + 1;
    // conn_open() returns net_connect()'s stream; conn_udp() net_udp()'s datagram socket.
    assert.deepEqual(lint(dir), [[chained('"HELO "'), 'adjacent-writes']]);
    writeFileSync(join(dir, 'net.c'), NET.replace('SOCK_DGRAM', 'SOCK_STREAM'));
    assert.deepEqual(lint(dir), [
      [chained('"HELO "'), 'adjacent-writes'],
      [chained('"PING "'), 'adjacent-writes'],
    ]);
  });

  it('reads which function a definition returns the result of, and nothing that computes with it', () => {
    const facts = cFunctionFacts(`int a(int x)
{
	if (x < 0)
		return -1;
	if (x == 0)
		return (-EINVAL);
	return (open_it(x, (x + 1)));
}
int b(int x) { return open_it(x) + 1; }
int c(int x) { if (x) return open_it(x); return other(x); }
static int d(int x) { return open_it(x); }
int e(int x) { return x; }
`);
    assert.deepEqual(
      facts.map((f) => [f.name, f.returnsCall]),
      [
        ['a', 'open_it'],
        ['b', undefined],
        ['c', undefined],
        ['d', undefined],
        ['e', undefined],
      ],
    );
  });

  it('leaves out a name two files define with different answers', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    index.set(join(work, 'one.c'), a.wrappers(join(work, 'one.c'), NET, DEFAULT_SETTINGS));
    const other = NET.replace('SOCK_STREAM, 0)) < 0', 'SOCK_DGRAM, 0)) < 0');
    index.set(join(work, 'two.c'), a.wrappers(join(work, 'two.c'), other, DEFAULT_SETTINGS));
    const kinds = index.cReturnedFor(join(work, 'use.c'));
    assert.ok(!kinds.stream.has('net_connect') && !kinds.message.has('net_connect'));
    assert.ok(kinds.message.has('net_udp'));
  });
});
