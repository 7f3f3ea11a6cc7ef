import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from './helpers';
import { lintRun } from './cliHelpers';

const LOADER = join(REPO, 'server', 'bin', 'codeCache.js');
const BUNDLE = join(REPO, 'server', 'dist', 'cli', 'main.js');

/** Runs `code` in a new Node with the loader's mode set; its output and status. */
function node(code: string, mode?: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.WRITEV_LINT_CODE_CACHE;
  if (mode) env.WRITEV_LINT_CODE_CACHE = mode;
  return spawnSync(process.execPath, ['-e', code], { env, encoding: 'utf8' });
}

describe("writev-lint's code cache", () => {
  it('is taken on both threads of a bundled run, which finds what the module tree finds', async (t) => {
    if (!existsSync(`${BUNDLE}.cache`)) return t.skip('no bundle built (npm run build makes it)');
    const fixtures = join(REPO, 'test', 'server', 'fixtures', 'c');
    const args = ['--no-config-lookup', '--exit-zero', '--format', 'json', '--jobs', '2', fixtures];
    const run = node(
      `require(${JSON.stringify(LOADER)}).requireBundle(${JSON.stringify(BUNDLE)})` +
        `.main(${JSON.stringify(args)}).then((s) => { process.exitCode = s; });`,
      'report',
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /code cache of .*main\.js: taken/);
    assert.match(run.stderr, /code cache of .*worker\.js: taken/);
    const tree = await lintRun(args);
    assert.equal(run.stdout, tree.out);
  });

  it('is made by a run in write mode and not taken for a rebuilt bundle, even of the same length', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-code-cache-'));
    const bundle = join(dir, 'bundle.js');
    // As esbuild.mjs makes them: the first line names the build.
    writeFileSync(bundle, '// build 1\nexports.answer = function () { return "first"; };\n');
    const load = `process.stdout.write(require(${JSON.stringify(LOADER)}).requireBundle(${JSON.stringify(bundle)}).answer())`;

    const made = node(load, 'write');
    assert.equal(made.stdout, 'first', made.stderr);
    assert.ok(existsSync(`${bundle}.cache`), 'the cache is written beside the bundle');
    const again = node(load, 'report');
    assert.equal(again.stdout, 'first');
    assert.match(again.stderr, /bundle\.js: taken/);

    // V8 itself would take the cache for any source of the same length, and run the old bytecode.
    writeFileSync(bundle, '// build 2\nexports.answer = function () { return "secnd"; };\n');
    const rebuilt = node(load, 'report');
    assert.equal(rebuilt.stdout, 'secnd', rebuilt.stderr);
    assert.match(rebuilt.stderr, /bundle\.js: not taken/);
  });

  it("names the build in the bundles' first line, which the caches record", (t) => {
    if (!existsSync(BUNDLE)) return t.skip('no bundle built (npm run build makes it)');
    const heads = ['main.js', 'worker.js'].map(
      (name) => readFileSync(join(REPO, 'server', 'dist', 'cli', name), 'utf8').split('\n')[0],
    );
    assert.match(heads[0]!, /^\/\/ writev-lint build [0-9a-f-]{36}$/);
    assert.equal(heads[1], heads[0], 'one build names both bundles');
  });

  it('is not taken when its bytes are damaged, and the bundle still loads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-code-cache-'));
    const bundle = join(dir, 'bundle.js');
    writeFileSync(bundle, 'exports.answer = function () { return 42; };\n');
    const load = `process.stdout.write(String(require(${JSON.stringify(LOADER)}).requireBundle(${JSON.stringify(bundle)}).answer()))`;
    assert.equal(node(load, 'write').status, 0);
    const cache = readFileSync(`${bundle}.cache`);
    const stamp = cache.subarray(0, cache.indexOf(10) + 1);
    writeFileSync(`${bundle}.cache`, Buffer.concat([stamp, Buffer.from('not bytecode at all')]));
    const run = node(load, 'report');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '42');
    assert.match(run.stderr, /bundle\.js: not taken/);
  });
});
