#!/usr/bin/env node
// writev-lint: find write sequences that one writev could replace. See `writev-lint --help`.
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The bundled command (server/dist, made by `npm run build` after `tsc -b`): one file loads in about
 * half the CPU time of the module tree in server/out. The module tree is used when there is no bundle,
 * or when `tsc -b` has built server/out, or the runtime the bundle holds a copy of, since the bundle
 * was made (an edit not bundled yet must not run old code).
 */
function load() {
  const bundle = join(__dirname, '..', 'dist', 'cli', 'main.js');
  const stamp = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const bundled = stamp(bundle);
  // A published package has no build info (its files leave it out): its bundle is current.
  const compiled = Math.max(
    stamp(join(__dirname, '..', 'out', '.tsbuildinfo')),
    stamp(join(__dirname, '..', '..', 'runtime', 'dist', '.tsbuildinfo')),
  );
  // The bundle with the code cache the build made for it (see codeCache.js).
  if (bundled > 0 && bundled >= compiled) return require('./codeCache').requireBundle(bundle);
  return require(join(__dirname, '..', 'out', 'cli', 'main.js'));
}

const { main } = load();

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error) => {
    console.error(`writev-lint: ${error && error.stack ? error.stack : error}`);
    process.exitCode = 2;
  },
);
