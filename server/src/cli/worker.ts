// A worker thread of writev-lint: loads the analyzer once, then lints the files it is sent.
import { parentPort } from 'node:worker_threads';
import { Analyzer } from '../analyzer/analyzer';
import { callPattern, indexOfJob, lintFile, type FileResult, type LintJob } from './lintFile';

/**
 * A run for a worker: the files of the run, and a counter shared by all its workers (an Int32Array's
 * buffer; element 0 is the index of the next file to take).
 */
export interface WorkerRequest {
  readonly files: readonly string[];
  readonly job: LintJob;
  readonly next: SharedArrayBuffer;
}

/** A worker's answer to a {@link WorkerRequest}: the results of the files it took. */
export interface WorkerResponse {
  readonly results: readonly FileResult[];
  readonly error?: string;
}

const port = parentPort;
if (port) {
  const ready = Analyzer.create();
  const lint = async (request: WorkerRequest): Promise<void> => {
    try {
      const analyzer = await ready;
      const index = indexOfJob(request.job);
      const names = callPattern(request.job.names);
      const next = new Int32Array(request.next);
      const results: FileResult[] = [];
      for (let i = Atomics.add(next, 0, 1); i < request.files.length; i = Atomics.add(next, 0, 1)) {
        const file = request.files[i];
        const result =
          file === undefined ? undefined : await lintFile(analyzer, file, request.job, index, names);
        if (result) results.push(result);
      }
      port.postMessage({ results } satisfies WorkerResponse);
    } catch (error) {
      port.postMessage({
        results: [],
        error: (error as Error).stack ?? String(error),
      } satisfies WorkerResponse);
    }
  };
  // lint answers every request itself, its failures included: the promise has nothing left to report.
  port.on('message', (request: WorkerRequest) => void lint(request));
}
