// strace's output parsed as a stream: the same calls whatever the chunking (a line may span chunks,
// a call's stack may come in another chunk than the call), memory bounded by the number of call sites,
// not of calls, and an output larger than the longest string V8 can hold (512 MiB) read whole.
//
// The last test writes about 600 MB to the temporary folder and takes tens of seconds: it runs only with
//   WRITEV_TRACE_HUGE=1 node --test out/test/runtime/trace/straceStream.test.js
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CallFolder,
  MAX_STRACE_LINE,
  readStraceOutput,
  StraceParser,
  type FoldedCalls,
} from '@writev/runtime/dist/trace/straceTracer';
import { removedAfterTests } from './helpers';

const folder = removedAfterTests();

const LIBC = '/usr/lib/x86_64-linux-gnu/libc.so.6';
const APP = '/opt/writev-test-app/no-such-binary';

/** A small deterministic random source (so that a failure can be replayed). */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/**
 * strace `-f -k` output of `calls` calls from 3 threads, some interrupted by another thread's call
 * (`<unfinished ...>`, then `<... resumed>`), with the sums a correct reader must find, keyed as
 * `syscall fd caller-address`.
 */
function straceText(calls: number, seed: number): { text: string; expected: Map<string, number[]> } {
  const pick = random(seed);
  const lines: string[] = [];
  const expected = new Map<string, number[]>();
  const count = (syscall: string, fd: number, caller: number, bytes: number): void => {
    const key = `${syscall} ${fd} ${caller.toString(16)}`;
    const sums = expected.get(key) ?? [0, 0];
    expected.set(key, [(sums[0] ?? 0) + 1, (sums[1] ?? 0) + bytes]);
  };
  const stack = (caller: number): string[] => [
    ` > ${LIBC}(__write+0x10) [0x${(0x1000 + pick(64)).toString(16)}]`,
    ` > ${APP}(work+0x20) [0x${caller.toString(16)}]`,
    ` > ${APP}(main+0x5) [0x4000]`,
  ];
  for (let i = 0; i < calls; i++) {
    const caller = 0x2000 + 16 * pick(8);
    const fd = 1 + pick(3);
    const bytes = 1 + pick(200);
    if (pick(5) === 0) {
      // Interrupted by a sendto of another thread, resumed after it.
      const other = 0x3000 + 16 * pick(4);
      lines.push(`101 writev(${fd}, [{iov_base="ab", iov_len=2}], 1 <unfinished ...>`);
      lines.push(`102 sendto(7, "xyz", ${bytes}, 0, NULL, 0) = ${bytes}`, ...stack(other));
      lines.push(`101 <... writev resumed>)             = ${bytes}`, ...stack(caller));
      count('send', 7, other, bytes);
      count('writev', fd, caller, bytes);
    } else if (pick(7) === 0) {
      lines.push(
        `103 write(${fd}, "q", 1)   = -1 EAGAIN (Resource temporarily unavailable)`,
        ...stack(caller),
      );
      count('write', fd, caller, 0);
    } else {
      lines.push(`103 write(${fd}, "${'é'.repeat(pick(20))}"..., ${bytes}) = ${bytes}`, ...stack(caller));
      count('write', fd, caller, bytes);
    }
  }
  lines.push('101 +++ exited with 0 +++', '');
  return { text: lines.join('\n'), expected };
}

/** The folder's sums in the form `straceText` gives them. */
function sums(folded: readonly FoldedCalls[]): Map<string, number[]> {
  return new Map(
    folded.map((f) => [`${f.syscall} ${f.fd} ${f.caller?.address.toString(16)}`, [f.calls, f.bytes]]),
  );
}

describe("strace's output as a stream", () => {
  it('finds the same calls whatever the chunks, lines split across chunk boundaries included', () => {
    const { text, expected } = straceText(2000, 1);
    for (const seed of [1, 2, 3, 4, 5]) {
      const pick = random(seed);
      const folder = new CallFolder();
      const parser = new StraceParser(folder.add);
      for (let at = 0; at < text.length;) {
        // Mostly short chunks, so that nearly every line is split somewhere; one character at times.
        const size = pick(4) === 0 ? 1 : 1 + pick(300);
        parser.push(text.slice(at, at + size));
        at += size;
      }
      parser.end();
      assert.deepEqual(sums(folder.list()), expected, `chunking ${seed}`);
    }
  });

  it('holds one line at most: a longer one is skipped and counted, and the calls after it found', () => {
    const { text, expected } = straceText(50, 2);
    const folder = new CallFolder();
    const parser = new StraceParser(folder.add);
    const junk = 'x'.repeat(64 * 1024);
    for (let n = 0; n < (3 * MAX_STRACE_LINE) / junk.length; n++) parser.push(junk);
    parser.push(`\n${text}`);
    parser.end();
    assert.equal(parser.overlong, 1);
    assert.deepEqual(sums(folder.list()), expected);
  });

  it('reads a file in chunks, and notes the lines it skipped', async () => {
    const { text, expected } = straceText(3000, 3);
    const path = join(folder(), 'strace.txt');
    const fd = openSync(path, 'w');
    writeSync(fd, `${'y'.repeat(MAX_STRACE_LINE + 1)}\n`);
    writeSync(fd, text);
    closeSync(fd);
    const { table, notes } = await readStraceOutput(path);
    const total = [...expected.values()].reduce((n, [calls = 0]) => n + calls, 0);
    assert.deepEqual(table.list(), [], 'no debug information for a binary that does not exist');
    assert.deepEqual(notes, [
      `${total} calls from ${APP} could not be placed on a source line: it has no debug information (build it with -g)`,
      `1 lines of ${path} over ${MAX_STRACE_LINE} characters were not strace's and were skipped`,
    ]);
  });

  it(
    'reads an output larger than the longest string V8 can hold, in bounded memory',
    { skip: process.env.WRITEV_TRACE_HUGE !== '1' && 'set WRITEV_TRACE_HUGE=1 (writes about 600 MB)' },
    async () => {
      const { text, expected } = straceText(20_000, 4);
      const block = Buffer.from(text.replace(/\n101 \+\+\+ exited with 0 \+\+\+\n$/, '\n'));
      const copies = Math.ceil((600 * 1024 * 1024) / block.length);
      const path = join(folder(), 'strace.txt');
      const fd = openSync(path, 'w');
      for (let i = 0; i < copies; i++) writeSync(fd, block);
      closeSync(fd);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      try {
        const { notes } = await readStraceOutput(path);
        const total = [...expected.values()].reduce((n, [calls = 0]) => n + calls, 0) * copies;
        assert.deepEqual(notes, [
          `${total} calls from ${APP} could not be placed on a source line: it has no debug information (build it with -g)`,
        ]);
      } finally {
        clearInterval(sampler);
      }
      assert.ok(peak - before < 256 * 1024 * 1024, `memory grew by ${(peak - before) >> 20} MiB`);
    },
  );
});
