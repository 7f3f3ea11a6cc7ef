// Bundles the extension's client and server, and the runtime's command-line tools, into dist/.
// tsc -b type-checks and emits the libraries; esbuild makes the artefacts that start fast.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';

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
    outfile: 'runtime/dist/writev-cat-blob.js',
  }),
  // A bin git starts once per clone or fetch: one bundled file loads faster than the module tree.
  build({
    ...common,
    entryPoints: ['runtime/src/bin/writev-upload-pack.ts'],
    outfile: 'runtime/dist/writev-upload-pack.js',
  }),
]);
chmodSync('runtime/dist/writev-upload-pack.js', 0o755);
chmodSync('runtime/dist/writev-cat-blob.js', 0o755);
// The C grammar is loaded at run time from beside the bundled server.
copyFileSync('node_modules/tree-sitter-c/tree-sitter-c.wasm', 'dist/tree-sitter-c.wasm');
