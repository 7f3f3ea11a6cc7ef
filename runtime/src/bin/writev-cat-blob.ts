#!/usr/bin/env node
/**
 * writev-cat-blob: the cat-blob half of git fast-import. Reads `cat-blob <oid>` lines on standard
 * input and answers each on the cat-blob descriptor, byte for byte as git fast-import does, from
 * the repository's object database (no git process).
 *
 *   writev-cat-blob [--git-dir=<dir>] [--cat-blob-fd=<n>] [--mode=batched|writev|writes]
 *                   [--batch-bytes=<n>] [--verify-hash] [--stats]
 *
 * Exits 0 at the end of input or `done`; 128 with "fatal: ..." as Git does for a bad command, a
 * non-blob, a damaged repository or a failed write; 141 silently when the reader went away; 129
 * with the usage for bad options.
 */
import { writeSync } from 'node:fs';
import { createSys } from '../nodeSys';
import { exitLikeGit } from '../exit';
import { openRepository } from '../odb/repository';
import type { ResponseMode } from '../catBlob/responder';
import { serveCatBlob } from '../catBlob/serve';

const USAGE =
  'usage: writev-cat-blob [--git-dir=<dir>] [--cat-blob-fd=<n>] [--mode=batched|writev|writes] ' +
  '[--batch-bytes=<n>] [--verify-hash] [--stats]';

interface Options {
  gitDir: string;
  fd: number;
  mode: ResponseMode;
  batchBytes?: number;
  verifyHash: boolean;
  stats: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    gitDir: process.env.GIT_DIR ?? '.',
    fd: 1,
    mode: 'batched',
    verifyHash: false,
    stats: false,
  };
  for (const arg of argv) {
    const [name, value] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, ''];
    if (name === '--git-dir' && value !== '') options.gitDir = value;
    else if (name === '--cat-blob-fd' && /^\d+$/.test(value)) options.fd = Number(value);
    else if (name === '--mode' && (value === 'batched' || value === 'writev' || value === 'writes'))
      options.mode = value;
    else if (name === '--batch-bytes' && /^[1-9]\d*$/.test(value)) options.batchBytes = Number(value);
    else if (arg === '--verify-hash') options.verifyHash = true;
    else if (arg === '--stats') options.stats = true;
    else if (arg === '-h' || arg === '--help') usage(0);
    else usage(129, `unknown or malformed option: ${arg}`);
  }
  return options;
}

function usage(status: number, problem?: string): never {
  // Written straight to the descriptors: touching process.stdout/stderr streams could make an
  // inherited pipe non-blocking for the writer that shares it.
  if (problem !== undefined) writeSync(2, `error: ${problem}\n`);
  writeSync(status === 0 ? 1 : 2, `${USAGE}\n`);
  process.exit(status);
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const sys = createSys();
  const repo = openRepository(options.gitDir, { verifyHash: options.verifyHash });
  const { mode, batchBytes } = options;
  const summary = serveCatBlob(0, options.fd, repo, { mode, sys, ...(batchBytes && { batchBytes }) });
  repo.close();
  if (options.stats) {
    const { write, writev } = sys.counts;
    writeSync(2, `${JSON.stringify({ ...summary, write, writev })}\n`);
  }
}

try {
  main();
} catch (err) {
  exitLikeGit(err);
}
