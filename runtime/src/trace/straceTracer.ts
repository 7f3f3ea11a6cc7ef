/**
 * The native tracer: `strace -f -k` records every write-family system call of the command and its
 * children with the call stack (strace unwinds it), and `addr2line` (binutils) turns the first frame
 * outside the C library into a file and line, from the DWARF data of binaries built with `-g`.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
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
export interface Frame {
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
 * The longest line the parser keeps, in UTF-16 code units. strace's lines are short (it abbreviates
 * strings to 32 bytes, and a stack line is a path, a symbol and an address); a longer one is not
 * strace's, and keeping it whole would let one line without a newline hold the whole file in memory.
 */
export const MAX_STRACE_LINE = 1 << 20;

type OpenCall = { syscall: TracedSyscall; fd: number; bytes: number; frames: Frame[] };

/**
 * Parses strace's `-f -k` output as it comes, in chunks of any size split anywhere (lines may span
 * chunks), and hands each call to `onCall` once complete: its result seen and its stack lines after
 * it. Memory holds one line, the calls interrupted by another thread, and nothing else, so the
 * output may be any size. A call interrupted by another thread's (`<unfinished ...>`) is completed by
 * its `<... resumed>` line; stack lines belong to the call printed just before them.
 */
export class StraceParser {
  private carry = '';
  /** Whether the line being carried was cut at MAX_STRACE_LINE: the rest of it is dropped. */
  private dropping = false;
  private readonly pending = new Map<string, OpenCall>();
  /** The call whose stack lines may follow. */
  private last: OpenCall | undefined;
  /** Lines longer than MAX_STRACE_LINE, skipped. */
  overlong = 0;

  constructor(private readonly onCall: (call: StraceCall) => void) {}

  /** Parses the next piece of the output. */
  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf('\n', start);
      if (end < 0) break;
      if (this.dropping) this.dropping = false;
      else if (this.carry.length + (end - start) > MAX_STRACE_LINE) this.overlong++;
      else this.line(this.carry + chunk.slice(start, end));
      this.carry = '';
      start = end + 1;
    }
    if (this.dropping || start === chunk.length) return;
    this.carry += chunk.slice(start);
    if (this.carry.length > MAX_STRACE_LINE) {
      this.carry = '';
      this.dropping = true;
      this.overlong++;
    }
  }

  /** Ends the output: the last line, then the calls left open (an interrupted call counts, with 0 bytes). */
  end(): void {
    if (!this.dropping && this.carry !== '') this.line(this.carry);
    this.carry = '';
    this.dropping = false;
    this.settle();
    for (const call of this.pending.values()) this.onCall(call);
    this.pending.clear();
    this.waiting.clear();
  }

  /** The call before takes no more stack lines: hand it on, unless it waits for its `resumed` line. */
  private settle(): void {
    const call = this.last;
    this.last = undefined;
    if (call && !this.waiting.has(call)) this.onCall(call);
  }

  /** The interrupted calls, for a quick test of membership. */
  private readonly waiting = new Set<OpenCall>();

  private line(line: string): void {
    const frame = FRAME.exec(line);
    if (frame) {
      this.last?.frames.push({
        module: frame[1] ?? '',
        symbol: frame[2] ?? '',
        address: BigInt(`0x${frame[3]}`),
      });
      return;
    }
    this.settle();
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const key = `${resumed[1]}:${resumed[2]}`;
      const call = this.pending.get(key);
      if (call) {
        this.pending.delete(key);
        this.waiting.delete(call);
        call.bytes = Math.max(0, Number(RESULT.exec(line)?.[1] ?? 0));
        this.last = call;
      }
      return;
    }
    const m = CALL.exec(line);
    const syscall = m ? TRACE_NAME.get(m[2] ?? '') : undefined;
    if (!m || !syscall) return;
    const call: OpenCall = { syscall, fd: Number.parseInt(m[3] ?? '', 10), bytes: 0, frames: [] };
    if (!Number.isInteger(call.fd)) call.fd = -1;
    if (line.endsWith('<unfinished ...>')) {
      const key = `${m[1]}:${m[2]}`;
      // A thread has one call in flight: an older one under its key never resumed (the thread died).
      const older = this.pending.get(key);
      if (older) {
        this.waiting.delete(older);
        this.onCall(older);
      }
      this.pending.set(key, call);
      this.waiting.add(call);
    } else call.bytes = Math.max(0, Number(RESULT.exec(line)?.[1] ?? 0));
    this.last = call;
  }
}

/** Parses the whole of strace's `-f -k` output in one string (see {@link StraceParser}). */
export function parseStrace(text: string): StraceCall[] {
  const calls: StraceCall[] = [];
  const parser = new StraceParser((call) => calls.push(call));
  parser.push(text);
  parser.end();
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

/** The calls of one syscall on one descriptor from one caller frame (outside the C library), summed. */
export interface FoldedCalls {
  readonly syscall: TracedSyscall;
  readonly fd: number;
  /** The first frame outside the C library, or undefined when strace could not unwind the stack. */
  readonly caller: Frame | undefined;
  calls: number;
  bytes: number;
}

/** Sums calls by syscall, descriptor and caller frame: as many entries as call sites, not calls. */
export class CallFolder {
  private readonly folded = new Map<string, FoldedCalls>();

  /** Adds one call. */
  readonly add = (call: StraceCall): void => {
    const caller = call.frames.find((f) => !inLibc(f.module));
    const key = `${call.syscall}\0${call.fd}\0${caller ? `${caller.module}\0${caller.address}` : ''}`;
    const entry = this.folded.get(key);
    if (entry) {
      entry.calls++;
      entry.bytes += call.bytes;
    } else this.folded.set(key, { syscall: call.syscall, fd: call.fd, caller, calls: 1, bytes: call.bytes });
  };

  /** The sums so far. */
  list(): FoldedCalls[] {
    return [...this.folded.values()];
  }
}

/** Folds strace's calls into sites; `notes` say what could not be placed on a source line, and why. */
export function symbolise(calls: readonly StraceCall[]): { table: SiteTable; notes: string[] } {
  const folder = new CallFolder();
  for (const call of calls) folder.add(call);
  return symboliseFolded(folder.list());
}

/** Places summed calls on source lines (one `addr2line` run per module); `notes` say what could not be. */
export function symboliseFolded(folded: readonly FoldedCalls[]): { table: SiteTable; notes: string[] } {
  const wanted = new Map<string, Set<bigint>>();
  for (const { caller } of folded) {
    if (caller)
      (wanted.get(caller.module) ?? wanted.set(caller.module, new Set()).get(caller.module))?.add(
        caller.address,
      );
  }
  const places = new Map<string, Map<bigint, Place>>();
  for (const [module, addresses] of wanted) places.set(module, placesIn(module, [...addresses]));
  const table = new SiteTable();
  const unplaced = new Map<string, number>();
  for (const { syscall, fd, caller, calls, bytes } of folded) {
    const place = caller ? places.get(caller.module)?.get(caller.address) : undefined;
    if (caller && place?.file && place.line) {
      table.add(place.file, place.line, place.fn, syscall, fd, bytes, calls);
    } else {
      const key = caller ? caller.module : '(no stack: strace could not unwind)';
      unplaced.set(key, (unplaced.get(key) ?? 0) + calls);
    }
  }
  const notes = [...unplaced].map(([module, n]) =>
    module.startsWith('(')
      ? `${n} calls ${module}`
      : `${n} calls from ${module} could not be placed on a source line: it has no debug information (build it with -g)`,
  );
  return { table, notes };
}

/**
 * Reads strace's output file as a stream (any size: memory holds one chunk and the sums per call site)
 * and symbolises it.
 */
export async function readStraceOutput(path: string): Promise<{ table: SiteTable; notes: string[] }> {
  const folder = new CallFolder();
  const parser = new StraceParser(folder.add);
  // A string decoder per stream: a character split between chunks is decoded whole.
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }))
    parser.push(chunk as string);
  parser.end();
  const result = symboliseFolded(folder.list());
  if (parser.overlong > 0)
    result.notes.push(
      `${parser.overlong} lines of ${path} over ${MAX_STRACE_LINE} characters were not strace's and were skipped`,
    );
  return result;
}
