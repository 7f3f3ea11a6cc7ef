import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LANGUAGE_IDS } from '@writev/client/out/languages';
import { ROOT } from './helpers';

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string | boolean } };
  contributes: {
    commands: { command: string; title: string; category: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
  };
  devDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
/** The minor version of the oldest VS Code `engines.vscode` accepts (`^1.91.0` gives 91). */
function engineMinor(): number {
  const [, minor] = /^\^1\.(\d+)\.\d+$/.exec(manifest.engines.vscode) ?? [];
  assert.ok(minor, `engines.vscode is a caret range on 1.x: ${manifest.engines.vscode}`);
  return Number(minor);
}
const source = (file: string): string => readFileSync(join(ROOT, 'client', 'src', file), 'utf8');

describe('the extension manifest', () => {
  it('contributes its eight commands, each in category writev and registered by the client', () => {
    const ids = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(ids, [
      'writev.clearTrace',
      'writev.fixAllInFile',
      'writev.lintWorkspace',
      'writev.loadTrace',
      'writev.restartServer',
      'writev.runBenchmarks',
      'writev.showOutput',
      'writev.traceProgram',
    ]);
    for (const c of manifest.contributes.commands) assert.equal(c.category, 'writev', c.command);
    const registered = [...source('commands.ts').matchAll(/register\('([\w.]+)'/g)].map((m) => m[1]).sort();
    assert.deepEqual(registered, ids);
  });

  it('activates only for its languages and its benchmark panel (commands activate implicitly)', () => {
    assert.deepEqual(manifest.activationEvents, [
      ...LANGUAGE_IDS.map((l) => `onLanguage:${l}`),
      'onWebviewPanel:writev.benchmarks',
    ]);
    assert.equal(manifest.main, './dist/client.js');
  });

  it('works in restricted mode for hints', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  });

  it("declares the server's settings under writev.* with the documented defaults", () => {
    const props = manifest.contributes.configuration.properties;
    assert.equal(props['writev.minSequenceLength']?.default, 2);
    assert.equal(props['writev.severity.adjacentWrites']?.default, 'warning');
    assert.equal(props['writev.severity.loopWrites']?.default, 'information');
    assert.equal(props['writev.trace.server']?.default, 'off');
    assert.equal(props['writev.benchmarks.size']?.default, 'quick');
    for (const key of ['writev.writeFunctions', 'writev.wrappers', 'writev.exclude', 'writev.languages.c']) {
      assert.ok(key in props, key);
    }
    for (const key of Object.keys(props)) assert.match(key, /^writev\./);
  });

  it('targets a VS Code no newer than the code-server the end-to-end tests run (1.100)', () => {
    assert.ok(engineMinor() <= 100, manifest.engines.vscode);
  });

  it('compiles against no newer API than engines.vscode promises (installed @types/vscode)', () => {
    // vsce refuses a package whose @types/vscode is newer than its engine; the API used must exist in
    // the oldest VS Code the manifest accepts.
    const installed = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8'),
    ) as { version: string };
    const [, major, minor] = /^(\d+)\.(\d+)\./.exec(installed.version) ?? [];
    assert.equal(Number(major), 1, installed.version);
    assert.ok(
      Number(minor) <= engineMinor(),
      `@types/vscode ${installed.version} > ${manifest.engines.vscode}`,
    );
    const [, declared] = /(\d+\.\d+)/.exec(manifest.devDependencies['@types/vscode'] ?? '') ?? [];
    assert.equal(declared, `1.${minor}`, 'the declared @types/vscode range is the installed one');
  });

  it('packages from an allowlist', () => {
    const lines = readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    for (const file of [
      '!dist/client.js',
      '!dist/lsp.js',
      '!dist/server.js',
      '!dist/*.wasm',
      '!dist/writev-upload-pack.js',
      '!dist/writev-cat-blob.js',
      '!dist/bench/**/*.js',
      '!dist/chart.umd.js',
      '!dist/trace.js',
      '!dist/writev-trace.js',
      '!dist/writev-trace-preload.js',
      '!media/benchmarks.js',
    ]) {
      assert.ok(lines.includes(file), file);
    }
  });
});

describe('the webview script', () => {
  it('type-checks (media/*.js are // @ts-check)', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'media', 'tsconfig.json')], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(readFileSync(join(ROOT, 'media', 'benchmarks.js'), 'utf8'), /^\/\/ @ts-check/);
  });
});
