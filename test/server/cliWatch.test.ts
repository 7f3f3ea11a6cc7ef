// writev-lint --watch through the installed bin: the first report, then a new one within a second of a
// save, in a folder that existed at the start or one made later; Ctrl-C ends it with status 0.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { REPO } from './helpers';
import { cFunction } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-watch-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const BIN = join(REPO, 'node_modules', '.bin', 'writev-lint');

/** A running `writev-lint --watch`, with what it printed so far. */
class Watcher {
  readonly child: ChildProcessWithoutNullStreams;
  out = '';
  err = '';
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], cwd: string) {
    this.child = spawn(BIN, ['--watch', ...args], { cwd });
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => this.heard(() => (this.out += text)));
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => this.heard(() => (this.err += text)));
    this.exited = new Promise((done) => this.child.on('exit', (code, signal) => done({ code, signal })));
  }

  private heard(add: () => void): void {
    add();
    for (const waiter of this.waiters) waiter();
  }

  /** Rounds finished so far: each ends with one timestamped summary line. */
  get rounds(): number {
    return (
      this.err.match(/^writev-lint: \[\d\d:\d\d:\d\d\] .* for changes \(Ctrl-C to stop\)$/gm)?.length ?? 0
    );
  }

  /** Resolves when `ready` holds (checked on each output), rejects after `ms` with what was printed. */
  until(ready: () => boolean, ms: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${what} within ${ms} ms; stdout:\n${this.out}\nstderr:\n${this.err}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  /** Ctrl-C, and how it ended. */
  async interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGINT');
    return this.exited;
  }
}

/** Waits for the round after `round` to report `finding`; the delay from `saved` in milliseconds. */
async function reported(watcher: Watcher, finding: RegExp, saved: number): Promise<number> {
  const before = watcher.out.length;
  // A generous deadline for the test; the bound the issue sets is asserted on the measured delay.
  await watcher.until(() => finding.test(watcher.out.slice(before)), 10_000, `report of ${finding}`);
  return performance.now() - saved;
}

const QUIET = 'int quiet(int x)\n{\n\treturn x;\n}\n';

describe('writev-lint --watch', () => {
  it('reports a saved file again within a second, and exits 0 on Ctrl-C', async (t) => {
    const dir = join(tmp, 'saved');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.c'), cFunction('emit'));
    writeFileSync(join(dir, 'b.c'), QUIET);
    const watcher = new Watcher(['.'], dir);
    try {
      // The first round may take a while on a loaded machine: the analyzer loads once, here.
      await watcher.until(() => watcher.rounds === 1, 60_000, 'first round');
      assert.match(watcher.out, /^src\/a\.c:3:2: warning/m);
      assert.doesNotMatch(watcher.out, /b\.c/);
      assert.match(watcher.err, /1 finding in 2 files \(0 unchanged\); watching 2 folders/);

      const saved = performance.now();
      writeFileSync(join(dir, 'b.c'), cFunction('loud'));
      const delay = await reported(watcher, /^b\.c:3:2: warning/m, saved);
      assert.ok(delay < 1000, `the new finding came ${Math.round(delay)} ms after the save`);
      await watcher.until(() => watcher.rounds === 2, 10_000, 'second summary');
      // The unchanged file came from the session's cache, and is still reported.
      assert.match(watcher.err, /2 findings in 2 files \(1 unchanged\)/);
      assert.equal(watcher.out.match(/^src\/a\.c:3:2/gm)?.length, 2);

      // A file that only changes back and forth is reported as it is now.
      const fixed = performance.now();
      writeFileSync(join(dir, 'src', 'a.c'), QUIET);
      await watcher.until(() => watcher.rounds === 3, 10_000, 'third round');
      const quieted = performance.now() - fixed;
      assert.ok(quieted < 1000, `the third round ended ${Math.round(quieted)} ms after the save`);
      assert.match(watcher.err, /1 finding in 2 files \(1 unchanged\)/);
      t.diagnostic(
        `a new finding reported ${Math.round(delay)} ms after the save, one gone ${Math.round(quieted)} ms after`,
      );
    } finally {
      const end = await watcher.interrupt();
      assert.deepEqual(end, { code: 0, signal: null }, watcher.err);
    }
    // Nothing but the reports and the summaries: no error on the way out.
    assert.doesNotMatch(watcher.err, /Error|error:/);
  });

  it('watches a folder made after it started', async (t) => {
    const dir = join(tmp, 'new-folder');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'b.c'), QUIET);
    const watcher = new Watcher(['--format', 'concise', '.'], dir);
    try {
      await watcher.until(() => watcher.rounds === 1, 60_000, 'first round');
      mkdirSync(join(dir, 'later', 'deeper'), { recursive: true });
      // The folders' creation is a round of its own (files may come with a folder moved in).
      await watcher.until(() => watcher.rounds >= 2, 10_000, 'round for the new folder');
      const rounds = watcher.rounds;
      writeFileSync(join(dir, 'notes.txt'), 'not source\n');
      const saved = performance.now();
      writeFileSync(join(dir, 'later', 'deeper', 'c.c'), cFunction('emit'));
      const delay = await reported(watcher, /^later\/deeper\/c\.c:3:2: warning/m, saved);
      assert.ok(delay < 1000, `the new finding came ${Math.round(delay)} ms after the save`);
      await watcher.until(() => watcher.rounds === rounds + 1, 10_000, 'one round for the save');
      t.diagnostic(`a file in a new folder reported ${Math.round(delay)} ms after the save`);
    } finally {
      const end = await watcher.interrupt();
      assert.deepEqual(end, { code: 0, signal: null }, watcher.err);
    }
  });

  it('ends with the usual error and status 2 when a path does not exist', async () => {
    const watcher = new Watcher(['no-such-folder'], tmp);
    const end = await watcher.exited;
    assert.deepEqual(end, { code: 2, signal: null });
    assert.match(watcher.err, /no such file or folder: no-such-folder/);
  });
});
