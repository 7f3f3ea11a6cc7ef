import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeInFull } from '../../inFull';
import { replaceFileSafelySync } from '../../replaceFileSafely';
import { Fifo } from '../fifo';
import { blobsWritten, writeHistory, type HistoryShape } from './catBlobHistory';

/** The repository and requests a cat-blob benchmark runs on. */
export interface CatBlobWorkload {
  /** The bare repository (one pack with offset deltas, as after `git gc`). */
  repo: string;
  /** `cat-blob <oid>` lines for fast-import and writev-cat-blob. */
  catBlobRequest: string;
  /** The same object ids, one a line, for `git cat-file --batch`. */
  batchRequest: string;
  /** Blobs requested. */
  blobs: number;
  /** Payload bytes of the requested blobs. */
  bytes: number;
}

/** The environment the benchmark's git commands run in: no user or system configuration. */
export function gitEnv(repo: string): NodeJS.ProcessEnv {
  return { ...process.env, GIT_DIR: repo, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
}

/**
 * Builds (once, then reuses from `cacheDir`) a repository with the history of `shape` and the
 * request files for its first `maxBlobs` blobs in history order (newest first, as `git rev-list
 * --objects` walks them, which is how a history-rewriting frontend asks). The history is streamed
 * into git fast-import through a FIFO, then repacked as `git gc` would (offset deltas, depth 50).
 * `log` reports progress: a full-size build takes minutes.
 */
export async function catBlobWorkload(
  cacheDir: string,
  shape: HistoryShape,
  maxBlobs: number,
  log: (message: string) => void,
): Promise<CatBlobWorkload> {
  const name = `catblob-${shape.files}x${shape.commits}x${shape.editsPerCommit}x${shape.linesPerFile}-${shape.seed}`;
  const dir = join(cacheDir, name);
  const repo = join(dir, 'repo.git');
  const ready = join(dir, 'ready');
  // Two steps, each marked done, so an interrupted build resumes after the long import.
  const imported = join(dir, 'imported');
  if (!existsSync(ready)) {
    const env = gitEnv(repo);
    if (!existsSync(imported)) {
      rmSync(dir, { recursive: true, force: true });
      log(`building ${name}: about ${blobsWritten(shape)} blobs, once (cached in ${dir})`);
      execFileSync('git', ['init', '-q', '--bare', repo], { env });
      await importHistory(repo, shape);
      writeFileSync(imported, `${new Date().toISOString()}\n`);
    }
    log('repacking with deltas (window 10, depth 50)');
    execFileSync('git', ['repack', '-adf', '-q', '--window=10', '--depth=50'], { env, stdio: 'ignore' });
    writeRequests(repo, dir, maxBlobs);
    writeFileSync(ready, `${new Date().toISOString()}\n`);
  }
  return readWorkload(repo, dir);
}

/** The workload whose request files {@link writeRequests} wrote into `dir`. */
export function readWorkload(repo: string, dir: string): CatBlobWorkload {
  const stats = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as {
    blobs: number;
    bytes: number;
  };
  return {
    repo,
    catBlobRequest: join(dir, 'cat-blob.txt'),
    batchRequest: join(dir, 'oids.txt'),
    ...stats,
  };
}

/** Streams the generated history into `git fast-import` through a FIFO, with the runtime's writes. */
async function importHistory(repo: string, shape: HistoryShape): Promise<void> {
  const fifo = new Fifo();
  try {
    const importer = spawn('sh', ['-c', 'exec git fast-import --quiet < "$1"', 'import', fifo.path], {
      env: gitEnv(repo),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => importer.on('exit', resolve));
    const fd = openSync(fifo.path, 'w');
    try {
      writeHistory(shape, (chunk) => writeInFull(fd, chunk));
    } finally {
      closeSync(fd);
    }
    const status = await exited;
    if (status !== 0) throw new Error(`git fast-import exited with ${status} while building ${repo}`);
  } finally {
    fifo.dispose();
  }
}

/**
 * Writes the request files for the first `maxBlobs` blobs of `repo` in history order (newest first,
 * as `git rev-list --objects` walks them) into `dir`, and their totals.
 */
export function writeRequests(repo: string, dir: string, maxBlobs: number): void {
  const env = gitEnv(repo);
  const listed = execFileSync('git', ['rev-list', '--objects', '--all'], { env, maxBuffer: 1 << 30 });
  // Each line is "<oid> [<path>]"; cat-file takes the whole line as a name, so keep the id only.
  const objects = listed
    .toString()
    .split('\n')
    .map((line) => line.slice(0, line.indexOf(' ') === -1 ? line.length : line.indexOf(' ')))
    .join('\n');
  const checked = execFileSync(
    'git',
    ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
    {
      env,
      input: objects,
      maxBuffer: 1 << 30,
    },
  );
  const blobs: string[] = [];
  let bytes = 0;
  for (const line of checked.toString().split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (type !== 'blob' || blobs.length >= maxBlobs) continue;
    blobs.push(oid!);
    bytes += Number(size);
  }
  // Each file appears whole or not at all, through an exclusively created temporary name.
  replaceFileSafelySync(join(dir, 'cat-blob.txt'), blobs.map((oid) => `cat-blob ${oid}\n`).join(''));
  replaceFileSafelySync(join(dir, 'oids.txt'), blobs.map((oid) => `${oid}\n`).join(''));
  replaceFileSafelySync(join(dir, 'requests.json'), JSON.stringify({ blobs: blobs.length, bytes }));
}
