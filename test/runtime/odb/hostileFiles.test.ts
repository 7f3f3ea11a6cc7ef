import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { git } from './helpers/gitFixtures';

const RUNTIME = require.resolve('@writev/runtime');
const CONTENT = 'a loose blob\n';

let root: string;
/** A bare repository with one loose blob, copied afresh for each case. */
let pristine: string;
let oid: string;

before(() => {
  root = mkdtempSync(join(tmpdir(), 'writev-hostile-'));
  pristine = join(root, 'pristine.git');
  git(root, ['init', '-q', '--bare', pristine]);
  oid = git(pristine, ['hash-object', '-w', '--stdin'], CONTENT).toString().trim();
});
after(() => rmSync(root, { recursive: true, force: true }));

let copies = 0;
function freshCopy(): string {
  const dir = join(root, `case-${copies++}.git`);
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

function loosePath(repo: string, id = oid): string {
  return join(repo, 'objects', id.slice(0, 2), id.slice(2));
}

interface ChildOutcome {
  /** What the child printed: the object's size, or the error it caught. */
  result?: { size?: number; name?: string; code?: string; message?: string };
  signal: NodeJS.Signals | null;
}

/**
 * Opens `repo` and reads `oid` (whole, or only its header) in a child process with a virtual
 * memory limit and a deadline, so a reader that hangs or reads without end fails the test instead
 * of taking the machine down.
 */
function readInChild(repo: string, what: 'object' | 'header' = 'object'): ChildOutcome {
  const script = `
    const { openRepository } = require(${JSON.stringify(RUNTIME)});
    let out;
    try {
      const repo = openRepository(${JSON.stringify(repo)});
      const read = repo.${what === 'object' ? 'readObject' : 'readHeader'}(${JSON.stringify(oid)});
      out = { size: read && read.size };
    } catch (e) {
      out = { name: e.name, code: e.code, message: e.message };
    }
    process.stdout.write(JSON.stringify(out));`;
  const child = spawnSync('sh', ['-c', `ulimit -v 3000000; exec "$0" -e "$1"`, process.execPath, script], {
    timeout: 15_000,
    encoding: 'utf8',
  });
  return {
    signal: child.signal,
    result: child.stdout ? (JSON.parse(child.stdout) as ChildOutcome['result']) : undefined,
  };
}

function assertRefused(outcome: ChildOutcome, name: string, file: string, problem: RegExp): void {
  assert.equal(
    outcome.signal,
    null,
    `the reader was killed by ${outcome.signal} (hung or grew without bound)`,
  );
  const { result } = outcome;
  assert.ok(result !== undefined, 'the reader printed nothing');
  assert.equal(result.name, name, JSON.stringify(result));
  assert.ok(result.message?.startsWith(file), `message does not start with ${file}: ${result.message}`);
  assert.match(result.message ?? '', problem);
}

describe('loose objects that are not what they seem', () => {
  it('refuses a loose object that links to /dev/zero, at once, naming the file', () => {
    const repo = freshCopy();
    unlinkSync(loosePath(repo));
    symlinkSync('/dev/zero', loosePath(repo));
    for (const what of ['object', 'header'] as const) {
      assertRefused(
        readInChild(repo, what),
        'ObjectCorruptError',
        loosePath(repo),
        /is a character device, not a regular file/,
      );
    }
  });

  it('refuses a FIFO in place of a loose object without waiting for a writer', () => {
    const repo = freshCopy();
    unlinkSync(loosePath(repo));
    execFileSync('mkfifo', [loosePath(repo)]);
    for (const what of ['object', 'header'] as const) {
      assertRefused(
        readInChild(repo, what),
        'ObjectCorruptError',
        loosePath(repo),
        /is a FIFO, not a regular file/,
      );
    }
  });

  it('names the path of a directory found where a loose object belongs', () => {
    const repo = freshCopy();
    unlinkSync(loosePath(repo));
    mkdirSync(loosePath(repo));
    assertRefused(
      readInChild(repo),
      'ObjectCorruptError',
      loosePath(repo),
      /is a directory, not a regular file/,
    );
  });

  it('refuses a loose file larger than zlib could make of the size its header declares, before reading it', () => {
    const repo = freshCopy();
    const file = loosePath(repo);
    // A valid stream followed by 256 MiB of holes: reading it whole was the old behaviour.
    writeFileSync(file, deflateSync(Buffer.from(`blob ${CONTENT.length}\0${CONTENT}`)));
    truncateSync(file, 256 << 20);
    assertRefused(
      readInChild(repo),
      'ObjectCorruptError',
      file,
      /is 268435456 bytes, more than the \d+ zlib needs for the 21 bytes its header declares/,
    );
  });

  it('still reads a loose object that is well formed, through a symbolic link too', () => {
    const repo = freshCopy();
    const moved = join(root, `moved-${copies}`);
    cpSync(loosePath(repo), moved);
    unlinkSync(loosePath(repo));
    symlinkSync(moved, loosePath(repo));
    assert.deepEqual(readInChild(repo).result, { size: CONTENT.length });
    assert.deepEqual(readInChild(pristine, 'header').result, { size: CONTENT.length });
  });
});

describe('the other files the object reader opens', () => {
  it('refuses a FIFO or /dev/zero as info/alternates, naming it', () => {
    for (const make of [
      (f: string) => execFileSync('mkfifo', [f]),
      (f: string) => symlinkSync('/dev/zero', f),
    ]) {
      const repo = freshCopy();
      const file = join(repo, 'objects', 'info', 'alternates');
      mkdirSync(join(repo, 'objects', 'info'), { recursive: true });
      make(file);
      assertRefused(
        readInChild(repo),
        'RepositoryError',
        file,
        /is a (FIFO|character device), not a regular file/,
      );
    }
  });

  it('refuses a FIFO or /dev/zero as the config or commondir, naming it', () => {
    for (const name of ['config', 'commondir']) {
      for (const make of [
        (f: string) => execFileSync('mkfifo', [f]),
        (f: string) => symlinkSync('/dev/zero', f),
      ]) {
        const repo = freshCopy();
        const file = join(repo, name);
        rmSync(file, { force: true });
        make(file);
        assertRefused(
          readInChild(repo),
          'RepositoryError',
          file,
          /is a (FIFO|character device), not a regular file/,
        );
      }
    }
  });

  it('refuses a FIFO as a .git link in a work tree, naming it', () => {
    const work = join(root, `work-${copies++}`);
    mkdirSync(work);
    execFileSync('mkfifo', [join(work, '.git')]);
    assertRefused(readInChild(work), 'RepositoryError', join(work, '.git'), /is a FIFO, not a regular file/);
  });

  it('refuses a FIFO or a device as a pack or its index, naming it', () => {
    for (const ext of ['.pack', '.idx']) {
      const repo = freshCopy();
      git(repo, ['pack-objects', '-q', 'objects/pack/pack'], `${oid}\n`);
      const packDir = join(repo, 'objects', 'pack');
      const packFile = readdirSync(packDir).find((n) => n.endsWith(ext))!;
      const file = join(packDir, packFile);
      unlinkSync(file);
      execFileSync('mkfifo', [file]);
      assertRefused(readInChild(repo), 'ObjectCorruptError', file, /is a FIFO, not a regular file/);
      unlinkSync(file);
      symlinkSync('/dev/zero', file);
      assertRefused(
        readInChild(repo),
        'ObjectCorruptError',
        file,
        /is a character device, not a regular file/,
      );
    }
  });
});
