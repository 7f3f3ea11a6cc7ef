/**
 * What the `writev-upload-pack` command does between its arguments and its exit status: refuse a
 * descriptor closed at start, parse the options, serve, record the timing, and turn each failure
 * into git's exit status and `fatal:` line. The bin only calls it with its own descriptors and
 * environment and exits with what it returns; a test can call it with other descriptors to serve
 * through the same code without starting a process.
 */
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { createSys } from '../nodeSys';
import { writeOrDie } from '../orDie';
import { BrokenPipeError } from '../errors';
import { EXIT_BROKEN_PIPE, EXIT_FATAL } from '../exit';
import { UsageError } from '../usageError';
import { withServeEnv } from './childEnv';
import { UploadPackError } from './errors';
import { USAGE, parseOptions } from './options';
import { recordTiming, serveUploadPack } from './server';

/** Git's exit status for a usage error. */
export const EXIT_USAGE = 129;

/** The descriptors a command run talks through. */
export interface CommandIo {
  /** The client's requests (stdin). */
  readonly input: number;
  /** The answers (stdout). */
  readonly output: number;
  /** Usage errors, `fatal:` lines and warnings for whoever runs the server (stderr). */
  readonly errors: number;
}

/** The bin's descriptors. */
export const STANDARD_IO: CommandIo = { input: 0, output: 1, errors: 2 };

function say(fd: number, text: string): void {
  try {
    writeOrDie(fd, Buffer.from(text, 'utf8'));
  } catch {
    // nowhere left to report to
  }
}

/** `O_ACCMODE` and `O_RDWR`, as /proc shows a descriptor's flags (octal). */
const O_ACCMODE = 0o3;
const O_RDWR = 0o2;

/**
 * Whether `fd` was closed when the process started. Node then opens /dev/null read-write in its
 * place before any script runs, so the answer would vanish and the exit status say success. A
 * shell's `>/dev/null` opens it write-only and `</dev/null` read-only, so those still run; a
 * read-write /dev/null given by the parent (Node's `stdio: 'ignore'`) cannot be told from a closed
 * descriptor and is refused too. Where /proc cannot tell, the descriptor is taken as given.
 */
function closedAtStart(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev !== statSync('/dev/null').rdev) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
    return flags !== null && (parseInt(flags[1]!, 8) & O_ACCMODE) === O_RDWR;
  } catch {
    return false;
  }
}

/**
 * Runs `writev-upload-pack` with the arguments `argv` (without the program's name) and the
 * environment `env`, on `io`, and resolves to its exit status: 0 served, 128 fatal (the message on
 * `io.errors`), 129 a usage error, 141 the client's descriptor closed under it. The git children it
 * starts get `env`, not `process.env` (see `withServeEnv`). Never rejects for a failed serve; does
 * not close the descriptors.
 */
export async function runUploadPackCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CommandIo = STANDARD_IO,
): Promise<number> {
  for (const [fd, name] of [
    [io.output, 'standard output'],
    [io.input, 'standard input'],
  ] as const) {
    if (closedAtStart(fd)) {
      say(
        io.errors,
        `fatal: writev-upload-pack: ${name} (descriptor ${fd}) was closed at start: nowhere to serve\n`,
      );
      return EXIT_FATAL;
    }
  }
  let options;
  try {
    options = parseOptions(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    say(io.errors, `error: ${err.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    // A Sys of its own, so the timing report can say what this serve cost in syscalls.
    const report = await withServeEnv(env, () =>
      serveUploadPack(options, { input: io.input, output: io.output, errors: io.errors, sys: createSys() }),
    );
    if (options.timingFile) recordTiming(options.timingFile, report);
    return 0;
  } catch (err) {
    if (err instanceof BrokenPipeError) return EXIT_BROKEN_PIPE;
    // The client has seen an UploadPackError already; stderr is for whoever runs the server.
    const text = err instanceof Error ? err.message : String(err);
    say(io.errors, `fatal: ${err instanceof UploadPackError ? 'writev-upload-pack: ' : ''}${text}\n`);
    return EXIT_FATAL;
  }
}
