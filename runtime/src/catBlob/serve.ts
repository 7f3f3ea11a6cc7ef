import { WriteError } from '../errors';
import { hexLength } from '../odb/objectId';
import { checkFd } from '../writeArguments';
import type { Repository } from '../odb/repository';
import { parseCommand } from './commands';
import { LineInput, type LineInputOptions } from './lineInput';
import { serveAhead, type ReadAheadOptions } from './readAhead';
import { CatBlobResponder, DEFAULT_BATCH_BYTES, type ResponderOptions } from './responder';

/**
 * Requests already waiting at a read that hand the rest of the stream to a worker: a frontend that
 * sends them in bulk gains from answers made ahead; one that waits for each answer would not (the
 * next request only comes after it), and starting a thread costs tens of milliseconds.
 */
export const READ_AHEAD_QUEUE = 32;

/** Options of {@link serveCatBlob}. */
export interface ServeOptions extends ResponderOptions {
  /** How the command input is read. */
  input?: LineInputOptions;
  /**
   * In `'batched'` mode, make the answers ahead of the writes once requests arrive in bulk
   * ({@link READ_AHEAD_QUEUE} waiting at a read), a second thread writing them; default off. That
   * thread writes through a `Sys` of its own (a function cannot cross threads): an injected `sys`
   * gets its call counts, not its calls.
   */
  readAhead?: ReadAheadOptions | boolean;
}

/** What a session of {@link serveCatBlob} did. */
export interface ServeSummary {
  /** `cat-blob` requests answered. */
  answers: number;
  /** Bytes of answers written. */
  bytes: number;
  /** Input lines read (comments and `done` included). */
  lines: number;
  /** Read calls on the input. */
  reads: number;
  /** Whether answers were made ahead of the writes, a worker writing them (see {@link ServeOptions.readAhead}). */
  readAhead: boolean;
  /** Answers made straight in the ring the worker writes from, with no copy (0 without it). */
  inPlace: number;
}

/**
 * Answers the `cat-blob` requests of a fast-import command stream read from `inputFd`, on
 * `outputFd`, until the end of input or `done`: the cat-blob half of git fast-import.
 *
 * In `'batched'` mode (the default) answers are gathered while the input buffer already holds the
 * next request, and flushed before any read that might wait, so a frontend that waits for each
 * answer is never kept waiting. Before an error is thrown, answers to earlier requests are written,
 * so the output up to a failure is what git fast-import would have written.
 *
 * @throws {@link CatBlobCommandError} for an unsupported or malformed line, {@link NotABlobError},
 * the reader's errors, and `WriteError`/`BrokenPipeError`; a TypeError or RangeError before
 * anything is read for a descriptor that is not a non-negative integer.
 */
export function serveCatBlob(
  inputFd: number,
  outputFd: number,
  repo: Repository,
  options: ServeOptions = {},
): ServeSummary {
  checkFd(inputFd, 'inputFd');
  checkFd(outputFd, 'outputFd');
  const input = new LineInput(inputFd, options.input);
  const responder = new CatBlobResponder(outputFd, repo, options);
  const digits = hexLength(repo.algorithm);
  const readAhead = options.readAhead === true ? {} : options.readAhead || undefined;
  const mayHandOver = readAhead !== undefined && responder.mode === 'batched';
  try {
    for (;;) {
      if (responder.hasPending && !input.hasBufferedLine()) responder.flush();
      // Whether requests come in bulk is known after each read, before the first line it brought
      // is answered here: the first requests of a history are often its longest delta chains,
      // which the worker would make again (tens of milliseconds on a real history).
      if (mayHandOver && !input.hasBufferedLine()) {
        input.bufferLine();
        if (input.hasBufferedLines(READ_AHEAD_QUEUE)) {
          return handOver(outputFd, repo, input, responder, { ...options, ...readAhead });
        }
      }
      const line = input.readLine();
      if (line === undefined) break;
      const command = parseCommand(line, input.lineNumber, digits);
      if (command.kind === 'done') break;
      if (command.kind === 'cat-blob') responder.answer(command.oid);
    }
  } catch (err) {
    // Answers to earlier requests still go out, as fast-import wrote each before reading the next
    // line; after a failed write there is no point trying again.
    if (!(err instanceof WriteError)) responder.flush();
    throw err;
  }
  responder.flush();
  return {
    answers: responder.answers,
    bytes: responder.bytes,
    lines: input.lineNumber,
    reads: input.reads,
    readAhead: false,
    inPlace: 0,
  };
}

/** Serves the rest of the stream with {@link serveAhead}, adding this thread's earlier counts. */
function handOver(
  outputFd: number,
  repo: Repository,
  input: LineInput,
  responder: CatBlobResponder,
  options: ServeOptions & ReadAheadOptions,
): ServeSummary {
  const rest = serveAhead(input, outputFd, repo, {
    ...options,
    batchBytes: options.batchBytes ?? DEFAULT_BATCH_BYTES,
  });
  return {
    answers: responder.answers + rest.answers,
    bytes: responder.bytes + rest.bytes,
    lines: rest.lines,
    reads: rest.reads,
    readAhead: true,
    inPlace: rest.inPlace,
  };
}
