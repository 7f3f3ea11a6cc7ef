/**
 * The native tracer: `strace -f -k` records every write-family system call of the command and its
 * children with the call stack (strace unwinds it), and `addr2line` (binutils) turns the first frame
 * outside the C library into a file and line, from the DWARF data of binaries built with `-g`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { SiteTable, type TracedSyscall } from './traceFile';

/** The strace names of each traced syscall (`send` is `sendto` underneath on Linux). */
const STRACE_NAMES: Record<TracedSyscall, readonly string[]> = {
  write: ['write'],
  writev: ['writev'],
  pwrite: ['pwrite64'],
  pwritev: ['pwritev', 'pwritev2'],
  send: ['sendto', 'send'],
  sendmsg: ['sendmsg', 'sendmmsg'],
};

const TRACE_NAME = new Map<string, TracedSyscall>(
  Object.entries(STRACE_NAMES).flatMap(([ours, names]) => names.map((n) => [n, ours as TracedSyscall])),
);

/** strace's arguments to trace `syscalls` into `outFile` (the command follows). */
export function straceArgs(outFile: string, syscalls: readonly TracedSyscall[]): string[] {
  const names = syscalls.flatMap((s) => STRACE_NAMES[s]);
  return ['-f', '-k', '-qq', '-o', outFile, '-e', `trace=${names.join(',')}`, '--'];
}

/** Why strace cannot run here (missing, or without stack unwinding), or undefined when it can. */
export function straceProblem(): string | undefined {
  const probe = spawnSync('strace', ['-k', '-e', 'trace=none', '-o', '/dev/null', '--', 'true'], {
    encoding: 'utf8',
  });
  if (probe.error) return 'strace is not installed (on Debian: apt-get install strace)';
  if (probe.status !== 0) return `strace cannot trace here: ${probe.stderr.trim().split('\n')[0] ?? ''}`;
  return undefined;
}

/** One frame of a stack strace printed: the module, its symbol (if any) and the address in the module. */
interface Frame {
  readonly module: string;
  readonly symbol: string;
  readonly address: bigint;
}

/** One system call strace saw. */
export interface StraceCall {
  readonly syscall: TracedSyscall;
  readonly fd: number;
  /** What it returned: bytes written, or 0 for a failure. */
  readonly bytes: number;
  readonly frames: Frame[];
}

const CALL = /^(\d+)\s+(\w+)\((.*)$/;
const RESUMED = /^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$/;
const FRAME = /^ > (.+?)\((.*?)\) \[0x([0-9a-f]+)\]$/;
const RESULT = /\)\s+=\s+(-?\d+)/;

/**
 * Parses strace's `-f -k` output. A call interrupted by another thread's (`<unfinished ...>`) is
 * completed by its `<... resumed>` line; stack lines belong to the call printed just before them.
 */
export function parseStrace(text: string): StraceCall[] {
  const calls: { syscall: TracedSyscall; fd: number; bytes: number; frames: Frame[] }[] = [];
  const pending = new Map<string, (typeof calls)[number]>();
  let last: (typeof calls)[number] | undefined;
  for (const line of text.split('\n')) {
    const frame = FRAME.exec(line);
    if (frame) {
      last?.frames.push({ module: frame[1] ?? '', symbol: frame[2] ?? '', address: BigInt(`0x${frame[3]}`) });
      continue;
    }
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const call = pending.get(`${resumed[1]}:${resumed[2]}`);
      pending.delete(`${resumed[1]}:${resumed[2]}`);
      if (call) {
        call.bytes = Math.max(0, Number(RESULT.exec(line)?.[1] ?? 0));
        last = call;
      }
      continue;
    }
    const m = CALL.exec(line);
    const syscall = m ? TRACE_NAME.get(m[2] ?? '') : undefined;
    if (!m || !syscall) {
      last = undefined;
      continue;
    }
    const call = { syscall, fd: Number.parseInt(m[3] ?? '', 10), bytes: 0, frames: [] as Frame[] };
    if (!Number.isInteger(call.fd)) call.fd = -1;
    if (line.endsWith('<unfinished ...>')) pending.set(`${m[1]}:${m[2]}`, call);
    else call.bytes = Math.max(0, Number(RESULT.exec(line)?.[1] ?? 0));
    calls.push(call);
    last = call;
  }
  return calls;
}

/** The C library and the dynamic loader: their frames are the syscall wrappers, not the caller. */
function inLibc(module: string): boolean {
  return /^(libc|libpthread|ld-linux[^/]*|ld)[.-]/.test(basename(module)) || module.includes('[vdso]');
}

/** Where one address of one module is in the source, from its DWARF line table. */
interface Place {
  readonly file?: string;
  readonly line?: number;
  readonly fn: string;
}

/** Symbolises addresses of one module with one `addr2line` run. */
function placesIn(module: string, addresses: readonly bigint[]): Map<bigint, Place> {
  const out = new Map<bigint, Place>();
  // The frame's address is where the call returns to: the call instruction ends just before it.
  const run = spawnSync(
    'addr2line',
    ['-e', module, '-f', '-C', ...addresses.map((a) => `0x${(a - 1n).toString(16)}`)],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const lines = run.status === 0 ? run.stdout.split('\n') : [];
  addresses.forEach((address, i) => {
    const fn = lines[2 * i] ?? '??';
    const where = /^(.*):(\d+)(?: \(discriminator \d+\))?$/.exec(lines[2 * i + 1] ?? '');
    const file = where?.[1];
    const line = Number(where?.[2]);
    out.set(
      address,
      file && file !== '??' && line > 0
        ? { file, line, fn: fn === '??' ? '' : fn }
        : { fn: fn === '??' ? '' : fn },
    );
  });
  return out;
}

/** Folds strace's calls into sites; `notes` say what could not be placed on a source line, and why. */
export function symbolise(calls: readonly StraceCall[]): { table: SiteTable; notes: string[] } {
  const wanted = new Map<string, Set<bigint>>();
  const callers = calls.map((call) => call.frames.find((f) => !inLibc(f.module)));
  for (const frame of callers) {
    if (frame)
      (wanted.get(frame.module) ?? wanted.set(frame.module, new Set()).get(frame.module))?.add(frame.address);
  }
  const places = new Map<string, Map<bigint, Place>>();
  for (const [module, addresses] of wanted) places.set(module, placesIn(module, [...addresses]));
  const table = new SiteTable();
  const unplaced = new Map<string, number>();
  calls.forEach((call, i) => {
    const frame = callers[i];
    const place = frame ? places.get(frame.module)?.get(frame.address) : undefined;
    if (frame && place?.file && place.line) {
      table.add(place.file, place.line, place.fn, call.syscall, call.fd, call.bytes);
    } else {
      const key = frame ? frame.module : '(no stack: strace could not unwind)';
      unplaced.set(key, (unplaced.get(key) ?? 0) + 1);
    }
  });
  const notes = [...unplaced].map(([module, n]) =>
    module.startsWith('(')
      ? `${n} calls ${module}`
      : `${n} calls from ${module} could not be placed on a source line: it has no debug information (build it with -g)`,
  );
  return { table, notes };
}

/** Reads strace's output file and symbolises it. */
export function readStraceOutput(path: string): { table: SiteTable; notes: string[] } {
  return symbolise(parseStrace(readFileSync(path, 'utf8')));
}
