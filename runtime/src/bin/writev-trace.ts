#!/usr/bin/env node
/**
 * writev-trace: runs a command and records, for every write-family system call it makes, the source
 * line that made it, into a trace file (`writev-trace.json`) that `writev-lint --trace` and the editor
 * read.
 *
 *   writev-trace [--out FILE] [--syscalls write,writev,...] [--tracer auto|node|native] -- COMMAND [ARGS...]
 *
 * Node programs are traced by a preload in every Node process of the command (no system tools needed);
 * other programs by `strace -f -k` and `addr2line` (build them with -g). The command's own output and
 * exit status pass through unchanged; writev-trace speaks only on stderr, once, at the end.
 */
import {
  accessSync,
  constants as fsConstants,
  existsSync,
  statSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { replaceFileSafelySync } from '../replaceFileSafely';
import { endAs, firstChildOf, runCommand, type Ending } from '../trace/runCommand';
import { readStraceOutput, straceArgs, straceProblem } from '../trace/straceTracer';
import {
  SiteTable,
  TRACED_SYSCALLS,
  type TraceFile,
  type TraceSite,
  type TracedSyscall,
} from '../trace/traceFile';
import { UsageError } from '../usageError';

const USAGE =
  'usage: writev-trace [--out FILE] [--syscalls write,writev,pwrite,pwritev,send,sendmsg] ' +
  '[--tracer auto|node|native] -- COMMAND [ARGS...]';

/** Exit status for bad usage, and for a trace that could not be made (the command did not run). */
const EXIT_USAGE = 129;
const EXIT_FATAL = 128;

interface Options {
  out: string;
  syscalls: TracedSyscall[];
  tracer: 'node' | 'native';
  command: string[];
}

function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o', default: 'writev-trace.json' },
      syscalls: { type: 'string', default: TRACED_SYSCALLS.join(',') },
      tracer: { type: 'string', default: 'auto' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length === 0) throw new UsageError('no command to trace (put it after --)');
  const syscalls = values.syscalls.split(',').map((s) => s.trim());
  for (const s of syscalls) {
    if (!TRACED_SYSCALLS.includes(s as TracedSyscall))
      throw new UsageError(`--syscalls: unknown syscall "${s}" (known: ${TRACED_SYSCALLS.join(', ')})`);
  }
  if (!['auto', 'node', 'native'].includes(values.tracer))
    throw new UsageError(`--tracer: "${values.tracer}" is not auto, node or native`);
  const command = positionals;
  const tracer =
    values.tracer === 'auto'
      ? isNode(command[0] ?? '')
        ? 'node'
        : 'native'
      : (values.tracer as 'node' | 'native');
  return { out: resolve(values.out), syscalls: syscalls as TracedSyscall[], tracer, command };
}

/** A command that starts Node: `node`, this very Node binary, or a script for either. */
function isNode(program: string): boolean {
  if (program === process.execPath || /^(node|nodejs)(\.exe)?$/.test(basename(program))) return true;
  return /\.[mc]?js$/.test(program);
}

/** The preload: bundled beside this bin, or compiled under trace/ when run from the library's dist. */
function preloadPath(): string {
  const candidates = [
    join(__dirname, 'writev-trace-preload.js'),
    join(__dirname, '..', 'trace', 'nodePreload.js'),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found) return found;
  throw new Error(`the Node tracer is missing beside ${__filename}`);
}

/** The program's path, searched on PATH as a shell would; undefined when there is none to run. */
function findProgram(program: string): string | undefined {
  const runnable = (path: string): boolean => {
    try {
      accessSync(path, fsConstants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return runnable(program) ? program : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && runnable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** What a tracer found, with how the command ended. */
interface Traced extends Ending {
  readonly sites: TraceSite[];
  readonly notes: string[];
}

/** One Node process's table, as the preload saves it (nodePreload.ts). */
interface NodePart {
  readonly pid: number;
  /** False for a save taken while the process ran: it ended without exiting (killed by a signal). */
  readonly complete?: boolean;
  readonly sites: TraceSite[];
}

async function traceNode(options: Options, work: string): Promise<Traced> {
  const preload = preloadPath();
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim(),
    WRITEV_TRACE_DIR: work,
    WRITEV_TRACE_SYSCALLS: options.syscalls.join(','),
  };
  const [program = '', ...args] = options.command;
  const ending = await runCommand(program, args, env);
  const table = new SiteTable();
  let processes = 0;
  const cutShort: number[] = [];
  for (const name of readdirSync(work).filter((n) => /^node-.*\.json$/.test(n))) {
    const where = join(work, name);
    let part: NodePart;
    try {
      part = JSON.parse(readFileSync(where, 'utf8')) as NodePart;
    } catch (error) {
      throw new Error(`${where}: a Node process's table is not JSON (${(error as Error).message})`);
    }
    table.merge(part.sites);
    processes++;
    if (part.complete === false) cutShort.push(part.pid);
  }
  const notes: string[] = [];
  if (processes === 0)
    notes.push(
      'no Node process reported: the command started none, or each one died before it could (SIGKILL)',
    );
  if (cutShort.length > 0)
    notes.push(
      `${plural(cutShort.length, 'Node process', 'Node processes')} (${cutShort.join(', ')}) ended without ` +
        'exiting (a signal from outside): calls made just before the end, after its last save, are not counted',
    );
  return { ...ending, sites: table.list(), notes };
}

async function traceNative(options: Options, work: string): Promise<Traced> {
  const problem = straceProblem();
  if (problem) throw new Error(`${problem}; Node programs can be traced without it (--tracer node)`);
  const output = join(work, 'strace.txt');
  // strace blocks SIGTERM and SIGHUP while it traces a command it started: pass them to the command.
  const ending = await runCommand(
    'strace',
    [...straceArgs(output, options.syscalls), ...options.command],
    process.env,
    (child) => (child.pid === undefined ? undefined : firstChildOf(child.pid)),
  );
  const { table, notes } = await readStraceOutput(output);
  return { ...ending, sites: table.list(), notes };
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`writev-trace: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(EXIT_USAGE);
  }
  const program = options.command[0] ?? '';
  if (!findProgram(program)) {
    process.stderr.write(`writev-trace: cannot run ${program}: not found or not executable\n`);
    process.exit(EXIT_FATAL);
  }
  // A closed terminal must not turn the last words into a crash: the trace is written before them.
  process.stderr.on('error', () => undefined);
  const work = mkdtempSync(join(tmpdir(), 'writev-trace-'));
  let traced: Traced;
  try {
    traced = options.tracer === 'node' ? await traceNode(options, work) : await traceNative(options, work);
    const trace: TraceFile = {
      version: 1,
      command: options.command,
      exitCode: traced.code,
      ...(traced.signal ? { signal: traced.signal } : {}),
      sites: traced.sites,
      ...(traced.notes.length > 0 ? { notes: traced.notes } : {}),
    };
    try {
      // Never through a planted link, and a reader sees the old trace or the new, never half of one.
      replaceFileSafelySync(options.out, `${JSON.stringify(trace, null, 2)}\n`);
    } catch (error) {
      throw new Error(`cannot write the trace ${options.out}: ${(error as Error).message}`);
    }
  } catch (error) {
    const { code, syscall } = error as NodeJS.ErrnoException;
    const what =
      code === 'ENOENT' && syscall?.startsWith('spawn')
        ? `cannot run ${options.command[0] ?? ''}: not found`
        : (error as Error).message;
    process.stderr.write(`writev-trace: ${what}\n`);
    // What the tracers recorded is the evidence of what went wrong: keep it, unless there is none.
    if (readdirSync(work).length > 0)
      process.stderr.write(`writev-trace: the tracers' output is kept in ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
    process.exit(EXIT_FATAL);
  }
  rmSync(work, { recursive: true, force: true });
  const calls = traced.sites.reduce((n, s) => n + s.calls, 0);
  process.stderr.write(
    `writev-trace: ${plural(calls, 'call')} at ${plural(traced.sites.length, 'line')} -> ${options.out}\n`,
  );
  for (const note of traced.notes) process.stderr.write(`writev-trace: note: ${note}\n`);
  endAs(traced);
}

void main();

/** `1 call`, `40,000 calls`: a count with its noun, as the summary line prints it. */
function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
