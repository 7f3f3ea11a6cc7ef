// Lints files in parallel on worker threads (or in this thread for small inputs); the workers take
// the files one at a time from a list they share, so one that finishes early takes the next file.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type * as AnalyzerModule from '../analyzer/analyzer';
import { cGrammar, type CGrammar } from '../analyzer/c/grammar';
import type * as LintFileModule from './lintFile';
import type { FileResult, LintJob, SourceStore } from './lintFile';
import type { WorkerData, WorkerRequest, WorkerResponse } from './worker';

/** Below this many files, starting workers (each loads the grammar) costs more than it saves. */
const SMALL_INPUT = 64;
/** No more workers than one per this many files. */
const FILES_PER_WORKER = 16;

/**
 * The most worker threads a run starts: one per core. More only add memory (each loads an analyzer of
 * its own) and contention: `--jobs 1000` once started 200 threads holding 2.5 GB.
 */
export function workerLimit(): number {
  return Math.max(1, availableParallelism());
}

/**
 * The threads a run over `files` files uses with `jobs` (undefined: one per core for large inputs);
 * 1 means this thread, no worker. Never fewer for more files.
 */
export function runThreads(files: number, jobs?: number): number {
  const wanted = jobs !== undefined ? Math.min(jobs, workerLimit()) : files < SMALL_INPUT ? 1 : workerLimit();
  return Math.max(1, Math.min(wanted, Math.ceil(files / FILES_PER_WORKER)));
}

/**
 * The grammar for a batch run, compiled once for every thread of it. A run of writev-lint is short:
 * V8's optimizing tier for wasm (TurboFan) compiles the grammar's hot functions again at a cost of
 * about half a CPU-second, which a run of a few hundred thousand parsed lines never earns back (the
 * first parse of 74,000 lines of redis took 0.6 CPU-s with the baseline tier alone, 1.0 with the
 * optimizing tier; later ones 0.5 against 0.36). So the baseline tier (Liftoff) only, set before
 * anything is compiled; the language server, which lives long, keeps both.
 */
function batchGrammar(): CGrammar {
  setFlagsFromString('--liftoff-only');
  return cGrammar();
}

/** Runs lint jobs over file lists; reuse it for several passes, then {@link LintPool.close}. */
export class LintPool {
  private workers: Worker[] = [];
  /** Workers that failed or exited, with why. */
  private readonly failures = new WeakMap<Worker, string>();
  private local: Promise<AnalyzerModule.Analyzer> | undefined;
  private localStore: SourceStore | undefined;
  /** Which worker (or this thread: undefined) read each file of the first pass. */
  private readers = new Map<string, Worker | undefined>();
  private readonly jobs?: number;

  /** `jobs`: worker threads to use (1: none), at most {@link workerLimit}; undefined: one per core for large inputs. */
  constructor(jobs?: number) {
    this.jobs = jobs === undefined ? undefined : Math.min(jobs, workerLimit());
  }

  private threadsFor(files: number): number {
    return runThreads(files, this.jobs);
  }

  /**
   * Starts the workers a run over `files` files will use, ahead of it: called while the files are
   * being found, so that each worker's start-up (loading the modules and compiling the grammar, a
   * tenth of a second or more) overlaps the walk instead of following it.
   */
  prepare(files: number): void {
    const threads = this.threadsFor(files);
    if (threads > 1) this.spawn(threads);
  }

  /**
   * Starts one worker before the files are known, for a run over a folder: its start-up (a fifth of
   * a second) then overlaps reading the config files and the walk. A run that finds few files lints
   * them on it alone, so this thread never loads the analyzer. Does nothing where only this thread
   * may run (`--jobs 1`, one core).
   */
  warm(): void {
    if (this.threadsFor(Number.MAX_SAFE_INTEGER) > 1) this.spawn(1);
  }

  private spawn(threads: number): void {
    while (this.workers.length < threads) {
      const workerData: WorkerData = { grammar: batchGrammar() };
      const worker = new Worker(join(__dirname, 'worker.js'), { workerData });
      // Until a run listens, a worker's failure is kept for the run to report.
      worker.once('error', (error: Error) => this.failures.set(worker, error.stack ?? String(error)));
      worker.once('exit', (code: number) => {
        if (!this.failures.has(worker)) this.failures.set(worker, `exited (code ${code})`);
      });
      this.workers.push(worker);
    }
  }

  /**
   * Lints `files` with `job`; results come back in the order of `files`. A first pass (no `job.index`)
   * keeps the texts it reads on the thread that read them; the second pass after it sends each file
   * back to that thread.
   */
  async run(files: readonly string[], job: LintJob): Promise<FileResult[]> {
    const threads = this.threadsFor(files.length);
    const first = !job.index;
    // Once a worker runs, even a small input goes to it: it is ready, and this thread is not.
    const results =
      threads <= 1 && this.workers.length === 0
        ? await this.runHere(files, job)
        : await this.runOnWorkers(files, job, threads);
    const order = new Map(files.map((f, i) => [f, i]));
    if (first) for (const r of results) this.readers.set(r.result.path, r.worker);
    return results.map((r) => r.result).sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  }

  private async runHere(files: readonly string[], job: LintJob): Promise<Read[]> {
    // Loaded on first use: when the workers do the analysis, this thread never needs the analyzer.
    const { callPattern, indexOfJob, lintFile, SourceStore } = require('./lintFile') as typeof LintFileModule;
    batchGrammar();
    this.local ??= (require('../analyzer/analyzer') as typeof AnalyzerModule).Analyzer.create();
    const analyzer = await this.local;
    const index = indexOfJob(job);
    const names = callPattern(job.names);
    this.localStore ??= new SourceStore();
    const results: Read[] = [];
    for (const file of files) {
      const result = await lintFile(analyzer, file, job, index, names, this.localStore);
      if (result) results.push({ result, worker: undefined });
    }
    return results;
  }

  private async runOnWorkers(files: readonly string[], job: LintJob, threads: number): Promise<Read[]> {
    this.spawn(threads);
    const workers = this.workers.slice(0, threads);
    // Every worker gets the whole list and takes files from it by a counter they share: the load
    // balances itself without a message per batch. On a loaded machine a worker waited longer for
    // its parent to wake and send the next batch than it took to lint it, and two workers were
    // slower than this thread alone. A second pass gives each worker the files it read in the first
    // (it kept their texts), and what no worker read to all of them.
    const shared: WorkerRequest = { files, job, next: new SharedArrayBuffer(4) };
    const requests = new Map<Worker, WorkerRequest>(workers.map((w) => [w, shared]));
    if (job.index && !job.fix && this.readers.size > 0) {
      const own = new Map<Worker, string[]>(workers.map((w) => [w, []]));
      const rest: string[] = [];
      for (const file of files) {
        const reader = this.readers.get(file);
        const mine = reader ? own.get(reader) : undefined;
        if (mine) mine.push(file);
        else rest.push(file);
      }
      const restCounter = new SharedArrayBuffer(4);
      for (const [worker, mine] of own) {
        requests.set(worker, {
          files: mine,
          job,
          next: new SharedArrayBuffer(4),
          rest: rest.length > 0 ? { files: rest, next: restCounter } : undefined,
        });
      }
    }
    const drive = (worker: Worker) =>
      new Promise<Read[]>((resolve, reject) => {
        const failure = this.failures.get(worker);
        if (failure !== undefined) {
          reject(new Error(`writev-lint worker failed: ${failure}`));
          return;
        }
        const settle = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const onMessage = (response: WorkerResponse) => {
          settle();
          if (response.error) reject(new Error(`writev-lint worker failed: ${response.error}`));
          else resolve(response.results.map((result) => ({ result, worker })));
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
        worker.postMessage(requests.get(worker));
      });
    const parts = await Promise.all(workers.map(drive));
    return parts.flat();
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    this.readers = new Map();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** A file's result, and the worker that read it (undefined: this thread). */
interface Read {
  readonly result: FileResult;
  readonly worker: Worker | undefined;
}
