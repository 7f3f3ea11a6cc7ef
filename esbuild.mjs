// Bundles the extension's client and server, and the runtime's command-line tools, into dist/; the
// linter's command into server/dist/.
// tsc -b type-checks and emits the libraries; esbuild makes the artefacts that start fast.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The options every bundle shares.
 * @param {boolean} production
 * @returns {import('esbuild').BuildOptions}
 */
function commonOptions(production) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  };
}

/**
 * The extension's entry bundle: what VS Code loads to activate it. Kept small (a test bounds it at
 * 40 KB in production): it takes the benchmark formats from `@writev/runtime/bench`, never the
 * runtime's index, and the language client comes later from dist/lsp.js.
 * @param {boolean} production
 * @param {string} [outfile]
 * @returns {import('esbuild').BuildOptions}
 */
export function clientBuildOptions(production, outfile = 'dist/client.js') {
  const root = fileURLToPath(new URL('.', import.meta.url));
  return {
    ...commonOptions(production),
    absWorkingDir: root,
    entryPoints: [resolve(root, 'client/src/extension.ts')],
    outfile,
    external: ['vscode'],
    // The bundle's first and last statements, so the activation log can include its load time.
    banner: { js: 'var __writevLoadStart = performance.now();' },
    footer: { js: 'var __writevLoadEnd = performance.now();' },
  };
}

/**
 * Bundles the settings validators that scripts/settings-validators.js generated into server/out
 * (ajv standalone code; server/src/config/validate.ts requires them, they have no source file).
 * @type {import('esbuild').Plugin}
 */
const settingsValidators = {
  name: 'settings-validators',
  setup(build) {
    build.onResolve({ filter: /^\.\/settingsValidators$/ }, () => {
      const path = resolve('server/out/config/settingsValidators.js');
      if (existsSync(path)) return { path };
      return {
        errors: [{ text: `${path} is missing: run node scripts/settings-validators.js after tsc -b` }],
      };
    });
  },
};

/**
 * Edits of web-tree-sitter's runtime in the bundles, where a whole tree's profile shows its cost (the
 * analyzer's rules make node objects by the million):
 * - it keeps a node's second wasm handle as the node object's element 0 (`this[0] = other`), and V8
 *   gives an object its first element through a call into its runtime, for every node object made (the
 *   largest item of the runtime's JavaScript in the profile of a large tree): a named property instead,
 *   in the Node class alone (Tree, Language and the others keep theirs);
 * - every node passed to or from wasm is copied as 32-bit values through `setValue`/`getValue`, which
 *   test the type's name for a pointer's `*` and then switch on it (the next largest): the 32-bit case
 *   first, as the switch does it.
 * The edits are exact: a runtime whose text differs fails the build, to be looked at again.
 * @type {import('esbuild').Plugin}
 */
export const treeSitterEdits = {
  name: 'tree-sitter-edits',
  setup(build) {
    build.onLoad({ filter: /web-tree-sitter\.cjs$/ }, ({ path }) => {
      let contents = readFileSync(path, 'utf8');
      const edits = [
        [
          /(var Node = class \{\n {2}static \{\n {4}__name\(this, "Node"\);\n {2}\}\n(?: {2}(?:\/\/|\/\*\*).*\n)*) {2}\[0\] = 0;/,
          '$1  _other = 0;',
        ],
        ['    this[0] = other;\n', '    this._other = other;\n'],
        ['C.setValue(address, node[0], "i32");', 'C.setValue(address, node._other, "i32");'],
        [
          'function getValue(ptr, type = "i8") {\n',
          'function getValue(ptr, type = "i8") {\nif (type === "i32") return LE_HEAP_LOAD_I32((ptr >> 2) * 4);\n',
        ],
        [
          'function setValue(ptr, value, type = "i8") {\n',
          'function setValue(ptr, value, type = "i8") {\nif (type === "i32") return void LE_HEAP_STORE_I32((ptr >> 2) * 4, value);\n',
        ],
      ];
      for (const [from, to] of edits) {
        const found =
          typeof from === 'string' ? contents.split(from).length - 1 : contents.match(from) ? 1 : 0;
        if (found !== 1)
          return {
            errors: [
              { text: `${path}: expected one ${String(from)}, found ${found}: web-tree-sitter changed` },
            ],
          };
        contents = contents.replace(from, to);
      }
      return { contents, loader: 'js' };
    });
  },
};

// Imported (by the bundle-size test) only for the options above; run, it builds everything.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll(process.argv.includes('--production'));
}

/** @param {boolean} production */
async function buildAll(production) {
  const common = commonOptions(production);

  // Start clean, so nothing a removed entry point left behind ends up in the .vsix.
  rmSync('dist', { recursive: true, force: true });
  mkdirSync('dist', { recursive: true });
  rmSync('server/dist', { recursive: true, force: true });
  // Names this build in the first line of writev-lint's bundles: their code caches record it, since V8
  // checks a cache only against the length of its source (see server/bin/codeCache.js).
  const buildName = `// writev-lint build ${randomUUID()}`;
  await Promise.all([
    // writev-lint and its worker threads, one file each (server/bin/writev-lint.js picks them up): a
    // run loads the analyzer's module tree on every thread, which took a third of a small file's lint.
    // The TypeScript compiler (loaded for TS/JS files only) and ajv (when the generated validators are
    // missing) stay packages of their own. Side by side, as pool.ts starts the worker beside itself.
    ...['main', 'worker'].map((name) =>
      build({
        ...common,
        entryPoints: [`server/src/cli/${name}.ts`],
        outfile: `server/dist/cli/${name}.js`,
        banner: { js: buildName },
        alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
        external: ['typescript', 'ajv'],
        plugins: [settingsValidators, treeSitterEdits],
      }),
    ),
    build(clientBuildOptions(production)),
    // The language client library, loaded by the extension just after activation (client/src/lsp).
    build({
      ...common,
      entryPoints: ['client/src/lsp/index.ts'],
      outfile: 'dist/lsp.js',
      external: ['vscode'],
    }),
    // The trace view and commands, loaded on first use (client/src/trace).
    build({
      ...common,
      entryPoints: ['client/src/trace/index.ts'],
      outfile: 'dist/trace.js',
      external: ['vscode'],
    }),
    build({
      ...common,
      entryPoints: ['server/src/server.ts'],
      outfile: 'dist/server.js',
      // web-tree-sitter's ESM build (what an `import` resolves to) needs import.meta.url, which a CommonJS
      // bundle does not have: take its CommonJS build instead.
      alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
      plugins: [settingsValidators, treeSitterEdits],
    }),
    // The benchmarks, run by the extension in a child process (and usable from an installed .vsix). Suites
    // find their helper processes relative to their own folder, as laid out in runtime/dist: helpers in
    // ../children, writev-upload-pack two folders up. So the bundle sits in dist/bench/bin, the helpers
    // in dist/bench/children, and writev-upload-pack in dist/.
    build({
      ...common,
      entryPoints: ['runtime/src/bench/cli.ts'],
      outfile: 'dist/bench/bin/writev-bench.js',
    }),
    ...readdirSync('runtime/src/bench/children')
      .filter((name) => name.endsWith('.ts'))
      .map((name) =>
        build({
          ...common,
          entryPoints: [`runtime/src/bench/children/${name}`],
          outfile: `dist/bench/children/${name.replace(/\.ts$/, '.js')}`,
        }),
      ),
    // The cat-blob responder as one file: a frontend may start it often, so it loads no module graph.
    // Also beside the bundled benchmarks (dist/), where the cat-blob suite looks for it in a .vsix.
    build({
      ...common,
      entryPoints: ['runtime/src/bin/writev-cat-blob.ts'],
      outfile: 'runtime/dist/writev-cat-blob.js',
    }),
    build({
      ...common,
      entryPoints: ['runtime/src/bin/writev-cat-blob.ts'],
      outfile: 'dist/writev-cat-blob.js',
    }),
    // A bin git starts once per clone or fetch: one bundled file loads faster than the module tree.
    build({
      ...common,
      entryPoints: ['runtime/src/bin/writev-upload-pack.ts'],
      outfile: 'runtime/dist/writev-upload-pack.js',
    }),
    build({
      ...common,
      entryPoints: ['runtime/src/bin/writev-upload-pack.ts'],
      outfile: 'dist/writev-upload-pack.js',
    }),
    // The smart HTTP server: one file, run beside writev-upload-pack.js, which it starts per request.
    build({
      ...common,
      entryPoints: ['runtime/src/bin/writev-git-http.ts'],
      outfile: 'runtime/dist/writev-git-http.js',
    }),
    // The tracer and the preload it puts into every traced Node process: one file each, side by side.
    ...['runtime/dist', 'dist'].flatMap((dir) => [
      build({
        ...common,
        entryPoints: ['runtime/src/bin/writev-trace.ts'],
        outfile: `${dir}/writev-trace.js`,
      }),
      build({
        ...common,
        entryPoints: ['runtime/src/trace/nodePreload.ts'],
        outfile: `${dir}/writev-trace-preload.js`,
      }),
    ]),
  ]);
  chmodSync('runtime/dist/writev-trace.js', 0o755);
  chmodSync('runtime/dist/writev-upload-pack.js', 0o755);
  chmodSync('runtime/dist/writev-cat-blob.js', 0o755);
  chmodSync('runtime/dist/writev-git-http.js', 0o755);
  // The C grammar and the tree-sitter runtime are loaded at run time from beside the bundled server
  // (an installed .vsix has no node_modules to fall back on).
  copyFileSync('node_modules/tree-sitter-c/tree-sitter-c.wasm', 'dist/tree-sitter-c.wasm');
  copyFileSync('node_modules/web-tree-sitter/web-tree-sitter.wasm', 'dist/web-tree-sitter.wasm');
  // The benchmark panel's chart library: the webview has no network, so it ships with the extension.
  copyFileSync('node_modules/chart.js/dist/chart.umd.min.js', 'dist/chart.umd.js');
}
