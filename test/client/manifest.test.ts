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
    const [, minor] = /\^1\.(\d+)\./.exec(manifest.engines.vscode) ?? [];
    assert.ok(Number(minor) <= 100, manifest.engines.vscode);
    assert.match(manifest.devDependencies['@types/vscode'] ?? '', /1\.(\d+)/);
  });

  it('packages from an allowlist', () => {
    const lines = readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    for (const file of [
      '!dist/client.js',
      '!dist/server.js',
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
