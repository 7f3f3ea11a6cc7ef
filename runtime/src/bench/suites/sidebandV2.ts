/**
 * The sideband suite's protocol v2 cases: a full clone and a `--depth 1` clone of a real project's
 * history (eslint's releases, the history the cat-blob suite builds), the pack served from
 * writev-upload-pack's cache over a pipe and over smart HTTP, against git's own upload-pack doing the
 * same work: over a pipe, and through `git http-backend` behind the same Node HTTP server (the CGI
 * gateway). Each mode answers one v2 `fetch` with `done`, as a clone's last request; the client end
 * only drains the answer, so the figures are the server's, not index-pack's.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { delimPkt, encodePktLine, flushPkt } from '../../protocol/pktLine';
import { DrainedPipe } from '../fifo';
import { measureProcess } from '../measure';
import type { CaseResult, RunSample } from '../result';
import { runCase, type Mode } from '../runCase';
import { bySize, type SuiteContext } from '../suite';
import { targetLine, type Target } from '../targets';
import { MAX_BLOBS } from './catBlob';
import { realHistoryWorkload, type PackageHistory } from './catBlobRealHistory';
import { benchGitEnv, UPLOAD_PACK_BIN } from './sidebandFixture';
import { ONE_PACK_THREAD, postV2, startHttpPair } from './sidebandHttp';

/** The full clone case's id in the sideband suite. */
export const V2_FULL_CLONE = 'v2-full-clone';
/** The `--depth 1` clone case's id in the sideband suite. */
export const V2_DEPTH_1_CLONE = 'v2-depth-1-clone';

/** What one v2 case asks for: its wants and the `fetch` arguments besides them and `done`. */
interface V2Clone {
  /** The clone, in words, for the case's title. */
  readonly what: string;
  /** The arguments before the wants, in the order git's client sends them. */
  readonly args: readonly string[];
  /** The wants, from the repository's refs (`git for-each-ref` with `gitEnv`). */
  wants(gitEnv: NodeJS.ProcessEnv): string[];
}

const gitLines = (args: string[], env: NodeJS.ProcessEnv): string[] =>
  execFileSync('git', args, { env, encoding: 'utf8' }).trim().split('\n');

/** The v2 cases: a mirror-like fetch of every ref, and what `git clone --depth 1` asks. */
const V2_CLONES: Record<string, V2Clone> = {
  [V2_FULL_CLONE]: {
    what: 'full clone',
    args: ['ofs-delta', 'no-progress'],
    wants: (env) => [...new Set(gitLines(['for-each-ref', '--format=%(objectname)'], env))],
  },
  // git 2.39's `clone --depth 1`: its default branch only, tags that point into the pack.
  [V2_DEPTH_1_CLONE]: {
    what: '--depth 1 clone',
    args: ['thin-pack', 'no-progress', 'include-tag', 'ofs-delta', 'deepen 1'],
    wants: (env) => gitLines(['rev-parse', 'HEAD'], env),
  },
};

/** The modes, by the names tables and charts show. */
export const V2_MODES = {
  gitPipe: 'git upload-pack (pipe)',
  oursPipe: 'writev-upload-pack (pipe)',
  gitHttp: 'git http-backend (HTTP)',
  oursHttp: 'writev-git-http (HTTP)',
} as const;

/** The history cloned: eslint's releases, as many as the cat-blob suite's real case at each size but quick. */
const HISTORY: Record<SuiteContext['size'], PackageHistory> = {
  tiny: { name: 'eslint', releases: 5 },
  // One `npm pack` call's worth (the cat-blob suite takes 120): a quick run stays quick to prepare.
  quick: { name: 'eslint', releases: 40 },
  full: { name: 'eslint', releases: 430 },
};

/** The v2 request a clone ends with: a `fetch` of `wants`, `done` at once (nothing to negotiate). */
function fetchRequest(args: readonly string[], wants: readonly string[], objectFormat: string): Buffer {
  return Buffer.concat([
    encodePktLine('command=fetch\n'),
    encodePktLine('agent=writev-bench\n'),
    encodePktLine(`object-format=${objectFormat}\n`),
    delimPkt(),
    ...args.map((arg) => encodePktLine(`${arg}\n`)),
    ...wants.map((oid) => encodePktLine(`want ${oid}\n`)),
    encodePktLine('done\n'),
    flushPkt(),
  ]);
}

/**
 * The digest of a v2 answer's pack (band-1 bytes after the `packfile` line), which must end with a
 * flush and carry nothing on other bands, and of its `shallow`/`unshallow` lines as a set (git
 * lists them in its hash table's order); the other lines before the pack are skipped.
 */
export function v2PackDigest(answer: Buffer, from: string): string {
  const hash = createHash('sha256');
  const shallows: string[] = [];
  let inPack = false;
  let at = 0;
  for (;;) {
    if (answer.length - at < 4) throw new Error(`${from}: the answer ends before the pack's flush`);
    const length = parseInt(answer.toString('latin1', at, at + 4), 16);
    if (Number.isNaN(length)) throw new Error(`${from}: not a pkt-line at byte ${at}`);
    const size = length < 4 ? 4 : length;
    const payload = answer.subarray(at + 4, at + size);
    at += size;
    if (!inPack) {
      const line = length >= 4 ? payload.toString('latin1') : '';
      if (/^(un)?shallow /.test(line)) shallows.push(line);
      inPack = line === 'packfile\n';
    } else if (length === 0) {
      if (at !== answer.length) throw new Error(`${from}: bytes after the pack's closing flush`);
      return hash.update(shallows.sort().join('')).digest('hex');
    } else if (payload[0] === 1) {
      hash.update(payload.subarray(1));
    } else {
      throw new Error(`${from}: a packet on band ${payload[0]}: ${payload.subarray(1).toString('utf8')}`);
    }
  }
}

/**
 * What writev-upload-pack reported of its serve (the timing file holds one line per serve; the
 * run's is the last): its start-up and streaming seconds. A serve not from the cache is an error.
 */
function cachedServe(timing: string, name: string): Record<string, number> {
  const lines = readFileSync(timing, 'utf8').trim().split('\n');
  const serve = JSON.parse(lines.at(-1)!) as { pack: string; requestAt: number; endAt: number };
  if (serve.pack !== 'cache-hit') throw new Error(`${name}: not served from the cache (${serve.pack})`);
  return { startup: serve.requestAt / 1000, streaming: (serve.endAt - serve.requestAt) / 1000 };
}

/**
 * The case's target, set for `--size full` as the issue states it: the cached v2 serve streams no
 * slower than git's whole run over the pipe.
 */
export function v2Targets(result: CaseResult): Target[] {
  const git = result.results.find((m) => m.command === V2_MODES.gitPipe)!;
  const ours = result.results.find((m) => m.command === V2_MODES.oursPipe)!;
  const ratio = (ours.extra?.streaming ?? Number.NaN) / git.median;
  return [
    {
      description: `writev-upload-pack streaming / git upload-pack whole run, pipe: ${ratio.toFixed(2)}x (target <= 1.0x)`,
      met: ratio <= 1,
      size: 'full',
    },
  ];
}

/**
 * Measures one v2 case (`id`, {@link V2_FULL_CLONE} or {@link V2_DEPTH_1_CLONE}). The cached pack
 * is filled by one unmeasured serve; every measured serve of ours must be a cache hit, and every
 * mode's pack (and shallow lines) must be the same bytes.
 */
export async function runV2Clone(suite: string, ctx: SuiteContext, id: string): Promise<CaseResult> {
  const clone = V2_CLONES[id];
  if (clone === undefined) throw new Error(`no v2 case '${id}' in the sideband suite`);
  const log = (message: string): void => ctx.emit({ type: 'log', suite, message });
  const history = bySize(ctx.size, HISTORY);
  const work = await realHistoryWorkload(ctx.cacheDir, history, MAX_BLOBS, log);
  const root = join(work.repo, '..');
  // A folder (so a cache) per case: the check below counts the case's one cached pack.
  const dir = join(ctx.cacheDir, `sideband-${id}-${history.name}-${history.releases}`);
  mkdirSync(dir, { recursive: true });
  const cacheDir = join(dir, 'cache');
  const timing = join(dir, `timing-${process.pid}.jsonl`);
  // Ours always packs with one thread (see below): its measured serves are cache hits, and the
  // cache's key covers the pack configuration, so its fill must be made as it is then asked.
  const env = benchGitEnv({
    ...ONE_PACK_THREAD,
    WRITEV_UPLOAD_PACK_CACHE: cacheDir,
    WRITEV_UPLOAD_PACK_TIMING: timing,
  });
  const gitEnv = benchGitEnv({ GIT_DIR: work.repo });
  const wants = clone.wants(gitEnv);
  const [objectFormat] = gitLines(['rev-parse', '--show-object-format'], gitEnv);
  const body = fetchRequest(clone.args, wants, objectFormat!);
  // Over a pipe the session ends with the client's flush after its one request.
  const pipeRequest = join(dir, 'request-v2-fetch');
  writeFileSync(pipeRequest, Buffer.concat([body, flushPkt()]));

  const pipeCommands = {
    [V2_MODES.gitPipe]: { file: 'git', args: ['upload-pack', work.repo], ours: false },
    [V2_MODES.oursPipe]: { file: process.execPath, args: [UPLOAD_PACK_BIN, work.repo], ours: true },
  };
  const pipeEnv = (ours: boolean, gitExtra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv =>
    ours ? { ...env, GIT_PROTOCOL: 'version=2' } : benchGitEnv({ ...gitExtra, GIT_PROTOCOL: 'version=2' });

  // The same pack from every mode first (this also fills the cache), with one thread of delta
  // search: with more, git's own packs differ from run to run wherever it searches deltas anew (a
  // shallow pack's objects whose bases it leaves out). Git's measured runs keep its default.
  const digests = new Map<string, string>();
  for (const [name, command] of Object.entries(pipeCommands)) {
    const answer = execFileSync(command.file, command.args, {
      input: readFileSync(pipeRequest),
      env: pipeEnv(command.ours, ONE_PACK_THREAD),
      maxBuffer: 1 << 30,
    });
    digests.set(name, v2PackDigest(answer, name));
  }
  const checked = await startHttpPair(root, benchGitEnv(ONE_PACK_THREAD), env);
  try {
    for (const [name, base] of [
      [V2_MODES.gitHttp, checked.backend],
      [V2_MODES.oursHttp, checked.smart],
    ] as const) {
      const answer = await postV2(base, body, true);
      if (answer.status !== 200) throw new Error(`${name}: HTTP ${answer.status}`);
      digests.set(name, v2PackDigest(answer.data!, name));
    }
  } finally {
    await checked.close();
  }

  const pipe = new DrainedPipe();
  const servers = await startHttpPair(root, benchGitEnv(), env).catch((error: unknown) => {
    pipe.dispose();
    throw error;
  });
  const { backend, smart } = servers;
  try {
    const reference = digests.get(V2_MODES.gitPipe);
    const differ = [...digests].filter(([, digest]) => digest !== reference).map(([name]) => name);
    if (differ.length > 0) throw new Error(`${differ.join(', ')}: the pack differs from git upload-pack's`);
    const packs = readdirSync(cacheDir).filter((f) => f.endsWith('.pack'));
    if (packs.length !== 1) throw new Error(`expected one cached pack in ${cacheDir}, found ${packs.length}`);
    log(`${id}: the same pack, byte for byte, from all ${digests.size} modes`);
    const packBytes = statSync(join(cacheDir, packs[0]!)).size;

    const pipeMode = (name: keyof typeof pipeCommands): Mode => ({
      name,
      run: async (): Promise<RunSample> => {
        const command = pipeCommands[name];
        rmSync(timing, { force: true });
        const input = openSync(pipeRequest, 'r');
        const { fd, drained } = pipe.openForChild();
        const running = measureProcess(command.file, command.args, {
          stdio: [input, fd],
          env: pipeEnv(command.ours),
        });
        closeSync(fd);
        closeSync(input);
        const [run] = await Promise.all([running, drained]);
        if (run.status !== 0) throw new Error(`${name} exited ${run.status}: ${run.stderr}`);
        const { status: _status, stderr: _stderr, ...sample } = run;
        return command.ours ? { ...sample, extra: cachedServe(timing, name) } : sample;
      },
    });
    const httpMode = (name: string, base: URL, ours: boolean): Mode => ({
      name,
      run: async (): Promise<RunSample> => {
        rmSync(timing, { force: true });
        const start = process.hrtime.bigint();
        const answer = await postV2(base, body, false);
        const wall = Number(process.hrtime.bigint() - start) / 1e9;
        // Packet boundaries vary from run to run (git relays pack-objects' output as it comes),
        // so a measured answer is checked by its size and its closing flush, not its bytes.
        if (answer.status !== 200 || answer.bytes < packBytes || answer.tail !== '0000') {
          throw new Error(`${name}: HTTP ${answer.status}, ${answer.bytes} bytes, ending '${answer.tail}'`);
        }
        return ours ? { wall, extra: cachedServe(timing, name) } : { wall };
      },
    });
    const result = await runCase(
      {
        suite,
        case: id,
        title: `protocol v2 ${clone.what} of ${history.releases} ${history.name} releases (${(packBytes / 2 ** 20).toFixed(1)} MiB pack), over a pipe and over HTTP`,
        modes: [
          pipeMode(V2_MODES.gitPipe),
          pipeMode(V2_MODES.oursPipe),
          httpMode(V2_MODES.gitHttp, backend, false),
          httpMode(V2_MODES.oursHttp, smart, true),
        ],
        runs: ctx.runs ?? bySize(ctx.size, { tiny: 1, quick: 5, full: 11 }),
        warmup: 1,
        references: [V2_MODES.gitPipe, V2_MODES.gitHttp],
        headline: { mode: V2_MODES.oursHttp, reference: V2_MODES.gitHttp },
        parameters: { packBytes, refs: wants.length, commits: history.releases },
      },
      ctx,
    );
    for (const target of v2Targets(result)) {
      const line = targetLine(target, ctx.size);
      result.parameters![`target ${Object.keys(result.parameters!).length - 2}`] = line;
      log(`${id}: ${line}`);
    }
    return result;
  } finally {
    pipe.dispose();
    await servers.close();
    rmSync(timing, { force: true });
  }
}
