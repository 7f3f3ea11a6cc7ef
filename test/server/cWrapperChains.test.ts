// Wrappers of wrappers, printf-style helpers, project write loops and atomicio(vwrite): what a user sees
// in the findings, and where the analyzer stops following a chain.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzeFixture, analyzer, fixture, FIXTURES } from './helpers';

const work = mkdtempSync(join(tmpdir(), 'writev-chains-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Builds `source` (nestedWrappers.c, as is or fixed) with a main that calls it, runs it, returns stdout. */
function runPage(source: string, name: string): string {
  const unit = join(work, `${name}.c`);
  writeFileSync(unit, source);
  const main = join(work, `${name}-main.c`);
  writeFileSync(
    main,
    `#include <stdlib.h>\n#include "${unit}"\n` +
      'void die_errno(const char *fmt, ...) { (void)fmt; exit(3); }\n' +
      'void open_filter(const char *cmd) { page_put("[filter "); page_put(cmd); page_put("]"); }\n' +
      'void page_flush(void) { page_put("[flush]"); }\n' +
      'void page_escaped(const char *txt) { for (; *txt; txt++) page_raw(txt, 1); }\n' +
      'int main(void) { page_header("T"); page_filtered("body"); return 0; }\n',
  );
  const exe = join(work, name);
  const cc = spawnSync('gcc', ['-w', '-I', join(FIXTURES, 'c'), '-o', exe, main], { encoding: 'utf8' });
  assert.equal(cc.status, 0, cc.stderr);
  const ran = spawnSync(exe, { encoding: 'utf8' });
  assert.equal(ran.status, 0, ran.stderr);
  return ran.stdout;
}

const RAW = `#include <string.h>
#include <unistd.h>
void die_errno(const char *msg);
void page_raw(const char *data, size_t size)
{
\tif (write(STDOUT_FILENO, data, size) != size)
\t\tdie_errno("write error");
}
void page_put(const char *txt)
{
\tpage_raw(txt, strlen(txt));
}
`;

/** A chain of `depth` forwarders above page_raw(), the last one named `level<depth>`. */
function chain(depth: number): string {
  let text = RAW;
  let callee = 'page_raw';
  for (let i = 1; i <= depth; i++) {
    text += `static void level${i}(const char *s, size_t n)\n{\n\t${callee}(s, n);\n}\n`;
    callee = `level${i}`;
  }
  return `${text}void use(void)\n{\n\t${callee}("a", 1);\n\t${callee}("b", 1);\n}\n`;
}

describe('C wrapper chains', () => {
  it('follows a chain of forwarders to the write, with the innermost error handling in the fix', async () => {
    const found = (await analyzer()).analyze('/w/chain.c', chain(3), DEFAULT_SETTINGS);
    assert.equal(found.length, 1);
    assert.match(found[0]!.message, /^2 syscalls to 1 can become one/);
    const fixed = found[0]!.fix?.edits.map((e) => e.newText).join('\n') ?? '';
    assert.match(fixed, /if \(writev\(STDOUT_FILENO, iov, 2\) != \(1 \+ 1\)\)/);
    assert.match(fixed, /die_errno\("write error"\)/);
  });

  it('the fixed chain writes the same bytes in the same order to a pipe', async () => {
    const name = 'c/nestedWrappers.c';
    const found = await analyzeFixture(name);
    assert.ok(found.some((f) => f.fix));
    const fixed = (await analyzer()).fixAll(join(FIXTURES, name), fixture(name), found, true);
    assert.ok(fixed !== undefined && fixed.includes('writev(STDOUT_FILENO'));
    const before = runPage(fixture(name), 'before');
    assert.equal(before, '<html><head><title>T</title>T<body><div><pre>[filter highlight]body[flush]</pre>');
    assert.equal(runPage(fixed, 'after'), before);
  });

  it('a writer of a header and a payload opening with a guard that leaves is no frame, one that computes first is', async () => {
    const a = await analyzer();
    const framing = (first: string) =>
      '#include <unistd.h>\n' +
      'static int checksum(size_t n) { return n > 4096; }\n' +
      `static void send_frame(int fd, const char *hdr, const char *buf, size_t n)\n{\n\t${first}\n` +
      '\twrite(fd, hdr, 4);\n\twrite(fd, buf, n);\n}\n';
    const frames = (first: string) =>
      a
        .wrappers('/w/frame.c', framing(first), DEFAULT_SETTINGS)
        .c.filter((w) => w.name === 'send_frame')
        .map((w) => w.syscalls);
    // The guard's answer is the reading's: a guard that calls something is read, and is no frame either.
    assert.deepEqual(frames('if (n > 4096) return;'), []);
    assert.deepEqual(frames('if (n > 4096) { n = 0; return; }'), []);
    assert.deepEqual(frames('if (checksum(n)) return;'), []);
    assert.deepEqual(frames('if (n > 4096) n = 4096;'), [2]);
  });

  it('stops following a chain deeper than its limit', async () => {
    const found = (await analyzer()).analyze('/w/deep.c', chain(6), DEFAULT_SETTINGS);
    assert.deepEqual(found, []);
  });

  it('uses a chain defined in another file, without a fix', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    index.set('/w/page.c', a.wrappers('/w/page.c', RAW, DEFAULT_SETTINGS));
    const user =
      'void page_put(const char *txt);\nvoid head(void)\n{\n\tpage_put("<a>");\n\tpage_put("<b>");\n}\n';
    const found = a.analyze('/w/user.c', user, DEFAULT_SETTINGS, { index });
    assert.equal(found.length, 1);
    assert.equal(found[0]!.syscalls, 2);
    assert.equal(found[0]!.fix, undefined);
  });

  it('reports printf-style helpers and project write loops without a fix, saying why', async () => {
    const why = async (name: string) =>
      (await analyzeFixture(name)).filter((f) => !f.fix).map((f) => f.message);
    assert.deepEqual(await why('c/formatWrappers.c'), [
      '3 syscalls to 1 can become one: gather these writes into one writev() (no automatic fix: fmt_out() formats its text before writing it, so no iovec can list its bytes)',
      '4 syscalls to 1 can become one: gather these writes into one writev() (no automatic fix: fmt_twice() writes 2 times per call (a header, then its payload); gathering across calls needs a variant of it that fills an iovec)',
    ]);
    assert.match((await why('c/writeLoops.c'))[0] ?? '', /put_all\(\) is this project's own write loop/);
  });

  it('gathers an atomicio(vwrite) run into one atomiciov() call, and leaves atomicio(read) alone', async () => {
    const found = await analyzeFixture('c/atomicioWrites.c');
    assert.equal(found.length, 1);
    const text = found[0]!.fix?.edits.map((e) => e.newText).join('') ?? '';
    assert.match(text, /atomiciov\(/);
  });
});
