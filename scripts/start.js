#!/usr/bin/env node
// The main job on the bundled defaults (README.md), short enough for a first look: the runtime demo
// into a real git, the linter over examples/ and one of its fixes shown as a diff, then one short case
// of each benchmark suite that needs no download, each with its headline ratio; it ends with the
// commands for the full benchmarks and the editor. Each step runs as its own process, printed as a
// user would type it.
'use strict';
const { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const lint = join(root, 'server', 'bin', 'writev-lint.js');
const bench = join(root, 'runtime', 'bin', 'writev-bench.js');

/**
 * One case per suite, at a size that keeps the whole start short. The sizes are the suites' own
 * (`quick` where a case is cheap, `tiny` where building its data is the cost); `npm run bench` runs every
 * case at full size. The cat-blob suite's real history (eslint's releases) is left out: it downloads.
 */
const CASES = [
  { id: 'writev/side-band', size: 'quick', runs: 3 },
  { id: 'input-buffer/index-pack', size: 'quick', runs: 3 },
  { id: 'eagain/pipe', size: 'quick', runs: 3 },
  { id: 'sideband/side-band', size: 'tiny', runs: 3 },
  { id: 'cat-blob/small-pipe', size: 'tiny', runs: 3 },
  { id: 'trace-overhead/fs.writeSync to a file', size: 'tiny', runs: 3 },
];

/** The file whose fixes are shown; a copy of examples/ is fixed, never examples/ itself. */
const FIX_SHOWN = join('c', 'pkt-line.c');

/** Runs node with `args` as the command `shown`, then prints how long it took; returns its status. */
function run(shown, args, options = {}) {
  console.log(`\n$ ${shown}`);
  const start = process.hrtime.bigint();
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', ...options });
  console.log(`(${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s)`);
  return status;
}

function orExit(status, ok = [0]) {
  if (!ok.includes(status)) process.exit(status ?? 1);
}

/** Fixes FIX_SHOWN in a copy of examples/ and prints the change as a unified diff. */
function showOneFix(scratch) {
  const copy = join(scratch, 'examples');
  cpSync(join(root, 'examples'), copy, { recursive: true });
  const shown = join('examples', FIX_SHOWN);
  // Run from the copy's parent, so the findings that remain name the file as the command does.
  // writev-lint exits 1 when it reports findings it could not fix (loop-writes has no fix).
  orExit(
    run(`writev-lint ${shown} --fix   (on a copy of examples/)`, [lint, shown, '--fix'], { cwd: scratch }),
    [0, 1],
  );
  const diff = spawnSync(
    'git',
    ['diff', '--no-index', '--no-color', '--', join(root, shown), join(copy, FIX_SHOWN)],
    { encoding: 'utf8' },
  );
  if (diff.status !== 0 && diff.status !== 1) {
    console.error(`git diff failed: ${diff.stderr}`);
    process.exit(diff.status ?? 1);
  }
  // git names both absolute paths after its a/ and b/ prefixes: show the file's name in the clone.
  const text = diff.stdout
    .split(join(root, shown))
    .join(`/${shown}`)
    .split(join(copy, FIX_SHOWN))
    .join(`/${shown}`);
  console.log(`\n$ git diff examples/${FIX_SHOWN} (the copy, fixed)\n${text || '(no change)\n'}`);
}

function main() {
  orExit(run('node scripts/demo.js', [join(__dirname, 'demo.js')]));
  // writev-lint exits 1 when it has findings, which is the point here.
  orExit(run('writev-lint examples/', [lint, 'examples']), [0, 1]);
  const scratch = mkdtempSync(join(tmpdir(), 'writev-start-'));
  try {
    showOneFix(scratch);
    const headlines = [];
    for (const [i, { id, size, runs }] of CASES.entries()) {
      const json = join(scratch, `bench-${i}.json`);
      orExit(
        run(`writev-bench --case '${id}' --size ${size} --runs ${runs}`, [
          bench,
          '--case',
          id,
          '--size',
          size,
          '--runs',
          String(runs),
          '--json',
          json,
        ]),
      );
      headlines.push(...headlinesOf(json, size));
    }
    console.log('\nHeadline ratios (short runs: `npm run bench` gives the published figures):');
    for (const line of headlines) console.log(`  ${line}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`
Next:
  npm run bench            every benchmark at full size (the cat-blob suite downloads eslint's releases once)
  npm run bench:quick      every benchmark at a laptop's size
  npm run bench:analyzer   writev-lint's speed over real C trees
  npx writev-lint src/     the linter on your own code (--fix, --format sarif|json|github)
  npm run package          the VS Code extension as writev.vsix: install it with
                           code --install-extension writev.vsix, then run "writev: Run Benchmarks"`);
}

/** `suite / case (size): headline` for each case in a `--json` export. */
function headlinesOf(json, size) {
  const { formatHeadline } = require('@writev/runtime/bench');
  if (!existsSync(json)) return [];
  const { cases } = JSON.parse(readFileSync(json, 'utf8'));
  return cases.map(
    (c) => `${`${c.suite} / ${c.case} (${size})`.padEnd(44)} ${formatHeadline(c) ?? '(no headline)'}`,
  );
}

main();
