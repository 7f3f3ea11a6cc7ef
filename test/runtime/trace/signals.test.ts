// Signals under writev-trace behave as they do untraced: a program that signals itself dies of it at
// once, a busy program dies of Ctrl-C or SIGTERM, and writev-trace itself dies of the same signal
// after writing the trace, so that its parent (a shell, CI) sees what it would have seen untraced.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TraceFile } from '@writev/runtime/dist/trace/traceFile';
import { lineOf, program, removedAfterTests, sitesOf, TRACE_BIN } from './helpers';

const folder = removedAfterTests();

/** Process groups this file started: killed after its tests, so that a failure leaves nothing running. */
const groups: number[] = [];
after(() => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Starts `command` in a process group of its own (as a shell starts a job), stdout piped. */
function startJob(command: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const [program = '', ...args] = command;
  const child = spawn(program, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.pid !== undefined) groups.push(child.pid);
  return child;
}

/** How a process ended: its exit status, or the signal that killed it. */
interface Ending {
  status: number | null;
  signal: NodeJS.Signals | null;
}

/** The trace at `out`, read after the run. */
function readTrace(out: string): TraceFile {
  return JSON.parse(readFileSync(out, 'utf8')) as TraceFile;
}

/** Runs a command to its end (no signal from the test): how it ended and what it printed. */
function runToEnd(command: string[], cwd: string): Ending & { stdout: string; stderr: string } {
  const [program = '', ...args] = command;
  const run = spawnSync(program, args, { cwd, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

/** Resolves when `child` has printed `text` on stdout. */
function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((done, fail) => {
    let seen = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes(text)) done();
    });
    child.once('exit', (status, signal) => fail(new Error(`ended (${status ?? signal}) before "${text}"`)));
  });
}

/**
 * Resolves with how `child` ended; after `limitMs` it is killed (its whole group) and the promise
 * rejects: a program that ignores the signal must fail the test, not hang it.
 */
function ending(child: ChildProcess, limitMs = 10_000): Promise<Ending> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      fail(new Error(`still running ${limitMs} ms after the signal`));
    }, limitMs);
    child.once('exit', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal });
    });
  });
}

/**
 * Resolves when a part of the Node tracer in `tmp`'s work folder counts a call at `file:line`, or after
 * 10 s without one (the trace's own assertions then say what is missing).
 */
async function saved(tmp: string, file: string, line: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const work of readdirSync(tmp).filter((n) => n.startsWith('writev-trace-'))) {
      for (const part of readdirSync(join(tmp, work)).filter((n) => /^node-.*\.json$/.test(n))) {
        try {
          const sites = (JSON.parse(readFileSync(join(tmp, work, part), 'utf8')) as TraceFile).sites;
          if (sites.some((s) => s.file === file && s.line === line)) return;
        } catch {
          // Being replaced: read it again.
        }
      }
    }
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A busy program: it reports one write, then runs synchronous code until a signal ends it. */
const BUSY_NODE = [
  "require('node:fs').writeSync(1, 'ready\\n'); // ready",
  'for (;;) Math.random();',
  '',
].join('\n');

describe('signals under writev-trace', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`a Node program that sends itself ${signal} dies of it at once, as untraced, and the trace says so`, () => {
      const dir = folder();
      const text = [
        "require('node:fs').writeSync(1, 'before\\n'); // before",
        `process.kill(process.pid, '${signal}');`,
        "require('node:fs').writeSync(1, 'after\\n');",
        '',
      ].join('\n');
      const file = program(dir, 'self.js', text);
      const untraced = runToEnd(['node', file], dir);
      assert.deepEqual([untraced.status, untraced.signal, untraced.stdout], [null, signal, 'before\n']);
      const out = join(dir, 'trace.json');
      const traced = runToEnd([process.execPath, TRACE_BIN, '--out', out, '--', 'node', file], dir);
      assert.equal(traced.stdout, 'before\n', 'no code runs after process.kill()');
      assert.deepEqual([traced.status, traced.signal], [untraced.status, untraced.signal], traced.stderr);
      const t = readTrace(out);
      assert.equal(
        t.exitCode,
        128 + (require('node:os') as typeof import('node:os')).constants.signals[signal],
      );
      assert.equal(t.signal, signal);
      assert.deepEqual(sitesOf(t, file), [`${lineOf(text, '// before')} write fd=1 calls=1 bytes=7`]);
      assert.equal(t.notes, undefined, 'saved just before the signal: nothing is missing');
    });
  }

  it('a busy Node program dies of Ctrl-C (SIGINT to the process group), as untraced', async () => {
    const dir = folder();
    const file = program(dir, 'busy.js', BUSY_NODE);
    const untraced = startJob(['node', file], dir);
    await printed(untraced, 'ready');
    process.kill(-untraced.pid!, 'SIGINT');
    assert.deepEqual(await ending(untraced), { status: null, signal: 'SIGINT' });

    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const out = join(dir, 'trace.json');
    const traced = startJob([process.execPath, TRACE_BIN, '--out', out, '--', 'node', file], dir, {
      ...process.env,
      TMPDIR: tmp,
    });
    await printed(traced, 'ready');
    await saved(tmp, file, lineOf(BUSY_NODE, '// ready'));
    process.kill(-traced.pid!, 'SIGINT');
    assert.deepEqual(await ending(traced), { status: null, signal: 'SIGINT' });
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [130, 'SIGINT']);
    assert.deepEqual(sitesOf(t, file), [`${lineOf(BUSY_NODE, '// ready')} write fd=1 calls=1 bytes=6`]);
    assert.ok(
      t.notes?.some((n) => /1 Node process \(\d+\) ended without exiting/.test(n)),
      String(t.notes),
    );
  });

  it('a busy Node program dies of a SIGTERM sent to writev-trace alone, as untraced', async () => {
    const dir = folder();
    const file = program(dir, 'busy.js', BUSY_NODE);
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const out = join(dir, 'trace.json');
    const traced = startJob([process.execPath, TRACE_BIN, '--out', out, '--', 'node', file], dir, {
      ...process.env,
      TMPDIR: tmp,
    });
    await printed(traced, 'ready');
    await saved(tmp, file, lineOf(BUSY_NODE, '// ready'));
    traced.kill('SIGTERM');
    assert.deepEqual(await ending(traced), { status: null, signal: 'SIGTERM' });
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [143, 'SIGTERM']);
    assert.deepEqual(sitesOf(t, file), [`${lineOf(BUSY_NODE, '// ready')} write fd=1 calls=1 bytes=6`]);
    assert.ok(
      t.notes?.some((n) => /1 Node process \(\d+\) ended without exiting/.test(n)),
      String(t.notes),
    );
  });

  it("a program's own SIGTERM handler still decides, and its exit status passes through", () => {
    const dir = folder();
    const text = [
      "process.on('SIGTERM', () => { require('node:fs').writeSync(1, 'handled\\n'); process.exit(7); });",
      "process.kill(process.pid, 'SIGTERM');",
      'setTimeout(() => {}, 10_000);',
      '',
    ].join('\n');
    const file = program(dir, 'handler.js', text);
    const out = join(dir, 'trace.json');
    const traced = runToEnd([process.execPath, TRACE_BIN, '--out', out, '--', 'node', file], dir);
    assert.deepEqual([traced.status, traced.signal, traced.stdout], [7, null, 'handled\n'], traced.stderr);
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [7, undefined]);
    assert.equal(sitesOf(t, file).length, 1);
  });
});

const C_SELF_KILL = [
  '#include <signal.h>',
  '#include <unistd.h>',
  'int main(void)',
  '{',
  '\twrite(1, "before\\n", 7);',
  '\tkill(getpid(), SIGTERM);',
  '\twrite(1, "after\\n", 6);',
  '\treturn 0;',
  '}',
  '',
].join('\n');

const C_BUSY = [
  '#include <unistd.h>',
  'int main(void)',
  '{',
  '\twrite(1, "ready\\n", 6);',
  '\tfor (volatile unsigned long i = 0;; i++)',
  '\t\t;',
  '}',
  '',
].join('\n');

function compile(dir: string, name: string, source: string): string {
  const binary = join(dir, name);
  const cc = spawnSync('gcc', ['-g', '-O0', '-o', binary, program(dir, `${name}.c`, source)], {
    encoding: 'utf8',
  });
  assert.equal(cc.status, 0, cc.stderr);
  return binary;
}

describe('signals under writev-trace with the native tracer (strace)', () => {
  it('a native program that sends itself SIGTERM makes writev-trace die of SIGTERM too', () => {
    const dir = folder();
    const binary = compile(dir, 'self', C_SELF_KILL);
    const untraced = runToEnd([binary], dir);
    assert.deepEqual([untraced.status, untraced.signal, untraced.stdout], [null, 'SIGTERM', 'before\n']);
    const out = join(dir, 'trace.json');
    const traced = runToEnd([process.execPath, TRACE_BIN, '--out', out, '--', binary], dir);
    assert.deepEqual(
      [traced.status, traced.signal, traced.stdout],
      [null, 'SIGTERM', 'before\n'],
      traced.stderr,
    );
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [143, 'SIGTERM']);
    assert.deepEqual(sitesOf(t, join(dir, 'self.c')), [
      `${lineOf(C_SELF_KILL, 'before')} write fd=1 calls=1 bytes=7`,
    ]);
  });

  it('a busy native program dies of a SIGTERM sent to writev-trace alone (strace would block it)', async () => {
    const dir = folder();
    const binary = compile(dir, 'busy', C_BUSY);
    const out = join(dir, 'trace.json');
    const traced = startJob([process.execPath, TRACE_BIN, '--out', out, '--', binary], dir);
    await printed(traced, 'ready');
    traced.kill('SIGTERM');
    assert.deepEqual(await ending(traced), { status: null, signal: 'SIGTERM' });
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [143, 'SIGTERM']);
    assert.deepEqual(sitesOf(t, join(dir, 'busy.c')), [
      `${lineOf(C_BUSY, 'ready')} write fd=1 calls=1 bytes=6`,
    ]);
  });

  it('a busy native program dies of Ctrl-C (SIGINT to the process group), and so does writev-trace', async () => {
    const dir = folder();
    const binary = compile(dir, 'busy', C_BUSY);
    const out = join(dir, 'trace.json');
    const traced = startJob([process.execPath, TRACE_BIN, '--out', out, '--', binary], dir);
    await printed(traced, 'ready');
    process.kill(-traced.pid!, 'SIGINT');
    assert.deepEqual(await ending(traced), { status: null, signal: 'SIGINT' });
    const t = readTrace(out);
    assert.deepEqual([t.exitCode, t.signal], [130, 'SIGINT']);
  });
});
