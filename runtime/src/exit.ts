import { BrokenPipeError } from './errors';

/** Git's exit status for a death by SIGPIPE (128 + 13). */
export const EXIT_BROKEN_PIPE = 141;
/** Git's exit status for `die()`. */
export const EXIT_FATAL = 128;

/**
 * The exit status and message Git would give for `err`: 141 and no message for a broken pipe,
 * 128 and "fatal: <message>" for anything else.
 */
export function gitExit(err: unknown): { status: number; message?: string } {
  if (err instanceof BrokenPipeError) return { status: EXIT_BROKEN_PIPE };
  const text = err instanceof Error ? err.message : String(err);
  return { status: EXIT_FATAL, message: `fatal: ${text}` };
}

/**
 * Ends a command-line tool the way Git does after a failed write: silently with 141 for a broken
 * pipe, otherwise "fatal: ..." on stderr and 128. Never returns.
 */
export function exitLikeGit(err: unknown): never {
  const { status, message } = gitExit(err);
  if (message !== undefined) process.stderr.write(`${message}\n`);
  process.exit(status);
}
