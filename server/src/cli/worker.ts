// A worker thread of writev-lint: loads the analyzer once (on the grammar its parent compiled), then
// lints the files it is sent, keeping the texts of a first pass for the second.
import { parentPort, workerData } from 'node:worker_threads';
import { Analyzer } from '../analyzer/analyzer';
import { cGrammar, type CGrammar } from '../analyzer/c/grammar';
import { callPattern, indexOfJob, lintFile, SourceStore, type FileResult, type LintJob } from './lintFile';

/** What a worker starts with: the compiled grammar, shared with the thread that compiled it. */
export interface WorkerData {
  readonly grammar: CGrammar;
}

/** Files and the counter by which the workers that share it take them (element 0: the next index). */
interface FileList {
  readonly files: readonly string[];
  readonly next: SharedArrayBuffer;
}

/**
 * A run for a worker: its files and their counter, and `rest`, a list shared with the other workers
 * that it helps with after its own.
 */
export interface WorkerRequest extends FileList {
  readonly job: LintJob;
  readonly rest?: FileList;
}

/** A worker's answer to a {@link WorkerRequest}: the results of the files it took. */
export interface WorkerResponse {
  readonly results: readonly FileResult[];
  readonly error?: string;
}

const port = parentPort;
if (port) {
  cGrammar((workerData as WorkerData).grammar);
  const ready = Analyzer.create();
  const store = new SourceStore();
  const lint = async (request: WorkerRequest): Promise<void> => {
    try {
      const analyzer = await ready;
      const index = indexOfJob(request.job);
      const names = callPattern(request.job.names);
      const results: FileResult[] = [];
      for (const list of request.rest ? [request, request.rest] : [request]) {
        const next = new Int32Array(list.next);
        for (let i = Atomics.add(next, 0, 1); i < list.files.length; i = Atomics.add(next, 0, 1)) {
          const file = list.files[i];
          const result =
            file === undefined ? undefined : await lintFile(analyzer, file, request.job, index, names, store);
          if (result) results.push(result);
        }
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
