/**
 * The sideband benchmark's data: a repository whose history holds the requested amount of
 * incompressible bytes, its pack as writev-upload-pack caches it, the request a clone sends, and
 * the hook that makes `git upload-pack` send that same cached pack. Built once per size and kept
 * in the benchmark's cache folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { encodePktLine, flushPkt } from '../../protocol/pktLine';

/** The bundled server the benchmark runs (`runtime/dist/writev-upload-pack.js`). */
export const UPLOAD_PACK_BIN = join(__dirname, '..', '..', 'writev-upload-pack.js');

/** Everything a run needs, as paths. */
export interface SidebandFixture {
  /** The repository served. */
  readonly repo: string;
  /** The pack cache folder holding the one cached pack. */
  readonly cacheDir: string;
  /** The cached pack itself. */
  readonly pack: string;
  readonly packBytes: number;
  /** A request per framing: want the branch, flush, done. */
  readonly requests: Record<'side-band' | 'side-band-64k', string>;
  /** A packObjectsHook that swallows git's input and cats `pack`. */
  readonly hook: string;
}

/** Isolated from the user's configuration, with a fixed identity. */
export function benchGitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    ...extra,
  };
}

/**
 * Writes a `git fast-import` stream of one commit per file of random bytes (2 MiB each, the last
 * one smaller) to `path`, one file at a time so the generator never holds the whole history. Each
 * commit continues the branch: fast-import chains commits to the same ref by itself.
 */
function writeHistory(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    const fileSize = 2 << 20;
    for (let i = 0, left = bytes; left > 0; i++, left -= fileSize) {
      const data = randomBytes(Math.min(fileSize, left));
      writeSync(fd, `blob\nmark :${i + 1}\ndata ${data.length}\n`);
      writeSync(fd, data);
      writeSync(
        fd,
        `\ncommit refs/heads/main\ncommitter bench <bench@example.com> ${1_700_000_000 + i} +0000\n` +
          `data 8\nfile ${String(i).padStart(3, '0')}\nM 100644 :${i + 1} data/${i}.bin\n\n`,
      );
    }
  } finally {
    closeSync(fd);
  }
}

function request(capability: string, want: string): Buffer {
  return Buffer.concat([
    encodePktLine(`want ${want} ${capability} ofs-delta no-progress agent=writev-bench\n`),
    flushPkt(),
    encodePktLine('done\n'),
  ]);
}

/**
 * Builds (or finds, from an earlier run of the same size) the fixture under `dir`: the repository,
 * the requests, the hook, and the cached pack, which one serve of writev-upload-pack fills.
 */
export function sidebandFixture(dir: string, bytes: number): SidebandFixture {
  const root = join(dir, `sideband-${bytes}`);
  const repo = join(root, 'repo.git');
  const cacheDir = join(root, 'cache');
  const hook = join(root, 'cat-cached-pack.sh');
  const done = join(root, 'ready');
  if (!existsSync(done)) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repo], { env: benchGitEnv() });
    const stream = join(root, 'history.fi');
    writeHistory(stream, bytes);
    const input = openSync(stream, 'r');
    try {
      const imported = spawnSync('git', ['fast-import', '--quiet'], {
        cwd: repo,
        env: benchGitEnv({ GIT_DIR: repo }),
        stdio: [input, 'ignore', 'pipe'],
      });
      if (imported.status !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
    } finally {
      closeSync(input);
      rmSync(stream, { force: true });
    }
  }
  const head = execFileSync('git', ['rev-parse', 'refs/heads/main'], { env: benchGitEnv({ GIT_DIR: repo }) })
    .toString()
    .trim();
  const requests = {
    'side-band': join(root, 'request-side-band'),
    'side-band-64k': join(root, 'request-side-band-64k'),
  };
  for (const [capability, path] of Object.entries(requests)) writeFileSync(path, request(capability, head));
  const fill = () => {
    const input = openSync(requests['side-band-64k'], 'r');
    // Discarded through /dev/null opened for writing, as a shell's `>/dev/null` does: the server
    // takes a read-write /dev/null on its stdout (what `stdio: 'ignore'` gives) for a closed one.
    const output = openSync('/dev/null', 'w');
    try {
      const filled = spawnSync(process.execPath, [UPLOAD_PACK_BIN, `--cache-dir=${cacheDir}`, repo], {
        env: benchGitEnv(),
        stdio: [input, output, 'pipe'],
      });
      if (filled.status !== 0) throw new Error(`filling the pack cache failed: ${filled.stderr.toString()}`);
    } finally {
      closeSync(input);
      closeSync(output);
    }
  };
  const cachedPacks = () => readdirSync(cacheDir).filter((f) => f.endsWith('.pack'));
  if (!existsSync(done)) fill();
  let packs = cachedPacks();
  if (packs.length !== 1) {
    // A cache kept from a run of another version (whose key covered other inputs) holds other entries:
    // empty it and fill it again, so the cases serve the one pack this version caches.
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    fill();
    packs = cachedPacks();
  }
  if (packs.length !== 1) throw new Error(`expected one cached pack in ${cacheDir}, found ${packs.length}`);
  const pack = join(cacheDir, packs[0]!);
  writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\nexec cat '${pack}'\n`, { mode: 0o755 });
  writeFileSync(done, '');
  return { repo, cacheDir, pack, packBytes: statSync(pack).size, requests, hook };
}
