#!/usr/bin/env node
// Checks out the whole tree of every corpus project at its pinned commit, for the analyzer benchmark's
// lines/s figures and `corpus-score.js --trees`: `node scripts/corpus-trees.js [--mirrors DIR] [--out DIR]
// [--only NAME,...]`. The trees come from bare mirrors named owner+name/repo under --mirrors (default
// /work/.mirror), the owner and name of the project's repository, or failing that another owner's mirror
// of the same name that holds the pinned commit (a fork or a moved repository keeps the history); they
// land in --out/<project> (default .cache/corpus-trees), which `npm run bench:analyzer` reads. Only C
// sources and headers are taken: they are what the C analyzer reads, and mirrors may lack large binary
// blobs. A project that cannot be checked out is named with its commit and the reason, the others are
// still extracted, and the exit status is 1.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string', default: '/work/.mirror' },
    out: { type: 'string', default: resolve(__dirname, '..', '.cache', 'corpus-trees') },
    only: { type: 'string' },
  },
});

/** Whether the bare repository `gitDir` holds `commit` as a commit object. */
function holds(gitDir, commit) {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The git directory to check `project` out of: the mirror of its repository's owner and name, else
 * another owner's mirror of the same name (compared without case) that holds the pinned commit.
 * Throws an error naming the project, its commit and the mirrors looked at when none holds it.
 */
function mirrorOf(project, mirrors) {
  const [owner, name] = new URL(project.repository).pathname
    .replace(/^\//, '')
    .replace(/\.git$/, '')
    .split('/');
  const own = join(mirrors, `${owner}+${name}`, 'repo');
  if (existsSync(own) && holds(own, project.commit)) return own;
  const others = readdirSync(mirrors)
    .filter((dir) => dir.toLowerCase().endsWith(`+${name.toLowerCase()}`) && dir !== `${owner}+${name}`)
    .map((dir) => join(mirrors, dir, 'repo'))
    .filter((gitDir) => existsSync(gitDir));
  const other = others.find((gitDir) => holds(gitDir, project.commit));
  if (other) return other;
  const looked = [own, ...others].filter((gitDir) => existsSync(gitDir));
  throw new Error(
    looked.length === 0
      ? `no mirror at ${own} (fetch ${project.repository} first)`
      : `the commit is in none of ${looked.join(', ')} (fetch ${project.repository} again)`,
  );
}

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

/**
 * A temporary bare repository that reads `gitDir`'s objects and unsets every attribute that makes git
 * archive write other bytes than the commit stores (`ident`, `export-subst`, line endings, encodings)
 * or leave files out (`export-ignore`): the corpus keeps the files as stored, and the scorer takes a
 * tree only when its labelled files are the same bytes. `$GIT_DIR/info/attributes` overrides the
 * tree's `.gitattributes`; the mirror itself is left untouched. The caller removes the directory.
 */
function asStored(gitDir) {
  const bare = mkdtempSync(join(tmpdir(), 'corpus-trees-'));
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  writeFileSync(join(bare, 'objects', 'info', 'alternates'), `${resolve(gitDir, 'objects')}\n`);
  writeFileSync(
    join(bare, 'info', 'attributes'),
    '* -ident -export-subst -export-ignore -text -eol -crlf -working-tree-encoding -filter\n',
  );
  return bare;
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
    // When tar exits early, the pipe's next write fails with EPIPE (unhandled, it would end the whole run
    // rather than this project) and git would wait forever to write the rest: git is stopped, and tar's
    // exit status reports the failure.
    tar.stdin.on('error', (error) => (errors += `${error.message}\n`));
    tar.on('exit', (code) => code !== 0 && git.kill());
    git.stderr.on('data', (d) => (errors += d));
    tar.stderr.on('data', (d) => (errors += d));
    let left = 2;
    const failed = [];
    const exit = (name) => (code, signal) => {
      if (code !== 0) failed.push(`${name} (${signal ?? `exit ${code}`})`);
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
  const only = values.only === undefined ? undefined : new Set(values.only.split(',').filter(Boolean));
  const unknown = [...(only ?? [])].filter((name) => !labels.projects.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(`--only: no corpus project named ${unknown.join(', ')}`);
  const failed = [];
  for (const project of labels.projects) {
    if (only && !only.has(project.name)) continue;
    const dest = join(values.out, project.name);
    const stamp = join(dest, '.writev-commit');
    if (existsSync(stamp) && readFileSync(stamp, 'utf8') === project.commit) {
      console.log(`${project.name}: up to date (${project.commit.slice(0, 12)})`);
      continue;
    }
    rmSync(dest, { recursive: true, force: true });
    try {
      const gitDir = mirrorOf(project, values.mirrors);
      mkdirSync(dest, { recursive: true });
      const bare = asStored(gitDir);
      try {
        await extract(bare, project.commit, dest);
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
      writeFileSync(stamp, project.commit);
      console.log(`${project.name}: ${project.commit.slice(0, 12)} from ${gitDir} -> ${dest}`);
    } catch (error) {
      // A partial tree without its stamp would only be skipped later; removing it says plainly it is absent.
      rmSync(dest, { recursive: true, force: true });
      console.error(`${project.name}: not checked out at ${project.commit}: ${error.message}`);
      failed.push(project.name);
    }
  }
  if (failed.length > 0) {
    console.error(`corpus-trees: ${failed.length} not checked out: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(`corpus-trees: ${error.message}`);
  process.exitCode = 1;
});
