#!/usr/bin/env node
/**
 * writev-cat-blob: the cat-blob half of git fast-import. Reads `cat-blob <oid>` lines on standard
 * input and answers each on the cat-blob descriptor, byte for byte as git fast-import does, from
 * the repository's object database (no git process).
 *
 *   writev-cat-blob [--git-dir=<dir>] [--cat-blob-fd=<n>] [--mode=batched|writev|writes]
 *                   [--batch-bytes=<n>] [--no-read-ahead] [--verify-hash] [--stats]
 *
 * In batched mode, once requests arrive in bulk, a worker thread makes the answers ahead of the
 * writes (`--no-read-ahead`: one thread).
 *
 * Exits 0 at the end of input or `done`; 128 with "fatal: ..." as Git does for a bad command, a
 * non-blob, a damaged repository, a failed write, or a cat-blob descriptor that is not open, not
 * writable or not one given to this process (checked before anything is read); 141 silently when
 * the reader went away; 129 with the usage for bad options.
 */
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import { createSys } from '../nodeSys';
import { exitLikeGit } from '../exit';
import { keepFreedMemory } from '../keepFreedMemory';
import { allocateArena, ArenaCarver } from '../odb/memoryArena';
import { openRepository } from '../odb/repository';
import type { ResponseMode } from '../catBlob/responder';
import { serveCatBlob } from '../catBlob/serve';
import { checkOutputDescriptor } from '../outputDescriptor';

const USAGE =
  'usage: writev-cat-blob [--git-dir=<dir>] [--cat-blob-fd=<n>] [--mode=batched|writev|writes] ' +
  '[--batch-bytes=<n>] [--no-read-ahead] [--verify-hash] [--stats]';

const MODES: readonly ResponseMode[] = ['batched', 'writev', 'writes'];
/**
 * The address space reserved for the objects the reader builds (delta bases, answers that are
 * also bases): more than Git's default 96 MiB delta-base cache and the reader's pool, so it rarely
 * falls back to memory of its own. Only the pages used are ever mapped.
 */
const ARENA_BYTES = 128 * 1024 * 1024;

interface Options {
  gitDir: string;
  fd: number;
  /** How the user named the output descriptor, for messages about it. */
  fdLabel: string;
  mode: ResponseMode;
  batchBytes?: number;
  verifyHash: boolean;
  readAhead: boolean;
  stats: boolean;
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'git-dir': { type: 'string' },
        'cat-blob-fd': { type: 'string' },
        mode: { type: 'string', default: 'batched' },
        'batch-bytes': { type: 'string' },
        'verify-hash': { type: 'boolean', default: false },
        'no-read-ahead': { type: 'boolean', default: false },
        stats: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    // parseArgs's first sentence names the option ("Unknown option '--frob'"); the rest is advice
    // about positionals, which this command has none of.
    return usage(129, (err as Error).message.split(/\.(?: |$)/)[0]);
  }
  if (values.help) usage(0);
  const gitDir = values['git-dir'] ?? process.env.GIT_DIR ?? '.';
  if (gitDir === '') usage(129, '--git-dir needs a folder');
  const fdText = values['cat-blob-fd'];
  if (fdText !== undefined && !/^\d+$/.test(fdText)) {
    usage(129, `--cat-blob-fd needs a descriptor number, got ${JSON.stringify(fdText)}`);
  }
  const mode = values.mode as ResponseMode;
  if (!MODES.includes(mode))
    usage(129, `--mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  const batchText = values['batch-bytes'];
  if (batchText !== undefined && !/^[1-9]\d*$/.test(batchText)) {
    usage(129, `--batch-bytes needs a positive number of bytes, got ${JSON.stringify(batchText)}`);
  }
  return {
    gitDir,
    fd: fdText === undefined ? 1 : Number(fdText),
    fdLabel: fdText === undefined ? 'standard output' : `--cat-blob-fd=${fdText}`,
    mode,
    ...(batchText !== undefined && { batchBytes: Number(batchText) }),
    verifyHash: values['verify-hash'],
    readAhead: !values['no-read-ahead'],
    stats: values.stats,
  };
}

function usage(status: number, problem?: string): never {
  // Written straight to the descriptors: touching process.stdout/stderr streams could make an
  // inherited pipe non-blocking for the writer that shares it.
  if (problem !== undefined) writeSync(2, `error: ${problem}\n`);
  writeSync(status === 0 ? 1 : 2, `${USAGE}\n`);
  process.exit(status);
}

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  // Before anything else: a descriptor the caller did not give us may be one of Node's own, where
  // the answers would be lost or crash the process instead of failing.
  checkOutputDescriptor(options.fd, options.fdLabel);
  const sys = createSys();
  // A bulk request compiles its hot paths on V8's background threads, whose memory glibc would
  // otherwise hand back and fault in again for each function.
  keepFreedMemory();
  // With read-ahead, objects are built in an arena whose pages the writing thread maps ahead of
  // use (see odb/memoryArena): only address space until then.
  const arena = options.readAhead ? allocateArena(ARENA_BYTES) : undefined;
  const carver = arena && new ArenaCarver(arena);
  const repo = openRepository(options.gitDir, {
    verifyHash: options.verifyHash,
    ...(carver && { memory: carver }),
  });
  const { mode, batchBytes } = options;
  const readAhead = options.readAhead && { arena: carver };
  const summary = serveCatBlob(0, options.fd, repo, {
    mode,
    sys,
    readAhead,
    ...(batchBytes && { batchBytes }),
  });
  repo.close();
  if (options.stats) {
    const { write, writev } = sys.counts;
    writeSync(2, `${JSON.stringify({ ...summary, write, writev })}\n`);
  }
}

// The same file runs the read-ahead worker (see catBlob/readAhead.ts), which must not start a main.
if (isMainThread) {
  try {
    main();
  } catch (err) {
    exitLikeGit(err);
  }
}
