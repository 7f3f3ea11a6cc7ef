// The npm packages as a user gets them: `npm pack` of writev-lint and @writev/runtime, installed into an
// empty project (their dependencies from the registry or npm's cache), then every bin run from there:
// the CLI on a C file, the language server over LSP on stdio, cat-blob on a real repository, a real
// `git clone` through upload-pack, the benchmark's help. And in this repository: every bin is a
// committed file, so npm ci links it before the build.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { gitEnv } from '../runtime/helpers/gitEnv';

const REPO = join(__dirname, '..', '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'writev-packages-'));
const project = join(tmp, 'consumer');
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The environment without what `npm test` sets for its own run (workspace, prefix...), node on PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = gitEnv();
  for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name];
  env.PATH = `${dirname(process.execPath)}:${env.PATH ?? ''}`;
  return env;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  input?: string,
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    input,
    timeout: 300_000,
  });
  if (result.error) throw result.error;
  return result;
}

const bin = (name: string) => join(project, 'node_modules', '.bin', name);

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}
let packed: Packed[] = [];

const C_SOURCE = [
  '#include "git-compat-util.h"',
  'void hello(int fd, const char *name, size_t len)',
  '{',
  '\twrite_or_die(fd, "name: ", 6);',
  '\twrite_or_die(fd, name, len);',
  '}',
  '',
].join('\n');

before(() => {
  // --ignore-scripts: the prepack step would rebuild dist/ under the other tests; npm test built it.
  const pack = run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp, '-w', 'runtime', '-w', 'server'],
    REPO,
  );
  assert.equal(pack.status, 0, pack.stderr);
  packed = JSON.parse(pack.stdout) as Packed[];
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  const install = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed.map((p) => join(tmp, p.filename))],
    project,
  );
  assert.equal(install.status, 0, `npm install failed:\n${install.stderr}`);
});

describe('the npm packages', () => {
  it('pack the built code, the bins and the licence, and no sources or benchmarks of the linter', () => {
    const files = (name: string) => (packed.find((p) => p.name === name) as Packed).files.map((f) => f.path);
    const lint = files('writev-lint');
    for (const f of [
      'bin/writev-lint.js',
      'bin/writev-language-server.js',
      'out/cli/main.js',
      'out/server.js',
      'out/index.d.ts',
      'LICENSE',
    ])
      assert.ok(lint.includes(f), `writev-lint lacks ${f}`);
    assert.ok(!lint.some((f) => f.startsWith('src/') || f.startsWith('out/bench/')));
    const runtime = files('@writev/runtime');
    for (const f of [
      'bin/writev-cat-blob.js',
      'bin/writev-upload-pack.js',
      'bin/writev-git-http.js',
      'bin/writev-bench.js',
      'dist/writev-cat-blob.js',
      'dist/writev-upload-pack.js',
      'dist/writev-git-http.js',
      'dist/bench/cli.js',
      'dist/index.js',
    ])
      assert.ok(runtime.includes(f), `@writev/runtime lacks ${f}`);
  });

  it('writev-lint runs from the installed package: version, findings, SARIF', () => {
    const version = run(bin('writev-lint'), ['--version'], project);
    assert.deepEqual([version.status, version.stdout], [0, '0.1.0\n']);
    writeFileSync(join(project, 'hello.c'), C_SOURCE);
    const text = run(bin('writev-lint'), ['--format', 'concise', 'hello.c'], project);
    assert.equal(text.status, 1, text.stderr);
    assert.match(
      text.stdout,
      /^hello\.c:4:2: warning: 2 syscalls to fd can become one: .* \[adjacent-writes\]\n$/,
    );
    // The default text shows the line and a caret under the first write, as ruff's full format does.
    const full = run(bin('writev-lint'), ['hello.c'], project);
    assert.match(full.stdout, /^hello\.c:4:2: warning: .*\[adjacent-writes\]\n {2}\|\n4 \| .*write_or_die/);
    const sarif = run(bin('writev-lint'), ['--format', 'sarif', 'hello.c'], project);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] };
    assert.equal(log.runs[0]?.results[0]?.ruleId, 'adjacent-writes');
    const stdin = run(
      bin('writev-lint'),
      ['--stdin', '--stdin-filename', 'x.c', '--format', 'json'],
      project,
      C_SOURCE,
    );
    const report = JSON.parse(stdin.stdout) as { findings: { path: string }[] };
    assert.equal(report.findings[0]?.path, 'x.c');
  });

  it('writev-language-server speaks LSP on --stdio: initialize, didOpen, publishDiagnostics', async () => {
    const child = spawn(bin('writev-language-server'), ['--stdio'], { cwd: project, env: cleanEnv() });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const uri = pathToFileURL(join(project, 'hello.c')).href;
    const published = new Promise<PublishDiagnosticsParams>((resolve) =>
      connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        if (p.uri === uri && p.diagnostics.length > 0) resolve(p);
      }),
    );
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) =>
      params.items.map(() => ({})),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    try {
      const init = await connection.sendRequest<{
        serverInfo?: { name: string };
        capabilities: { codeActionProvider?: unknown };
      }>('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(project).href,
        capabilities: {},
        workspaceFolders: [{ uri: pathToFileURL(project).href, name: 'consumer' }],
      });
      assert.ok(init.capabilities.codeActionProvider, 'the server offers code actions');
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version: 1, text: C_SOURCE },
      });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no diagnostics within 20 s; stderr: ${stderr}`)), 20_000).unref(),
      );
      const diagnostics = await Promise.race([published, timeout]);
      assert.deepEqual(
        diagnostics.diagnostics.map((d) => [d.code, d.range.start.line]),
        [['adjacent-writes', 3]],
      );
      await connection.sendRequest('shutdown');
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await connection.sendNotification('exit');
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      child.kill();
    }
  });

  it('writev-language-server without a transport prints its usage and exits 2', () => {
    const result = run(bin('writev-language-server'), [], project);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no transport given\nusage: writev-language-server --stdio/);
  });

  it('the runtime bins work from the installed package: cat-blob, a git clone through upload-pack, bench', () => {
    const source = join(tmp, 'source');
    mkdirSync(source);
    assert.equal(run('git', ['init', '-q', '-b', 'main'], source).status, 0);
    writeFileSync(join(source, 'greeting.txt'), 'hello, writev\n');
    assert.equal(run('git', ['add', '.'], source).status, 0);
    assert.equal(run('git', ['commit', '-q', '-m', 'greeting'], source).status, 0);
    const oid = run('git', ['rev-parse', 'HEAD:greeting.txt'], source).stdout.trim();

    const blob = run(
      bin('writev-cat-blob'),
      [`--git-dir=${join(source, '.git')}`],
      project,
      `cat-blob ${oid}\n`,
    );
    assert.equal(blob.status, 0, blob.stderr);
    assert.equal(blob.stdout, `${oid} blob 14\nhello, writev\n\n`);

    const dest = join(tmp, 'clone');
    const clone = run(
      'git',
      ['clone', '-q', `--upload-pack=${bin('writev-upload-pack')}`, `file://${source}`, dest],
      tmp,
    );
    assert.equal(clone.status, 0, clone.stderr);
    assert.equal(readFileSync(join(dest, 'greeting.txt'), 'utf8'), 'hello, writev\n');

    const bench = run(bin('writev-bench'), ['--help'], project);
    assert.equal(bench.status, 0, bench.stderr);
    assert.match(bench.stdout, /writev-bench/);
  });
});

describe('the bins in this repository', () => {
  it('are committed files, so npm ci links them before it builds, and they run', () => {
    const committed = new Set(run('git', ['ls-files', 'runtime/bin', 'server/bin'], REPO).stdout.split('\n'));
    for (const workspace of ['runtime', 'server']) {
      const manifest = JSON.parse(readFileSync(join(REPO, workspace, 'package.json'), 'utf8')) as {
        bin: Record<string, string>;
      };
      for (const [name, target] of Object.entries(manifest.bin)) {
        assert.ok(
          committed.has(`${workspace}/${target}`),
          `${name} -> ${workspace}/${target} is not committed`,
        );
        const linked = join(REPO, 'node_modules', '.bin', name);
        const help = run(linked, ['--help'], REPO);
        assert.match(`${help.stdout}${help.stderr}`, new RegExp(`usage: ${name} `), `${name} --help`);
      }
    }
  });
});
