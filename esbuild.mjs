// Bundles the extension's client and server, and the runtime's command-line tools, into dist/.
// tsc -b type-checks and emits the libraries; esbuild makes the artefacts that start fast.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

mkdirSync('dist', { recursive: true });
await Promise.all([
  build({
    ...common,
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/client.js',
    external: ['vscode'],
    // The bundle's first and last statements, so the activation log can include its load time.
    banner: { js: 'var __writevLoadStart = performance.now();' },
    footer: { js: 'var __writevLoadEnd = performance.now();' },
  }),
  // The language client library, loaded by the extension just after activation (client/src/lsp).
  build({
    ...common,
    entryPoints: ['client/src/lsp/index.ts'],
    outfile: 'dist/lsp.js',
    external: ['vscode'],
  }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  // The benchmarks, run by the extension in a child process (and usable from an installed .vsix).
  build({ ...common, entryPoints: ['runtime/src/bench/cli.ts'], outfile: 'dist/bench.js' }),
]);
// The C grammar is loaded at run time from beside the bundled server.
copyFileSync('node_modules/tree-sitter-c/tree-sitter-c.wasm', 'dist/tree-sitter-c.wasm');
// The benchmark panel's chart library: the webview has no network, so it ships with the extension.
copyFileSync('node_modules/chart.js/dist/chart.umd.min.js', 'dist/chart.umd.js');
