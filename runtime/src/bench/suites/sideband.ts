import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DrainedPipe } from '../fifo';
import { measureProcess } from '../measure';
import type { CaseResult, Measurement, RunSample } from '../result';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite, type SuiteContext } from '../suite';
import { targetLine, type Target } from '../targets';
import { benchGitEnv, sidebandFixture, UPLOAD_PACK_BIN, type SidebandFixture } from './sidebandFixture';
import { runV2Clone, V2_DEPTH_1_CLONE, V2_FULL_CLONE } from './sidebandV2';

const STRACE = '/usr/bin/strace';

/** The modes, by the names tables and charts show. */
const GIT = 'git upload-pack (hook)';
const TWO_WRITES = 'two writes';
const ONE_WRITEV = 'one writev';
const BATCHED = 'batched';
const CAT = 'cat (floor)';
const NODE = 'node -e 0';

type Framing = 'side-band' | 'side-band-64k';

/** One mode as a command line. */
interface Command {
  name: string;
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** writev-upload-pack, which reports its timings and seam counts. */
  ours: boolean;
}

function commands(fixture: SidebandFixture, timing: string): Command[] {
  const ours = (name: string, mode: string): Command => ({
    name,
    file: process.execPath,
    args: [UPLOAD_PACK_BIN, `--write-mode=${mode}`, `--cache-dir=${fixture.cacheDir}`, fixture.repo],
    env: benchGitEnv({ WRITEV_UPLOAD_PACK_TIMING: timing }),
    ours: true,
  });
  return [
    {
      name: GIT,
      file: 'git',
      args: ['-c', `uploadpack.packObjectsHook=${fixture.hook}`, 'upload-pack', fixture.repo],
      env: benchGitEnv(),
      ours: false,
    },
    ours(TWO_WRITES, 'writes'),
    ours(ONE_WRITEV, 'writev'),
    ours(BATCHED, 'batched'),
    { name: CAT, file: 'cat', args: [fixture.pack], env: benchGitEnv(), ours: false },
  ];
}

/** What writev-upload-pack appended to its timing file. */
interface Timing {
  requestAt: number;
  endAt: number;
  pack: string;
  syscalls: { write: number; writev: number; EAGAIN: number };
}

/** Runs one mode once: the request on stdin, stdout into the drained pipe. */
async function runOnce(
  command: Command,
  request: string,
  pipe: DrainedPipe,
  timing: string,
  straced: Record<string, number>,
): Promise<RunSample> {
  rmSync(timing, { force: true });
  const input = openSync(request, 'r');
  const { fd, drained } = pipe.openForChild();
  const running = measureProcess(command.file, command.args, { stdio: [input, fd], env: command.env });
  closeSync(fd);
  closeSync(input);
  const [run] = await Promise.all([running, drained]);
  if (run.status !== 0) throw new Error(`${command.name} exited ${run.status}: ${run.stderr}`);
  const { status: _status, stderr: _stderr, ...sample } = run;
  if (!command.ours) return { ...sample, syscalls: { ...straced } };
  const t = JSON.parse(readFileSync(timing, 'utf8').trim()) as Timing;
  if (t.pack !== 'cache-hit') throw new Error(`${command.name} did not serve from the cache (${t.pack})`);
  return {
    ...sample,
    syscalls: { ...t.syscalls, ...straced },
    extra: { startup: t.requestAt / 1000, streaming: (t.endAt - t.requestAt) / 1000 },
  };
}

/** Counts a mode's syscalls once under `strace -c -f` (its figures are per process tree). */
async function straceCounts(
  command: Command,
  request: string,
  pipe: DrainedPipe,
  out: string,
): Promise<Record<string, number>> {
  const input = openSync(request, 'r');
  const { fd, drained } = pipe.openForChild();
  const child = spawn(STRACE, ['-f', '-c', '-o', out, command.file, ...command.args], {
    stdio: [input, fd, 'ignore'],
    env: command.env,
  });
  closeSync(fd);
  closeSync(input);
  await Promise.all([new Promise((resolve) => child.on('close', resolve)), drained]);
  const counts: Record<string, number> = {};
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const cols = line.trim().split(/\s+/);
    const name = cols.at(-1);
    if (cols.length < 5 || !/^\d/.test(cols[0]!) || name === undefined) continue;
    if (['write', 'writev', 'read', 'total'].includes(name)) counts[`strace ${name}`] = Number(cols[3]);
  }
  return counts;
}

/**
 * The digest of the pack each server sends: the band-1 bytes after the `NAK`, which must end with
 * a flush packet and carry nothing on other bands. Advertisements differ (agent, capabilities),
 * and so may packet boundaries (git relays its hook's output as it arrives); the pack and the end
 * of the stream must not.
 */
async function packDigests(commands: Command[], request: string): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const command of commands) {
    const input = openSync(request, 'r');
    const child = spawn(command.file, command.args, { stdio: [input, 'pipe', 'ignore'], env: command.env });
    closeSync(input);
    const hash = createHash('sha256');
    if (command.name === CAT) {
      child.stdout!.on('data', (chunk: Buffer) => void hash.update(chunk));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      if (status !== 0) throw new Error(`${command.name} exited ${status} while its output was checked`);
      digests.set(command.name, hash.digest('hex'));
      continue;
    }
    let phase = 'negotiation' as 'negotiation' | 'pack' | 'ended';
    let pending: Buffer = Buffer.alloc(0);
    let problem: string | undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let at = 0;
      while (problem === undefined && pending.length - at >= 4) {
        const length = parseInt(pending.toString('latin1', at, at + 4), 16);
        const size = length === 0 ? 4 : length;
        if (pending.length - at < size) break;
        const payload = pending.subarray(at + 4, at + size);
        at += size;
        if (phase === 'negotiation') {
          if (payload.toString('latin1') === 'NAK\n') phase = 'pack';
        } else if (phase === 'ended') {
          problem = 'bytes after the closing flush';
        } else if (length === 0) {
          phase = 'ended';
        } else if (payload[0] === 1) {
          hash.update(payload.subarray(1));
        } else {
          problem = `a packet on band ${payload[0]}: ${payload.subarray(1).toString('utf8')}`;
        }
      }
      pending = pending.subarray(at);
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (status !== 0 || phase !== 'ended' || problem !== undefined) {
      throw new Error(`${command.name}: no whole pack phase (exit ${status}, ${problem ?? phase})`);
    }
    digests.set(command.name, hash.digest('hex'));
  }
  return digests;
}

const find = (result: CaseResult, name: string): Measurement =>
  result.results.find((m) => m.command === name)!;
const seamCalls = (m: Measurement): number => (m.syscalls?.write ?? 0) + (m.syscalls?.writev ?? 0);

/**
 * The targets for a case, checked on medians. They are set for Git's measurement, a 100 MiB pack
 * (`--size full`): on a smaller pack Node's start-up is most of our whole-process time, so a smaller
 * size shows the figures without a verdict. The case's `node -e 0` mode, run between the others, is
 * what any Node program pays before its first line.
 */
export function checkTargets(framing: Framing, result: CaseResult): Target[] {
  const nodeStartup = find(result, NODE).median;
  const git = find(result, GIT);
  const two = find(result, TWO_WRITES);
  const batched = find(result, BATCHED);
  const cat = find(result, CAT);
  const streaming = (m: Measurement): number => m.extra?.streaming ?? Number.NaN;
  const x = (v: number): string => `${v.toFixed(2)}x`;
  const target = (description: string, met: boolean): Target => ({ description, met, size: 'full' });
  // Our whole process less Node's own start against git's whole run, both framings.
  const beyondNode = (batched.median - nodeStartup) / git.median;
  const overNode = target(
    `(batched whole process - node -e 0) / git upload-pack whole run: ${x(beyondNode)} (target <= 1.0x)`,
    beyondNode <= 1,
  );
  if (framing === 'side-band') {
    const whole = git.median / batched.median;
    const stream = streaming(two) / streaming(batched);
    const calls = seamCalls(batched) / seamCalls(two);
    return [
      target(`git upload-pack / batched, whole process: ${x(whole)} (target >= 1.5x)`, whole >= 1.5),
      target(`two writes / batched, streaming: ${x(stream)} (target >= 3x)`, stream >= 3),
      target(
        `batched syscalls / two writes' syscalls: ${(calls * 100).toFixed(2)}% (target <= 10%)`,
        calls <= 0.1,
      ),
      overNode,
    ];
  }
  const vsGit = streaming(batched) / git.median;
  const vsCat = streaming(batched) / cat.median;
  return [
    target(`batched streaming / git upload-pack whole run: ${x(vsGit)} (target <= 1.15x)`, vsGit <= 1.15),
    target(`batched streaming / cat floor: ${x(vsCat)} (target <= 1.5x)`, vsCat <= 1.5),
    overNode,
  ];
}

/**
 * `node -e 0` as a mode of the case, with the environment our modes get: Node's start-up is
 * measured between the other runs, under the same drift, instead of once before them (its median
 * moved between batches by a tenth of what the target compares).
 */
function nodeStartupMode(): Mode {
  return {
    name: NODE,
    run: async () => {
      const { status, stderr, ...sample } = await measureProcess(process.execPath, ['-e', '0'], {
        env: benchGitEnv(),
      });
      if (status !== 0) throw new Error(`${NODE} exited ${status}: ${stderr}`);
      return sample;
    },
  };
}

/** The two framings' cases: the sideband fixture's cached pack, every mode, into a drained pipe. */
async function runFramings(
  suite: string,
  ctx: SuiteContext,
  framings: readonly Framing[],
): Promise<CaseResult[]> {
  const bytes = bySize(ctx.size, { tiny: 1 << 20, quick: 16 << 20, full: 100 << 20 });
  const runs = ctx.runs ?? bySize(ctx.size, { tiny: 1, quick: 5, full: 11 });
  ctx.emit({
    type: 'log',
    suite,
    message: `preparing a ${bytes / 2 ** 20} MiB repository and its cached pack`,
  });
  const fixture = sidebandFixture(ctx.cacheDir, bytes);
  const timing = join(fixture.cacheDir, '..', `timing-${process.pid}.jsonl`);
  const pipe = new DrainedPipe();
  const results: CaseResult[] = [];
  try {
    for (const framing of framings) {
      const request = fixture.requests[framing];
      // Same bytes first: a faster mode that sent something else would prove nothing.
      const digests = await packDigests(commands(fixture, timing), request);
      const differ = [...digests].filter(([, digest]) => digest !== digests.get(GIT));
      if (differ.length > 0) {
        throw new Error(
          `${differ.map(([name]) => name).join(', ')}: the pack differs from git upload-pack's`,
        );
      }
      ctx.emit({
        type: 'log',
        suite,
        message: `${framing}: the same pack, byte for byte, from all ${digests.size} modes (cat included)`,
      });
      const straced: Record<string, Record<string, number>> = {};
      for (const command of commands(fixture, timing)) {
        straced[command.name] =
          existsSync(STRACE) && ctx.size !== 'tiny'
            ? await straceCounts(command, request, pipe, `${timing}.strace`)
            : {};
      }
      const modes: Mode[] = commands(fixture, timing).map((command) => ({
        name: command.name,
        run: () => runOnce(command, request, pipe, timing, straced[command.name]!),
      }));
      modes.push(nodeStartupMode());
      const packetMax = framing === 'side-band' ? 1000 : 65520;
      const result = await runCase(
        {
          suite,
          case: framing,
          title: `${(fixture.packBytes / 2 ** 20).toFixed(0)} MiB cached pack over ${framing} (${packetMax}-byte packets)`,
          modes,
          runs,
          warmup: 1,
          references: [GIT, TWO_WRITES],
          // Git's change itself: the same server, two writes per pkt-line against one writev.
          headline: { mode: ONE_WRITEV, reference: TWO_WRITES },
          parameters: {
            packBytes: fixture.packBytes,
            packets: Math.ceil(fixture.packBytes / (packetMax - 5)),
          },
        },
        ctx,
      );
      for (const target of checkTargets(framing, result)) {
        const line = targetLine(target, ctx.size);
        result.parameters![`target ${Object.keys(result.parameters!).length - 1}`] = line;
        ctx.emit({ type: 'log', suite, message: `${framing}: ${line}` });
      }
      results.push(result);
    }
    return results;
  } finally {
    pipe.dispose();
    rmSync(timing, { force: true });
    rmSync(`${timing}.strace`, { force: true });
  }
}

/**
 * Git's sideband measurement, side by side: a cached pack served into a drained pipe over
 * `side-band` (1000-byte packets) and `side-band-64k`, by git upload-pack (a hook cats the pack),
 * by writev-upload-pack writing each pkt-line with two writes, with one writev, or batched, and by
 * `cat` of the pack (the floor). Whole-process times; for writev-upload-pack also its start-up
 * (Node's boot up to reading the request) and its streaming part (request to last byte).
 */
export const sidebandSuite: Suite = {
  id: 'sideband',
  title: 'sideband: serving a cached pack',
  description:
    'A cached pack over side-band and side-band-64k into a drained pipe: git upload-pack, two writes, one writev per pkt-line, batched, cat.',
  cases: ['side-band', 'side-band-64k', V2_FULL_CLONE, V2_DEPTH_1_CLONE],
  // The v2 cases clone a real history, built from npm releases the first time.
  downloads: [V2_FULL_CLONE, V2_DEPTH_1_CLONE],
  async run(ctx) {
    const framings = (['side-band', 'side-band-64k'] as const).filter((f) => wantsCase(ctx, f));
    const results = framings.length === 0 ? [] : await runFramings(this.id, ctx, framings);
    for (const id of [V2_FULL_CLONE, V2_DEPTH_1_CLONE]) {
      if (wantsCase(ctx, id)) results.push(await runV2Clone(this.id, ctx, id));
    }
    return results;
  },
};
