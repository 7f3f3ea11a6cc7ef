#!/usr/bin/env node
// Runs the compiled tests (out/test) with node's own test runner.
// Usage: node scripts/test.js [suite...]   suites are folders of test/ (runtime, server, client);
// with none, every *.test.js runs. Slow suites live in their own folders and scripts.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..', 'out', 'test');

function testFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...testFiles(path));
    else if (name.endsWith('.test.js')) files.push(path);
  }
  return files;
}

const suites = process.argv.slice(2);
const dirs = suites.length > 0 ? suites.map((s) => join(root, s)) : [root];
const files = dirs.flatMap(testFiles);
if (files.length === 0) {
  console.error(`no tests found under ${dirs.join(', ')} (run npm run build first)`);
  process.exit(2);
}
const reporter = process.env.TEST_REPORTER ?? 'spec';
const result = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
