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
import { spawn, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants as fsConstants,
  existsSync,
  statSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { constants } from 'node:os';
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

/** Runs the command with stdio passed through; resolves with its exit status (128 + signal if killed). */
function run(
  program: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; signal?: NodeJS.Signals }> {
  return new Promise((done, fail) => {
    let child: ChildProcess;
    try {
      child = spawn(program, args, { stdio: 'inherit', env });
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    // Ctrl-C reaches the whole foreground group; SIGTERM sent to us alone is passed on.
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onTerm = forward('SIGTERM');
    const onInt = (): void => undefined;
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      process.removeListener('SIGTERM', onTerm);
      process.removeListener('SIGINT', onInt);
      if (signal) done({ code: 128 + (constants.signals[signal] ?? 0), signal });
      else done({ code: code ?? 0 });
    });
  });
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

/** Writes the trace beside its final name, then renames it over: a reader never sees half a trace. */
function writeTrace(path: string, trace: TraceFile): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(trace, null, 2)}\n`);
  renameSync(temp, path);
}

async function traceNode(
  options: Options,
  work: string,
): Promise<{ code: number; signal?: NodeJS.Signals; sites: TraceSite[]; notes: string[] }> {
  const preload = preloadPath();
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim(),
    WRITEV_TRACE_DIR: work,
    WRITEV_TRACE_SYSCALLS: options.syscalls.join(','),
  };
  const [program = '', ...args] = options.command;
  const outcome = await run(program, args, env);
  const table = new SiteTable();
  let processes = 0;
  for (const name of readdirSync(work).filter((n) => /^node-.*\.json$/.test(n))) {
    const part = JSON.parse(readFileSync(join(work, name), 'utf8')) as { sites: TraceSite[] };
    table.merge(part.sites);
    processes++;
  }
  const notes =
    processes === 0
      ? ['no Node process reported: the command started none, or each one died before it could (SIGKILL)']
      : [];
  return { ...outcome, sites: table.list(), notes };
}

async function traceNative(
  options: Options,
  work: string,
): Promise<{ code: number; signal?: NodeJS.Signals; sites: TraceSite[]; notes: string[] }> {
  const problem = straceProblem();
  if (problem) throw new Error(`${problem}; Node programs can be traced without it (--tracer node)`);
  const output = join(work, 'strace.txt');
  const outcome = await run(
    'strace',
    [...straceArgs(output, options.syscalls), ...options.command],
    process.env,
  );
  const { table, notes } = readStraceOutput(output);
  return { ...outcome, sites: table.list(), notes };
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
  const work = mkdtempSync(join(tmpdir(), 'writev-trace-'));
  try {
    const traced =
      options.tracer === 'node' ? await traceNode(options, work) : await traceNative(options, work);
    const trace: TraceFile = {
      version: 1,
      command: options.command,
      exitCode: traced.code,
      sites: traced.sites,
      ...(traced.notes.length > 0 ? { notes: traced.notes } : {}),
    };
    writeTrace(options.out, trace);
    const calls = trace.sites.reduce((n, s) => n + s.calls, 0);
    process.stderr.write(
      `writev-trace: ${plural(calls, 'call')} at ${plural(trace.sites.length, 'line')} -> ${options.out}\n`,
    );
    for (const note of traced.notes) process.stderr.write(`writev-trace: note: ${note}\n`);
    rmSync(work, { recursive: true, force: true });
    process.exit(traced.code);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const what =
      code === 'ENOENT' ? `cannot run ${options.command[0] ?? ''}: not found` : (error as Error).message;
    process.stderr.write(`writev-trace: ${what}\n`);
    process.exit(EXIT_FATAL);
  }
}

void main();

/** `1 call`, `40,000 calls`: a count with its noun, as the summary line prints it. */
function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
