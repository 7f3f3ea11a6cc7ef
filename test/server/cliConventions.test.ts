// The habits every linter user has: --version, --help from the one option table, --explain, --quiet,
// --max-warnings, --exit-non-zero-on-fix, --stdin with --stdin-filename (and --fix printing the fixed
// text), and usage errors that name the option.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { UsageError } from '@writev/runtime';
import { CODES, OPTIONS, parseArgs } from 'writev-lint/out/cli/args';
import { cFunction, lintBin, lintRun } from './cliHelpers';
import { REPO } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-conventions-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const LOOPS = 'test/server/fixtures/c/loops.c'; // two loop-writes, severity information
const ADJACENT = 'test/server/fixtures/c/adjacent.c'; // adjacent-writes warnings

describe('writev-lint conventions', () => {
  it('--version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'server', 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.deepEqual(await lintRun(['--version']), { status: 0, out: `${version}\n`, err: '' });
  });

  it('--help lists every option of the table', async () => {
    const { status, out } = await lintRun(['--help']);
    assert.equal(status, 0);
    for (const name of Object.keys(OPTIONS)) assert.match(out, new RegExp(`--${name}\\b`), name);
  });

  it('names the option in usage errors, and exits 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--frobnicate'], /^writev-lint: unknown option --frobnicate\n/],
      [['--format'], /^writev-lint: --format needs a value\n/],
      [['--fix=yes'], /^writev-lint: --fix takes no value\n/],
      [
        ['--max-warnings', 'many'],
        /^writev-lint: --max-warnings must be a whole number of 0 or more, not "many"\n/,
      ],
      [['--jobs', '0'], /^writev-lint: --jobs must be a whole number of 1 or more, not "0"\n/],
      [['--exit-non-zero-on-fix'], /^writev-lint: --exit-non-zero-on-fix is for --fix /],
      [['--diff', '--exit-non-zero-on-fix'], /^writev-lint: --exit-non-zero-on-fix is for --fix /],
      [
        ['--fix', '--exit-zero', '--exit-non-zero-on-fix'],
        /^writev-lint: --exit-non-zero-on-fix and --exit-zero ask for opposite exit statuses\n/,
      ],
      [['--explain', 'loop-write'], /^writev-lint: --explain: unknown code "loop-write" \(the codes are /],
      [['--explain', 'loop-writes,adjacent-writes'], /^writev-lint: --explain takes one code, not 2\n/],
      [
        ['--explain', 'loop-writes', 'src/'],
        /^writev-lint: --explain prints a code's documentation: no paths/,
      ],
      [['--stdin'], /^writev-lint: --stdin needs --stdin-filename <name>/],
      [['--stdin-filename', 'a.c'], /^writev-lint: --stdin-filename is only for --stdin\n/],
      [
        ['--fix', '--diff-base', 'HEAD'],
        /^writev-lint: --fix cannot be combined with --diff-base or --baseline/,
      ],
      [
        ['--stdin', '--stdin-filename', 'a.py'],
        /^writev-lint: --stdin-filename a\.py: not a C, TypeScript or JavaScript file name\n/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await lintRun(args, REPO, 'int x;\n');
      assert.equal(run.status, 2, args.join(' '));
      assert.match(run.err, message, args.join(' '));
    }
  });

  it('--explain prints what a code finds, an example and its link, for every code', async () => {
    const run = lintBin(['--explain', 'loop-writes']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^loop-writes \(LoopWrites\): A write per loop iteration to one descriptor\.\n\n/,
    );
    assert.match(run.stdout, /```c\nfor \(i = 0; i < n; i\+\+\)\n\twrite_or_die/);
    assert.match(run.stdout, /\n\nMore: https:\/\/github\.com\/writev\/writev#loop-writes\n$/);
    for (const code of CODES) {
      const each = await lintRun(['--explain', code]);
      assert.equal(each.status, 0, code);
      assert.ok(each.out.startsWith(`${code} (`) && each.out.endsWith(`#${code}\n`), each.out);
    }
  });

  it("throws the runtime's UsageError, the one every writev bin uses", () => {
    assert.throws(
      () => parseArgs(['--frobnicate']),
      (err) => err instanceof UsageError && err.code === 'ERR_USAGE' && /--frobnicate/.test(err.message),
    );
  });

  it('--quiet reports warnings and errors only', async () => {
    const all = await lintRun(['--format', 'json', ADJACENT, LOOPS]);
    const quiet = await lintRun(['--quiet', '--format', 'json', ADJACENT, LOOPS]);
    const severities = (out: string) =>
      new Set((JSON.parse(out) as { findings: { severity: string }[] }).findings.map((f) => f.severity));
    assert.deepEqual(severities(all.out), new Set(['warning', 'information']));
    assert.deepEqual(severities(quiet.out), new Set(['warning']));
    const onlyInfo = await lintRun(['--quiet', LOOPS]);
    assert.deepEqual([onlyInfo.status, onlyInfo.out], [0, '']);
  });

  it('--max-warnings n: exit 1 only above n findings (errors always count)', async () => {
    assert.equal((await lintRun(['--max-warnings', '2', LOOPS])).status, 0);
    const over = await lintRun(['--max-warnings', '1', LOOPS]);
    assert.equal(over.status, 1);
    assert.match(over.err, /writev-lint: 2 findings: more than --max-warnings 1\n/);
    const config = join(tmp, 'errors.json');
    writeFileSync(config, JSON.stringify({ severity: { loopWrites: 'error' } }));
    assert.equal((await lintRun(['--config', config, '--max-warnings', '100', LOOPS])).status, 1);
  });

  it('--exit-non-zero-on-fix: exit 1 when --fix changed a file, though no finding remains', async () => {
    const dir = mkdtempSync(join(tmp, 'fix-'));
    const source = `#include "git-compat-util.h"\n${cFunction('piped')}`;
    writeFileSync(join(dir, 'piped.c'), source);
    const fixing = lintBin(['--fix', '--exit-non-zero-on-fix', 'piped.c'], { cwd: dir });
    assert.equal(fixing.status, 1, fixing.stderr);
    assert.match(fixing.stderr, /writev-lint: 0 findings in 1 file, 1 file fixed\n/);
    assert.match(fixing.stderr, /writev-lint: 1 file fixed \(--exit-non-zero-on-fix\)\n/);
    assert.match(readFileSync(join(dir, 'piped.c'), 'utf8'), /writev_or_die\(fd, iov, 2\);/);
    // Nothing left to fix: 0. Then standard input, whose fixed text counts as a fixed file.
    const again = await lintRun(['--fix', '--exit-non-zero-on-fix', join(dir, 'piped.c')], dir);
    assert.deepEqual([again.status, again.err], [0, 'writev-lint: 0 findings in 1 file\n']);
    const args = ['--stdin', '--stdin-filename', 'p.c', '--fix', '--exit-non-zero-on-fix'];
    const piped = await lintRun(args, dir, source);
    assert.equal(piped.status, 1, piped.err);
    assert.match(piped.out, /writev_or_die\(fd, iov, 2\);/);
  });

  it('--stdin lints standard input under --stdin-filename, through a real pipe', () => {
    const source = `#include "git-compat-util.h"\n${cFunction('piped')}`;
    const run = lintBin(['--stdin', '--stdin-filename', 'src/piped.c'], { input: source });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^src\/piped\.c:4:2: warning: 2 syscalls to fd can become one/);
  });

  it('--stdin --fix prints the fixed text on stdout and the rest of the report on stderr', () => {
    const source = `#include "git-compat-util.h"\n${cFunction('piped')}`;
    const run = lintBin(['--stdin', '--stdin-filename', 'piped.c', '--fix'], { input: source });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /writev_or_die\(fd, iov, 2\);/);
    assert.ok(!run.stdout.includes('write_or_die(fd, "a", 1);'));
    assert.match(run.stderr, /writev-lint: 0 findings in 1 file, 1 file fixed/);
    const untouched = lintBin(['--stdin', '--stdin-filename', 'ok.c', '--fix'], { input: 'int x;\n' });
    assert.deepEqual([untouched.status, untouched.stdout], [0, 'int x;\n']);
  });
});
