// A worker thread of writev-lint: loads the analyzer once (on the grammar its parent compiled), then
// lints the files it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { Analyzer } from '../analyzer/analyzer';
import { cGrammar } from '../analyzer/c/grammar';
import { forgetRead, indexOfJob, lintFile, type FileResult } from './lintFile';
import { secondPass } from './secondPass';
import { STARTED, type WorkerData, type WorkerRequest, type WorkerResponse } from './workerProtocol';

const port = parentPort;
if (port) {
  cGrammar((workerData as WorkerData).grammar);
  const ready = Analyzer.create();
  const lint = async (request: WorkerRequest): Promise<void> => {
    // What an earlier facts pass kept is no text of this run's, even if this worker takes no file of it.
    if (request.job.factsOnly) forgetRead();
    // Cancelled: the parent finished the files while this worker was starting, and waits for nothing.
    if (Atomics.compareExchange(new Int32Array(request.state), 0, 0, STARTED) !== 0) return;
    try {
      const analyzer = await ready;
      const index = indexOfJob(request.job);
      const second = secondPass(request.job.names, index, request.job.redo);
      const results: FileResult[] = [];
      for (const list of request.lists) {
        const next = new Int32Array(list.next);
        for (let i = Atomics.add(next, 0, 1); i < list.files.length; i = Atomics.add(next, 0, 1)) {
          const file = list.files[i];
          const result =
            file === undefined ? undefined : await lintFile(analyzer, file, request.job, index, second);
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
