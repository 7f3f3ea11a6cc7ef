// Writing the trace file: never through a link planted where the temporary file will be, never half a
// file, and on failure the tracers' output kept and named rather than deleted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { replaceFileSafelySync, temporaryNameBeside } from '@writev/runtime/dist/replaceFileSafely';
import { program, removedAfterTests, TRACE_BIN } from './helpers';

const folder = removedAfterTests();

/** The last process id the kernel handed out (Linux), to guess the next ones. */
function lastPid(): number {
  return Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
}

/** How many process ids ahead the links cover: other work on the machine starts processes too. */
const PID_WINDOW = 1000;

describe('writing the trace file', () => {
  it('never writes through a link planted at a temporary name an attacker could predict', () => {
    const dir = folder();
    const outside = join(folder(), 'precious.txt');
    writeFileSync(outside, 'precious\n');
    const file = program(dir, 'app.js', "require('node:fs').writeSync(1, 'x');\n");
    const out = join(dir, 'trace.json');
    const first = lastPid() + 1;
    // Every name of the `<dir>/.<name>.<pid>.tmp` and `<out>.<pid>.tmp` patterns, for the pids to come.
    for (let pid = first; pid < first + PID_WINDOW; pid++) {
      symlinkSync(outside, join(dir, `.trace.json.${pid}.tmp`));
      symlinkSync(outside, `${out}.${pid}.tmp`);
    }
    const run = spawnSync(process.execPath, [TRACE_BIN, '--out', out, '--', 'node', file], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.ok(
      run.pid !== undefined && run.pid >= first && run.pid < first + PID_WINDOW,
      `writev-trace ran as pid ${run.pid}, outside the planted ${first}..${first + PID_WINDOW - 1}: run again`,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n', 'the file outside is untouched');
    assert.ok(lstatSync(out).isFile(), 'the trace is a regular file, not the planted link renamed');
    assert.equal((JSON.parse(readFileSync(out, 'utf8')) as { version: number }).version, 1);
    const left = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    assert.equal(left.length, 2 * PID_WINDOW, 'no temporary file of its own is left behind');
    assert.ok(left.every((n) => lstatSync(join(dir, n)).isSymbolicLink()));
  });

  it('replaces a link at the --out path itself instead of writing through it', () => {
    const dir = folder();
    const outside = join(folder(), 'precious.txt');
    writeFileSync(outside, 'precious\n');
    const out = join(dir, 'trace.json');
    symlinkSync(outside, out);
    const file = program(dir, 'app.js', "require('node:fs').writeSync(1, 'x');\n");
    const run = spawnSync(process.execPath, [TRACE_BIN, '--out', out, '--', 'node', file], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n');
    assert.ok(lstatSync(out).isFile());
  });

  it("keeps the tracers' output and names it when the trace cannot be written", () => {
    const dir = folder();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const file = program(dir, 'app.js', "require('node:fs').writeSync(1, 'x');\n");
    const out = join(dir, 'no-such-folder', 'trace.json');
    const run = spawnSync(process.execPath, [TRACE_BIN, '--out', out, '--', 'node', file], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp },
    });
    assert.equal(run.status, 128);
    assert.match(run.stderr, new RegExp(`cannot write the trace ${out}: ENOENT`));
    const kept = /the tracers' output is kept in (\S+)/.exec(run.stderr)?.[1];
    assert.ok(kept, run.stderr);
    assert.ok(
      readdirSync(kept).some((n) => /^node-.*\.json$/.test(n)),
      "the Node process's table is there",
    );
    assert.deepEqual(readdirSync(tmp), [kept.slice(tmp.length + 1)]);
  });
});

describe('replaceFileSafelySync', () => {
  it('names each temporary file at random, beside the target', () => {
    const dir = folder();
    const names = new Set(Array.from({ length: 100 }, () => temporaryNameBeside(join(dir, 'f.json'))));
    assert.equal(names.size, 100);
    for (const name of names) assert.match(name, new RegExp(`^${dir}/\\.f\\.json\\.[0-9a-f]{12}\\.tmp$`));
  });

  it('writes the whole content, and on failure leaves the target and no temporary file', () => {
    const dir = folder();
    const target = join(dir, 'f.json');
    replaceFileSafelySync(target, 'one\n');
    assert.equal(readFileSync(target, 'utf8'), 'one\n');
    const big = Buffer.alloc(3 << 20, 'a');
    replaceFileSafelySync(target, big);
    assert.ok(readFileSync(target).equals(big));
    // A folder where the target should be: the rename fails, after the temporary file was written.
    const blocked = join(dir, 'taken');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    assert.throws(() => replaceFileSafelySync(blocked, 'x'), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(readdirSync(dir).sort(), ['f.json', 'taken']);
    assert.ok(existsSync(join(blocked, 'inside')));
    assert.throws(() => readlinkSync(target), /EINVAL/, 'a regular file');
  });
});
