// The walk lints what git tracks: inside a work tree a tracked file is never ignored (git applies no
// ignore rule to it) and an untracked one is left out exactly when git ignores it; outside git the
// .gitignore files are matched as before. Repositories are made with the real git binary.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from 'writev-lint/out/cli/main';
import { sourceFiles, walkIgnores } from 'writev-lint/out/workspace/files';
import { TestServer } from './lspClient';

const tmp = mkdtempSync(join(tmpdir(), 'writev-git-walk-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SEQUENCE =
  'void emit(int fd, const char *b)\n{\n\twrite_in_full(fd, "a", 1);\n\twrite_in_full(fd, b, 2);\n}\n';

/** Writes `files` (relative path -> text) under `dir`. */
function tree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' });
}

/** A repository at `dir` whose commit tracks `tracked` (added with -f, as files added before a rule). */
function repo(dir: string, tracked: Record<string, string>, untracked: Record<string, string> = {}): string {
  tree(dir, tracked);
  git(dir, 'init', '-q');
  git(dir, 'add', '-f', '--', ...Object.keys(tracked));
  git(dir, 'commit', '-q', '-m', 'tracked');
  return tree(dir, untracked);
}

/** What the walk yields under `root`, relative to it, and what it reported skipped. */
async function walk(
  root: string,
  exclude: readonly string[] = [],
): Promise<{ files: string[]; skipped: string[] }> {
  const files: string[] = [];
  const skipped: string[] = [];
  for await (const file of sourceFiles(root, exclude, undefined, (path, reason) =>
    skipped.push(`${relative(root, path)}: ${reason}`),
  ))
    files.push(relative(root, file));
  return { files: files.sort(), skipped };
}

/** A release tarball: its .gitignore names a built program, and so the program's source folder. */
const TARBALL = {
  '.gitignore': '# built programs\nlcdproc\nbuild/\n*.gen.c\n',
  'clients/lcdproc/main.c': SEQUENCE,
  'clients/lcdproc/menu/menu.c': SEQUENCE,
  'build/main.o': 'not C',
  'a.gen.c': SEQUENCE,
  'src/a.c': SEQUENCE,
};

describe('the walk inside a git work tree', () => {
  it('lints a tracked file under a folder a bare .gitignore line matches, not an untracked one', async () => {
    const dir = repo(
      join(tmp, 'bare'),
      { '.gitignore': 'lcdproc\nbuild/\n', 'clients/lcdproc/main.c': SEQUENCE, 'src/a.c': SEQUENCE },
      { 'clients/lcdproc/scratch.c': SEQUENCE, 'build/gen.c': SEQUENCE, 'src/new.c': SEQUENCE },
    );
    const { files, skipped } = await walk(dir);
    assert.deepEqual(files, ['clients/lcdproc/main.c', 'src/a.c', 'src/new.c']);
    assert.deepEqual(skipped, []);
  });

  it('follows a nested .gitignore and `!` negations, for untracked files only', async () => {
    const dir = repo(
      join(tmp, 'nested'),
      {
        '.gitignore': '*.gen.c\n!keep.gen.c\n',
        'lib/.gitignore': 'local/\n',
        'lib/local/tracked.c': SEQUENCE,
      },
      {
        'a.gen.c': SEQUENCE,
        'keep.gen.c': SEQUENCE,
        'lib/local/untracked.c': SEQUENCE,
        'lib/b.gen.c': SEQUENCE,
        'lib/x.c': SEQUENCE,
        'local/top.c': SEQUENCE,
        'local/c.gen.c': SEQUENCE,
      },
    );
    assert.deepEqual((await walk(dir)).files, [
      'keep.gen.c',
      'lib/local/tracked.c',
      'lib/x.c',
      'local/top.c',
    ]);
  });

  it('applies the ignore rules above a walked subfolder, and .git/info/exclude, as git does', async () => {
    const dir = repo(join(tmp, 'above'), { '.gitignore': 'generated/\n', 'src/a.c': SEQUENCE });
    tree(dir, { 'src/generated/g.c': SEQUENCE, 'src/scratch.c': SEQUENCE, 'src/b.c': SEQUENCE });
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'scratch.c\n');
    assert.deepEqual((await walk(join(dir, 'src'))).files, ['a.c', 'b.c']);
  });

  it('walks a folder git ignores when it is the folder named, as a named file is linted', async () => {
    const dir = repo(join(tmp, 'named'), { '.gitignore': 'gen/\n', 'a.c': SEQUENCE });
    tree(dir, { 'gen/g.c': SEQUENCE, 'gen/sub/h.c': SEQUENCE });
    assert.deepEqual((await walk(join(dir, 'gen'))).files, ['g.c', 'sub/h.c']);
    assert.deepEqual((await walk(join(dir, 'gen', 'sub'))).files, ['h.c']);
  });

  it('never walks a large ignored build folder (a FIFO in it would be reported if it were)', async () => {
    const dir = repo(join(tmp, 'build'), { '.gitignore': '/out/\n', 'main.c': SEQUENCE });
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`out/d${i % 10}/f${i}.c`] = SEQUENCE;
    tree(dir, files);
    execFileSync('mkfifo', [join(dir, 'out', 'd0', 'pipe.c')]);
    assert.deepEqual(await walk(dir), { files: ['main.c'], skipped: [] });
  });

  it('judges a nested repository by its own git (its .gitignore, its tracked files)', async () => {
    const outer = repo(join(tmp, 'outer'), { 'a.c': SEQUENCE });
    repo(
      join(outer, 'vendor', 'lib'),
      { '.gitignore': 'tool\n', 'tool/t.c': SEQUENCE },
      { 'tool/u.c': SEQUENCE, 'v.c': SEQUENCE },
    );
    assert.deepEqual((await walk(outer)).files, ['a.c', 'vendor/lib/tool/t.c', 'vendor/lib/v.c']);
  });

  it('asks the walked repository even when a git hook set GIT_DIR and GIT_INDEX_FILE', async () => {
    const dir = repo(join(tmp, 'hooked'), { '.gitignore': 'cli\n', 'cli/main.c': SEQUENCE });
    const other = repo(join(tmp, 'other'), { 'x.c': SEQUENCE });
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(other, '.git');
    process.env.GIT_INDEX_FILE = join(other, '.git', 'index');
    try {
      assert.deepEqual((await walk(dir)).files, ['cli/main.c']);
    } finally {
      for (const [name, value] of [
        ['GIT_DIR', saved.dir],
        ['GIT_INDEX_FILE', saved.index],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });

  it('finishes on a folder that is a symbolic link loop, and does not follow it', async () => {
    const dir = repo(join(tmp, 'loop'), { 'a/x.c': SEQUENCE });
    symlinkSync('..', join(dir, 'a', 'up'));
    symlinkSync('.', join(dir, 'self'));
    assert.deepEqual((await walk(dir)).files, ['a/x.c']);
  });

  it('says so when git cannot answer and a .gitignore line leaves something out', async () => {
    const dir = repo(join(tmp, 'nogit'), { '.gitignore': 'cli\n', 'cli/main.c': SEQUENCE, 'b.c': SEQUENCE });
    const path = process.env.PATH;
    process.env.PATH = join(tmp, 'no-such-bin');
    try {
      const { files, skipped } = await walk(dir);
      assert.deepEqual(files, ['b.c']);
      assert.equal(skipped.length, 1);
      assert.match(
        skipped[0] ?? '',
        /^cli: a \.gitignore line ignores it, and git, .* could not say which files it tracks \(no git program found\)$/,
      );
    } finally {
      process.env.PATH = path;
    }
  });

  it('writev-lint lints the tracked file and reports its finding (exit 1)', async () => {
    const dir = repo(join(tmp, 'cli'), { '.gitignore': 'tool\n', 'tool/main.c': SEQUENCE });
    let out = '';
    let err = '';
    const status = await main(['--no-config-lookup', '--format', 'json', dir], {
      out: (t) => (out += t),
      err: (t) => (err += t),
    });
    assert.equal(status, 1);
    const paths = (JSON.parse(out) as { findings: { path: string }[] }).findings.map((f) =>
      relative(dir, f.path),
    );
    assert.deepEqual(paths, ['tool/main.c']);
    // Git answered for the folder: nothing to warn of.
    assert.doesNotMatch(err, /note:/);
  });

  it("keeps `exclude` over a tracked file: the setting is the user's own choice", async () => {
    const dir = repo(join(tmp, 'excluded'), { 'third_party/x.c': SEQUENCE, 'a.c': SEQUENCE });
    assert.deepEqual((await walk(dir, ['third_party/'])).files, ['a.c']);
  });
});

describe('the walk outside git', () => {
  it('matches .gitignore files as before: a bare line leaves out the folder it names', async () => {
    const dir = tree(join(tmp, 'plain'), {
      '.gitignore': 'lcdproc\n*.gen.c\n!keep.gen.c\n',
      'clients/lcdproc/main.c': SEQUENCE,
      'a.gen.c': SEQUENCE,
      'keep.gen.c': SEQUENCE,
      'src/a.c': SEQUENCE,
    });
    assert.deepEqual(await walk(dir), { files: ['keep.gen.c', 'src/a.c'], skipped: [] });
  });

  /** writev-lint's findings (paths relative to `dir`), exit status and standard error over `dir`. */
  async function lintTree(dir: string, ...args: string[]) {
    let out = '';
    let err = '';
    const status = await main(['--no-config-lookup', '--format', 'json', ...args, dir], {
      out: (t) => (out += t),
      err: (t) => (err += t),
    });
    const findings = (JSON.parse(out) as { findings: { path: string }[] }).findings;
    return { status, paths: findings.map((f) => relative(dir, f.path)).sort(), err };
  }

  it('says which folder of sources a .gitignore line left out, and by which line, as a note', async () => {
    const dir = tree(join(tmp, 'tarball'), TARBALL);
    const { status, paths, err } = await lintTree(dir);
    // The run is what it was (the line is followed), but the user reads what it left out.
    assert.equal(status, 1);
    assert.deepEqual(paths, ['src/a.c']);
    const notes = err.split('\n').filter((line) => line.includes('note:'));
    assert.equal(notes.length, 1, err);
    assert.match(notes[0] ?? '', /clients\/lcdproc\/ \(2 source files\) left out by the line "lcdproc" of /);
    assert.match(notes[0] ?? '', /tarball\/\.gitignore: outside a git work tree .*--no-respect-gitignore/);
    // A build folder without sources and a single ignored file are what .gitignore lines are for.
    assert.doesNotMatch(err, /build\/|a\.gen\.c/);
  });

  it('--no-respect-gitignore reads what the .gitignore files leave out (exclude still applies)', async () => {
    const dir = tree(join(tmp, 'tarball-all'), { ...TARBALL, '.writev-lint.json': '{"exclude": ["menu/"]}' });
    const all = await lintTree(dir, '--no-respect-gitignore');
    assert.equal(all.status, 1);
    assert.deepEqual(all.paths, [
      'a.gen.c',
      'clients/lcdproc/main.c',
      'clients/lcdproc/menu/menu.c',
      'src/a.c',
    ]);
    assert.doesNotMatch(all.err, /note:/);
    let out = '';
    await main(['--no-respect-gitignore', '--format', 'json', dir], {
      out: (t) => (out += t),
      err: () => undefined,
    });
    const paths = (JSON.parse(out) as { findings: { path: string }[] }).findings.map((f) =>
      relative(dir, f.path),
    );
    assert.deepEqual(paths.sort(), ['a.gen.c', 'clients/lcdproc/main.c', 'src/a.c']);
  });
});

describe("the language server's workspace lint", () => {
  it('walks as writev-lint does: the tracked file under an ignored name, not the untracked one', async () => {
    const dir = repo(
      join(tmp, 'lsp'),
      { '.gitignore': 'tool\n', 'tool/main.c': SEQUENCE },
      { 'tool/scratch.c': SEQUENCE },
    );
    const server = await TestServer.start(dir, {
      workspace: { configuration: true, workspaceFolders: true },
    });
    try {
      await server.connection.sendRequest('writev/lintWorkspace', {});
      const published = [...server.diagnostics.entries()]
        .filter(([, p]) => p.diagnostics.length > 0)
        .map(([uri]) => relative(dir, decodeURIComponent(new URL(uri).pathname)));
      assert.deepEqual(published, ['tool/main.c']);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('logs the folder of sources a .gitignore line left out outside git, as writev-lint notes it', async () => {
    const dir = tree(join(tmp, 'lsp-tarball'), TARBALL);
    const server = await TestServer.start(dir, {
      workspace: { configuration: true, workspaceFolders: true },
    });
    try {
      await server.connection.sendRequest('writev/lintWorkspace', {});
      const notes = server.log.filter((line) => line.includes('note:'));
      assert.equal(notes.length, 1, server.log.join('\n'));
      assert.match(
        notes[0] ?? '',
        /clients\/lcdproc\/ \(2 source files\) left out by the line "lcdproc" of \.gitignore/,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

/** A helper that writes all of its buffer to the descriptor, named `name`. */
const writingHelper = (name: string) => `#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

void ${name}(int fd, const char *s, size_t n)
{
\tsize_t off = 0;

\twhile (off < n) {
\t\tssize_t w = write(fd, s + off, n - off);
\t\tif (w < 0)
\t\t\treturn;
\t\toff += (size_t)w;
\t}
}
`;

const CALLER = `#include <stddef.h>

void emit(int fd, const char *s, size_t n);
void note(int fd, const char *s, size_t n);

void greet(const char *name, size_t n)
{
\temit(1, "hello, ", 7);
\temit(1, name, n);
\tnote(2, "hi, ", 4);
\tnote(2, name, n);
}
`;

describe('a file the walk has not met (created since, changed on disk)', () => {
  it('is judged as the walk would judge it: git inside a work tree, .gitignore files outside', async () => {
    const dir = repo(
      join(tmp, 'met'),
      { '.gitignore': 'tool\nbuild/\n', 'tool/main.c': SEQUENCE },
      { 'tool/new.c': SEQUENCE, 'build/gen.c': SEQUENCE, 'src/new.c': SEQUENCE },
    );
    tree(dir, { 'node_modules/x/a.c': SEQUENCE });
    const ignores = (path: string) => walkIgnores(dir, join(dir, path));
    assert.deepEqual(
      await Promise.all(
        ['tool/main.c', 'tool/new.c', 'build/gen.c', 'src/new.c', 'node_modules/x/a.c'].map(ignores),
      ),
      [false, true, true, false, true],
    );
    const plain = tree(join(tmp, 'met-plain'), {
      '.gitignore': 'tool\n',
      'a/.gitignore': '*.gen.c\n',
      'tool/main.c': SEQUENCE,
      'a/b.gen.c': SEQUENCE,
      'b.gen.c': SEQUENCE,
    });
    assert.deepEqual(
      await Promise.all(
        ['tool/main.c', 'a/b.gen.c', 'b.gen.c'].map((p) => walkIgnores(plain, join(plain, p))),
      ),
      [true, true, false],
    );
  });

  it("the language server's index takes a created helper the walk would read, never one git ignores", async () => {
    const dir = repo(join(tmp, 'lsp-created'), { '.gitignore': 'build/\n', 'caller.c': CALLER });
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const caller = `file://${join(dir, 'caller.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: caller, languageId: 'c', version: 1, text: CALLER },
      });
      await server.published(caller, 1);
      const findings = () => server.diagnostics.get(caller)?.diagnostics.length;
      assert.equal(findings(), 0, 'neither helper exists yet');
      // The start's walk done: one still under way would drop the files it did not meet.
      await server.until('the folder indexed', () =>
        server.log.some((m) => m.startsWith('writev: indexed wrappers')) ? true : undefined,
      );
      // A build writes a copy into its ignored output folder; the project gains a helper of its own.
      tree(dir, { 'build/emit.c': writingHelper('emit'), 'note.c': writingHelper('note') });
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [
          { uri: `file://${join(dir, 'build', 'emit.c')}`, type: 1 },
          { uri: `file://${join(dir, 'note.c')}`, type: 1 },
        ],
      });
      const after = await server.until('the caller re-diagnosed', () =>
        findings() ? findings() : undefined,
      );
      assert.equal(after, 1, "note()'s pair only: writev-lint would not read build/emit.c");
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
