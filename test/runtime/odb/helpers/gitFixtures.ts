import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnv } from '../../helpers/gitEnv';
import { writeHistory, type HistoryShape } from '@writev/runtime/dist/bench/suites/catBlobHistory';

/** The environment every git of the tests runs in: no user or system config, fixed identity and dates. */
export const GIT_ENV: NodeJS.ProcessEnv = gitEnv();

/** Runs git in `cwd` and returns its standard output. */
export function git(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync('git', args, {
    cwd,
    env: GIT_ENV,
    input,
    maxBuffer: 1 << 30,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** A small history with deltas, an empty blob and two blobs of several MB. */
export const SMALL_HISTORY: HistoryShape = {
  files: 12,
  commits: 40,
  editsPerCommit: 3,
  linesPerFile: 60,
  seed: 7,
  extraBlobSizes: [0, 3 * 1024 * 1024, 5 * 1024 * 1024 + 17],
};

/** Every object of a repository as `git cat-file --batch-all-objects --batch` reports it. */
export interface ListedObject {
  oid: string;
  type: string;
  data: Buffer;
}

/** Lists every object of the repository at `dir` with git itself (alternates included). */
export function allObjects(dir: string): ListedObject[] {
  const out = git(dir, ['cat-file', '--batch-all-objects', '--batch']);
  const objects: ListedObject[] = [];
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    const header = out.toString('latin1', at, nl);
    const [oid, type, size] = header.split(' ');
    if (oid === undefined || type === undefined || size === undefined) {
      throw new Error(`git cat-file --batch in ${dir}: bad header ${JSON.stringify(header)}`);
    }
    const end = nl + 1 + Number(size);
    objects.push({ oid, type, data: out.subarray(nl + 1, end) });
    at = end + 1;
  }
  return objects;
}

/** Bump when a fixture's recipe changes, so stale shared fixtures are not reused. */
const RECIPE_VERSION = 3;

/**
 * Test repositories built with the installed git, each made on first use: the same history stored
 * loose, packed with offset deltas, packed with reference deltas, borrowed through an alternate,
 * with a version 1 index, and in a SHA-256 repository.
 *
 * The test files run in parallel processes and need the same repositories, so these are shared
 * through a folder of the system's temporary directory keyed by the recipe and the git version:
 * each is built under a private name and renamed into place (a rename onto an existing folder
 * fails, so concurrent builders never mix files). Tests never modify them; damage goes to
 * {@link GitFixtures.copy}, in a private folder removed by {@link GitFixtures.dispose}.
 */
export class GitFixtures {
  /** The private folder of this process, for copies. */
  readonly root = mkdtempSync(join(tmpdir(), 'writev-odb-'));
  private readonly shared: string;
  private readonly made = new Map<string, string>();

  constructor() {
    const version = git(tmpdir(), ['version']).toString().trim();
    const key = createHash('sha1')
      .update(JSON.stringify([RECIPE_VERSION, SMALL_HISTORY, version]))
      .digest('hex');
    this.shared = join(tmpdir(), 'writev-odb-fixtures', key.slice(0, 12));
    mkdirSync(this.shared, { recursive: true });
  }

  /** Removes this process's copies (the shared repositories stay for the next test file). */
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The history as fast-import packed it (one pack, few deltas). */
  get imported(): string {
    return this.once('imported', (dir) => importHistory(dir, SMALL_HISTORY, 'sha1'));
  }

  /** Every object loose, none packed. */
  get loose(): string {
    return this.once('loose', (dir) => {
      git(this.root, ['init', '-q', '--bare', dir]);
      git(dir, ['unpack-objects', '-q'], concatPacks(this.imported));
      git(dir, [
        'update-ref',
        'refs/heads/main',
        git(this.imported, ['rev-parse', 'main']).toString().trim(),
      ]);
    });
  }

  /** After `git gc`: one pack with offset deltas. */
  get gc(): string {
    return this.once('gc', (dir) => {
      cpSync(this.loose, dir, { recursive: true });
      git(dir, ['gc', '-q']);
    });
  }

  /** The history in three packs (oldest, middle and newest commits), as before a `git gc`. */
  get multiPack(): string {
    return this.once('multi-pack', (dir) => {
      cpSync(this.loose, dir, { recursive: true });
      const commits = git(dir, ['rev-list', '--reverse', 'main']).toString().trim().split('\n');
      const cuts = [0, Math.floor(commits.length / 3), Math.floor((2 * commits.length) / 3)];
      cuts.forEach((cut, i) => {
        const end = i + 1 < cuts.length ? commits[cuts[i + 1]! - 1]! : commits.at(-1)!;
        const revs = cut === 0 ? `${end}\n` : `${end}\n^${commits[cut - 1]}\n`;
        git(
          dir,
          ['pack-objects', '-q', '--revs', '--delta-base-offset', join(dir, 'objects', 'pack', 'pack')],
          revs,
        );
      });
      git(dir, ['prune-packed']);
    });
  }

  /** After `git gc --aggressive` with `pack.useDeltaBaseOffset=false`: reference deltas. */
  get refDeltas(): string {
    return this.once('ref-deltas', (dir) => {
      cpSync(this.loose, dir, { recursive: true });
      // repack asks pack-objects for offset deltas unless its own setting says otherwise.
      git(dir, [
        '-c',
        'pack.useDeltaBaseOffset=false',
        '-c',
        'repack.useDeltaBaseOffset=false',
        'gc',
        '-q',
        '--aggressive',
      ]);
    });
  }

  /** A repository whose history lives in {@link GitFixtures.gc} through `objects/info/alternates`, plus one commit of its own. */
  get alternate(): string {
    return this.once('alternate', (dir) => {
      git(this.root, ['clone', '-q', '--shared', this.gc, dir]);
      writeFileSync(join(dir, 'own.txt'), 'only in the borrowing repository\n');
      git(dir, ['add', 'own.txt']);
      git(dir, ['commit', '-q', '-m', 'own']);
    });
  }

  /** {@link GitFixtures.gc} with its index rewritten in version 1. */
  get indexV1(): string {
    return this.once('index-v1', (dir) => {
      cpSync(this.gc, dir, { recursive: true });
      const packDir = join(dir, 'objects', 'pack');
      for (const name of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
        const idx = join(packDir, name.replace(/\.pack$/, '.idx'));
        rmSync(idx, { force: true });
        git(packDir, ['index-pack', '--index-version=1', '-o', idx, name]);
      }
    });
  }

  /** A SHA-256 repository with the same history, packed with offset deltas. */
  get sha256(): string {
    return this.once('sha256', (dir) => {
      importHistory(dir, { ...SMALL_HISTORY, extraBlobSizes: [0, 1024 * 1024] }, 'sha256');
      git(dir, ['gc', '-q']);
    });
  }

  /** A copy of `source` under a new name, for tests that damage files. */
  copy(source: string, name: string): string {
    const dir = join(this.root, name);
    cpSync(source, dir, { recursive: true });
    return dir;
  }

  private once(name: string, make: (dir: string) => void): string {
    let dir = this.made.get(name);
    if (dir === undefined) {
      dir = join(this.shared, name);
      if (!existsSync(dir)) {
        const building = join(this.shared, `${name}.building-${process.pid}`);
        rmSync(building, { recursive: true, force: true });
        make(building);
        try {
          renameSync(building, dir);
        } catch (err) {
          // Another test process finished the same repository first: use its copy.
          rmSync(building, { recursive: true, force: true });
          if (!existsSync(dir)) throw err;
        }
      }
      this.made.set(name, dir);
    }
    return dir;
  }
}

/** Makes a bare repository at `dir` holding `shape`'s history, imported by git fast-import. */
export function importHistory(dir: string, shape: HistoryShape, format: 'sha1' | 'sha256'): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '--bare', `--object-format=${format}`]);
  const chunks: Buffer[] = [];
  writeHistory(shape, (chunk) => chunks.push(chunk));
  git(dir, ['fast-import', '--quiet'], Buffer.concat(chunks));
}

/** The bytes of every pack of a repository, for `git unpack-objects` (which takes one pack). */
function concatPacks(dir: string): Buffer {
  const packDir = join(dir, 'objects', 'pack');
  const packs = readdirSync(packDir).filter((n) => n.endsWith('.pack'));
  if (packs.length !== 1) throw new Error(`expected one pack in ${packDir}, found ${packs.length}`);
  return readFileSync(join(packDir, packs[0]!));
}
