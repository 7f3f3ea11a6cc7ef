// A project's own write helpers, recognised from their bodies whatever their names and extra arguments:
// write-in-full loops however they keep their offset, helpers that take flags or a mode, helpers that
// return a status and count what they wrote, helpers writing to a member of their argument, C string
// helpers that take the length with strlen() themselves, one write tried again on EINTR, printf-style
// helpers that send in a loop; and the bodies that must not count (a loop that sends the same bytes
// again, out-of-band data, a helper that also reads its descriptor). Each is defined in one file and
// called from another, as real projects do, through the real CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lintBin } from './cliHelpers';

const work = mkdtempSync(join(tmpdir(), 'writev-helpers-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEADER = `#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
`;

/** Helper definitions, one per kind; none is named like a write function. */
const HELPERS = `${HEADER}
struct journal { int fd; long bytes; };

/* A count kept in a local copy, the buffer advanced, a mode argument. */
int put_counted(int fd, const char *buf, size_t count, int mode)
{
\tsize_t left = count;
\t(void)mode;
\twhile (left > 0) {
\t\tssize_t r = write(fd, buf, left);
\t\tif (r < 0) {
\t\t\tif (errno == EINTR)
\t\t\t\tcontinue;
\t\t\treturn -1;
\t\t}
\t\tleft -= r;
\t\tbuf += r;
\t}
\treturn (int)count;
}

/* An offset added to a cast of the buffer, the length less the offset. */
ssize_t push_offset(int fd, const void *data, size_t size)
{
\tsize_t done = 0;
\twhile (done < size) {
\t\tssize_t r = write(fd, (const char *)data + done, size - done);
\t\tif (r <= 0)
\t\t\treturn -1;
\t\tdone += r;
\t}
\treturn (ssize_t)done;
}

/* send() with MSG_NOSIGNAL, the pointer advanced as n + pointer. */
size_t ship_all(int sock, const void *buf, size_t len)
{
\tsize_t total = 0;
\twhile (len) {
\t\tssize_t n = send(sock, buf, len, MSG_NOSIGNAL);
\t\tif (n <= 0)
\t\t\treturn total;
\t\tbuf = n + (const char *)buf;
\t\tlen -= n;
\t\ttotal += n;
\t}
\treturn total;
}

/* One write to a member of the argument, a status returned, counters updated after. */
int journal_put(struct journal *j, const void *buf, int len)
{
\tint r = write(j->fd, buf, len);
\tif (r != len)
\t\treturn 0;
\tj->bytes += r;
\treturn 1;
}

/* printf-style: formats into its own buffer, then sends it in a loop. */
int say(int fd, const char *format, ...)
{
\tstatic char line[512];
\tchar *p = line;
\tva_list ap;
\tva_start(ap, format);
\tint left = vsnprintf(line, sizeof line, format, ap);
\tva_end(ap);
\tif (left < 0 || (size_t)left >= sizeof line)
\t\treturn -1;
\twhile (left > 0) {
\t\tssize_t n = send(fd, p, left, MSG_NOSIGNAL);
\t\tif (n <= 0)
\t\t\treturn -1;
\t\tp += n;
\t\tleft -= n;
\t}
\treturn 0;
}

/* A C string helper: its length is a local set from strlen() of the buffer, then counted down. */
int put_string(int fd, const char *s)
{
\tsize_t left = strlen(s);
\twhile (left > 0) {
\t\tssize_t n = write(fd, s, left);
\t\tif (n <= 0)
\t\t\treturn -1;
\t\ts += n;
\t\tleft -= n;
\t}
\treturn 0;
}

/*
 * The length assigned once after a guard; the loop runs while the offset is below it (passing the whole
 * length each time, as real code does): each call still sends the whole string.
 */
int reply_line(int sd, const char *msg)
{
\tint sent = 0;
\tint total;

\tif (!msg)
\t\treturn 1;
\ttotal = strlen(msg);
\twhile (sent < total) {
\t\tint n = send(sd, msg + sent, total, 0);
\t\tif (n < 0)
\t\t\treturn 1;
\t\tsent += n;
\t}
\treturn 0;
}

/* One write tried again while it fails with EINTR: still one write of the same bytes per call. */
ssize_t retry_put(int fd, const void *buf, size_t count)
{
\tssize_t n;
\tdo {
\t\tn = write(fd, buf, count);
\t} while (n < 0 && errno == EINTR);
\treturn n;
}

/* The same with send(), in a loop that continues on EAGAIN and returns anything else. */
ssize_t try_send(int sock, const void *buf, size_t len)
{
\tfor (;;) {
\t\tssize_t n = send(sock, buf, len, MSG_NOSIGNAL);
\t\tif (n < 0 && (errno == EINTR || errno == EAGAIN))
\t\t\tcontinue;
\t\treturn n;
\t}
}

/* A write-in-full loop over the retrying helper. */
int put_through(int fd, const char *buf, size_t len)
{
\twhile (len > 0) {
\t\tssize_t n = retry_put(fd, buf, len);
\t\tif (n <= 0)
\t\t\treturn -1;
\t\tbuf += n;
\t\tlen -= n;
\t}
\treturn 0;
}

/* Not helpers: the same bytes again and again, out-of-band data, a reply read back. */
int repeat_out(int fd, const char *buf, size_t len, int times)
{
\tfor (int i = 0; i < times; i++)
\t\tif (write(fd, buf, len) < 0)
\t\t\treturn -1;
\treturn 0;
}

int urgent_out(int sock, const char *buf, size_t len)
{
\treturn send(sock, buf, len, MSG_OOB) < 0 ? -1 : 0;
}

int ask(int fd, const char *buf, size_t len)
{
\tchar reply[2];
\tif (write(fd, buf, len) < 0)
\t\treturn -1;
\treturn read(fd, reply, sizeof reply) > 0 ? 0 : -1;
}
`;

/** Callers in another file: each function makes two calls of one helper, nothing between. */
const CALLERS = `${HEADER}
struct journal { int fd; long bytes; };
int put_counted(int fd, const char *buf, size_t count, int mode);
ssize_t push_offset(int fd, const void *data, size_t size);
size_t ship_all(int sock, const void *buf, size_t len);
int journal_put(struct journal *j, const void *buf, int len);
int say(int fd, const char *format, ...);
int repeat_out(int fd, const char *buf, size_t len, int times);
int urgent_out(int sock, const char *buf, size_t len);
int ask(int fd, const char *buf, size_t len);
int put_string(int fd, const char *s);
ssize_t retry_put(int fd, const void *buf, size_t count);
ssize_t try_send(int sock, const void *buf, size_t len);
int put_through(int fd, const char *buf, size_t len);

int retried(int fd, const char *a, size_t an, const char *b, size_t bn)
{
\tif (retry_put(fd, a, an) != (ssize_t)an)
\t\treturn -1;
\tif (retry_put(fd, b, bn) != (ssize_t)bn)
\t\treturn -1;
\treturn 0;
}

void tried(int sock, const char *a, size_t an, const char *b, size_t bn)
{
\ttry_send(sock, a, an);
\ttry_send(sock, b, bn);
}

int through(int fd, const char *a, size_t an, const char *b, size_t bn)
{
\tif (put_through(fd, a, an) < 0)
\t\treturn -1;
\treturn put_through(fd, b, bn);
}
int reply_line(int sd, const char *msg);

int stringed(int fd, const char *key, const char *value)
{
\tif (put_string(fd, key) < 0 || put_string(fd, value) < 0)
\t\treturn -1;
\treturn 0;
}

void replied(int sd)
{
\treply_line(sd, "426 Transfer aborted.\\r\\n");
\treply_line(sd, "226 Closing data connection.\\r\\n");
}

int counted(const char *name)
{
\tif (put_counted(1, "name: ", 6, 0) < 0)
\t\treturn -1;
\tif (put_counted(1, name, strlen(name), 0) < 0)
\t\treturn -1;
\treturn 0;
}

int offset(int fd, unsigned int n, const char *body)
{
\tif (push_offset(fd, &n, sizeof n) < 0)
\t\treturn -1;
\tif (push_offset(fd, body, n) < 0)
\t\treturn -1;
\treturn 0;
}

void shipped(int sock, const char *cmd, unsigned int len)
{
\tship_all(sock, &len, sizeof len);
\tship_all(sock, cmd, len);
}

int journalled(struct journal *j, int tag, const char *data, int len)
{
\treturn journal_put(j, &tag, sizeof tag) && journal_put(j, data, len);
}

void greeted(int sock, const char *who)
{
\tsay(sock, "HELLO %s", who);
\tsay(sock, "BYE");
}

void not_helpers(int fd, const char *a, const char *b)
{
\trepeat_out(fd, a, 1, 2);
\trepeat_out(fd, b, 1, 2);
\turgent_out(fd, a, 1);
\turgent_out(fd, b, 1);
\task(fd, a, 1);
\task(fd, b, 1);
}

int main(void) { return 0; }
`;

interface JsonFinding {
  readonly path: string;
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

/** The findings of the real CLI over `files`, by the name of the function each starts in. */
function lintTree(files: Record<string, string>): Map<string, JsonFinding[]> {
  const dir = mkdtempSync(join(work, 'tree-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = lintBin(['--format', 'json', '--exit-zero', '.'], { cwd: dir });
  assert.equal(run.status, 0, run.stderr);
  const byFunction = new Map<string, JsonFinding[]>();
  const report = JSON.parse(run.stdout) as { findings: JsonFinding[] };
  for (const f of report.findings) {
    const lines = files[f.path.split('/').pop() as string]!.split('\n');
    let at = f.line - 1;
    while (at > 0 && !/^\w[^;]*\(/.test(lines[at] ?? '')) at--;
    const fn = /(\w+)\(/.exec(lines[at] ?? '')?.[1] ?? '?';
    byFunction.set(fn, [...(byFunction.get(fn) ?? []), f]);
  }
  return byFunction;
}

describe('write helpers recognised from their bodies', () => {
  it('the helpers compile as real C (gcc -Wall -Werror)', () => {
    for (const [name, text] of [
      ['helpers.c', HELPERS],
      ['callers.c', CALLERS],
    ]) {
      const path = join(work, name!);
      writeFileSync(path, text!);
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', path], { encoding: 'utf8' });
      assert.equal(cc.status, 0, cc.stderr);
    }
  });

  const found = lintTree({ 'helpers.c': HELPERS, 'callers.c': CALLERS });

  it('finds two calls of each helper defined in another file as one sequence, without a fix', () => {
    for (const fn of [
      'counted',
      'offset',
      'shipped',
      'journalled',
      'greeted',
      'stringed',
      'replied',
      'retried',
      'tried',
      'through',
    ]) {
      const mine = found.get(fn) ?? [];
      assert.equal(mine.length, 1, `${fn}: ${JSON.stringify(mine)}`);
      assert.match(mine[0]!.code, /^adjacent-writes/);
      assert.match(mine[0]!.message, /no automatic fix/);
    }
  });

  it('says why each has no fix: a write loop, a helper, a formatter', () => {
    assert.match(found.get('counted')![0]!.message, /put_counted\(\) is this project's own write loop/);
    // One plain write to a member the code does not show the kind of: reported on that assumption.
    assert.match(found.get('journalled')![0]!.message, /^if j->fd is a byte stream/);
    assert.match(found.get('greeted')![0]!.message, /say\(\) formats its text before writing it/);
  });

  it('leaves alone helpers that repeat bytes, send out-of-band data or read their descriptor', () => {
    assert.deepEqual(found.get('not_helpers') ?? [], []);
  });

  it('a helper of one plain write joins as the write would: quiet on a datagram socket, assumed elsewhere', () => {
    const kinds = lintTree({
      'helpers.c': HELPERS,
      'kinds.c': `${HEADER}
ssize_t retry_put(int fd, const void *buf, size_t count);
int put_counted(int fd, const char *buf, size_t count, int mode);

int datagrams(const char *a, size_t an, const char *b, size_t bn)
{
\tint s = socket(AF_INET, SOCK_DGRAM, 0);
\tif (retry_put(s, a, an) < 0)
\t\treturn -1;
\tif (retry_put(s, b, bn) < 0)
\t\treturn -1;
\treturn 0;
}

int pieces(int fd, const char *a, size_t an, const char *b, size_t bn)
{
\tif (retry_put(fd, a, an) < 0 || retry_put(fd, b, bn) < 0)
\t\treturn -1;
\treturn 0;
}

int streamed(const char *a, size_t an, const char *b, size_t bn)
{
\tint s = socket(AF_INET, SOCK_STREAM, 0);
\tif (retry_put(s, a, an) < 0)
\t\treturn -1;
\treturn retry_put(s, b, bn) < 0 ? -1 : 0;
}

int looped(const char *a, size_t an, const char *b, size_t bn)
{
\tint s = socket(AF_INET, SOCK_DGRAM, 0);
\tif (put_counted(s, a, an, 0) < 0)
\t\treturn -1;
\treturn put_counted(s, b, bn, 0);
}
`,
    });
    assert.deepEqual(kinds.get('datagrams') ?? [], []);
    assert.deepEqual(
      kinds.get('pieces')?.map((f) => f.code),
      ['adjacent-writes-unknown-fd'],
    );
    assert.deepEqual(
      kinds.get('streamed')?.map((f) => f.code),
      ['adjacent-writes'],
    );
    assert.match(kinds.get('streamed')![0]!.message, /retry_put\(\) is this project's own write helper/);
    // A loop over short writes says the project treats its descriptor as a byte stream.
    assert.deepEqual(
      kinds.get('looped')?.map((f) => f.code),
      ['adjacent-writes'],
    );
  });

  it("a helper that passes its caller's send() flags on joins only calls whose flags are plain constants", () => {
    const sent = lintTree({
      'send.c': `${HEADER}
ssize_t send_nointr(int sockfd, const void *buf, size_t len, int flags)
{
\tssize_t ret;
\tdo {
\t\tret = send(sockfd, buf, len, flags);
\t} while (ret < 0 && errno == EINTR);
\treturn ret;
}

int plain(const char *a, size_t an, const char *b, size_t bn)
{
\tint s = socket(AF_INET, SOCK_STREAM, 0);
\tif (send_nointr(s, a, an, MSG_NOSIGNAL) < 0)
\t\treturn -1;
\treturn send_nointr(s, b, bn, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

int urgent(const char *a, size_t an, const char *b, size_t bn)
{
\tint s = socket(AF_INET, SOCK_STREAM, 0);
\tif (send_nointr(s, a, an, MSG_OOB) < 0)
\t\treturn -1;
\treturn send_nointr(s, b, bn, MSG_OOB) < 0 ? -1 : 0;
}

int chosen(const char *a, size_t an, const char *b, size_t bn, int how)
{
\tint s = socket(AF_INET, SOCK_STREAM, 0);
\tif (send_nointr(s, a, an, how) < 0)
\t\treturn -1;
\treturn send_nointr(s, b, bn, how) < 0 ? -1 : 0;
}
`,
    });
    assert.deepEqual(
      sent.get('plain')?.map((f) => f.code),
      ['adjacent-writes'],
    );
    // Out-of-band data, or flags the code chooses at run time: each call may be urgent data.
    assert.deepEqual(sent.get('urgent') ?? [], []);
    assert.deepEqual(sent.get('chosen') ?? [], []);
  });

  it('a variable whose address a helper sent, assigned again before the next call, ends the run', () => {
    const reused = lintTree({
      'helpers.c': HELPERS,
      'reuse.c': `${HEADER}
int put_counted(int fd, const char *buf, size_t count, int mode);
int codes(int fd, int first, int second)
{
\tint code = first;
\tif (put_counted(fd, (char *) &code, sizeof code, 0) < 0)
\t\treturn -1;
\tcode = second;
\tif (put_counted(fd, (char *) &code, sizeof code, 0) < 0)
\t\treturn -1;
\treturn 0;
}
`,
    });
    assert.deepEqual(reused.get('codes') ?? [], []);
  });
});
