#!/usr/bin/env node
// The main job on the bundled defaults (README.md): the runtime demo into a real git, the linter over
// examples/, then the quick benchmark suite, all printed. Each step runs as its own process, as a user
// would type it.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');

function run(title, args) {
  console.log(`\n$ ${title}`);
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status;
}

function orExit(status, ok = [0]) {
  if (!ok.includes(status)) process.exit(status ?? 1);
}

orExit(run('node scripts/demo.js', [join(__dirname, 'demo.js')]));
// writev-lint is the server package's bin; it exits 1 when it has findings, which is the point here.
const serverBin = JSON.parse(readFileSync(join(root, 'server', 'package.json'), 'utf8')).bin?.['writev-lint'];
const lint = serverBin && join(root, 'server', serverBin);
if (lint && existsSync(lint) && existsSync(join(root, 'examples'))) {
  orExit(run('writev-lint examples/', [lint, 'examples']), [0, 1]);
} else {
  console.log('\n(writev-lint or examples/ is missing: skipping the linter over examples/)');
}
orExit(
  run('writev-bench --size quick', [join(root, 'runtime', 'dist', 'bench', 'cli.js'), '--size', 'quick']),
);
