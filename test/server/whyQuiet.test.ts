// scripts/why-quiet.js on a file whose silences are known: each write-like call gets the reason the
// front end has for it (an unknown helper, a datagram socket, a macro's body, dead code, stdio), and
// each block of two or more without a finding says why no run formed; a helper whose body reaches a
// write and was not read as a writer gets the test its body failed, with the line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'writev-why-quiet-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  readonly line: number;
  readonly lines?: number[];
  readonly reason: string;
  readonly refusal?: { why: string; helper: string; where?: string; never?: string[] };
}

describe('why-quiet.js', () => {
  const json = join(dir, 'quiet.json');
  const run = spawnSync(
    process.execPath,
    [join(REPO, 'scripts', 'why-quiet.js'), '--json', json, 'test/server/fixtures/why-quiet/quiet.c'],
    { cwd: REPO, encoding: 'utf8' },
  );
  const read = () => JSON.parse(readFileSync(json, 'utf8')) as { records: Row[]; silent: Row[] };

  it('gives each write-like call the reason the analyzer has for it', () => {
    assert.equal(run.status, 0, run.stderr);
    const at = new Map(read().records.map((r) => [r.line, r.reason]));
    assert.deepEqual(Object.fromEntries([...at].sort((a, b) => a[0] - b[0])), {
      8: 'macro: inside a macro definition',
      14: 'callee: unknown, no body in view',
      15: 'callee: unknown, no body in view',
      21: 'descriptor: the file shows it keeps message boundaries (datagram, packet, netlink)',
      22: 'descriptor: the file shows it keeps message boundaries (datagram, packet, netlink)',
      29: 'dead: in code that never runs (if (0), #if 0)',
      30: 'stdio: buffered, no system call per call',
      31: 'stdio: buffered, no system call per call',
      36: 'step: stream (a standard descriptor)',
      38: 'step: stream (a standard descriptor)',
      48: 'callee: a function-like macro of the file, not read as a write',
      56: 'step: descriptor of unknown kind, taken as a stream',
      65: 'callee: body in the file calls a write directly, not read as a writer',
      70: 'callee: body in the file calls a write directly, not read as a writer',
      71: 'callee: body in the file calls a write directly, not read as a writer',
      72: 'callee: body in the file calls a write through 2-3 calls, not read as a writer',
      73: 'callee: body in the file calls a write through 2-3 calls, not read as a writer',
    });
  });

  it("says which test of the helper reading refused a helper's body, and where", () => {
    const refusals = read()
      .records.filter((r) => r.refusal)
      .map((r) => [r.line, r.refusal]);
    const loop = {
      why: 'loop-not-advancing',
      helper: 'put_loop',
      where: 'test/server/fixtures/why-quiet/quiet.c:55',
    };
    // put_via() names no writer the rounds knew: the helper it calls gives the refusal.
    assert.deepEqual(refusals, [
      [65, loop],
      [70, loop],
      [71, loop],
      [72, { ...loop, never: ['put_via'] }],
      [73, { ...loop, never: ['put_via'] }],
    ]);
    assert.match(run.stdout, /^5\t1\tloop-not-advancing$/m);
  });

  it('says why each block of two or more formed no run', () => {
    const silent = read().silent.map((s) => [s.lines, s.reason]);
    assert.deepEqual(silent, [
      [[14, 15], 'fewer than two steps: callee: unknown, no body in view'],
      [
        [21, 22],
        'fewer than two steps: descriptor: the file shows it keeps message boundaries (datagram, packet, netlink)',
      ],
      [[29, 30, 31], 'fewer than two steps: stdio: buffered, no system call per call'],
      [[36, 38], 'stop: crossing: a statement between may do I/O or change the descriptor'],
      [
        [70, 71, 72, 73],
        'fewer than two steps: callee: body in the file calls a write directly, not read as a writer',
      ],
    ]);
  });

  it('prints the counts of the reasons', () => {
    assert.match(run.stdout, /^write-like calls: 17$/m);
    assert.match(run.stdout, /^2\tstdio: buffered, no system call per call$/m);
  });
});
