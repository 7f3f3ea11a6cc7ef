/**
 * The trace file `writev-trace` writes and `writev-lint --trace` reads: for each source line that made
 * write-family system calls, how many and how many bytes, per syscall and descriptor.
 *
 * ```json
 * { "version": 1, "command": ["node", "app.js"], "exitCode": 0,
 *   "sites": [ { "file": "/abs/app.js", "line": 12, "function": "flush", "syscall": "write",
 *                "fd": 1, "calls": 1000, "bytes": 4000 } ] }
 * ```
 * One entry per (file, line, syscall, fd), sorted by calls (most first). Lines are 1-based.
 */
import { readFileSync, statSync } from 'node:fs';

/** The write-family system calls a trace can record. */
export const TRACED_SYSCALLS = ['write', 'writev', 'pwrite', 'pwritev', 'send', 'sendmsg'] as const;

/** One write-family system call name, as the trace spells it. */
export type TracedSyscall = (typeof TRACED_SYSCALLS)[number];

/** The calls one source line made with one syscall on one descriptor. */
export interface TraceSite {
  /** Absolute path of the source file. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** The enclosing function's name, or `""` when unknown. */
  readonly function: string;
  readonly syscall: TracedSyscall;
  /** The descriptor, or -1 when the tracer could not tell (a stream without one). */
  readonly fd: number;
  /** System calls made. */
  readonly calls: number;
  /** Bytes the calls wrote (what they returned; failed calls add nothing). */
  readonly bytes: number;
}

/** A whole trace. */
export interface TraceFile {
  readonly version: 1;
  /** The traced command line. */
  readonly command: readonly string[];
  /** The traced command's exit status (128 + signal number for a death by signal). */
  readonly exitCode: number;
  /** The signal the traced command died of (`"SIGINT"`), absent when it exited. */
  readonly signal?: string;
  readonly sites: readonly TraceSite[];
  /** What the tracer could not attribute, and why (a binary without debug information, say). */
  readonly notes?: readonly string[];
}

/** A trace file that is not one: names the file and the place. */
export class TraceFormatError extends Error {
  readonly code = 'TRACE_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'TraceFormatError';
  }
}

/** Sums calls and bytes per (file, line, syscall, fd); the tracers feed it call by call. */
export class SiteTable {
  private readonly sites = new Map<
    string,
    { site: Omit<TraceSite, 'calls' | 'bytes'>; calls: number; bytes: number }
  >();

  /** Records `calls` calls that wrote `bytes` bytes in all. */
  add(
    file: string,
    line: number,
    fn: string,
    syscall: TracedSyscall,
    fd: number,
    bytes: number,
    calls = 1,
  ): void {
    const key = `${file}\0${line}\0${syscall}\0${fd}`;
    const entry = this.sites.get(key);
    if (entry) {
      entry.calls += calls;
      entry.bytes += bytes;
    } else {
      this.sites.set(key, { site: { file, line, function: fn, syscall, fd }, calls, bytes });
    }
  }

  /** Adds every site of another table or trace. */
  merge(sites: Iterable<TraceSite>): void {
    for (const s of sites) this.add(s.file, s.line, s.function, s.syscall, s.fd, s.bytes, s.calls);
  }

  /** The sites, most calls first (then by file and line, so equal counts list in a stable order). */
  list(): TraceSite[] {
    return [...this.sites.values()]
      .map(({ site, calls, bytes }) => ({ ...site, calls, bytes }))
      .sort(
        (a, b) =>
          b.calls - a.calls ||
          (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
          a.line - b.line ||
          a.fd - b.fd ||
          (a.syscall < b.syscall ? -1 : a.syscall > b.syscall ? 1 : 0),
      );
  }
}

function fail(where: string, what: string): never {
  throw new TraceFormatError(`${where}: ${what}`);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Checks that `value` is a trace; `where` names it in errors ("trace.json"). */
export function parseTrace(value: unknown, where: string): TraceFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'not a JSON object');
  const t = value as Record<string, unknown>;
  if (t.version !== 1) fail(where, `version ${JSON.stringify(t.version)} is not 1`);
  if (!Array.isArray(t.command) || !t.command.every((c) => typeof c === 'string'))
    fail(where, '"command" is not an array of strings');
  if (typeof t.exitCode !== 'number' || !Number.isInteger(t.exitCode))
    fail(where, '"exitCode" is not an integer');
  if (!Array.isArray(t.sites)) fail(where, '"sites" is not an array');
  const sites = t.sites.map((raw: unknown, i: number): TraceSite => {
    const at = `${where}: sites[${i}]`;
    if (typeof raw !== 'object' || raw === null) fail(at, 'not an object');
    const s = raw as Record<string, unknown>;
    if (typeof s.file !== 'string' || s.file === '') fail(at, '"file" is not a path');
    if (!isCount(s.line) || s.line === 0) fail(at, '"line" is not a 1-based line number');
    if (typeof s.function !== 'string') fail(at, '"function" is not a string');
    if (!TRACED_SYSCALLS.includes(s.syscall as TracedSyscall))
      fail(at, `"syscall" ${JSON.stringify(s.syscall)} is not one of ${TRACED_SYSCALLS.join(', ')}`);
    if (typeof s.fd !== 'number' || !Number.isInteger(s.fd) || s.fd < -1)
      fail(at, '"fd" is not a descriptor');
    if (!isCount(s.calls)) fail(at, '"calls" is not a count');
    if (!isCount(s.bytes)) fail(at, '"bytes" is not a count');
    return {
      file: s.file,
      line: s.line,
      function: s.function,
      syscall: s.syscall as TracedSyscall,
      fd: s.fd,
      calls: s.calls,
      bytes: s.bytes,
    };
  });
  if (t.signal !== undefined && (typeof t.signal !== 'string' || !/^SIG[A-Z0-9]+$/.test(t.signal)))
    fail(where, `"signal" ${JSON.stringify(t.signal)} is not a signal name`);
  const notes = Array.isArray(t.notes)
    ? t.notes.filter((n): n is string => typeof n === 'string')
    : undefined;
  return {
    version: 1,
    command: t.command,
    exitCode: t.exitCode,
    ...(typeof t.signal === 'string' ? { signal: t.signal } : {}),
    sites,
    ...(notes ? { notes } : {}),
  };
}

/** Reads and checks a trace file. Throws {@link TraceFormatError} naming the file for bad content. */
export function readTraceFile(path: string): TraceFile {
  // A FIFO or a device would block or never end: a trace is a regular file.
  if (!statSync(path).isFile()) fail(path, 'not a regular file');
  const text = readFileSync(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(path, `not JSON (${(error as Error).message})`);
  }
  return parseTrace(value, path);
}

/** `1,000 calls, 4.0 kB`: counts with thousands separators, bytes in SI units. */
export function formatMeasured(m: { readonly calls: number; readonly bytes: number }): string {
  return `${m.calls.toLocaleString('en-US')} call${m.calls === 1 ? '' : 's'}, ${formatBytes(m.bytes)}`;
}

/** Bytes in SI units, one decimal from kB up (`512 B`, `4.0 kB`, `1.2 MB`). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
