import { WriteError } from '../errors';
import { hexLength } from '../odb/objectId';
import { checkFd } from '../writeArguments';
import type { Repository } from '../odb/repository';
import { parseCommand } from './commands';
import { LineInput, type LineInputOptions } from './lineInput';
import { CatBlobResponder, type ResponderOptions } from './responder';

/** Options of {@link serveCatBlob}. */
export interface ServeOptions extends ResponderOptions {
  /** How the command input is read. */
  input?: LineInputOptions;
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
  try {
    for (;;) {
      if (responder.hasPending && !input.hasBufferedLine()) responder.flush();
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
  return { answers: responder.answers, bytes: responder.bytes, lines: input.lineNumber, reads: input.reads };
}
