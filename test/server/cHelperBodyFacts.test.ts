// Write helpers recognised from what their bodies show beyond one write of a parameter: a value
// converted into a local, a descriptor through the parameter's private data, a failure path that closes
// the descriptor, a loop paced by a parameter. The fixture's markers say where each run is found
// (cShapes.test.ts); here, what a user reads about them, and the paced helpers across files as a real
// tree has them (the loop in one file, its forwarders' callers in another), through the real CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lintBin } from './cliHelpers';
import { analyzeFixture, fixture } from './helpers';

const NAME = 'c/helper-body-facts.c';

const SERIAL = `#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

int line_fd = -1;

int line_open(const char *device)
{
\tline_fd = open(device, O_WRONLY | O_CREAT | O_TRUNC, 0600);
\treturn line_fd;
}

/* Everything at once when gap is 0; else a byte at a time, a pause after each. */
ssize_t line_send_gapped(int fd, useconds_t gap, const void *buf, size_t len)
{
\tconst char *data = buf;
\tssize_t sent, n = 0;

\tfor (sent = 0; sent < (ssize_t)len; sent += n) {
\t\tn = write(fd, &data[sent], gap ? 1 : len - (size_t)sent);
\t\tif (n < 1)
\t\t\treturn n;
\t\tusleep(gap);
\t}
\treturn sent;
}

ssize_t line_send(int fd, const void *buf, size_t len)
{
\treturn line_send_gapped(fd, 0, buf, len);
}
`;

const DRIVER = `#include <sys/types.h>
#include <unistd.h>

extern int line_fd;
ssize_t line_send(int fd, const void *buf, size_t len);
ssize_t line_send_gapped(int fd, useconds_t gap, const void *buf, size_t len);

void command(const char *c, size_t n)
{
\tline_send(line_fd, c, n);
\tline_send(line_fd, "\\r\\n", 2);
}

void slow_command(const char *c, size_t n)
{
\tline_send_gapped(line_fd, 20000, c, n);
\tline_send_gapped(line_fd, 20000, "\\r\\n", 2);
}
`;

const work = mkdtempSync(join(tmpdir(), 'writev-body-facts-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface JsonFinding {
  readonly path: string;
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

describe('write helpers recognised from facts of their bodies', () => {
  it('reports every run of them without a fix, saying why', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    assert.ok(found.length > 0);
    for (const f of found) assert.equal(f.fix, undefined, f.message);
    const at = (fn: string) => {
      const start = text.indexOf(`\n${fn}(`) >= 0 ? text.indexOf(`\n${fn}(`) : text.indexOf(` ${fn}(`);
      return found.find((f) => f.span.start > start && f.span.start < text.indexOf('\n}', start));
    };
    assert.match(
      at('hbf_save_counts')?.message ?? '',
      /hbf_put16\(\) writes the bytes of the value it is given, which no iovec can point at/,
    );
    // The descriptor is named as the caller spells it: through its local copy of the argument's
    // private data (see localSpellings.ts).
    assert.match(at('hbf_drv_init')?.message ?? '', /^2 syscalls to p->fd /);
    assert.match(at('hbf_conn_greet')?.message ?? '', /^2 syscalls to c->fd /);
  });

  it('finds the paced loop only where the forwarders in another file pass a pause of 0', () => {
    const dir = mkdtempSync(join(work, 'tree-'));
    writeFileSync(join(dir, 'serial.c'), SERIAL);
    writeFileSync(join(dir, 'driver.c'), DRIVER);
    for (const name of ['serial.c', 'driver.c']) {
      const cc = spawnSync('gcc', ['-fsyntax-only', '-Wall', '-Werror', join(dir, name)], {
        encoding: 'utf8',
      });
      assert.equal(cc.status, 0, cc.stderr);
    }
    const run = lintBin(['--format', 'json', '--exit-zero', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { findings: JsonFinding[] };
    const lines = report.findings.map((f) => `${f.path.split('/').pop()}:${f.line}:${f.code}`);
    // command() at line 10; slow_command()'s paced calls spread their bytes out on purpose.
    assert.deepEqual(lines, ['driver.c:10:adjacent-writes']);
    assert.match(report.findings[0]!.message, /^2 syscalls to line_fd /);
  });
});
