#!/usr/bin/env node
// The main job on the bundled defaults (README.md): the linter over examples/, then the quick
// benchmark suite, both printed. Each step runs as its own process, as a user would type it.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');

function run(title, args) {
  console.log(`\n$ ${title}`);
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;
}

// writev-lint is the server package's bin; it exits 1 when it has findings, which is the point here.
const serverBin = JSON.parse(readFileSync(join(root, 'server', 'package.json'), 'utf8')).bin?.['writev-lint'];
const lint = serverBin && join(root, 'server', serverBin);
if (lint && existsSync(lint) && existsSync(join(root, 'examples'))) {
  const status = run('writev-lint examples/', [lint, 'examples']);
  if (status !== 0 && status !== 1) process.exit(status ?? 1);
} else {
  console.log('writev-lint is not built yet (server/): skipping the linter over examples/');
}
const status = run('writev-bench --size quick', [
  join(root, 'runtime', 'dist', 'bench', 'cli.js'),
  '--size',
  'quick',
]);
process.exit(status ?? 1);
