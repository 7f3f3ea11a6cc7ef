#!/usr/bin/env node
/**
 * The `writev-upload-pack` command: an upload-pack server git can clone and fetch from,
 *   git clone --no-local --upload-pack='node /path/to/writev-upload-pack.js' <repo> <dest>
 * (`--no-local` or a `file://` URL, since git copies local paths without any upload-pack).
 *
 * Imports only what serving needs, so the bundled file starts fast. Writes to stderr through the
 * fd-based stack too: `process.stderr` could make a terminal git shares non-blocking.
 */
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { createSys } from '../nodeSys';
import { writeOrDie } from '../orDie';
import { BrokenPipeError } from '../errors';
import { EXIT_BROKEN_PIPE, EXIT_FATAL } from '../exit';
import { USAGE, parseOptions } from '../uploadPack/options';
import { UsageError } from '../usageError';
import { UploadPackError } from '../uploadPack/errors';
import { recordTiming, serveUploadPack } from '../uploadPack/server';

/** Git's exit status for a usage error. */
const EXIT_USAGE = 129;

function say(text: string): void {
  try {
    writeOrDie(2, Buffer.from(text, 'utf8'));
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

async function main(): Promise<number> {
  for (const [fd, name] of [
    [1, 'standard output'],
    [0, 'standard input'],
  ] as const) {
    if (closedAtStart(fd)) {
      say(`fatal: writev-upload-pack: ${name} (descriptor ${fd}) was closed at start: nowhere to serve\n`);
      return EXIT_FATAL;
    }
  }
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    say(`error: ${err.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    // A Sys of its own, so the timing report can say what this serve cost in syscalls.
    const report = await serveUploadPack(options, { input: 0, output: 1, sys: createSys() });
    if (options.timingFile) recordTiming(options.timingFile, report);
    return 0;
  } catch (err) {
    if (err instanceof BrokenPipeError) return EXIT_BROKEN_PIPE;
    // The client has seen an UploadPackError already; stderr is for whoever runs the server.
    const text = err instanceof Error ? err.message : String(err);
    say(`fatal: ${err instanceof UploadPackError ? 'writev-upload-pack: ' : ''}${text}\n`);
    return EXIT_FATAL;
  }
}

void main().then((status) => process.exit(status));
