#!/usr/bin/env node
/**
 * The smart HTTP load test: N concurrent `git clone`s of a real repository over HTTP on 127.0.0.1,
 * first through writev-git-http's handler, then through git http-backend behind the same Node HTTP
 * server (the CGI bridge), each after one warm-up clone (which fills writev-upload-pack's pack cache).
 * Prints the wall time of the N clones and the server's peak memory for each, and their ratios; every
 * clone must succeed, be `git fsck`-clean and hold every object of the repository.
 *
 *   node runtime/dist/bench/httpLoad.js [--clones 32] [--rounds 1] [--source <repository>] [--protocol 0|2]
 *                                       [--upload-pack <command>] [--timeout <s>] [--work <dir>]
 *
 * `--source` defaults to the repository around the working folder (its whole history, cloned bare);
 * `--upload-pack` to this package's writev-upload-pack. Loopback only; every process it starts is
 * stopped by `--timeout` (default 600 s) at the latest.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once, setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGitHttpBackendHandler } from '../http/cgiBackend';
import { createSmartHttpHandler } from '../http/smartHttp';
import { shellCommand, writevUploadPack, type UploadPackCommand } from '../http/uploadPackCommand';
import { formatBytes } from './format';
import { median } from './stats';
import { TreeMemorySampler } from './processTreeMemory';
import { benchGitEnv } from './suites/sidebandFixture';

const USAGE =
  'usage: httpLoad.js [--clones <n>] [--rounds <n>] [--source <repository>] [--protocol 0|2]\n' +
  '                   [--spawn | --upload-pack <command>]\n' +
  '                   [--timeout <s>] [--work <dir>]\n';

type ServerKind = 'writev-git-http' | 'git-http-backend';

/** The servers' and clients' environment: no user configuration, and nothing between them and 127.0.0.1. */
function loadEnv(): NodeJS.ProcessEnv {
  const env = benchGitEnv();
  for (const name of Object.keys(env)) if (/_proxy$/i.test(name) || name === 'GIT_PROTOCOL') delete env[name];
  return env;
}

/** Server mode: one Node HTTP server with one of the two handlers, its port on stdout. */
async function serve(kind: ServerKind, root: string, uploadPack: string | undefined): Promise<void> {
  // '--spawn': writev-upload-pack as a process per request; no command: inside the server.
  const handler: RequestListener =
    kind === 'writev-git-http'
      ? createSmartHttpHandler({
          root,
          ...(uploadPack === '--spawn'
            ? { spawn: true }
            : uploadPack
              ? { uploadPack: shellCommand(uploadPack) }
              : {}),
        })
      : createGitHttpBackendHandler({ root });
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address !== null ? address.port : 0}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

/** Starts this file in server mode; resolves with the process and its base URL. */
async function startServer(
  kind: ServerKind,
  root: string,
  uploadPack: string | undefined,
): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    __filename,
    '--serve',
    kind,
    '--root',
    root,
    ...(uploadPack ? [`--upload-pack=${uploadPack}`] : []),
  ];
  const child = spawn(process.execPath, args, { env: loadEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise<string>((done, fail) => {
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const match = /^listening (\d+)\n/.exec(out);
      if (match) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the ${kind} server exited ${code} before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}/repo.git` };
}

function git(args: readonly string[], cwd?: string): string {
  return execFileSync('git', args, { cwd, env: loadEnv(), encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** A digest of every object reachable from every ref: two repositories agree or not. */
function objectsDigest(repo: string): { count: number; digest: string } {
  const lines = git(['rev-list', '--objects', '--all'], repo).trim().split('\n').sort();
  return { count: lines.length, digest: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

/** Runs `git clone`; rejects with git's stderr on failure. */
function cloneOnce(url: string, dest: string, protocol: string, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('git', ['-c', `protocol.version=${protocol}`, 'clone', '-q', '--bare', url, dest], {
      env: loadEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', fail);
    child.on('close', (code, killed) => {
      if (code === 0) done();
      else fail(new Error(`git clone ${url} ${dest}: ${killed ?? `exit ${code}`}: ${stderr.trim()}`));
    });
  });
}

interface LoadResult {
  kind: ServerKind;
  wall: number;
  serverPeakRss: number;
  treePeakRss: number;
  peakProcesses: number;
}

/** One server: a warm-up clone, then `clones` at once; checks each result against `expected`. */
async function measure(
  kind: ServerKind,
  work: string,
  options: { clones: number; protocol: string; uploadPack?: string; timeoutMs: number },
  expected: { count: number; digest: string },
): Promise<LoadResult> {
  const { child, url } = await startServer(kind, join(work, 'served'), options.uploadPack);
  const abort = new AbortController();
  // Every clone listens for the abort: more listeners than Node's default warning threshold.
  setMaxListeners(options.clones + 1, abort.signal);
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  const dests = join(work, kind);
  mkdirSync(dests, { recursive: true });
  try {
    await cloneOnce(url, join(dests, 'warm-up'), options.protocol, abort.signal);
    const sampler = new TreeMemorySampler(child.pid!);
    const start = process.hrtime.bigint();
    const clones = Array.from({ length: options.clones }, (_, i) =>
      cloneOnce(url, join(dests, `clone-${i}`), options.protocol, abort.signal),
    );
    const settled = await Promise.allSettled(clones);
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    sampler.stop();
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed.length > 0) {
      throw new Error(
        `${kind}: ${failed.length} of ${options.clones} clones failed; the first: ${String(failed[0]!.reason)}`,
      );
    }
    for (let i = 0; i < options.clones; i++) {
      const dest = join(dests, `clone-${i}`);
      git(['fsck', '--no-progress'], dest);
      const got = objectsDigest(dest);
      if (got.digest !== expected.digest) {
        throw new Error(
          `${kind}: clone ${i} holds ${got.count} objects, not the ${expected.count} of the repository`,
        );
      }
    }
    return {
      kind,
      wall,
      serverPeakRss: sampler.rootPeakRss,
      treePeakRss: sampler.peakTreeRss,
      peakProcesses: sampler.peakProcesses,
    };
  } finally {
    clearTimeout(timer);
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    rmSync(dests, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      root: { type: 'string' },
      clones: { type: 'string', default: '32' },
      rounds: { type: 'string', default: '1' },
      source: { type: 'string' },
      protocol: { type: 'string', default: '2' },
      'upload-pack': { type: 'string' },
      spawn: { type: 'boolean' },
      timeout: { type: 'string', default: '600' },
      work: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void process.stdout.write(USAGE);
  if (values.serve !== undefined) {
    if (values.serve !== 'writev-git-http' && values.serve !== 'git-http-backend')
      throw new Error(`--serve ${values.serve}?`);
    return serve(values.serve, values.root!, values['upload-pack']);
  }
  const clones = Number(values.clones);
  const timeoutMs = Number(values.timeout) * 1000;
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20)
    throw new Error(`--rounds must be 1 to 20, not ${values.rounds}`);
  if (!Number.isInteger(clones) || clones < 1 || clones > 256)
    throw new Error(`--clones must be 1 to 256, not ${values.clones}`);
  if (!(timeoutMs > 0)) throw new Error(`--timeout must be a number of seconds, not ${values.timeout}`);
  if (values.protocol !== '0' && values.protocol !== '2') throw new Error(`--protocol must be 0 or 2`);
  if (values.spawn && values['upload-pack']) throw new Error('--spawn and --upload-pack exclude each other');
  const uploadPack = values.spawn ? '--spawn' : values['upload-pack'];
  const command: UploadPackCommand =
    uploadPack && !values.spawn ? shellCommand(uploadPack) : writevUploadPack();
  const source = resolve(values.source ?? git(['rev-parse', '--show-toplevel']).trim());
  const work = values.work ? resolve(values.work) : mkdtempSync(join(tmpdir(), 'writev-http-load-'));
  const repo = join(work, 'served', 'repo.git');
  try {
    rmSync(repo, { recursive: true, force: true });
    git(['clone', '-q', '--bare', '--no-local', source, repo]);
    const expected = objectsDigest(repo);
    if (values.spawn) {
      const probe = spawnSync(command.file, [...command.args, '--stateless-rpc', '--advertise-refs', repo], {
        env: loadEnv(),
        timeout: 60_000,
      });
      if (probe.status !== 0) {
        throw new Error(
          `${command.args.join(' ')} does not serve --stateless-rpc (exit ${probe.status}: ` +
            `${probe.stderr.toString().trim().split('\n')[0]}); pass --upload-pack 'git upload-pack' to compare the HTTP layers alone`,
        );
      }
    }
    const pack = Number(/size-pack: (\d+)/.exec(git(['count-objects', '-v'], repo))?.[1] ?? 0) * 1024;
    process.stdout.write(
      `${clones} concurrent clones (--bare, protocol v${values.protocol}) of ${source}: ` +
        `${expected.count} objects, ${formatBytes(pack)} packed, over http://127.0.0.1\n` +
        `writev-git-http runs ${
          values.spawn
            ? `${[command.file, ...command.args].join(' ')} per request`
            : (uploadPack ?? 'writev-upload-pack inside its process')
        }\n`,
    );
    const options = { clones, protocol: values.protocol, uploadPack, timeoutMs };
    const results: LoadResult[] = [];
    // Rounds in the order ours, theirs, theirs, ours, ...: on a shared machine the load drifts, and
    // each server then gets as many early runs as late ones.
    for (let round = 0; round < rounds; round++) {
      const order = ['writev-git-http', 'git-http-backend'] as const;
      for (const kind of round % 2 === 0 ? order : [...order].reverse()) {
        const result = await measure(kind, work, options, expected);
        results.push(result);
        process.stdout.write(
          `${kind.padEnd(17)} wall ${result.wall.toFixed(2).padStart(7)} s   server peak RSS ${formatBytes(result.serverPeakRss).padStart(10)}` +
            `   tree peak RSS ${formatBytes(result.treePeakRss).padStart(10)} (${result.peakProcesses} processes at most)` +
            `   all ${clones} fsck-clean, all objects\n`,
        );
      }
    }
    const medianOf = (kind: ServerKind, pick: (r: LoadResult) => number): number =>
      median(results.filter((r) => r.kind === kind).map(pick));
    const ratio = (pick: (r: LoadResult) => number): string =>
      `${(medianOf('git-http-backend', pick) / medianOf('writev-git-http', pick)).toFixed(2)}x`;
    process.stdout.write(
      `git http-backend / writev-git-http${rounds > 1 ? `, medians of ${rounds}` : ''}: ` +
        `wall ${ratio((r) => r.wall)}, server peak RSS ${ratio((r) => r.serverPeakRss)}, ` +
        `tree peak RSS ${ratio((r) => r.treePeakRss)}\n`,
    );
  } finally {
    if (!values.work) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`httpLoad: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(1);
});
