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
  }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  // The cat-blob responder as one file: a frontend may start it often, so it loads no module graph.
  build({
    ...common,
    entryPoints: ['runtime/src/bin/writev-cat-blob.ts'],
    outfile: 'runtime/dist/bundle/writev-cat-blob.js',
  }),
]);
// The C grammar is loaded at run time from beside the bundled server.
copyFileSync('node_modules/tree-sitter-c/tree-sitter-c.wasm', 'dist/tree-sitter-c.wasm');
