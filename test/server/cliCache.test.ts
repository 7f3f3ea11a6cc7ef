// writev-lint --cache: a run over an unchanged tree analyses no file and prints the same bytes; a
// changed file, a changed helper in another file, changed settings or a changed cache file each give
// the findings a run without the cache gives. Each flag runs through the installed bin at least once;
// the cases that differ only in what they change run main() in this process, where the analyzer (and
// the TypeScript compiler) loads once rather than once a run.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WrapperIndex } from 'writev-lint';
import type { CWrapper, TsWrapper } from 'writev-lint/out/analyzer/wrapper';
import { CHAIN_LOOP, chainTree, cFunction, lintBin, lintRun } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-cache-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const WRAPPER =
  'int log_fd = 2;\nvoid log_line(const char *line)\n{\n\twrite_str_in_full(log_fd, line);\n}\n';
const NOT_A_WRAPPER = 'int log_fd = 2;\nvoid log_line(const char *line)\n{\n\t(void)line;\n}\n';
const CALLER =
  'void log_line(const char *line);\n\nvoid pair(const char *k, const char *v)\n{\n\tlog_line(k);\n\tlog_line(v);\n}\n';
const TS_LIB =
  "import { writeInFull } from '@writev/runtime';\n\nexport const logFd = 2;\n\nexport function logLine(buf: Uint8Array): void {\n  writeInFull(logFd, buf);\n}\n";
const TS_CALLER =
  "import { logLine } from './lib';\n\nexport function logPair(key: Uint8Array, value: Uint8Array): void {\n  logLine(key);\n  logLine(value);\n}\n";

/**
 * A tree with a C wrapper and its caller, a file with a finding of its own and a quiet file; with `ts`,
 * a TS wrapper and its caller too (only where needed: the TS compiler's loading is most of a run).
 */
function tree(name: string, ts = false): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'a.c'), WRAPPER);
  writeFileSync(join(dir, 'src', 'b.c'), CALLER);
  writeFileSync(join(dir, 'c.c'), cFunction('emit'));
  writeFileSync(join(dir, 'quiet.c'), 'int quiet(int x)\n{\n\treturn x;\n}\n');
  if (ts) {
    writeFileSync(join(dir, 'lib.ts'), TS_LIB);
    writeFileSync(join(dir, 'caller.ts'), TS_CALLER);
  }
  return dir;
}

const DEBUG = { ...process.env, WRITEV_LINT_DEBUG: 'cache' };

interface Run {
  status: number | null;
  out: string;
  err: string;
  /** From the debug line: files from the cache, analyses run. */
  fromCache: number;
  analysed: number;
}

/** Runs the bin in `dir` with the cache in `dir/cache.json` (or `location`) and the debug counts. */
function cached(dir: string, args: string[] = [], location = 'cache.json'): Run {
  const run = lintBin(['--cache', '--cache-location', location, ...args, '.'], { cwd: dir, env: DEBUG });
  const counts = /debug: \d+ files?: (\d+) from the cache, (\d+) analysed/.exec(run.stderr);
  assert.ok(counts, `no debug line in: ${run.stderr}`);
  return {
    status: run.status,
    out: run.stdout,
    err: run.stderr,
    fromCache: Number(counts[1]),
    analysed: Number(counts[2]),
  };
}

/** The same run without the cache: what the cached run must print. */
function fresh(dir: string, args: string[] = []): { status: number | null; out: string } {
  const run = lintBin([...args, '.'], { cwd: dir });
  return { status: run.status, out: run.stdout };
}

function assertSameAsFresh(run: Run, dir: string, args: string[] = []): void {
  const uncached = fresh(dir, args);
  assert.equal(run.out, uncached.out);
  assert.equal(run.status, uncached.status);
}

/**
 * {@link cached} and {@link fresh} run in this process (main(), the analyzer loaded once): for the
 * cases about the cache file itself, which need many runs and no second process.
 */
async function cachedHere(dir: string, args: string[] = [], location = 'cache.json'): Promise<Run> {
  const before = process.env.WRITEV_LINT_DEBUG;
  process.env.WRITEV_LINT_DEBUG = 'cache';
  try {
    const run = await lintRun(['--cache', '--cache-location', location, ...args, dir], dir);
    const counts = /debug: \d+ files?: (\d+) from the cache, (\d+) analysed/.exec(run.err);
    assert.ok(counts, `no debug line in: ${run.err}`);
    return { ...run, fromCache: Number(counts[1]), analysed: Number(counts[2]) };
  } finally {
    if (before === undefined) delete process.env.WRITEV_LINT_DEBUG;
    else process.env.WRITEV_LINT_DEBUG = before;
  }
}

async function freshHere(dir: string, args: string[] = []): Promise<{ status: number | null; out: string }> {
  const run = await lintRun([...args, dir], dir);
  return { status: run.status, out: run.out };
}

/** {@link assertSameAsFresh} in this process. */
async function assertSameAsFreshHere(run: Run, dir: string, args: string[] = []): Promise<void> {
  const uncached = await freshHere(dir, args);
  assert.equal(run.out, uncached.out);
  assert.equal(run.status, uncached.status);
}

describe('writev-lint --cache', () => {
  it('analyses no unchanged file on the second run and prints the same bytes', () => {
    const dir = tree('unchanged');
    for (const format of ['json', 'text']) {
      rmSync(join(dir, 'cache.json'), { force: true });
      const first = cached(dir, ['--format', format]);
      assert.equal(first.fromCache, 0);
      assert.ok(first.analysed >= 4, first.err);
      const second = cached(dir, ['--format', format]);
      assert.deepEqual([second.fromCache, second.analysed], [4, 0]);
      assert.equal(second.out, first.out);
      assert.equal(second.status, first.status);
      assertSameAsFresh(second, dir, ['--format', format]);
      // The caller of the other file's wrapper is reported, from the cache as at first.
      if (format === 'json') {
        const report = JSON.parse(second.out) as { findings: { path: string }[] };
        assert.deepEqual(report.findings.map((f) => f.path).sort(), ['c.c', 'src/b.c']);
      }
    }
  });

  it('analyses again only the file that changed', async () => {
    const dir = tree('edited');
    await cachedHere(dir);
    // Its finding moves down a line; the wrappers it defines (facts for other files) stay the same.
    writeFileSync(join(dir, 'c.c'), `/* moved */\n${cFunction('emit')}`);
    const run = await cachedHere(dir, ['--format', 'json']);
    assert.equal(run.fromCache, 3);
    assert.equal(run.analysed, 1);
    assert.match(run.out, /"path": "c\.c",\s+"line": 4/);
    await assertSameAsFreshHere(run, dir, ['--format', 'json']);
  });

  it("changes a caller's findings when the helper it calls changes in another file", async () => {
    const dir = tree('helper');
    assert.match((await cachedHere(dir)).out, /src\/b\.c:5:2/);
    // a.c's log_line no longer writes: b.c's two calls are no longer two writes.
    writeFileSync(join(dir, 'src', 'a.c'), NOT_A_WRAPPER);
    const without = await cachedHere(dir);
    assert.doesNotMatch(without.out, /src\/b\.c/);
    await assertSameAsFreshHere(without, dir);
    // And back: the caller's finding comes back, though b.c itself never changed.
    writeFileSync(join(dir, 'src', 'a.c'), WRAPPER);
    const again = await cachedHere(dir);
    assert.match(again.out, /src\/b\.c:5:2/);
    await assertSameAsFreshHere(again, dir);
  });

  it("keeps a helper built on another file's helper, a file away, and drops it when the first changes", async () => {
    const dir = chainTree(join(tmp, 'chain'));
    const first = await cachedHere(dir);
    assert.match(first.out, /main\.c:\d+:\d+: warning: 2 syscalls to fd/);
    await assertSameAsFreshHere(first, dir);
    const second = await cachedHere(dir);
    assert.equal(second.analysed, 0);
    assert.equal(second.out, first.out);
    // The loop no longer writes: tell_int() is no helper, and main.c (unchanged) loses its finding.
    writeFileSync(join(dir, 'loop.c'), 'int x;\n');
    const without = await cachedHere(dir);
    assert.doesNotMatch(without.out, /main\.c/);
    await assertSameAsFreshHere(without, dir);
    writeFileSync(join(dir, 'loop.c'), CHAIN_LOOP);
    const again = await cachedHere(dir);
    assert.equal(again.out, first.out);
  });

  it("changes a TS caller's findings when the wrapper it imports changes", async () => {
    const dir = tree('helper-ts', true);
    assert.match((await cachedHere(dir)).out, /^caller\.ts:4:3/m);
    const unchanged = await cachedHere(dir);
    assert.deepEqual([unchanged.fromCache, unchanged.analysed], [6, 0]);
    assert.match(unchanged.out, /^caller\.ts:4:3/m);
    // lib.ts's logLine stops writing: caller.ts's pair is no longer two writes.
    writeFileSync(join(dir, 'lib.ts'), TS_LIB.replace('writeInFull(logFd, buf);', 'void buf;'));
    const ts = await cachedHere(dir);
    assert.doesNotMatch(ts.out, /caller\.ts/);
    await assertSameAsFreshHere(ts, dir);
  });

  it('analyses every file again when their settings change', async () => {
    const dir = tree('settings');
    await cachedHere(dir);
    writeFileSync(join(dir, '.writev-lint.json'), '{ "severity": { "adjacentWrites": "error" } }\n');
    const run = await cachedHere(dir);
    assert.equal(run.fromCache, 0);
    assert.match(run.out, /c\.c:3:2: error/);
    await assertSameAsFreshHere(run, dir);
    // An option that changes what is read (the size limit) is a setting too.
    const limited = await cachedHere(dir, ['--max-file-size', '100']);
    assert.equal(limited.fromCache, 0);
    await assertSameAsFreshHere(limited, dir, ['--max-file-size', '100']);
  });

  it("ignores a corrupt, foreign or other build's cache file with one warning, and replaces it", async () => {
    const dir = tree('bad');
    const uncached = await freshHere(dir);
    for (const [content, why] of [
      ['{"writevLintCache": 1, "tool": "x", "entries": {', /it is corrupt/],
      ['{"version": "7.0", "results": []}\n', /is not a writev-lint cache/],
      ['{"writevLintCache": 1, "tool": "0.0.1 node v1 build 0", "entries": {}}', /another build/],
      ['{"writevLintCache": 0, "entries": {}}', /layout 0/],
      [
        '{"writevLintCache": 1, "tool": "TOOL", "entries": {"/x.c": {"content": 1}}}',
        /entry for \/x\.c is malformed/,
      ],
    ] as const) {
      // The last one: a cache of this very build, with one entry of the wrong shape.
      const previous = join(dir, 'cache.json');
      const tool = existsSync(previous)
        ? (JSON.parse(readFileSync(previous, 'utf8')) as { tool?: string }).tool
        : undefined;
      writeFileSync(join(dir, 'cache.json'), content.replace('TOOL', tool ?? ''));
      const run = await cachedHere(dir);
      const warnings = run.err.split('\n').filter((l) => /ignoring the cache/.test(l));
      assert.equal(warnings.length, 1, run.err);
      assert.match(warnings[0] ?? '', why);
      assert.match(warnings[0] ?? '', /cache\.json/);
      assert.deepEqual([run.out, run.status], [uncached.out, uncached.status]);
    }
    // Each time, the run wrote a good cache in its place (which the next case reads the tool from).
    const next = await cachedHere(dir);
    assert.doesNotMatch(next.err, /ignoring/);
    assert.equal(next.fromCache, 4);
  });

  it('still fixes with --fix, and then reports what a run without the cache reports', () => {
    const dir = tree('fix');
    const before = cached(dir);
    assert.match(before.out, /c\.c:3:2/);
    const fixed = cached(dir, ['--fix']);
    assert.match(fixed.err, /fixed/);
    assert.match(readFileSync(join(dir, 'c.c'), 'utf8'), /writev_or_die/);
    const after = cached(dir);
    assert.doesNotMatch(after.out, /^c\.c/m);
    assertSameAsFresh(after, dir);
    // A first run with --fix keeps the files it did not change; the fixed one is analysed next time.
    // So is b.c, in the second pass: c.c's emit() was a framing wrapper (a header, then the payload)
    // before its fix, so the facts b.c reads from other files changed.
    const first = tree('fix-first');
    assert.match(cached(first, ['--fix']).err, /1 file fixed/);
    const next = cached(first);
    assert.deepEqual([next.fromCache, next.analysed], [3, 2]);
    assertSameAsFresh(next, first);
  });

  it('keeps the cache in a folder given as --cache-location, under its default name', async () => {
    const dir = tree('location');
    mkdirSync(join(dir, 'caches'));
    await cachedHere(dir, [], 'caches');
    assert.ok(existsSync(join(dir, 'caches', '.writev-lint-cache')));
    assert.equal((await cachedHere(dir, [], 'caches/')).fromCache, 4);
    // A folder that does not exist yet is made.
    await cachedHere(dir, [], 'new/deeper/');
    assert.ok(existsSync(join(dir, 'new', 'deeper', '.writev-lint-cache')));
    // Without --cache-location: .writev-lint-cache in the working folder.
    const plain = await lintRun(['--cache', dir], dir);
    assert.equal(plain.status, 1, plain.err);
    assert.ok(existsSync(join(dir, '.writev-lint-cache')));
  });

  it('reports as usual, with one warning, when the cache cannot be written', async () => {
    const dir = tree('unwritable');
    const run = await cachedHere(dir, [], 'c.c/cache');
    assert.equal(run.err.match(/writev-lint: cannot write the cache .*c\.c\/cache: /g)?.length, 1, run.err);
    assert.doesNotMatch(run.err, /ignoring/);
    const uncached = await freshHere(dir);
    assert.deepEqual([run.out, run.status], [uncached.out, uncached.status]);
  });

  it('refuses --cache-location without --cache, and --cache with --stdin', () => {
    const location = lintBin(['--cache-location', 'x', '.'], { cwd: tmp });
    assert.equal(location.status, 2);
    assert.match(location.stderr, /--cache-location says where --cache keeps its results: add --cache/);
    const stdin = lintBin(['--cache', '--stdin', '--stdin-filename', 'x.c'], { cwd: tmp, input: '' });
    assert.equal(stdin.status, 2);
    assert.match(stdin.stderr, /--cache is for files: --stdin has none/);
  });
});

describe('WrapperIndex.factsDigest', () => {
  const cWrapper = (name: string, family = 'writev_in_full'): CWrapper => ({
    name,
    exported: true,
    fd: { param: 0 },
    buf: 1,
    family,
    arity: 2,
  });
  const tsWrapper = (name: string): TsWrapper => ({
    name,
    exported: true,
    fd: { param: 0 },
    buf: 1,
    family: 'writev',
    arity: 2,
    async: false,
  });

  it("changes for a C file when another file's wrapper changes, not when its own or a TS one does", () => {
    const index = new WrapperIndex();
    index.set('/t/a.c', { c: [cWrapper('put')], ts: [] });
    index.set('/t/b.c', { c: [cWrapper('own')], ts: [] });
    index.set('/t/x.ts', { c: [], ts: [tsWrapper('emit')] });
    const digest = index.factsDigest('/t/b.c');
    index.set('/t/b.c', { c: [cWrapper('own', 'other')], ts: [] });
    index.set('/t/x.ts', { c: [], ts: [tsWrapper('emit2')] });
    assert.equal(index.factsDigest('/t/b.c'), digest);
    index.set('/t/a.c', { c: [cWrapper('put', 'other')], ts: [] });
    assert.notEqual(index.factsDigest('/t/b.c'), digest);
  });

  it('does not depend on the order the files were recorded in, for C', () => {
    const one = new WrapperIndex();
    one.set('/t/a.c', { c: [cWrapper('put')], ts: [] });
    one.set('/t/b.c', { c: [cWrapper('say')], ts: [] });
    const two = new WrapperIndex();
    two.set('/t/b.c', { c: [cWrapper('say')], ts: [] });
    two.set('/t/a.c', { c: [cWrapper('put')], ts: [] });
    assert.equal(one.factsDigest('/t/c.c'), two.factsDigest('/t/c.c'));
  });

  it('gives each file its own facts, whatever file was asked first', () => {
    const fill = (index: WrapperIndex) => {
      index.set('/t/a.c', { c: [cWrapper('put')], ts: [] });
      index.set('/t/b.c', { c: [cWrapper('say')], ts: [] });
      return index;
    };
    const one = fill(new WrapperIndex());
    const order = ['/t/c.c', '/t/a.c', '/t/b.c', '/t/d.c'].map((p) => one.factsDigest(p));
    const two = fill(new WrapperIndex());
    const reverse = ['/t/d.c', '/t/b.c', '/t/a.c', '/t/c.c'].map((p) => two.factsDigest(p)).reverse();
    assert.deepEqual(order, reverse);
    // c.c and d.c see both wrappers; a.c sees only say(), b.c only put().
    assert.equal(order[0], order[3]);
    assert.equal(new Set(order).size, 3);
  });

  it('changes for a TS file when any exported TS wrapper changes', () => {
    const index = new WrapperIndex();
    index.set('/t/lib.ts', { c: [], ts: [tsWrapper('emit')] });
    const digest = index.factsDigest('/t/main.ts');
    index.set('/t/a.c', { c: [cWrapper('put')], ts: [] });
    assert.equal(index.factsDigest('/t/main.ts'), digest);
    index.set('/t/lib.ts', { c: [], ts: [{ ...tsWrapper('emit'), async: true }] });
    assert.notEqual(index.factsDigest('/t/main.ts'), digest);
  });
});
