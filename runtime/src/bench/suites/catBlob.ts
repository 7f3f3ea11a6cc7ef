import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DrainedPipe } from '../fifo';
import { measureProcess } from '../measure';
import type { CaseResult, RunSample } from '../result';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite, type SuiteContext } from '../suite';
import type { HistoryShape } from './catBlobHistory';
import { realHistoryWorkload, type PackageHistory } from './catBlobRealHistory';
import { catBlobWorkload, gitEnv, type CatBlobWorkload } from './catBlobRepository';

/** Where the answers go: /dev/null, then a pipe another process drains. */
const SINKS = ['devnull', 'pipe'] as const;

/**
 * The most blobs one request lists, as in Git's measurement. Part of the real history's folder:
 * other suites that reuse the history pass the same.
 */
export const MAX_BLOBS = 100_000;

type Size = 'tiny' | 'quick' | 'full';

/** A request to answer: a history by size (generated, or a package's releases), and the prefix of its cases' ids. */
type Workload = {
  prefix: string;
  label: string;
} & ({ shapes: Record<Size, HistoryShape> } | { releases: Record<Size, PackageHistory> });

const WORKLOADS: readonly Workload[] = [
  {
    // Git's measurement: `full` gives 100,000 blobs of about 40 KB (4 GB), like Git's 3.8 GB.
    prefix: '',
    label: 'blobs',
    shapes: {
      tiny: { files: 20, commits: 60, editsPerCommit: 3, linesPerFile: 100, seed: 42 },
      quick: { files: 300, commits: 1200, editsPerCommit: 8, linesPerFile: 600, seed: 42 },
      full: { files: 2000, commits: 12250, editsPerCommit: 8, linesPerFile: 900, seed: 42 },
    },
  },
  {
    // Small blobs (a few hundred bytes), where a system call costs more than the bytes it writes:
    // what gathering answers is for.
    prefix: 'small-',
    label: 'small blobs',
    shapes: {
      tiny: { files: 20, commits: 100, editsPerCommit: 3, linesPerFile: 6, seed: 42 },
      quick: { files: 100, commits: 2500, editsPerCommit: 8, linesPerFile: 6, seed: 42 },
      full: { files: 400, commits: 12000, editsPerCommit: 8, linesPerFile: 6, seed: 42 },
    },
  },
  {
    // Real history: eslint's releases, from 0.0.4 in 2013 on, one commit each (its rules, docs and
    // tests are hundreds of files of a few KB, edited release after release), repacked as a
    // long-lived project is. Per-object costs dominate here, not bytes.
    prefix: 'real-',
    label: 'blobs of eslint releases',
    releases: {
      tiny: { name: 'eslint', releases: 5 },
      quick: { name: 'eslint', releases: 120 },
      full: { name: 'eslint', releases: 430 },
    },
  },
];

/** One way to answer the request: a command, and which request file it reads. */
interface Responder {
  name: string;
  command: string;
  args: string[];
  request: 'cat-blob' | 'batch';
}

/**
 * The responder's script: `$WRITEV_CAT_BLOB_BIN` when set (for a host that relocates the runtime),
 * else the bundle the package's bin runs, else the compiled module.
 */
function catBlobBin(): string {
  const candidates = [
    process.env.WRITEV_CAT_BLOB_BIN,
    join(__dirname, '..', '..', 'writev-cat-blob.js'),
    join(__dirname, '..', '..', 'bin', 'writev-cat-blob.js'),
  ].filter((c): c is string => c !== undefined && c !== '');
  const found = candidates.find((c) => existsSync(c));
  if (found === undefined)
    throw new Error(`writev-cat-blob not found (run npm run build): ${candidates.join(', ')}`);
  return found;
}

function responders(repo: string): Responder[] {
  const ours = (mode: string): Responder => ({
    name: `writev-cat-blob (${mode})`,
    command: process.execPath,
    args: [catBlobBin(), `--git-dir=${repo}`, '--cat-blob-fd=1', `--mode=${mode}`],
    request: 'cat-blob',
  });
  return [
    {
      name: 'git fast-import',
      command: 'git',
      args: ['fast-import', '--quiet', '--cat-blob-fd=1'],
      request: 'cat-blob',
    },
    ours('writes'),
    ours('writev'),
    ours('batched'),
    { name: 'git cat-file --batch', command: 'git', args: ['cat-file', '--batch'], request: 'batch' },
  ];
}

/** Reads `strace -c` output: calls per syscall name. */
export function parseStraceSummary(text: string): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    const name = fields.at(-1);
    if (fields.length < 5 || name === undefined || !/^[a-z_0-9]+$/.test(name) || name === 'total') continue;
    const count = Number(fields[3]);
    if (Number.isFinite(count)) calls[name] = count;
  }
  return calls;
}

/**
 * Runs a responder once outside the measurements: under `strace -c` where strace is installed (its
 * own cost would distort the timed runs), with the answers piped into `sha1sum` so every responder
 * can be checked to give the same bytes. Returns the syscall counts and the output's digest.
 */
function countAndDigest(
  r: Responder,
  work: CatBlobWorkload,
): { syscalls?: Record<string, number>; digest: string } {
  const strace = ['/usr/bin/strace', '/bin/strace'].find((p) => existsSync(p));
  const scratch = mkdtempSync(join(tmpdir(), 'writev-strace-'));
  const report = join(scratch, 'strace');
  try {
    const traced = strace ? [strace, '-f', '-qq', '-c', '-o', report, '-e', 'trace=read,write,writev'] : [];
    const input = openSync(r.request === 'cat-blob' ? work.catBlobRequest : work.batchRequest, 'r');
    try {
      const out = execFileSync('sh', ['-c', '"$@" | sha1sum', 'count', ...traced, r.command, ...r.args], {
        env: gitEnv(work.repo),
        stdio: [input, 'pipe', 'inherit'],
      });
      const digest = out.toString().split(' ')[0]!;
      return strace ? { syscalls: parseStraceSummary(readFileSync(report, 'utf8')), digest } : { digest };
    } finally {
      closeSync(input);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Builds the modes of one case: each responder answering the whole request into `sink`. */
function modesFor(
  work: CatBlobWorkload,
  sink: 'devnull' | 'pipe',
  counts: Map<string, Record<string, number> | undefined>,
): Mode[] {
  return responders(work.repo).map((r) => ({
    name: r.name,
    run: async (): Promise<RunSample> => {
      const input = openSync(r.request === 'cat-blob' ? work.catBlobRequest : work.batchRequest, 'r');
      const pipe = sink === 'pipe' ? new DrainedPipe() : undefined;
      const out = pipe ? pipe.openForChild() : { fd: openSync('/dev/null', 'w'), drained: Promise.resolve() };
      try {
        const running = measureProcess(r.command, r.args, { stdio: [input, out.fd], env: gitEnv(work.repo) });
        closeSync(out.fd); // the child has its copy; the drainer sees the end when the child exits
        const [run] = await Promise.all([running, out.drained]);
        if (run.status !== 0) throw new Error(`${r.name} exited with ${run.status}: ${run.stderr.trim()}`);
        const sample: RunSample = {
          wall: run.wall,
          extra: { objects: work.blobs, 'objects/s': Math.round(work.blobs / run.wall) },
        };
        if (run.user !== undefined) sample.user = run.user;
        if (run.system !== undefined) sample.system = run.system;
        if (run.maxRss !== undefined) sample.maxRss = run.maxRss;
        const syscalls = counts.get(r.name);
        if (syscalls) sample.syscalls = syscalls;
        return sample;
      } finally {
        closeSync(input);
        pipe?.dispose();
      }
    },
  }));
}

/**
 * cat-blob: Git's measurement of its writev change to fast-import. A request for up to 100,000
 * blobs of a repository with real history (generated: many commits editing files, repacked with
 * deltas) answered by `git fast-import --cat-blob-fd`, by writev-cat-blob with Git's old three
 * writes per answer, one writev per answer and batched answers, and by `git cat-file --batch` as a
 * second anchor; into /dev/null and into a pipe drained by another process.
 */
export const catBlobSuite: Suite = {
  id: 'cat-blob',
  title: 'cat-blob: fast-import vs writev-cat-blob',
  description:
    'Up to 100,000 blobs of a generated history (about 40 KB each, then a few hundred bytes each) and of a real one (eslint releases) answered by git fast-import, writev-cat-blob (3 writes, 1 writev, batched) and git cat-file --batch.',
  cases: WORKLOADS.flatMap((w) => SINKS.map((sink) => `${w.prefix}${sink}`)),
  downloads: WORKLOADS.filter((w) => 'releases' in w).flatMap((w) =>
    SINKS.map((sink) => `${w.prefix}${sink}`),
  ),
  async run(ctx: SuiteContext): Promise<CaseResult[]> {
    const results: CaseResult[] = [];
    for (const workload of WORKLOADS) results.push(...(await runWorkload(workload, ctx)));
    return results;
  },
};

/**
 * Checks that every responder gives the same bytes, then measures them into the sinks the run asked
 * for. A workload none of whose cases was asked for is not built (nor downloaded).
 */
async function runWorkload(workload: Workload, ctx: SuiteContext): Promise<CaseResult[]> {
  const suite = catBlobSuite.id;
  const sinks = SINKS.filter((sink) => wantsCase(ctx, `${workload.prefix}${sink}`));
  if (sinks.length === 0) return [];
  const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 3 });
  const log = (message: string): void => ctx.emit({ type: 'log', suite, message });
  let work: CatBlobWorkload;
  let history: Record<string, string | number>;
  if ('shapes' in workload) {
    const shape = bySize(ctx.size, workload.shapes);
    work = await catBlobWorkload(ctx.cacheDir, shape, MAX_BLOBS, log);
    history = { files: shape.files, commits: shape.commits };
  } else {
    const releases = bySize(ctx.size, workload.releases);
    work = await realHistoryWorkload(ctx.cacheDir, releases, MAX_BLOBS, log);
    history = { package: releases.name, commits: releases.releases };
  }
  const counts = new Map<string, Record<string, number> | undefined>();
  const digests = new Map<string, string>();
  for (const r of responders(work.repo)) {
    ctx.signal?.throwIfAborted();
    const { syscalls, digest } = countAndDigest(r, work);
    counts.set(r.name, syscalls);
    digests.set(r.name, digest);
  }
  if (new Set(digests.values()).size !== 1) {
    throw new Error(`responders disagree on the answers: ${JSON.stringify(Object.fromEntries(digests))}`);
  }
  log(`all five responders gave the same ${work.bytes} payload bytes (sha1 ${[...digests.values()][0]})`);
  const parameters = { blobs: work.blobs, bytes: work.bytes, ...history };
  const size =
    work.bytes >= 1e7 ? `${(work.bytes / 1e6).toFixed(0)} MB` : `${(work.bytes / 1e3).toFixed(0)} kB`;
  const results: CaseResult[] = [];
  for (const sink of sinks) {
    results.push(
      await runCase(
        {
          suite,
          case: `${workload.prefix}${sink}`,
          title: `${work.blobs} ${workload.label} (${size}) into ${sink === 'pipe' ? 'a drained pipe' : '/dev/null'}`,
          modes: modesFor(work, sink, counts),
          runs,
          warmup: 1,
          references: ['git fast-import'],
          // Git's change itself: the same responder, three writes per answer against one writev.
          headline: { mode: 'writev-cat-blob (writev)', reference: 'writev-cat-blob (writes)' },
          parameters,
        },
        ctx,
      ),
    );
  }
  return results;
}
