// Lints files in parallel: this thread and worker threads take the files one at a time from a list
// they share, so one that finishes early takes the next file. This thread starts at once; a worker
// joins when it has booted, and one that has not by the end is not waited for.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type * as AnalyzerModule from '../analyzer/analyzer';
import { cGrammar, type CGrammar } from '../analyzer/c/grammar';
import type * as LintFileModule from './lintFile';
import type { FileResult, LintJob } from './lintFile';
import type * as SecondPassModule from './secondPass';
import {
  CANCELLED,
  type FileList,
  type WorkerData,
  type WorkerRequest,
  type WorkerResponse,
} from './workerProtocol';

/**
 * Below this many bytes of source, a run starts no worker (unless `--jobs` asks). A worker has to boot
 * its own analyzer before it takes any work, so a run with less work than that boot for one thread
 * ended later with a worker than without: on the corpus trees the crossing is near 5 MiB of C (the
 * timings are in the CHANGELOG and `npm run bench:analyzer` measures them again). Counted by size,
 * not by files: a folder of a few large files is as much work as one of many small ones.
 */
const WORKER_WORTHY_BYTES = 5 * 1024 * 1024;
/** No more threads than one per this many files. */
const FILES_PER_WORKER = 16;

/**
 * The most threads a run analyses on, this one included: one per core. More only add memory (each
 * worker loads an analyzer of its own) and contention: `--jobs 1000` once started hundreds of threads
 * and gigabytes of memory for nothing.
 */
export function workerLimit(): number {
  // Asked once per process: each call is a system call (the CPU affinity mask), and the walk asks for
  // every file it finds, which made the call a large part of a big tree's walk.
  cores ??= Math.max(1, availableParallelism());
  return cores;
}

let cores: number | undefined;

/**
 * Up to this many cores, a large run takes a worker only when the machine has a core to spare. One
 * analysing thread does not have the machine to itself: V8's garbage collector and compilers and
 * Node's file reads run on threads of their own. A worker loads, compiles and warms up its own copy of
 * the analyzer and keeps a heap of its own: on two busy cores it cost about a quarter more CPU and did
 * not end the run sooner, while on two idle cores it ended runs a fifth to a third sooner for a few
 * percent more CPU (the figures are in the CHANGELOG).
 */
const FEW_CORES = 2;

/**
 * The threads a large run analyses on when `--jobs` does not say: one per core past a few cores; on a
 * few, one per core while a core is idle, else this one alone. Idle is read from the cores' own times
 * since the process started ({@link idleCores}), which see the machine as it is now; the load average
 * of the last minute, used where that window is too short to read, still counts runs that have ended
 * (a second run right after a first one saw a busy machine and took no worker on idle cores).
 */
export function defaultThreads(): number {
  const limit = workerLimit();
  if (limit > FEW_CORES) return limit;
  if (limit <= 1) return 1;
  const idle = idleCores();
  if (idle !== undefined) return idle >= IDLE_CORE ? limit : 1;
  return (loadavg()[0] ?? limit) <= limit - 1 ? limit : 1;
}

/**
 * How much of a core must have been idle since the process started for a worker to be worth its boot:
 * this thread keeps one core busy, so an idle machine of two cores shows about one idle core, and one
 * where another process keeps a core busy shows almost none (there, a worker cost a quarter more CPU and
 * did not end runs sooner).
 */
const IDLE_CORE = 0.5;

/** The shortest window, in milliseconds of all cores' time, whose idle share is read: the kernel counts in ticks of 10 ms. */
const IDLE_WINDOW_MS = 120;

/** The cores' idle and total times when this module was loaded, in milliseconds. */
const startTimes = coreTimes();

function coreTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { idle, total };
}

/**
 * The cores idle on average since this module was loaded (near the process's start), or undefined
 * when that window is too short to tell or the system gives no times.
 */
function idleCores(): number | undefined {
  const now = coreTimes();
  const total = now.total - startTimes.total;
  if (total < IDLE_WINDOW_MS) return undefined;
  return ((now.idle - startTimes.idle) / total) * workerLimit();
}

/**
 * The threads, this one included, that a run over `files` files of `bytes` bytes in all analyses
 * on with `jobs` (undefined: {@link defaultThreads} for large inputs); 1 means this thread alone.
 * Never fewer for more files or more bytes.
 */
export function runThreads(files: number, bytes: number, jobs?: number): number {
  const wanted =
    jobs !== undefined ? Math.min(jobs, workerLimit()) : bytes < WORKER_WORTHY_BYTES ? 1 : defaultThreads();
  return Math.max(1, Math.min(wanted, Math.ceil(files / FILES_PER_WORKER)));
}

/**
 * `files`, the largest first: the threads then end together instead of one idling while another lints
 * a large last file. `sizes`: the sizes known already, which takes the others.
 */
function largestFirst(files: readonly string[], sizes: Map<string, number>): readonly string[] {
  for (const f of files) if (!sizes.has(f)) sizes.set(f, sizeOf(f));
  return [...files].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
}

/**
 * What a worker runs. In the bundled command (server/dist/cli, with its loader two folders up in
 * server/bin), code that loads the worker's bundle through the loader, with the code cache the build
 * made (`eval`); in the module tree (server/out), its worker.js. Asked when a worker starts, not at
 * every run's start-up.
 */
function workerEntry(): { entry: string; evaluated: boolean } {
  const worker = join(__dirname, 'worker.js');
  const loader = join(__dirname, '..', '..', 'bin', 'codeCache.js');
  if (!__dirname.endsWith(join('dist', 'cli')) || !existsSync(loader))
    return { entry: worker, evaluated: false };
  return {
    entry: `require(${JSON.stringify(loader)}).requireBundle(${JSON.stringify(worker)});`,
    evaluated: true,
  };
}

/** The size of `path` in bytes; 0 when it cannot be read (the lint of that file will say why). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * How much bytecode a function runs between V8's checks of whether to optimize it (TurboFan): V8's
 * default is 66 KiB; a batch run waits eight times longer. Most of a run's functions are warm rather
 * than hot, and optimizing them cost more CPU, on V8's compiler threads and again in every worker
 * (each thread compiles its own code), than their faster code earned back before the run ended;
 * the hottest functions are still optimized (the figures, by budget, are in the CHANGELOG; the run's
 * findings do not depend on it). A V8 flag is read at each check,
 * so this applies to the code that runs after it is set, on every thread started later.
 */
const BATCH_INTERRUPT_BUDGET = 8 * 66 * 1024;

/**
 * V8's tiering for a batch run (see {@link BATCH_INTERRUPT_BUDGET}). A run of writev-lint is short: V8's
 * optimizing tier for wasm (TurboFan) compiles the grammar's hot functions again, which costs more than
 * a run of a few hundred thousand parsed lines earns back from the faster code (measured on redis: the
 * figures are in the CHANGELOG). So the baseline tier (Liftoff) only, set before anything is compiled;
 * the language server, which lives long, keeps both. Set when a run's pool is made, before the walk:
 * set later, the walk's loops (`sourceFiles`, `collect`) and the path functions they call reached V8's
 * default budget, and TurboFan compiled them for a walk that is over before their code pays back (half
 * the run's optimizing compilations on a tree of a thousand files). The bundled command's loader
 * (server/bin/codeCache.js) sets the same flags before it compiles the bundle: V8 takes a code cache
 * only under the flags it was made with, and the build makes the caches in a run, under these.
 */
function batchTiering(): void {
  setFlagsFromString('--liftoff-only');
  setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
}

/** The grammar for a batch run, compiled once for every thread of it, with the batch tiering. */
function batchGrammar(): CGrammar {
  batchTiering();
  return cGrammar();
}

/**
 * The young generation of a worker's heap, in MiB (V8's semi-spaces are a third each). Left alone, V8
 * grows it to 48 MiB as a run allocates; a worker of a batch run then spent more CPU on the same
 * files than with a small one (the figures are in the CHANGELOG), though it collects more often. The
 * main thread's heap is sized when the process starts, before this code runs: only workers get it.
 */
const WORKER_YOUNG_GENERATION_MB = 12;

/** What this thread lints with, loaded on its first run. */
interface Local {
  readonly analyzer: AnalyzerModule.Analyzer;
  readonly lintFile: typeof LintFileModule;
  readonly secondPass: typeof SecondPassModule.secondPass;
}

/** Runs lint jobs over file lists; reuse it for several passes, then {@link LintPool.close}. */
export class LintPool {
  private workers: Worker[] = [];
  /** Workers that failed or exited, with why. */
  private readonly failures = new WeakMap<Worker, string>();
  private local: Promise<Local> | undefined;
  private readonly jobs?: number;
  /**
   * Bytes of the files counted so far, up to {@link WORKER_WORTHY_BYTES} (then no file is looked
   * at again), and the files they came from: sizes are only needed to decide whether to start workers.
   */
  private bytes = 0;
  private counted = 0;
  /**
   * The size of each file some run ordered (see largestFirst), as first seen: a run's passes order the
   * same files, and only the order in which the threads take them depends on it.
   */
  private readonly sizes = new Map<string, number>();
  /** The thread each file of the last facts-only run (LintJob.factsOnly) was read on (0: this one). */
  private readers: Map<string, number> | undefined;

  /** `jobs`: threads to analyse on, this one included (1: no worker), at most {@link workerLimit}; undefined: one per core for large inputs. */
  constructor(jobs?: number) {
    this.jobs = jobs === undefined ? undefined : Math.min(jobs, workerLimit());
    batchTiering();
  }

  private threadsFor(files: number): number {
    return runThreads(files, this.bytes, this.jobs);
  }

  /** Adds the size of a file to the count, while the count may still change the thread count. */
  private count(path: string): void {
    this.counted++;
    if (this.jobs === undefined && this.bytes < WORKER_WORTHY_BYTES) this.bytes += sizeOf(path);
  }

  /**
   * Starts the workers a run over `files` files will use, ahead of it: called with each file found
   * while the files are being found, so that each worker's start-up (loading the modules and
   * compiling the grammar) overlaps the walk instead of following it.
   */
  prepare(files: number, path: string): void {
    this.count(path);
    this.spawn(this.threadsFor(files) - 1);
  }

  private spawn(workers: number): void {
    if (this.workers.length >= workers) return;
    // Loaded for a worker only: loading it is a visible part of every start, and a run of --jobs 1
    // or of less than WORKER_WORTHY_BYTES of source starts none.
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    while (this.workers.length < workers) {
      const workerData: WorkerData = { grammar: batchGrammar() };
      const { entry, evaluated } = workerEntry();
      const worker = new Worker(entry, {
        eval: evaluated,
        workerData,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      // A run never waits for a worker's start or end, so an idle worker must not keep the process
      // alive either (a run's drive references it while it works).
      worker.unref();
      // Until a run listens, a worker's failure is kept for the run to report.
      worker.once('error', (error: Error) => this.failures.set(worker, error.stack ?? String(error)));
      worker.once('exit', (code: number) => {
        if (!this.failures.has(worker)) this.failures.set(worker, `exited (code ${code})`);
      });
      this.workers.push(worker);
    }
  }

  /** Lints `files` with `job`; results come back in the order of `files`. */
  async run(files: readonly string[], job: LintJob): Promise<FileResult[]> {
    // Files not announced by `prepare` are counted now (a caller that had no walk).
    for (let i = this.counted; i < files.length; i++) this.count(files[i]!);
    const threads = this.threadsFor(files.length);
    this.spawn(threads - 1);
    const results = await this.runShared(files, job);
    const order = new Map(files.map((f, i) => [f, i]));
    return results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  }

  /** This thread's analyzer, loaded (with the grammar) on first use. */
  private loadLocal(): Promise<Local> {
    this.local ??= (async () => {
      // Before the analyzer's code is loaded and run, so that its tiering is the batch run's.
      batchGrammar();
      const lintFile = require('./lintFile') as typeof LintFileModule;
      const { secondPass } = require('./secondPass') as typeof SecondPassModule;
      const analyzer = await (require('../analyzer/analyzer') as typeof AnalyzerModule).Analyzer.create();
      return { analyzer, lintFile, secondPass };
    })();
    return this.local;
  }

  /** Lints the files this thread takes from `lists` (by their shared counters), in order. */
  private async runHere(lists: readonly FileList[], job: LintJob): Promise<FileResult[]> {
    const { analyzer, lintFile, secondPass } = await this.loadLocal();
    if (job.factsOnly) lintFile.forgetRead();
    const index = lintFile.indexOfJob(job);
    const second = secondPass(job.names, index, job.redo);
    const results: FileResult[] = [];
    for (const list of lists) {
      const next = new Int32Array(list.next);
      for (let i = Atomics.add(next, 0, 1); i < list.files.length; i = Atomics.add(next, 0, 1)) {
        const file = list.files[i];
        const result =
          file === undefined ? undefined : await lintFile.lintFile(analyzer, file, job, index, second);
        if (result) results.push(result);
      }
    }
    return results;
  }

  private async runShared(files: readonly string[], job: LintJob): Promise<FileResult[]> {
    const workers = this.workers;
    // Every thread gets the whole list and takes files from it by a counter they share: the load
    // balances itself without a message per batch. On a loaded machine a worker waited longer for
    // its parent to wake and send the next batch than it took to lint it.
    const order = workers.length > 0 ? largestFirst(files, this.sizes) : files;
    const lists = this.listsOf(order, job, workers.length + 1);
    const drives = workers.map((worker, i) => this.drive(worker, { job, lists: lists(i + 1) }));
    const here = await this.runHere(lists(0), job);
    // A worker that has not started on its request by now has nothing left to take: cancel it
    // rather than wait for its boot, which can last as long as a small tree's whole run.
    const parts = await Promise.all(drives.map((d) => d.cancelled()));
    if (job.factsOnly && workers.length > 0)
      this.readers = new Map([here, ...parts].flatMap((part, thread) => part.map((r) => [r.path, thread])));
    return [...here, ...parts.flat()];
  }

  /**
   * The lists of `order` each of `threads` threads takes files from (0: this one). One list for all,
   * but for the passes of a run whose first pass was told what a facts pass read (LintJob.told,
   * LintJob.keptText): each thread takes first the files it read then (it kept their text and facts),
   * then helps with the others' lists.
   */
  private listsOf(order: readonly string[], job: LintJob, threads: number): (thread: number) => FileList[] {
    const shared = (files: readonly string[]): FileList => ({ files, next: new SharedArrayBuffer(4) });
    const readers = this.readers;
    if (!(job.told || job.keptText) || threads === 1 || !readers) {
      const lists = [shared(order)];
      return () => lists;
    }
    const byThread = Array.from({ length: threads + 1 }, () => [] as string[]);
    for (const file of order) {
      const thread = readers.get(file);
      byThread[thread !== undefined && thread < threads ? thread : threads]!.push(file);
    }
    const lists = byThread.map(shared);
    const rest = lists[threads]!;
    return (thread) => [lists[thread]!, ...lists.slice(0, threads).filter((_, t) => t !== thread), rest];
  }

  /** Sends `request` to `worker`; `cancelled()` gives up on it if it has not started yet, else waits for its results. */
  private drive(
    worker: Worker,
    request: Omit<WorkerRequest, 'state'>,
  ): { cancelled(): Promise<FileResult[]> } {
    const state = new Int32Array(new SharedArrayBuffer(4));
    let settle = () => undefined as void;
    const answer = new Promise<FileResult[]>((resolve, reject) => {
      const failure = this.failures.get(worker);
      if (failure !== undefined) {
        reject(new Error(`writev-lint worker failed: ${failure}`));
        return;
      }
      settle = () => {
        worker.unref();
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (response: WorkerResponse) => {
        settle();
        if (response.error) reject(new Error(`writev-lint worker failed: ${response.error}`));
        else resolve([...response.results]);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      // A worker that dies without an error event (killed, out of memory) would otherwise leave
      // this promise, and the run, waiting forever.
      const onExit = (code: number) => {
        settle();
        reject(new Error(`writev-lint worker exited (code ${code}) mid-run`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // Alive while its answer is awaited (workers are unreferenced otherwise, see spawn).
      worker.ref();
      worker.postMessage({ ...request, state: state.buffer } satisfies WorkerRequest);
    });
    return {
      cancelled: () => {
        // The worker marks its request STARTED before taking a file; whoever changes 0 first wins.
        if (Atomics.compareExchange(state, 0, 0, CANCELLED) === 0) {
          settle();
          answer.catch(() => undefined); // a failure of a worker that never started loses nothing
          return Promise.resolve([]);
        }
        return answer;
      },
    };
  }

  /**
   * Stops the worker threads. The promise resolves when they have ended; a run's results never
   * depend on that (the CLI does not wait for it).
   */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
