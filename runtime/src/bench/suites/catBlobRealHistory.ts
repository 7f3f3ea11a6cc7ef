/**
 * A real project's history for the cat-blob benchmark: the published versions of an npm package,
 * committed one after another as they were released, then repacked as a long-lived project is
 * (`git repack -adf --depth=50 --window=250`). Real source files are small and change a little
 * from release to release, so the pack holds long chains of small deltas, where per-object costs
 * dominate; the generated histories have large blobs instead. The package registry is the one
 * source of real code every machine of this project reaches (`npm pack`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, readWorkload, writeRequests, type CatBlobWorkload } from './catBlobRepository';

/** Which releases make the history. */
export interface PackageHistory {
  /** The npm package (unscoped). */
  readonly name: string;
  /** Its first this many releases, in order of publication. */
  readonly releases: number;
}

/** Specs handed to one `npm pack` call: one process downloads many tarballs. */
const PACK_BATCH = 40;

/**
 * Builds (once, then reuses from `cacheDir`) a bare repository whose commits are the first
 * `history.releases` releases of `history.name` and the request files for its first `maxBlobs`
 * blobs in history order. Each step is marked done, so an interrupted build resumes: tarballs
 * already downloaded stay in the cache. Commit dates are the publication dates, so a rebuild makes
 * the same objects.
 */
export async function realHistoryWorkload(
  cacheDir: string,
  history: PackageHistory,
  maxBlobs: number,
  log: (message: string) => void,
): Promise<CatBlobWorkload> {
  const dir = join(cacheDir, `catblob-npm-${history.name}-${history.releases}`);
  const repo = join(dir, 'repo.git');
  const ready = join(dir, 'ready');
  if (!existsSync(ready)) {
    mkdirSync(dir, { recursive: true });
    const releases = listReleases(dir, history);
    const tarballs = join(dir, 'tarballs');
    download(history.name, releases, tarballs, log);
    log(`committing ${releases.length} releases of ${history.name}`);
    commitReleases(repo, join(dir, 'tree'), history.name, releases, tarballs);
    log('repacking as a long-lived project is (window 250, depth 50)');
    execFileSync('git', ['repack', '-adf', '-q', '--window=250', '--depth=50'], {
      env: gitEnv(repo),
      stdio: 'ignore',
    });
    writeRequests(repo, dir, maxBlobs);
    writeFileSync(ready, `${new Date().toISOString()}\n`);
  }
  return readWorkload(repo, dir);
}

/** A release: its version and when it was published (ISO date). */
interface Release {
  readonly version: string;
  readonly time: string;
}

/** The first releases in order of publication, asked of the registry once and kept. */
function listReleases(dir: string, history: PackageHistory): Release[] {
  const file = join(dir, 'releases.json');
  if (!existsSync(file)) {
    const times = JSON.parse(
      execFileSync('npm', ['view', history.name, 'time', '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 }),
    ) as Record<string, string>;
    const releases = Object.entries(times)
      .filter(([version]) => version !== 'created' && version !== 'modified')
      .map(([version, time]) => ({ version, time }))
      .sort((a, b) => a.time.localeCompare(b.time))
      .slice(0, history.releases);
    if (releases.length < history.releases) {
      throw new Error(`${history.name} has ${releases.length} releases, ${history.releases} wanted`);
    }
    writeFileSync(file, JSON.stringify(releases));
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Release[];
}

/** The file `npm pack` names a release's tarball. */
function tarballName(name: string, version: string): string {
  return `${name}-${version}.tgz`;
}

/** Fetches the tarballs not yet in `tarballs` through `npm pack`, a batch of releases per call. */
function download(
  name: string,
  releases: readonly Release[],
  tarballs: string,
  log: (m: string) => void,
): void {
  mkdirSync(tarballs, { recursive: true });
  const missing = releases.filter((r) => !existsSync(join(tarballs, tarballName(name, r.version))));
  if (missing.length > 0) log(`downloading ${missing.length} releases of ${name} with npm pack`);
  for (let i = 0; i < missing.length; i += PACK_BATCH) {
    const specs = missing.slice(i, i + PACK_BATCH).map((r) => `${name}@${r.version}`);
    execFileSync('npm', ['pack', '--silent', '--pack-destination', tarballs, ...specs], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  for (const r of releases) {
    if (!existsSync(join(tarballs, tarballName(name, r.version)))) {
      throw new Error(`npm pack gave no ${tarballName(name, r.version)} in ${tarballs}`);
    }
  }
}

/** Commits each release's files as the whole tree of one commit, oldest first. */
function commitReleases(
  repo: string,
  tree: string,
  name: string,
  releases: readonly Release[],
  tarballs: string,
): void {
  rmSync(repo, { recursive: true, force: true });
  execFileSync('git', ['init', '-q', '--bare', repo], { env: gitEnv(repo) });
  // The history is repacked once at the end. Git's automatic gc would start in the background after
  // a commit, from a work tree this loop deletes: it failed, and every later git command in the
  // repository printed the warning of the gc.log it left (or, had it run, it would repack while the
  // benchmark measures).
  execFileSync('git', ['config', 'gc.auto', '0'], { env: gitEnv(repo) });
  for (const { version, time } of releases) {
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(tree);
    // Tarballs hold one top folder (usually package/); old ones may carry odd modes.
    execFileSync('tar', [
      '-xzf',
      join(tarballs, tarballName(name, version)),
      '-C',
      tree,
      '--strip-components=1',
    ]);
    execFileSync('chmod', ['-R', 'u+rwX', tree]);
    const env = {
      ...gitEnv(repo),
      GIT_WORK_TREE: tree,
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: 'releases@example.com',
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: 'releases@example.com',
      GIT_AUTHOR_DATE: time,
      GIT_COMMITTER_DATE: time,
    };
    // -f: a package may ship files that its own .gitignore would leave out.
    execFileSync('git', ['add', '-A', '-f', '.'], { env, cwd: tree });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', `${name} ${version}`], { env, cwd: tree });
  }
  rmSync(tree, { recursive: true, force: true });
}
