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
 * It only observes: every wrapper calls the original with the original arguments and returns its
 * result; a failure inside the tracer is never thrown into the program.
 */
// Required, not imported: the wrappers replace properties of the module object itself.
import fs = require('node:fs');
import { randomBytes } from 'node:crypto';
import { syncBuiltinESMExports, findSourceMap } from 'node:module';
import * as net from 'node:net';
import { dirname, join, resolve, sep } from 'node:path';
import { Duplex, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { SiteTable, TRACED_SYSCALLS, type TracedSyscall } from './traceFile';

/** Where a call was made from. */
interface Site {
  readonly file: string;
  readonly line: number;
  readonly fn: string;
}

const UNKNOWN: Site = { file: '<unknown>', line: 1, fn: '' };
/**
 * Frames in this package belong to the runtime: the line a user wants is its caller's. The package is
 * the nearest folder above this file with @writev/runtime's package.json (this file's own folder when
 * it travels bundled, as in the editor extension).
 */
function runtimeFolder(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (manifest.name === '@writev/runtime') return dir + sep;
    } catch {
      // No manifest here: look further up.
    }
    if (dirname(dir) === dir) return __dirname + sep;
  }
}
const RUNTIME_DIST = runtimeFolder();
const SELF = __filename;
const sourceMaps =
  process.execArgv.includes('--enable-source-maps') ||
  /--enable-source-maps/.test(process.env.NODE_OPTIONS ?? '');

const table = new SiteTable();
const wanted = new Set<string>(
  (process.env.WRITEV_TRACE_SYSCALLS ?? TRACED_SYSCALLS.join(',')).split(',').map((s) => s.trim()),
);
const mapped = new Map<string, Site>();

function fileOf(name: string): string {
  return name.startsWith('file://') ? fileURLToPath(name) : name;
}

/** The site of a JS frame, through the source map when the program runs with `--enable-source-maps`. */
function siteOf(frame: NodeJS.CallSite): Site {
  const name = frame.getFileName() ?? '';
  const line = frame.getLineNumber() ?? 1;
  const column = frame.getColumnNumber() ?? 1;
  const fn = frame.getFunctionName() ?? frame.getMethodName() ?? '';
  if (!sourceMaps) return { file: fileOf(name), line, fn };
  const key = `${name}:${line}:${column}`;
  let site = mapped.get(key);
  if (!site) {
    site = { file: fileOf(name), line, fn };
    const entry = findSourceMap(name)?.findEntry(line - 1, column - 1);
    // findEntry returns {} where the map has no entry for the position.
    if (entry !== undefined && 'originalSource' in entry) {
      const source = entry.originalSource;
      const file = source.startsWith('file://')
        ? fileURLToPath(source)
        : resolve(dirname(fileOf(name)), source);
      site = { file, line: entry.originalLine + 1, fn };
    }
    mapped.set(key, site);
  }
  return site;
}

function internal(name: string | null): boolean {
  return !name || name.startsWith('node:') || name === SELF || !(name.includes('/') || name.includes('\\'));
}

const keepFrames = (_error: Error, frames: NodeJS.CallSite[]): NodeJS.CallSite[] => frames;

/** The frames above `below`, at most `limit` of them (V8's capture costs in proportion to the depth). */
function frames(limit: number): NodeJS.CallSite[] {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, never called here
  const prepare = Error.prepareStackTrace;
  const saved = Error.stackTraceLimit;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  try {
    Error.prepareStackTrace = keepFrames;
    Error.stackTraceLimit = limit;
    Error.captureStackTrace(holder, callerSite);
    return holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = saved;
  }
}

/** The first frame outside Node and this tracer, preferring one outside the runtime; undefined if none. */
function pick(stack: readonly NodeJS.CallSite[]): { user?: NodeJS.CallSite; runtime?: NodeJS.CallSite } {
  let runtime: NodeJS.CallSite | undefined;
  for (const frame of stack) {
    const name = frame.getFileName();
    if (internal(name)) continue;
    if (fileOf(name as string).startsWith(RUNTIME_DIST)) {
      runtime ??= frame;
      continue;
    }
    return { user: frame, runtime };
  }
  return { runtime };
}

/**
 * The caller's line. Most calls find it within a few frames, so a shallow capture comes first and a
 * deep one only when the shallow one ends inside Node or the runtime: capturing 24 frames on every call
 * cost about three times the write itself in a hot loop.
 */
function callerSite(): Site {
  const shallow = frames(4);
  let found = pick(shallow);
  if (!found.user && shallow.length >= 4) found = pick(frames(32));
  const frame = found.user ?? found.runtime;
  return frame ? siteOf(frame) : UNKNOWN;
}

/** Set while a stream writes a chunk: the fs calls it makes belong to the chunk's `.write()` line. */
let streamContext: { site: Site; recorded: boolean } | undefined;

function record(syscall: TracedSyscall, fd: unknown, bytes: number, site?: Site): void {
  if (!wanted.has(syscall)) return;
  try {
    let at = site;
    if (!at && streamContext) {
      at = streamContext.site;
      streamContext.recorded = true;
    }
    at ??= callerSite();
    table.add(at.file, at.line, at.fn, syscall, typeof fd === 'number' ? fd : -1, bytes > 0 ? bytes : 0);
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

function wrapSync(name: 'writeSync' | 'writevSync', syscall: (args: unknown[]) => TracedSyscall): void {
  const original = fs[name] as unknown as AnyFn;
  (fs as unknown as Record<string, AnyFn>)[name] = function traced(this: unknown, ...args: unknown[]) {
    const site = streamContext ? undefined : callerSite();
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

function wrapCallback(name: 'write' | 'writev', syscall: (args: unknown[]) => TracedSyscall): void {
  const original = fs[name] as unknown as AnyFn;
  (fs as unknown as Record<string, AnyFn>)[name] = function traced(this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return original.apply(this, args);
    const site = streamContext?.site ?? callerSite();
    if (streamContext) streamContext.recorded = true;
    const kind = syscall(args);
    args[last] = function done(this: unknown, error: unknown, written: unknown, ...rest: unknown[]) {
      record(kind, args[0], error ? 0 : Number(written) || 0, site);
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
    ['write', 'write', 'pwrite'],
    ['writev', 'writev', 'pwritev'],
  ] as const) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    proto[method] = function traced(this: { fd?: number }, ...args: unknown[]) {
      const site = callerSite();
      const position = method === 'write' ? writePosition([undefined, ...args]) : args[1];
      const kind: TracedSyscall = positioned(position) ? at : plain;
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
type TracedStream = Writable & { [kSites]?: Site[]; fd?: unknown; _handle?: { fd?: unknown } };
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
      const site = taken[0] ?? callerSite();
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
          record(method === '_writev' ? 'writev' : 'write', this._handle?.fd ?? this.fd, bytes, site);
        }
      }
    };
  }
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
    proto[method] = function traced(this: TracedStream, ...args: unknown[]) {
      const chunk = args[0];
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
        try {
          patchStreamClass(this);
          (this[kSites] ??= []).push(callerSite());
        } catch {
          // Observing must never break the program.
        }
      }
      return original.apply(this, args);
    };
  }
}

/** This process's (and thread's) table in the trace folder; rewritten whole at each flush. */
const tableFile = `node-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.json`;

function flush(): void {
  const dir = process.env.WRITEV_TRACE_DIR;
  if (!dir) return;
  try {
    fs.writeFileSync(join(dir, tableFile), JSON.stringify({ pid: process.pid, sites: table.list() }));
  } catch {
    // The folder went away: writev-trace reports the process as untraced.
  }
}

function install(): void {
  const plainOr = (at: TracedSyscall, plain: TracedSyscall) => (position: unknown) =>
    positioned(position) ? at : plain;
  const writeKind = plainOr('pwrite', 'write');
  const writevKind = plainOr('pwritev', 'writev');
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
  // ES modules that imported `fs` bindings by name see the wrapped functions too.
  syncBuiltinESMExports();
  process.on('exit', flush);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      flush();
      // The program's own handler decides what the signal does; without one, die of it as before.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

if (process.env.WRITEV_TRACE_DIR) install();
