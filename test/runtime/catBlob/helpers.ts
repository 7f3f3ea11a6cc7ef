import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { GIT_ENV } from '../odb/helpers/gitFixtures';

/** The writev-cat-blob command as users run it (the package's bin: the esbuild bundle). */
export const CAT_BLOB_BIN = join(__dirname, '..', '..', '..', '..', 'runtime', 'dist', 'writev-cat-blob.js');

/** What a cat-blob responder process did with one request. */
export interface Answered {
  status: number | null;
  /** Everything written on the cat-blob descriptor (fd 3). */
  catBlob: Buffer;
  stderr: string;
}

export function run(command: string, args: string[], cwd: string, request: string | Buffer): Answered {
  const result = spawnSync(command, args, {
    cwd,
    env: GIT_ENV,
    input: request,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
    // A hang is a failure, not a stuck suite.
    timeout: 120_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, catBlob: result.output[3] as Buffer, stderr: String(result.stderr) };
}

/**
 * Runs writev-cat-blob in `dir` on `request` with its output piped into `head -c 100`, which leaves
 * early; gives the exit status bash saw for writev-cat-blob and what it wrote to stderr.
 */
export function catBlobIntoClosedReader(dir: string, request: string): { status: string; stderr: string } {
  const result = spawnSync(
    'bash',
    ['-c', '"$@" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}"', 'pipe', process.execPath, CAT_BLOB_BIN],
    { cwd: dir, input: request, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: result.stdout.trim(), stderr: result.stderr };
}

/** Runs `git fast-import --cat-blob-fd=3` in `dir` on `request`. */
export function fastImport(dir: string, request: string | Buffer): Answered {
  return run('git', ['fast-import', '--quiet', '--cat-blob-fd=3'], dir, request);
}

/** Runs `writev-cat-blob --cat-blob-fd=3` in `dir` on `request`, with extra arguments. */
export function writevCatBlob(dir: string, request: string | Buffer, args: string[] = []): Answered {
  return run(process.execPath, [CAT_BLOB_BIN, '--cat-blob-fd=3', ...args], dir, request);
}

/** Shuffles deterministically (so a failure can be replayed). */
export function shuffled<T>(items: readonly T[], seed = 1): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
