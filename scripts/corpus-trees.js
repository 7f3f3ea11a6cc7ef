#!/usr/bin/env node
// Checks out the whole tree of every corpus project at its pinned commit, for the analyzer benchmark's
// lines/s figures: `node scripts/corpus-trees.js [--mirrors DIR] [--out DIR]`. The trees come from bare
// mirrors named owner+name/repo under --mirrors (default /work/.mirror); they land in
// --out/<project> (default .cache/corpus-trees), which `npm run bench:analyzer` reads. Only C sources
// and headers are taken: they are what the C analyzer reads, and mirrors may lack large binary blobs.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string', default: '/work/.mirror' },
    out: { type: 'string', default: resolve(__dirname, '..', '.cache', 'corpus-trees') },
  },
});

/**
 * The pathspecs among `*.c` and `*.h` that name a file at `commit`: git archive fails on a pathspec
 * that matches nothing, and some projects have no header at all.
 */
function cPathspecs(gitDir, commit) {
  const names = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', '-z', commit], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  }).split('\0');
  return ['.c', '.h'].filter((ext) => names.some((name) => name.endsWith(ext))).map((ext) => `*${ext}`);
}

/** Runs `git archive COMMIT -- *.c *.h | tar -x -C dest`; rejects with git's or tar's message. */
function extract(gitDir, commit, dest) {
  const pathspecs = cPathspecs(gitDir, commit);
  if (pathspecs.length === 0) return Promise.resolve();
  return new Promise((done, fail) => {
    const git = spawn('git', ['--git-dir', gitDir, 'archive', '--format=tar', commit, '--', ...pathspecs], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tar = spawn('tar', ['-x', '-C', dest], { stdio: ['pipe', 'ignore', 'pipe'] });
    git.stdout.pipe(tar.stdin);
    let errors = '';
    git.stderr.on('data', (d) => (errors += d));
    tar.stderr.on('data', (d) => (errors += d));
    let left = 2;
    const failed = [];
    const exit = (name) => (code) => {
      if (code !== 0) failed.push(`${name} (exit ${code})`);
      if (--left > 0) return;
      if (failed.length > 0) fail(new Error(`${failed.join(' and ')} failed: ${errors.trim()}`));
      else done();
    };
    git.on('close', exit('git archive'));
    tar.on('close', exit('tar'));
  });
}

async function main() {
  const labels = JSON.parse(
    readFileSync(join(__dirname, '..', 'test', 'server', 'corpus', 'labels.json'), 'utf8'),
  );
  let missing = 0;
  for (const project of labels.projects) {
    const slug = new URL(project.repository).pathname.replace(/^\//, '').replace('/', '+');
    const gitDir = join(values.mirrors, slug, 'repo');
    const dest = join(values.out, project.name);
    const stamp = join(dest, '.writev-commit');
    if (existsSync(stamp) && readFileSync(stamp, 'utf8') === project.commit) {
      console.log(`${project.name}: up to date (${project.commit.slice(0, 12)})`);
      continue;
    }
    if (!existsSync(gitDir)) {
      console.error(`${project.name}: no mirror at ${gitDir} (fetch ${project.repository} first); skipped`);
      missing++;
      continue;
    }
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    await extract(gitDir, project.commit, dest);
    writeFileSync(stamp, project.commit);
    console.log(`${project.name}: ${project.commit.slice(0, 12)} -> ${dest}`);
  }
  if (missing > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`corpus-trees: ${error.message}`);
  process.exitCode = 1;
});
