/**
 * The smart HTTP tests' tools: the bin started on 127.0.0.1 (never another address), an in-process
 * server for a handler, raw HTTP requests, and the upload-pack commands every test runs with.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGitHttpBackendHandler } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';

const DIST = join(__dirname, '..', '..', '..', '..', 'runtime', 'dist');
/** The bundled server, as users run it. */
export const HTTP_BIN = join(DIST, 'writev-git-http.js');
/** The bundled writev-upload-pack. */
export const UPLOAD_PACK_BIN = join(DIST, 'writev-upload-pack.js');

/** An environment for git and the servers: no user or system config, no proxy between. */
export function httpTestEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = gitEnv(extra);
  for (const name of Object.keys(env)) if (/_proxy$/i.test(name)) delete env[name];
  return env;
}

/** git configuration in the environment for one pack-objects thread: a request gives the same pack bytes. */
export const PACK_THREADS_1: NodeJS.ProcessEnv = {
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'pack.threads',
  GIT_CONFIG_VALUE_0: '1',
};

/** An upload-pack the handler can run, as the bin's `--upload-pack` and as the handler's option. */
export interface UploadPackUnderTest {
  readonly name: string;
  /** A shell command for `--upload-pack`. */
  readonly shell: string;
  readonly file: string;
  readonly args: readonly string[];
  /** Why the tests with this command are skipped, or false when they run. */
  readonly skip: string | false;
  /** Why its shallow clone tests are skipped (it does not advertise `shallow`), or false. */
  readonly skipShallow: string | false;
}

/**
 * Whether `file args` serves `--stateless-rpc --advertise-refs` of `repo`: found by running it, so
 * the tests start running for real on the day writev-upload-pack learns the flags.
 */
function statelessRpcProblem(file: string, args: readonly string[], repo: string): string | false {
  const probe = spawnSync(file, [...args, '--stateless-rpc', '--advertise-refs', repo], {
    env: httpTestEnv(),
    timeout: 20_000,
  });
  const out = probe.stdout?.toString('latin1') ?? '';
  if (probe.status === 0 && /^[0-9a-f]{4}/.test(out)) return false;
  const said = (probe.stderr?.toString('utf8') ?? '').trim().split('\n')[0];
  return `it does not serve --stateless-rpc --advertise-refs yet (exit ${probe.status}: ${said})`;
}

/**
 * Whether `file args` advertises `shallow` (v0, `--advertise-refs`): found by running it, so the
 * shallow tests run for real on the day writev-upload-pack serves shallow clones.
 */
function shallowProblem(file: string, args: readonly string[], repo: string): string | false {
  const probe = spawnSync(file, [...args, '--advertise-refs', repo], { env: httpTestEnv(), timeout: 20_000 });
  const first = (probe.stdout?.toString('latin1') ?? '').split('\n')[0] ?? '';
  const caps = first.split('\0')[1]?.split(' ') ?? [];
  return caps.includes('shallow') ? false : 'it does not advertise shallow yet';
}

/**
 * The upload-packs under test: git's own, and writev-upload-pack, skipped with the reason only
 * while it does not accept `--stateless-rpc` (checked against `repo`, a repository to advertise),
 * and its shallow tests while it does not advertise `shallow`.
 */
export function uploadPacks(repo: string): UploadPackUnderTest[] {
  const writevArgs = [UPLOAD_PACK_BIN];
  const problem = statelessRpcProblem(process.execPath, writevArgs, repo);
  const shallow = problem === false ? shallowProblem(process.execPath, writevArgs, repo) : problem;
  return [
    {
      name: 'git upload-pack',
      shell: 'git upload-pack',
      file: 'git',
      args: ['upload-pack'],
      skip: false,
      skipShallow: false,
    },
    {
      name: 'writev-upload-pack',
      shell: [process.execPath, UPLOAD_PACK_BIN].map((a) => `'${a}'`).join(' '),
      file: process.execPath,
      args: writevArgs,
      skip: problem === false ? false : `writev-upload-pack: ${problem}`,
      skipShallow: shallow === false ? false : `writev-upload-pack: ${shallow}`,
    },
  ];
}

/** A running `writev-git-http`. */
export interface RunningBin {
  readonly url: string;
  readonly child: ChildProcess;
  /** What the server has said on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts the bin on 127.0.0.1 and a free port, its children (upload-pack) in `env`; resolves once
 * it listens.
 */
export async function startBin(
  folder: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = httpTestEnv(),
): Promise<RunningBin> {
  const child = spawn(process.execPath, [HTTP_BIN, '--port', '0', '--host', '127.0.0.1', ...args, folder], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`writev-git-http exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Serves `handler` on 127.0.0.1 and a free port. */
export async function serveHandler(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}/`, server };
}

/** writev-git-http and git http-backend serving the same folder, and how to stop both. */
export interface HttpPair {
  /** writev-git-http's base URL (ending in `/`). */
  readonly ours: string;
  /** git http-backend's base URL, behind a Node server in this process. */
  readonly git: string;
  /** What writev-git-http has said on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Serves `folder` twice: by the bin running `uploadPack` (a shell command, as its
 * `--upload-pack` takes it), and by git http-backend behind a Node server. `env` is every
 * upload-pack's environment on both sides (a namespace, git configuration), `only` what one side
 * gets besides (ours its cache, each its own hook log).
 */
export async function serveBoth(
  folder: string,
  uploadPack: string,
  env: NodeJS.ProcessEnv,
  only: { ours?: NodeJS.ProcessEnv; git?: NodeJS.ProcessEnv } = {},
): Promise<HttpPair> {
  const backend = await serveHandler(
    createGitHttpBackendHandler({ root: folder, env: httpTestEnv({ ...env, ...only.git }) }),
  );
  let ours: RunningBin;
  try {
    ours = await startBin(folder, ['--upload-pack', uploadPack], httpTestEnv({ ...env, ...only.ours }));
  } catch (err) {
    await closeServer(backend.server);
    throw err;
  }
  return {
    ours: ours.url,
    git: backend.url,
    stderr: () => ours.stderr(),
    stop: async () => {
      await Promise.all([ours.stop(), closeServer(backend.server)]);
    },
  };
}

/** Stops a server and drops its open connections. */
export async function closeServer(server: Server): Promise<void> {
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}

/** An HTTP answer, read whole. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request with the path exactly as given (no normalisation of `..` or `%2e`, which
 * `fetch` and `URL` would do), and reads the whole answer.
 */
export function httpRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: Buffer } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path,
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(options.body);
  });
}

/** The pkt-lines of `data` as text (flushes as `0000`), for readable assertions. */
export function pktLines(data: Buffer): string[] {
  const lines: string[] = [];
  for (let at = 0; at + 4 <= data.length;) {
    const length = parseInt(data.toString('latin1', at, at + 4), 16);
    if (Number.isNaN(length))
      throw new Error(`not a pkt-line at ${at}: ${data.toString('latin1', at, at + 20)}`);
    if (length < 4) {
      lines.push(data.toString('latin1', at, at + 4));
      at += 4;
      continue;
    }
    lines.push(data.toString('latin1', at + 4, at + length));
    at += length;
  }
  return lines;
}

/**
 * What a stateless v0 answer says once packet boundaries are set aside (upload-pack relays
 * pack-objects' output as it arrives, so they vary): the lines before the pack, the pack itself
 * (the band-1 bytes), and the text of the other bands.
 */
export function answerContent(data: Buffer): { lines: string[]; pack: Buffer; other: string } {
  const lines: string[] = [];
  const pack: Buffer[] = [];
  let other = '';
  let inPack = false;
  for (let at = 0; at + 4 <= data.length;) {
    const length = parseInt(data.toString('latin1', at, at + 4), 16);
    if (Number.isNaN(length)) throw new Error(`not a pkt-line at ${at}`);
    const payload = length < 4 ? undefined : data.subarray(at + 4, at + length);
    at += length < 4 ? 4 : length;
    if (payload === undefined) lines.push(data.toString('latin1', at - 4, at));
    else if (!inPack) {
      lines.push(payload.toString('latin1'));
      inPack = payload.toString('latin1') === 'NAK\n';
    } else if (payload[0] === 1) pack.push(payload.subarray(1));
    else other += payload.subarray(1).toString('utf8');
  }
  return { lines, pack: Buffer.concat(pack), other };
}
