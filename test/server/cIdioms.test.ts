// The real-code idioms of the C analyzer, beyond what the fixtures' markers say: what the fixes keep,
// why a hint has no fix, and the stream-function setting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSettings, SettingsError, type Finding } from 'writev-lint';
import { join } from 'node:path';
import { analyzeFixture, analyzer, fixture, FIXTURES, observed } from './helpers';

function fixText(f: Finding | undefined): string {
  return f?.fix?.edits.map((e) => e.newText).join('\n') ?? '';
}

function at(found: readonly Finding[], text: string, fn: string): Finding | undefined {
  const start = text.indexOf(fn);
  const end = text.indexOf('\n}', start);
  return found.find((f) => f.span.start > start && f.span.end <= end);
}

describe('C idioms', () => {
  it('keeps the tests after the chained writes, after the gathered call', async () => {
    const text = fixture('c/chained-conditions.c');
    const found = await analyzeFixture('c/chained-conditions.c');
    const sync = fixText(at(found, text, 'chained_then_sync'));
    assert.match(
      sync,
      /if \(writev_in_full\(fd, iov, 3\) < 0 \|\|\n\s+fsync\(fd\) < 0 \|\| close\(fd\) < 0\)/,
    );
    assert.match(fixText(at(found, text, 'chained_lengths')), /xwritev\(fd, iov, 2\) != \(4 \+ n\)/);
    assert.match(
      fixText(at(found, text, 'all_written')),
      /return writev_in_full\(fd, iov, 2\) == \(n \+ 1\);/,
    );
  });

  it("fills the vector under the write's own condition", async () => {
    const text = fixture('c/conditional-writes.c');
    const found = await analyzeFixture('c/conditional-writes.c');
    const show = at(found, text, 'show_ref');
    assert.match(show?.message ?? '', /^up to 3 syscalls to fd/);
    assert.match(
      fixText(show),
      /int iovcnt = 0;\n\n\t\tif \(negated\)\n\t\t\tiov\[iovcnt\+\+\] = \(struct iovec\)\{ \.iov_base = \(void \*\)"\^", \.iov_len = 1 \};/,
    );
    assert.match(fixText(show), /writev_or_die\(fd, iov, iovcnt\);/);
  });

  it('gathers mixed families into the strictest one, and says why when it cannot', async () => {
    const text = fixture('c/mixed-families.c');
    const found = await analyzeFixture('c/mixed-families.c');
    assert.match(
      fixText(at(found, text, 'send_and_flush')),
      /"0000", \.iov_len = 4 \}[\s\S]*writev_or_die\(fd, iov, 2\)/,
    );
    assert.match(fixText(at(found, text, 'checked_alike')), /if \(writev_in_full\(1, iov, 3\) < 0\)/);
    const die = at(found, text, 'die_then_report');
    assert.equal(die?.fix, undefined);
    assert.match(
      die?.message ?? '',
      /no automatic fix: write_or_die\(\) dies on failure where write_in_full\(\)/,
    );
    assert.match(at(found, text, 'ignored_then_checked')?.message ?? '', /xwrite\(\) ignores its result/);
  });

  it('reports calls to a framing wrapper with the total syscall count and no fix', async () => {
    const text = fixture('c/framing-wrappers.c');
    const found = await analyzeFixture('c/framing-wrappers.c');
    const pair = at(found, text, 'send_pair');
    assert.equal(pair?.syscalls, 4);
    assert.equal(pair?.fix, undefined);
    assert.match(pair?.message ?? '', /send_frame\(\) writes 2 times per call/);
  });

  it('counts plain writes on descriptors from functions the settings name as streams', async () => {
    const name = 'c/descriptor-origins.c';
    const text = fixture(name);
    const plain = observed(text, await analyzeFixture(name));
    const settings = parseSettings({ streamFunctions: ['connect_to_server'] });
    const named = observed(text, await analyzeFixture(name, settings));
    const line = text.split('\n').findIndex((l) => l.includes('int fd = connect_to_server(host);')) + 2;
    assert.deepEqual(
      named.filter((e) => !plain.some((p) => p.line === e.line && p.code === e.code)),
      [{ line, code: 'adjacent-writes', syscalls: 2 }],
    );
  });

  it('gathers sends given constant flags with no fix, naming sendmsg()', async () => {
    const name = 'c/descriptor-origins.c';
    const text = fixture(name);
    const flagged = at(await analyzeFixture(name), text, 'stream_socket_flags');
    assert.equal(flagged?.syscalls, 2);
    assert.equal(flagged?.fix, undefined);
    assert.match(flagged?.message ?? '', /send\(\) is given MSG_NOSIGNAL \| MSG_MORE, .*sendmsg\(\)/);
  });

  it('reads a non-zero result as the error (`if (write_all(...) || write_all(...))`)', async () => {
    const a = await analyzer();
    const text =
      'int f(int fd, const char *a, const char *b)\n{\n\tif (write_all(fd, a, 1) || write_all(fd, b, 1))\n\t\treturn -1;\n\tif (write_all(fd, a, 1))\n\t\treturn -1;\n\treturn 0;\n}\n';
    const settings = parseSettings({ writeFunctions: [{ name: 'write_all', fd: 0, buf: 1, len: 2 }] });
    const found = a.analyze(join(FIXTURES, 'truthy.c'), text, settings);
    assert.deepEqual(
      found.map((f) => [f.syscalls, f.related.length]),
      [[3, 3]],
    );
  });

  it('refuses a stream function setting that is not a name', () => {
    assert.throws(() => parseSettings({ streamFunctions: ['open('] }), SettingsError);
    assert.throws(
      () => parseSettings({ streamFunctions: 'open' }),
      /writev.streamFunctions: expected a list/,
    );
  });
});
