// The analyzer's folders are layers: the front ends (c/, ts/) build steps and hand runs to the fix
// builders (fixes/), which read the shape finders' runs (shapes/); each of those reads the core model.
// A folder that imports one that imports it back means neither can change (or be read) alone, so the
// imports of every source file are read here, type-only ones included, and checked to point one way.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import { REPO } from './helpers';

const SRC = join(REPO, 'server', 'src');
const ANALYZER = join(SRC, 'analyzer');
/** The folders that must form no cycle among themselves (the core sits under all of them). */
const LAYERS = ['c', 'ts', 'fixes', 'shapes'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module a file names: imports, `import type`, re-exports, `import()` types and requires. */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The analyzer folder a file is in (`c`, `shapes`...), or `core` for the analyzer's own top level. */
function folderOf(file: string): string {
  const parts = relative(ANALYZER, file).split(sep);
  return parts.length > 1 ? parts[0]! : 'core';
}

interface Edge {
  readonly from: string;
  readonly to: string;
  /** The file that imports, and what it names. */
  readonly site: string;
}

function analyzerImports(): { edges: Edge[]; outside: Edge[] } {
  const edges: Edge[] = [];
  const outside: Edge[] = [];
  for (const file of sources(ANALYZER)) {
    for (const spec of specifiers(file)) {
      const site = `${relative(SRC, file)} imports '${spec}'`;
      // The protocol library; its text-document module (offsets to positions, no protocol) is allowed.
      if (/^vscode-languageserver($|\/)/.test(spec))
        outside.push({ from: folderOf(file), to: 'vscode-languageserver', site });
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const rel = relative(ANALYZER, target);
      if (rel.startsWith('..')) {
        const top = relative(SRC, target).split(sep)[0]!;
        outside.push({ from: folderOf(file), to: top, site });
        continue;
      }
      const to = rel.split(sep).length > 1 ? rel.split(sep)[0]! : 'core';
      if (to !== folderOf(file)) edges.push({ from: folderOf(file), to, site });
    }
  }
  return { edges, outside };
}

/** The cycles among `nodes` along `edges`, each as a list of folders from its smallest member. */
function cycles(nodes: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map(nodes.map((n) => [n, new Set<string>()]));
  for (const e of edges) if (next.has(e.from) && next.has(e.to)) next.get(e.from)!.add(e.to);
  const found = new Map<string, string[]>();
  const walk = (path: string[]) => {
    for (const n of next.get(path[path.length - 1]!)!) {
      const at = path.indexOf(n);
      if (at >= 0) {
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0]!);
        const canonical = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(canonical.join(' -> '), canonical);
      } else walk([...path, n]);
    }
  };
  for (const n of nodes) walk([n]);
  return [...found.values()];
}

describe("the analyzer's folders", () => {
  const { edges, outside } = analyzerImports();

  it('are read: each layer has sources and the front ends import shapes/ and fixes/', () => {
    // A reader that found nothing would pass every check below.
    const seen = new Set(sources(ANALYZER).map(folderOf));
    for (const folder of [...LAYERS, 'core']) assert.ok(seen.has(folder), `no sources in ${folder}/`);
    for (const [from, to] of [
      ['c', 'shapes'],
      ['ts', 'shapes'],
      ['c', 'fixes'],
      ['ts', 'fixes'],
      ['fixes', 'shapes'],
    ] as const)
      assert.ok(
        edges.some((e) => e.from === from && e.to === to),
        `${from}/ imports nothing from ${to}/`,
      );
  });

  it('import one another one way only: no cycle between c/, ts/, fixes/ and shapes/', () => {
    const found = cycles(LAYERS, edges);
    const explain = found.map((loop) =>
      [...loop, loop[0]!]
        .slice(0, -1)
        .map((from, k) => {
          const to = [...loop, loop[0]!][k + 1]!;
          const sites = edges.filter((e) => e.from === from && e.to === to).map((e) => `    ${e.site}`);
          return `  ${from}/ -> ${to}/:\n${sites.join('\n')}`;
        })
        .join('\n'),
    );
    assert.deepEqual(found, [], `folder cycles:\n${explain.join('\n')}`);
  });

  it('never import the language server or the CLI (the core is shared by both)', () => {
    const bad = outside.filter((e) => /^(lsp|cli|server|index|vscode-languageserver)$/.test(e.to));
    assert.deepEqual(
      bad.map((e) => e.site),
      [],
    );
    // What the analyzer may take from outside itself: the settings schema, and nothing else of the server.
    assert.deepEqual(
      [...new Set(outside.map((e) => e.to))].sort(),
      ['config'],
      outside.map((e) => e.site).join('\n'),
    );
  });
});
