// The native tracer on real C programs compiled with gcc: exact calls and bytes per source line,
// children followed, a binary without debug information named, and strace's absence said clearly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseStrace } from '@writev/runtime/dist/trace/straceTracer';
import { lineOf, program, sitesOf, trace, TRACE_BIN, removedAfterTests } from './helpers';

const folder = removedAfterTests();

const C_PROGRAM = [
  '#include <string.h>',
  '#include <sys/uio.h>',
  '#include <unistd.h>',
  '',
  'static void line(int fd, const char *text)',
  '{',
  '\twrite(fd, "> ", 2); /* prefix */',
  '\twrite(fd, text, strlen(text)); /* text */',
  '}',
  '',
  'int main(void)',
  '{',
  '\tstruct iovec iov[2] = { { "ab", 2 }, { "cde", 3 } };',
  '\tfor (int i = 0; i < 50; i++)',
  '\t\tline(1, "hello\\n");',
  '\twritev(2, iov, 2); /* gathered */',
  '\tif (fork() == 0) {',
  '\t\twrite(1, "child\\n", 6); /* child */',
  '\t\t_exit(0);',
  '\t}',
  '\treturn 4;',
  '}',
  '',
].join('\n');

function compile(dir: string, flags: string[]): string {
  const source = program(dir, 'lines.c', C_PROGRAM);
  const binary = join(dir, 'lines');
  const cc = spawnSync('gcc', [...flags, '-O0', '-o', binary, source], { encoding: 'utf8' });
  assert.equal(cc.status, 0, cc.stderr);
  return binary;
}

describe('writev-trace on a native program (strace -k, addr2line)', () => {
  it('counts each write at its source line, in the parent and in a forked child', () => {
    const dir = folder();
    const binary = compile(dir, ['-g']);
    const { run, trace: t } = trace(dir, [binary]);
    assert.equal(run.status, 4, run.stderr);
    assert.equal(t.exitCode, 4);
    assert.equal(run.stdout.split('\n').filter((l) => l === '> hello').length, 50, 'output passes through');
    const at = (marker: string) => lineOf(C_PROGRAM, marker);
    assert.deepEqual(
      sitesOf(t, join(dir, 'lines.c')),
      [
        `${at('/* prefix')} write fd=1 calls=50 bytes=100`,
        `${at('/* text')} write fd=1 calls=50 bytes=300`,
        `${at('/* gathered')} writev fd=2 calls=1 bytes=5`,
        `${at('/* child')} write fd=1 calls=1 bytes=6`,
      ].sort(),
    );
    const prefix = t.sites.find((s) => s.line === at('/* prefix'));
    assert.equal(prefix?.function, 'line');
  });

  it('traces only the syscalls asked for', () => {
    const dir = folder();
    const binary = compile(dir, ['-g']);
    const { trace: t } = trace(dir, [binary], ['--syscalls', 'writev']);
    assert.deepEqual(sitesOf(t, join(dir, 'lines.c')), [
      `${lineOf(C_PROGRAM, '/* gathered')} writev fd=2 calls=1 bytes=5`,
    ]);
  });

  it('says which binary has no debug information instead of inventing lines', () => {
    const dir = folder();
    const binary = compile(dir, ['-g0']);
    const { run, trace: t } = trace(dir, [binary]);
    assert.equal(run.status, 4);
    assert.deepEqual(t.sites, []);
    assert.ok(
      t.notes?.some((n) => n.startsWith(`102 calls from ${binary} could not be placed`) && /-g/.test(n)),
      JSON.stringify(t.notes),
    );
    assert.match(run.stderr, /no debug information/);
  });

  it('fails clearly, running nothing, when strace is not installed', () => {
    const dir = folder();
    const binary = compile(dir, ['-g']);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['gcc', 'addr2line']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const run = spawnSync(process.execPath, [TRACE_BIN, '--', binary], {
      encoding: 'utf8',
      env: { ...process.env, PATH: bin },
    });
    assert.equal(run.status, 128);
    assert.equal(run.stdout, '', 'the program did not run');
    assert.match(run.stderr, /strace is not installed.*--tracer node/);
  });
});

describe("parsing strace's output", () => {
  it('joins calls interrupted by another thread and keeps each stack with its call', () => {
    const calls = parseStrace(
      [
        '101 write(1, "ab", 2 <unfinished ...>',
        '102 sendto(5, "xyz", 3, 0, NULL, 0) = 3',
        ' > /usr/lib/x86_64-linux-gnu/libc.so.6(__send+0x10) [0x1000]',
        ' > /opt/app(serve+0x20) [0x2000]',
        '101 <... write resumed>)             = 2',
        ' > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x10) [0x3000]',
        ' > /opt/app(main+0x5) [0x4000]',
        '101 write(1, "q", 1)                 = -1 EAGAIN (Resource temporarily unavailable)',
        '101 +++ exited with 0 +++',
      ].join('\n'),
    );
    // In the order each call completes: the interrupted write after the send.
    assert.deepEqual(
      calls.map((c) => [c.syscall, c.fd, c.bytes, c.frames.map((f) => f.address.toString(16))]),
      [
        ['send', 5, 3, ['1000', '2000']],
        ['write', 1, 2, ['3000', '4000']],
        ['write', 1, 0, []],
      ],
    );
  });
});
