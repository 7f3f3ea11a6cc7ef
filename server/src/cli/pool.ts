// Lints files in parallel on worker threads (or in this thread for small inputs), in batches so a
// worker that finishes early takes the next batch.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Analyzer } from '../analyzer/analyzer';
import { callPattern, indexOfJob, lintFile, type FileResult, type LintJob } from './lintFile';
import type { WorkerRequest, WorkerResponse } from './worker';

/** Below this many files, starting workers (each loads the grammar) costs more than it saves. */
const SMALL_INPUT = 64;
const BATCH = 16;

/**
 * The most worker threads a run starts: one per core. More only add memory (each loads an analyzer of
 * its own) and contention: `--jobs 1000` once started 200 threads holding 2.5 GB.
 */
export function workerLimit(): number {
  return Math.max(1, availableParallelism());
}

/** Runs lint jobs over file lists; reuse it for several passes, then {@link LintPool.close}. */
export class LintPool {
  private workers: Worker[] = [];
  private local: Promise<Analyzer> | undefined;
  private readonly jobs?: number;

  /** `jobs`: worker threads to use (1: none), at most {@link workerLimit}; undefined: one per core for large inputs. */
  constructor(jobs?: number) {
    this.jobs = jobs === undefined ? undefined : Math.min(jobs, workerLimit());
  }

  private threadsFor(files: number): number {
    if (this.jobs !== undefined) return this.jobs;
    return files < SMALL_INPUT ? 1 : Math.max(1, availableParallelism());
  }

  /** Lints `files` with `job`; results come back in the order of `files`. */
  async run(files: readonly string[], job: LintJob): Promise<FileResult[]> {
    const threads = Math.min(this.threadsFor(files.length), Math.max(1, Math.ceil(files.length / BATCH)));
    const results =
      threads <= 1 ? await this.runHere(files, job) : await this.runOnWorkers(files, job, threads);
    const order = new Map(files.map((f, i) => [f, i]));
    return results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  }

  private async runHere(files: readonly string[], job: LintJob): Promise<FileResult[]> {
    this.local ??= Analyzer.create();
    const analyzer = await this.local;
    const index = indexOfJob(job);
    const names = callPattern(job.names);
    const results: FileResult[] = [];
    for (const file of files) {
      const result = await lintFile(analyzer, file, job, index, names);
      if (result) results.push(result);
    }
    return results;
  }

  private async runOnWorkers(files: readonly string[], job: LintJob, threads: number): Promise<FileResult[]> {
    while (this.workers.length < threads) this.workers.push(new Worker(join(__dirname, 'worker.js')));
    const batches: string[][] = [];
    for (let i = 0; i < files.length; i += BATCH) batches.push(files.slice(i, i + BATCH));
    const results: FileResult[] = [];
    let next = 0;
    const drive = (worker: Worker) =>
      new Promise<void>((resolve, reject) => {
        const send = () => {
          if (next >= batches.length) {
            worker.off('message', onMessage);
            worker.off('error', reject);
            worker.off('exit', onExit);
            resolve();
            return;
          }
          const request: WorkerRequest = { id: next, files: batches[next++]!, job }; // next < batches.length
          worker.postMessage(request);
        };
        const onMessage = (response: WorkerResponse) => {
          if (response.error) {
            reject(new Error(`writev-lint worker failed: ${response.error}`));
            return;
          }
          results.push(...response.results);
          send();
        };
        // A worker that dies without an error event (killed, out of memory) would otherwise leave
        // this promise, and the run, waiting forever.
        const onExit = (code: number) =>
          reject(new Error(`writev-lint worker exited (code ${code}) mid-run`));
        worker.on('message', onMessage);
        worker.on('error', reject);
        worker.once('exit', onExit);
        send();
      });
    await Promise.all(this.workers.slice(0, threads).map(drive));
    return results;
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers = [];
  }
}
