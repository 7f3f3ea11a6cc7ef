// A worker thread of writev-lint: loads the analyzer once, then lints the files it is sent.
import { parentPort } from 'node:worker_threads';
import { Analyzer } from '../analyzer/analyzer';
import { callPattern, indexOfJob, lintFile, type FileResult, type LintJob } from './lintFile';

/** A batch of files for a worker. */
export interface WorkerRequest {
  readonly id: number;
  readonly files: readonly string[];
  readonly job: LintJob;
}

/** A worker's answer to a {@link WorkerRequest}. */
export interface WorkerResponse {
  readonly id: number;
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
      const results: FileResult[] = [];
      for (const file of request.files) {
        const result = await lintFile(analyzer, file, request.job, index, names);
        if (result) results.push(result);
      }
      port.postMessage({ id: request.id, results } satisfies WorkerResponse);
    } catch (error) {
      port.postMessage({
        id: request.id,
        results: [],
        error: (error as Error).stack ?? String(error),
      } satisfies WorkerResponse);
    }
  };
  // lint answers every request itself, its failures included: the promise has nothing left to report.
  port.on('message', (request: WorkerRequest) => void lint(request));
}
