// What writev-lint's threads say to each other: a worker's start data, its requests and answers, and
// the shared words by which they take files and cancel a request. Apart from worker.ts so that the
// thread that starts workers does not load the analyzer to know these.
import type { CGrammar } from '../analyzer/c/grammar';
import type { FileResult, LintJob } from './lintFile';

/** What a worker starts with: the compiled grammar, shared with the thread that compiled it. */
export interface WorkerData {
  readonly grammar: CGrammar;
}

/** Files and the counter by which the threads that share it take them (element 0: the next index). */
export interface FileList {
  readonly files: readonly string[];
  readonly next: SharedArrayBuffer;
}

/**
 * A run for a worker: the lists it takes files from, in order (its own, then one shared with the
 * other threads), and `state`, whose element 0 the worker sets to {@link STARTED} before taking a
 * file, unless its parent set it first to cancel the request.
 */
export interface WorkerRequest {
  readonly job: LintJob;
  readonly lists: readonly FileList[];
  readonly state: SharedArrayBuffer;
}

/** The value of a request's `state` once its worker has started on it. */
export const STARTED = 1;

/** The value of a request's `state` when its parent did the files before the worker started. */
export const CANCELLED = 2;

/** A worker's answer to a {@link WorkerRequest}: the results of the files it took. */
export interface WorkerResponse {
  readonly results: readonly FileResult[];
  readonly error?: string;
}
