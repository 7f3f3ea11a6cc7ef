import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The newest code-server that runs on Node 20 (VS Code 1.100.3). */
export const CODE_SERVER_VERSION = '4.100.3';

/** ripgrep as @vscode/ripgrep 1.15.11 would download it; seeded from Debian's rg (no network here). */
const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_ARCHIVE = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

/**
 * The folder code-server is installed into: `$WRITEV_E2E_CACHE`, else `writev` in the user's cache
 * folder (`$XDG_CACHE_HOME` or `~/.cache`), so that every clone on a machine shares one install.
 */
export function codeServerCacheDir(): string {
  if (process.env.WRITEV_E2E_CACHE) return process.env.WRITEV_E2E_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'writev');
}

/** The folder of a finished install in `cacheDir` (a folder of that name is always complete). */
function installDir(cacheDir: string): string {
  return join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
}

/** Where code-server lives once installed into `cacheDir`. */
export function codeServerEntry(cacheDir: string): string {
  return join(installDir(cacheDir), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** The file a finished install holds, written last. */
const STAMP = 'installed';

/** Whether `cacheDir` holds a finished install. */
export function installed(cacheDir: string): boolean {
  return existsSync(join(installDir(cacheDir), STAMP)) && existsSync(codeServerEntry(cacheDir));
}

/** What a missing system package would break, checked before a 90-second install fails on it. */
function missingPrerequisites(): string[] {
  const has = (cmd: string, args: string[]): boolean =>
    spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  const missing = [];
  if (!has('pkg-config', ['--exists', 'krb5-gssapi']))
    missing.push('libkrb5-dev pkg-config (kerberos builds from source)');
  if (!has('rg', ['--version'])) missing.push('ripgrep (seeds @vscode/ripgrep, whose download fails)');
  return missing;
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const PARTIAL = `code-server-${CODE_SERVER_VERSION}.partial-`;

/** Removes the unfinished installs of processes that are gone (an install interrupted by Ctrl-C). */
function removeAbandoned(cacheDir: string): void {
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith(PARTIAL)) continue;
    const pid = Number(name.slice(PARTIAL.length));
    if (!Number.isInteger(pid) || !alive(pid)) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}

/** The pid of a process installing into `cacheDir` right now, if there is one. */
export function installerRunning(cacheDir: string): number | undefined {
  if (!existsSync(cacheDir)) return undefined;
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith(PARTIAL)) continue;
    const pid = Number(name.slice(PARTIAL.length));
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) return pid;
  }
  return undefined;
}

/**
 * Installs code-server into `cacheDir` once (about 300 MB, from the npm registry), outside the project's
 * dependencies, with the four fixes of the shared notes: unsafe-perm and yes for root and npx, kerberos
 * built against Debian's libkrb5-dev, and @vscode/ripgrep's download cache seeded with Debian's rg.
 * It installs into a folder of its own process and renames it into place when npm has finished, so an
 * interrupted install is never taken for a finished one, and two installs at once both end with one.
 *
 * @returns the path of code-server's entry script (run it with node).
 */
export function ensureCodeServer(cacheDir: string, log: (line: string) => void): string {
  const dir = installDir(cacheDir);
  const entry = codeServerEntry(cacheDir);
  if (installed(cacheDir)) return entry;
  const missing = missingPrerequisites();
  if (missing.length > 0) {
    throw new Error(`installing code-server needs: apt-get install -y ${missing.join('; ')}`);
  }
  mkdirSync(cacheDir, { recursive: true });
  removeAbandoned(cacheDir);
  const work = join(cacheDir, `${PARTIAL}${process.pid}`);
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (once per machine; about 90 s)`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  try {
    npmInstall(work);
    writeFileSync(join(work, STAMP), `${new Date().toISOString()}\n`);
    // A folder of the final name without the stamp is an older harness's unfinished install (it wrote
    // into place): it goes, so the rename below can land.
    if (existsSync(dir) && !installed(cacheDir)) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (err) {
      // Another process finished the same install first: keep its folder.
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !installed(cacheDir)) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return entry;
}

/** Runs `npm install code-server` in `dir` (its own package.json, a temporary folder inside). */
function npmInstall(dir: string): void {
  writeFileSync(join(dir, 'package.json'), '{ "name": "code-server-cache", "private": true }\n');
  const tmp = join(dir, 'tmp');
  mkdirSync(join(tmp, RIPGREP_CACHE), { recursive: true });
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  const tar = spawnSync('tar', [
    'czf',
    join(tmp, RIPGREP_CACHE, RIPGREP_ARCHIVE),
    '-C',
    join(rg, '..'),
    'rg',
  ]);
  if (tar.status !== 0) throw new Error(`seeding the ripgrep cache failed: ${String(tar.stderr)}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    [
      'install',
      `code-server@${CODE_SERVER_VERSION}`,
      '--foreground-scripts',
      '--no-audit',
      '--no-fund',
      '--no-save',
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...process.env, TMPDIR: tmp, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
    },
  );
  if (
    install.status !== 0 ||
    !existsSync(join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'))
  ) {
    throw new Error(
      `npm install code-server@${CODE_SERVER_VERSION} failed (${install.status}):\n${install.stderr.slice(-4000)}`,
    );
  }
  rmSync(tmp, { recursive: true, force: true });
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The folders one code-server run keeps its state in, all under one throwaway root. */
export interface CodeServerDirs {
  root: string;
  userData: string;
  extensions: string;
  config: string;
  /** XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_CACHE_HOME for code-server and chromium. */
  env: Record<string, string>;
}

/** Makes the folders of a run under `root`, and the config file (no password, no TLS). */
export function makeDirs(root: string): CodeServerDirs {
  const dirs = {
    root,
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
    config: join(root, 'config.yaml'),
    env: {
      XDG_CONFIG_HOME: join(root, 'xdg-config'),
      XDG_DATA_HOME: join(root, 'xdg-data'),
      XDG_CACHE_HOME: join(root, 'xdg-cache'),
    },
  };
  for (const dir of [dirs.userData, dirs.extensions, ...Object.values(dirs.env)])
    mkdirSync(dir, { recursive: true });
  writeFileSync(dirs.config, 'auth: none\ncert: false\n');
  return dirs;
}

/** Installs a .vsix into the run's extensions folder. */
export function installExtension(entry: string, dirs: CodeServerDirs, vsix: string): string {
  const run = spawnSync(
    process.execPath,
    [
      entry,
      '--config',
      dirs.config,
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
      '--install-extension',
      vsix,
    ],
    { encoding: 'utf8', env: { ...process.env, ...dirs.env }, timeout: 120_000 },
  );
  if (run.status !== 0)
    throw new Error(`code-server --install-extension failed (${run.status}): ${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** A running code-server, stopped by its process id (it leads its own process group). */
export interface RunningCodeServer {
  pid: number;
  url: string;
  port: number;
  /** Output so far, for a failure message. */
  output(): string;
  /** Stops code-server and everything it started (extension host, language server, benchmarks). */
  stop(): Promise<void>;
}

/** Starts code-server on 127.0.0.1 for `workspace` and waits until /healthz answers. */
export async function startCodeServer(
  entry: string,
  dirs: CodeServerDirs,
  workspace: string,
): Promise<RunningCodeServer> {
  const port = await freePort();
  const args = [
    entry,
    '--config',
    dirs.config,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    workspace,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...dirs.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-20000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start');
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-pid, signal);
      } catch {
        // the group is gone already
      }
    };
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    signalGroup('SIGKILL'); // stragglers of the group (an extension host that ignored SIGTERM)
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { pid, url, port, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`code-server did not answer on ${url}/healthz within 60 s:\n${output}`);
}
