/**
 * The Node tracer: loaded into every Node process of a traced command through
 * `NODE_OPTIONS=--require <this file>`, it counts the write-family calls the process makes, per source
 * line, and writes its table once, at exit, into `$WRITEV_TRACE_DIR` (which `writev-trace` merges).
 *
 * What it wraps, and what a count means:
 * - `fs.writeSync`/`writevSync` and the callback forms `fs.write`/`writev`, and `FileHandle.write`/
 *   `writev` of `fs.promises`: one call is one system call (`pwrite`/`pwritev` when a position is given).
 *   The runtime's syscall seam goes through these too; its calls are attributed to the first frame
 *   outside `@writev/runtime`, that is to the program's `writevInFull(...)` line.
 * - Writable streams: a chunk is attributed to the line of its `.write()` (or `.end(chunk)`) call, even
 *   when the stream writes it later. A socket, pipe or TTY (`net.Socket`) counts one `write` per chunk it
 *   hands the kernel alone and one `writev` per batch (a corked stream); a file stream counts the `fs`
 *   calls it makes. Streams that make no system call themselves (a Transform, say) count nothing.
 *
 * The line of a call: the program's CommonJS files load with their write calls numbered
 * (callSiteIds.ts), so a wrapper usually knows its caller's line without a stack capture; a call from
 * code that was not rewritten is found by capture (callerSite.ts), with the same result.
 *
 * It only observes: every wrapper calls the original with the original arguments and returns its
 * result; a failure inside the tracer is never thrown into the program.
 */
// Required, not imported: the wrappers replace properties of the module object itself.
import fs = require('node:fs');
import { syncBuiltinESMExports } from 'node:module';
import * as net from 'node:net';
import { join } from 'node:path';
import { Duplex, Writable } from 'node:stream';
import { threadId } from 'node:worker_threads';
import { addAllSites, ignoreFrames, isProgramFile, siteAbove, type Site } from './callerSite';
import { methodId, rewriteModules, takeSite } from './callSiteIds';
import { SiteTable, TRACED_SYSCALLS, type TracedSyscall } from './traceFile';

ignoreFrames(__filename);

/** The syscalls as numbers (indexes into TRACED_SYSCALLS), so that counting compares no strings. */
const WRITE = TRACED_SYSCALLS.indexOf('write');
const WRITEV = TRACED_SYSCALLS.indexOf('writev');
const PWRITE = TRACED_SYSCALLS.indexOf('pwrite');
const PWRITEV = TRACED_SYSCALLS.indexOf('pwritev');

const wantedNames = new Set<string>(
  (process.env.WRITEV_TRACE_SYSCALLS ?? TRACED_SYSCALLS.join(',')).split(',').map((s) => s.trim()),
);
const wanted = TRACED_SYSCALLS.map((name: TracedSyscall) => wantedNames.has(name));

/** Set while a stream writes a chunk: the fs calls it makes belong to the chunk's `.write()` line. */
let streamContext: { site: Site; recorded: boolean } | undefined;

function record(syscall: number, fd: unknown, bytes: number, site?: Site): void {
  if (!wanted[syscall] || saving) return;
  try {
    let at = site;
    if (!at && streamContext) {
      at = streamContext.site;
      streamContext.recorded = true;
    }
    at ??= siteAbove(record);
    at.add(syscall, typeof fd === 'number' ? fd : -1, bytes > 0 ? bytes : 0);
    counted();
  } catch {
    // Observing must never break the program.
  }
}

const positioned = (position: unknown): boolean =>
  (typeof position === 'number' && position >= 0) || typeof position === 'bigint';

/** `fs.write`'s position argument, in its buffer and string forms. */
function writePosition(args: unknown[]): unknown {
  const [, data, third, , fifth] = args;
  if (typeof data === 'string') return third;
  if (typeof third === 'object' && third !== null) return (third as { position?: unknown }).position;
  return fifth;
}

type AnyFn = (...args: unknown[]) => unknown;

function wrapSync(name: 'writeSync' | 'writevSync', syscall: (args: unknown[]) => number): void {
  const original = fs[name] as unknown as AnyFn;
  const method = methodId(name);
  (fs as unknown as Record<string, AnyFn>)[name] = function traced(this: unknown, ...args: unknown[]) {
    const marked = takeSite(method, args[args.length - 1], traced);
    const site = streamContext ? undefined : (marked ?? siteAbove(traced));
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (error) {
      record(syscall(args), args[0], 0, site);
      throw error;
    }
    record(syscall(args), args[0], typeof result === 'number' ? result : 0, site);
    return result;
  };
}

function wrapCallback(name: 'write' | 'writev', syscall: (args: unknown[]) => number): void {
  const original = fs[name] as unknown as AnyFn;
  const method = methodId(name);
  (fs as unknown as Record<string, AnyFn>)[name] = function traced(this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const callback = args[last];
    const marked = takeSite(method, callback, traced);
    if (typeof callback !== 'function') return original.apply(this, args);
    const site = streamContext?.site ?? marked ?? siteAbove(traced);
    if (streamContext) streamContext.recorded = true;
    const kind = syscall(args);
    // The callback keeps the descriptor only. With `args` (and so a file stream's batch of chunks) in
    // its closure, every pending write kept its chunks alive until the callback ran: a program making
    // many stream writes had much more live memory at each scavenge, and spent CPU collecting it.
    const fd = args[0];
    args[last] = function done(this: unknown, error: unknown, written: unknown, ...rest: unknown[]) {
      record(kind, fd, error ? 0 : Number(written) || 0, site);
      return (callback as AnyFn).call(this, error, written, ...rest);
    };
    return original.apply(this, args);
  };
}

let fileHandlePatched = false;
/** `FileHandle` is not exported: patch its prototype through the first handle `fs.promises.open` gives. */
function patchFileHandle(handle: object): void {
  if (fileHandlePatched) return;
  fileHandlePatched = true;
  const proto = Object.getPrototypeOf(handle) as Record<string, AnyFn>;
  for (const [method, plain, at] of [
    ['write', WRITE, PWRITE],
    ['writev', WRITEV, PWRITEV],
  ] as const) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    const id = methodId(method);
    proto[method] = function traced(this: { fd?: number }, ...args: unknown[]) {
      const site = takeSite(id, args[args.length - 1], traced) ?? siteAbove(traced);
      const position = method === 'write' ? writePosition([undefined, ...args]) : args[1];
      const kind = positioned(position) ? at : plain;
      const fd = this.fd;
      const pending = original.apply(this, args) as Promise<{ bytesWritten?: number }>;
      return pending.then(
        (result) => {
          record(kind, fd, result?.bytesWritten ?? 0, site);
          return result;
        },
        (error: unknown) => {
          record(kind, fd, 0, site);
          throw error;
        },
      );
    };
  }
}

const kSites = Symbol('writev-trace.sites');
type TracedStream = Writable & {
  /** The sites of the chunks not yet handed to `_write`/`_writev`, in order (undefined: see joinsBatch). */
  [kSites]?: (Site | undefined)[];
  fd?: unknown;
  _handle?: { fd?: unknown };
  _writev?: unknown;
  _writableState?: { buffered?: unknown; bufferedIndex?: unknown };
};
const patchedPrototypes = new WeakSet<object>();

function chunkBytes(chunk: unknown, encoding?: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(chunk, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding);
  if (ArrayBuffer.isView(chunk)) return chunk.byteLength;
  return 0;
}

/** Makes `_write`/`_writev` of the stream's own class attribute what they do to the chunks' sites. */
const seenClasses = new WeakSet<object>();

function patchStreamClass(stream: TracedStream): void {
  // Every chunk passes here: a class already looked at costs one lookup.
  const own = Object.getPrototypeOf(stream) as object;
  if (seenClasses.has(own)) return;
  seenClasses.add(own);
  let proto = Object.getPrototypeOf(stream) as Record<string, AnyFn> | null;
  const base = (p: object | null) =>
    p === (Writable.prototype as unknown) || p === (Duplex.prototype as unknown);
  while (proto && !base(proto) && !Object.hasOwn(proto, '_write')) {
    proto = Object.getPrototypeOf(proto) as Record<string, AnyFn> | null;
  }
  if (!proto || base(proto) || patchedPrototypes.has(proto)) return;
  patchedPrototypes.add(proto);
  const isSocket = proto === (net.Socket.prototype as unknown);
  for (const method of ['_write', '_writev'] as const) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    proto[method] = function traced(this: TracedStream, ...args: unknown[]) {
      const chunks =
        method === '_writev' ? ((args[0] as { chunk: unknown; encoding?: unknown }[]) ?? []) : [];
      const sites = this[kSites];
      const count = method === '_writev' ? chunks.length : 1;
      const taken = sites ? sites.splice(0, count) : [];
      const site = taken.find((s) => s !== undefined) ?? siteAbove(traced);
      const outer = streamContext;
      const context = { site, recorded: false };
      streamContext = context;
      try {
        return original.apply(this, args);
      } finally {
        streamContext = outer;
        if (isSocket && !context.recorded) {
          const bytes =
            method === '_writev'
              ? chunks.reduce((n, c) => n + chunkBytes(c.chunk, c.encoding), 0)
              : chunkBytes(args[0], args[1]);
          record(method === '_writev' ? WRITEV : WRITE, this._handle?.fd ?? this.fd, bytes, site);
        }
      }
    };
  }
}

/**
 * Whether a chunk written now waits behind others and leaves in the same `_writev` as the first of
 * them (Writable hands a class with `_writev` everything buffered at once), which carries the batch's
 * site: then the chunk's own site would never be used, and it is not worth a capture. A file stream
 * written in a loop buffers most chunks while one write is in flight, so most chunks take this path.
 */
function joinsBatch(stream: TracedStream): boolean {
  if (typeof stream._writev !== 'function') return false;
  const state = stream._writableState;
  const buffered = state?.buffered;
  const index = state?.bufferedIndex;
  return Array.isArray(buffered) && typeof index === 'number' && buffered.length > index;
}

function wrapStreams(): void {
  // Duplex copies Writable's methods onto its own prototype (it inherits from Readable): wrap both.
  for (const proto of new Set([Writable.prototype, Duplex.prototype] as unknown as Record<string, AnyFn>[]))
    wrapStreamWrites(proto);
}

function wrapStreamWrites(proto: Record<string, AnyFn>): void {
  for (const method of ['write', 'end'] as const) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    const id = methodId(method);
    proto[method] = function traced(this: TracedStream, ...args: unknown[]) {
      const chunk = args[0];
      const marked = takeSite(id, args[args.length - 1], traced);
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
        try {
          patchStreamClass(this);
          (this[kSites] ??= []).push(joinsBatch(this) ? undefined : (marked ?? siteAbove(traced)));
        } catch {
          // Observing must never break the program.
        }
      }
      return original.apply(this, args);
    };
  }
}

// Saving the table. The tracer installs no signal handler: a handler would defer the signal to the
// event loop, so a program busy in synchronous code would ignore Ctrl-C and SIGTERM, and a program that
// signals itself would run on past its `process.kill()`. Signals act as they do untraced; the table is
// saved instead at exit, just before the program signals itself or aborts, and while it runs: at the
// first call, then from the call path when SAVE_GAP_MS have passed (looked at every CLOCK_EVERY calls),
// and once the event loop is free after a call. A process killed from outside loses only the calls
// made since its last save: in busy code, at most the last SAVE_GAP_MS or CLOCK_EVERY calls of them.

/** The longest a counted call waits for a save while the program runs (or CLOCK_EVERY calls). */
const SAVE_GAP_MS = 100;
const CLOCK_EVERY = 1024;

/** This process's (and thread's) table in the trace folder; rewritten whole at each save. */
// The name only has to differ between the processes of one trace (no secret: node:crypto is not needed).
// The pid and thread tell live processes apart; the time and a random part, a later one reusing the pid.
const tableFile = `node-${process.pid}-${threadId}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}.json`;

// The unwrapped functions: a save must not count its own writes, nor go through the program's patches.
const { openSync, writeSync, closeSync, renameSync, rmSync } = fs;

/** Set while a save writes: its own system calls are not the program's. */
let saving = false;
/** Calls counted since the last save. */
let unsaved = false;
let lastSave = 0;
let saveTimer: NodeJS.Timeout | undefined;

/** Calls counted since the clock was last read on the call path. */
let sinceClock = 0;

/**
 * After each counted call: saves now if the last save is old, otherwise makes sure a save will follow
 * once the event loop is free. The clock is read when a save is scheduled and then once in
 * CLOCK_EVERY calls: read on every call, the clock was most of what saving added to a call.
 */
function counted(): void {
  unsaved = true;
  if (saveTimer && ++sinceClock < CLOCK_EVERY) return;
  sinceClock = 0;
  const now = Date.now();
  if (now - lastSave >= SAVE_GAP_MS) save(false);
  else if (!saveTimer) {
    saveTimer = setTimeout(() => save(false), SAVE_GAP_MS - (now - lastSave));
    // The save must never keep the program alive.
    saveTimer.unref();
  }
}

/**
 * Writes the table to the trace folder through a temporary file renamed over the last save, so that a
 * process killed in the middle of a save leaves its previous save whole. `complete` says that the
 * table holds every call the process made (it is ending now), not a save taken while it ran.
 */
function save(complete: boolean): void {
  const dir = process.env.WRITEV_TRACE_DIR;
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = undefined;
  lastSave = Date.now();
  if (!dir || saving || (!unsaved && !complete)) return;
  saving = true;
  unsaved = false;
  const path = join(dir, tableFile);
  const temp = `${path}.tmp`;
  try {
    const table = new SiteTable();
    addAllSites(table);
    const bytes = Buffer.from(JSON.stringify({ pid: process.pid, complete, sites: table.list() }));
    let fd: number;
    try {
      fd = openSync(temp, 'wx', 0o600);
    } catch {
      // Exclusive: a leftover temporary file can only be this process's own, from a save that threw.
      rmSync(temp, { force: true });
      fd = openSync(temp, 'wx', 0o600);
    }
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch {
    // The folder went away: writev-trace reports the process as untraced.
  } finally {
    saving = false;
  }
}

/** Whether `process.kill(pid)` signals this very process (its pid, or its process group: 0). */
function signalsSelf(pid: unknown, signal: unknown): boolean {
  const target = Number(pid);
  return (target === process.pid || target === 0) && signal !== 0 && signal !== '0';
}

/** Saves the table just before the program signals itself or aborts: either may end it on the spot. */
function saveBeforeSelfSignals(): void {
  const kill = process.kill.bind(process);
  process.kill = (pid: number, signal?: string | number): true => {
    if (signalsSelf(pid, signal ?? 'SIGTERM')) save(true);
    return kill(pid, signal);
  };
  const abort = process.abort.bind(process);
  process.abort = (): never => {
    save(true);
    return abort();
  };
}

function install(): void {
  const plainOr = (at: number, plain: number) => (position: unknown) => (positioned(position) ? at : plain);
  const writeKind = plainOr(PWRITE, WRITE);
  const writevKind = plainOr(PWRITEV, WRITEV);
  wrapSync('writeSync', (args) => writeKind(writePosition(args)));
  wrapSync('writevSync', (args) => writevKind(args[2]));
  wrapCallback('write', (args) => writeKind(writePosition(args)));
  wrapCallback('writev', (args) => writevKind(typeof args[2] === 'function' ? undefined : args[2]));
  const open = fs.promises.open;
  fs.promises.open = async function traced(...args: Parameters<typeof open>) {
    const handle = await open.apply(fs.promises, args);
    patchFileHandle(handle);
    return handle;
  };
  wrapStreams();
  // The program's CommonJS files load with their write calls numbered: no stack capture per call.
  if (process.env.WRITEV_TRACE_REWRITE !== '0') rewriteModules(isProgramFile);
  // ES modules that imported `fs` bindings by name see the wrapped functions too.
  syncBuiltinESMExports();
  process.on('exit', () => save(true));
  saveBeforeSelfSignals();
}

if (process.env.WRITEV_TRACE_DIR) install();
