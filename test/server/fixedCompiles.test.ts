// The quick fixes produce code that compiles: every C fixture, fixed with fix-all, passes
// `gcc -fsyntax-only` against a header declaring Git's write stack; every TS fixture passes the
// TypeScript compiler's checks with @writev/runtime's declarations. And the hints go away.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzeFixture, analyzer, fixture, fixtures, FIXTURES, indexOf, REPO } from './helpers';

const work = mkdtempSync(join(tmpdir(), 'writev-fixed-'));
after(() => rmSync(work, { recursive: true, force: true }));

function gcc(file: string, include = join(FIXTURES, 'c')): string {
  const result = spawnSync(
    'gcc',
    ['-fsyntax-only', '-std=gnu11', '-Wall', '-Wno-unused-function', '-Werror', '-I', include, file],
    {
      encoding: 'utf8',
    },
  );
  return result.status === 0 ? '' : `${result.stderr}${result.error?.message ?? ''}`;
}

function typeErrors(files: readonly string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noUnusedLocals: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    allowJs: true,
    checkJs: false,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(REPO, 'node_modules', '@types')],
    baseUrl: REPO,
    paths: { '@writev/runtime': [join(REPO, 'runtime', 'dist', 'index.d.ts')] },
  });
  // A wrapper whose every call was gathered is left for its author to delete (it is their code).
  const leftWrappers = /^'(emit|put)' is declared but its value is never read/;
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !leftWrappers.test(ts.flattenDiagnosticMessageText(d.messageText, '\n')))
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('fixed C code compiles', () => {
  copyFileSync(join(FIXTURES, 'c', 'git-style.h'), join(work, 'git-style.h'));
  // macros.c is broken on purpose (the analyzer must read around the error).
  for (const name of fixtures('c', '.c').filter((n) => n !== 'c/macros.c')) {
    it(`${name} compiles before and after fix-all, and its fixable hints are gone`, async () => {
      assert.equal(gcc(join(FIXTURES, name)), '', 'the fixture itself compiles');
      const found = await analyzeFixture(name);
      const fixed =
        (await analyzer()).fixAll(join(FIXTURES, name), fixture(name), found, true) ?? fixture(name);
      const out = join(work, name.replace('/', '-'));
      writeFileSync(out, fixed);
      assert.equal(gcc(out), '');
      const a = await analyzer();
      const left = a.analyze(join(FIXTURES, name), fixed, DEFAULT_SETTINGS, { index: await indexOf('c') });
      // A hint without a fix may go too: fixing a framing wrapper's body makes its calls single writes.
      // And one may come: a gathered call now next to a write before an `if` straddles it, which only
      // a hand can split. What must not remain is a hint the fix-all could have fixed.
      const unfixable = found.filter((f) => !f.fix).map((f) => f.message);
      assert.deepEqual(
        left.filter((f) => f.fix && !unfixable.includes(f.message)).map((f) => f.message),
        [],
        'only hints without a fix remain',
      );
    });
  }
});

describe('fixed TS code type-checks', () => {
  it('every TS fixture, fixed with fix-all, passes tsc --noEmit', async () => {
    const files: string[] = [];
    for (const name of fixtures('ts', '.ts', '.js')) {
      const found = await analyzeFixture(name);
      const out = join(work, name.replace('ts/', ''));
      writeFileSync(
        out,
        (await analyzer()).fixAll(join(FIXTURES, name), fixture(name), found, true) ?? fixture(name),
      );
      files.push(out);
    }
    assert.deepEqual(typeErrors(files), []);
  });
});

describe('the bundled examples', () => {
  it('compile, and still compile once every hint in them is fixed', async () => {
    const a = await analyzer();
    const dir = join(REPO, 'examples');
    const tsFiles: string[] = [];
    for (const name of ['c/pkt-line.c', 'c/cat-blob.c', 'ts/http-response.ts', 'ts/log-writer.ts']) {
      const path = join(dir, name);
      const text = readFileSync(path, 'utf8');
      const found = a.analyze(path, text, DEFAULT_SETTINGS);
      assert.ok(found.length > 0, `${name} has hints to show`);
      const out = join(work, `example-${name.replace('/', '-')}`);
      writeFileSync(out, a.fixAll(path, text, found, true) ?? text);
      if (name.endsWith('.c')) {
        assert.equal(gcc(path, join(dir, 'c')), '', `${name} compiles`);
        assert.equal(gcc(out, join(dir, 'c')), '', `${name} fixed compiles`);
      } else tsFiles.push(path, out);
    }
    assert.deepEqual(typeErrors(tsFiles), []);
  });
});
