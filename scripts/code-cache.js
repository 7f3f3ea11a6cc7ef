#!/usr/bin/env node
// Makes the V8 code caches of writev-lint's bundles (server/dist/cli/main.js.cache, worker.js.cache;
// see server/bin/codeCache.js): runs the bundled command over the analyzer's C fixtures on two threads,
// so that both bundles compile the functions a run over real C calls, and each keeps their bytecode.
// Run by `npm run build` after esbuild. A cache that does not suit the Node a user runs is not taken,
// and the command compiles as it would without one.
'use strict';
const { spawnSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const dist = join(root, 'server', 'dist', 'cli');
for (const name of ['main.js.cache', 'worker.js.cache']) rmSync(join(dist, name), { force: true });
const run = spawnSync(
  process.execPath,
  [
    join(root, 'server', 'bin', 'writev-lint.js'),
    '--no-config-lookup',
    '--exit-zero',
    '--format',
    'json',
    '--jobs',
    '2',
    join(root, 'test', 'server', 'fixtures', 'c'),
  ],
  { env: { ...process.env, WRITEV_LINT_CODE_CACHE: 'write' }, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (run.status !== 0) {
  process.stderr.write(`code-cache: writev-lint exited with ${run.status ?? run.signal}\n`);
  process.exit(1);
}
