// writev-lint never hangs on what is not a regular file, and never says "0 findings" for a run that
// left something out: every skipped file or folder is named with its reason and the run exits 2.
// Runs the installed bin with a timeout where a regression would hang.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { LintPool } from 'writev-lint/out/cli/pool';
import { REPO } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-skips-'));
chmodSync(tmp, 0o755);
after(() => {
  spawnSync('chmod', ['-R', 'u+rwx', tmp]);
  rmSync(tmp, { recursive: true, force: true });
});

const BIN = join(REPO, 'server', 'bin', 'writev-lint.js');

const SEQUENCE =
  'void emit(int fd, const char *b)\n{\n\twrite_in_full(fd, "a", 1);\n\twrite_in_full(fd, b, 2);\n}\n';

/** Runs the bin in `cwd`; a hang fails the test after 30 s instead of blocking the suite. */
function lint(
  args: string[],
  cwd: string,
  user?: number,
): { status: number | null; out: string; err: string } {
  const command = user === undefined ? process.execPath : 'setpriv';
  const prefix =
    user === undefined ? [] : [`--reuid=${user}`, `--regid=${user}`, '--clear-groups', process.execPath];
  const result = spawnSync(command, [...prefix, BIN, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  assert.equal(result.signal, null, `writev-lint ${args.join(' ')} hung (killed after 30 s)`);
  return { status: result.status, out: result.stdout, err: result.stderr };
}

function folder(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('writev-lint skips what it cannot read, and says so', () => {
  it('a FIFO named on the command line is skipped with a note, without hanging (exit 2)', () => {
    const dir = folder('fifo');
    execFileSync('mkfifo', [join(dir, 'a.c')]);
    writeFileSync(join(dir, 'b.c'), SEQUENCE);
    const { status, out, err } = lint(['a.c', 'b.c'], dir);
    assert.equal(status, 2);
    assert.match(err, /^writev-lint: skipped a\.c: a FIFO, not a regular file$/m);
    assert.match(out, /^b\.c:3:2: warning: 2 syscalls/m, 'the other file is still analysed');
    assert.match(err, /1 finding in 1 file, 1 skipped \(incomplete\)/);
  });

  it('a FIFO and a FIFO .gitignore inside a walked folder are named, without hanging', () => {
    const dir = folder('walk');
    execFileSync('mkfifo', [join(dir, 'pipe.c')]);
    execFileSync('mkfifo', [join(dir, '.gitignore')]);
    writeFileSync(join(dir, 'ok.c'), 'int x;\n');
    const { status, err } = lint(['.'], dir);
    assert.equal(status, 2);
    assert.match(err, /skipped pipe\.c: not a regular file/);
    assert.match(err, /skipped \.gitignore: its rules could not be read \(a FIFO, not a regular file\)/);
  });

  it('--config naming a FIFO is a usage error, not a hang', () => {
    const dir = folder('config');
    execFileSync('mkfifo', [join(dir, 'cfg.json')]);
    const { status, err } = lint(['--config', 'cfg.json', '.'], dir);
    assert.equal(status, 2);
    assert.match(err, /cfg\.json: the config file is a FIFO; it must be a regular file/);
  });

  it('a 4.3 MB file is skipped and named (exit 2) unless --max-file-size raises the limit', () => {
    const dir = folder('large');
    const filler = 'int filler_variable_of_some_length_0000000;\n'.repeat(100_000);
    writeFileSync(join(dir, 'big.c'), filler + SEQUENCE);
    assert.ok(readFileSync(join(dir, 'big.c')).length > 4_300_000);
    const skipped = lint(['big.c'], dir);
    assert.equal(skipped.status, 2);
    assert.match(
      skipped.err,
      /skipped big\.c: \d+ bytes, larger than the limit of 4194304 bytes \(raise it with --max-file-size\)/,
    );
    assert.doesNotMatch(skipped.err, /^writev-lint: 0 findings in 1 file$/m);
    const raised = lint(['--max-file-size', '8M', 'big.c'], dir);
    assert.equal(raised.status, 1, raised.err);
    assert.match(raised.out, /^big\.c:100003:2: warning: 2 syscalls/m);
    const bad = lint(['--max-file-size', 'lots', 'big.c'], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.err, /--max-file-size must be a size in bytes .*not "lots"/);
  });

  it('a file with NUL bytes is named as skipped (binary)', () => {
    const dir = folder('binary');
    writeFileSync(join(dir, 'bin.c'), Buffer.from([0x69, 0x6e, 0x74, 0, 0x3b, 0x0a]));
    const { status, err } = lint(['bin.c'], dir);
    assert.equal(status, 2);
    assert.match(err, /skipped bin\.c: binary \(contains NUL bytes\)/);
  });

  it('an unreadable folder is named as skipped (exit 2), run as an unprivileged user', () => {
    const dir = folder('private');
    writeFileSync(join(dir, 'ok.c'), SEQUENCE);
    const hidden = folder('private/secret');
    writeFileSync(join(hidden, 'hidden.c'), SEQUENCE);
    chmodSync(hidden, 0o700);
    const root = process.getuid?.() === 0;
    // As root, a real unprivileged uid (nobody) runs the linter; otherwise the folder loses its modes.
    if (!root) chmodSync(hidden, 0o000);
    const { status, out, err } = lint(['.'], dir, root ? 65534 : undefined);
    chmodSync(hidden, 0o755);
    assert.equal(status, 2, err);
    assert.match(err, /^writev-lint: skipped secret: folder not read: EACCES$/m);
    assert.match(out, /^ok\.c:3:2:/m);
  });

  it('an unreadable file and folder: named, the others linted, and no report claims they were read', () => {
    const dir = folder('reports');
    writeFileSync(join(dir, 'ok.c'), SEQUENCE);
    writeFileSync(join(dir, 'locked.c'), SEQUENCE);
    const hidden = folder('reports/secret');
    writeFileSync(join(hidden, 'hidden.c'), SEQUENCE);
    const root = process.getuid?.() === 0;
    chmodSync(join(dir, 'locked.c'), root ? 0o600 : 0o000);
    chmodSync(hidden, root ? 0o700 : 0o000);
    const as = root ? 65534 : undefined;
    try {
      const text = lint(['.'], dir, as);
      assert.equal(text.status, 2, text.err);
      assert.match(text.err, /^writev-lint: cannot read .*locked\.c: EACCES/m);
      assert.match(text.err, /^writev-lint: skipped secret: folder not read: EACCES$/m);
      assert.match(text.out, /^ok\.c:3:2:/m);
      assert.match(
        text.err,
        /^writev-lint: 1 finding in 1 file, 1 skipped \(incomplete\), 1 error \(incomplete\)$/m,
      );

      const json = lint(['--format', 'json', '.'], dir, as);
      assert.equal(json.status, 2);
      const doc = JSON.parse(json.out) as {
        findings: unknown[];
        skipped: { path: string; reason: string }[];
        errors: { path: string; message: string }[];
      };
      assert.equal(doc.findings.length, 1);
      assert.deepEqual(doc.skipped, [{ path: 'secret', reason: 'folder not read: EACCES' }]);
      assert.deepEqual(
        doc.errors.map((e) => e.path),
        ['locked.c'],
      );

      const junit = lint(['--format', 'junit', '.'], dir, as);
      assert.match(junit.out, /<testsuites name="writev-lint" tests="3" failures="1" errors="2">/);
      assert.match(junit.out, /<testsuite name="secret" tests="1" failures="0" errors="1">/);
      assert.doesNotMatch(junit.out, /<testcase name="secret" classname="writev-lint" \/>/);

      const github = lint(['--format', 'github', '.'], dir, as);
      assert.match(github.out, /^::error file=secret,title=writev-lint::skipped: folder not read: EACCES$/m);
      assert.match(github.out, /^::error file=locked\.c,title=writev-lint::cannot read .*EACCES/m);

      const checkstyle = lint(['--format', 'checkstyle', '.'], dir, as);
      assert.match(
        checkstyle.out,
        /<file name="secret">\n {4}<error severity="error" message="skipped: folder not read: EACCES" source="writev-lint" \/>\n {2}<\/file>/,
      );
      assert.match(
        checkstyle.out,
        /<file name="locked\.c">\n {4}<error severity="error" message="cannot read /,
      );
    } finally {
      chmodSync(join(dir, 'locked.c'), 0o644);
      chmodSync(hidden, 0o755);
    }
  });
});

describe('writev-lint --jobs', () => {
  it('starts at most one worker per core, with a note, whatever --jobs asks', async () => {
    const dir = folder('many');
    const files: string[] = [];
    for (let i = 0; i < 1024; i++) {
      const file = join(dir, `f${i}.c`);
      writeFileSync(file, i % 2 ? SEQUENCE : 'int x;\n');
      files.push(file);
    }
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    // The threads a pool adds (each worker brings a few of its own), alive until close.
    const added = async (jobs: number) => {
      const before = threads();
      const pool = new LintPool(jobs);
      try {
        const results = await pool.run(files, { settings: DEFAULT_SETTINGS, fix: false });
        assert.equal(results.filter((r) => r.findings.length > 0).length, 512);
        return threads() - before;
      } finally {
        await pool.close();
      }
    };
    await added(availableParallelism()); // Warms up what stays (libuv's pool, V8's platform threads).
    const perCore = await added(availableParallelism());
    assert.ok(perCore > 0);
    assert.ok((await added(1000)) <= perCore, 'no more threads than with one job per core');
    const { status, err } = lint(['--jobs', '1000', 'f1.c'], dir);
    assert.equal(status, 1);
    assert.match(
      err,
      new RegExp(`--jobs 1000: using ${availableParallelism()} \\(one worker per core at most\\)`),
    );
  });
});
