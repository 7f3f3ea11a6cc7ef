/**
 * The Node tracer's view of "who called": the source line of the code that called a traced function,
 * found at the least cost V8 allows per call, and the calls and bytes counted there.
 *
 * What a capture costs, measured on Node 20 (`perf`): V8 walks the stack and, for every frame it
 * passes, works out the bytecode offset (a table scan for Sparkplug code, a deoptimization-data
 * translation for optimized code). That walk is the cost: a capture of a single frame costs several
 * times one of no frame at all. So a capture here:
 * - starts at the traced wrapper itself (`captureStackTrace`'s second argument) and asks for one frame,
 *   which is the caller's for every direct call; only when that frame is Node's own or this runtime's
 *   does a second capture of up to 32 frames look further up;
 * - hands V8 a structured `prepareStackTrace` for its own capture only (never the program's errors),
 *   which turns the frame into a site without formatting any text, into a holder object reused by every
 *   capture;
 * - resolves each (script, position) once: the line, the function name and the source map are looked
 *   up the first time, and a later call from the same place costs two map lookups.
 */
import { findSourceMap } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRACED_SYSCALLS, type SiteTable, type TracedSyscall } from './traceFile';

/** A source line that made traced calls, with what it made (per syscall and descriptor). */
export class Site {
  private readonly counts = new Map<number, { calls: number; bytes: number }>();

  constructor(
    readonly file: string,
    readonly line: number,
    readonly fn: string,
  ) {
    sites.push(this);
  }

  /** Counts one call of `syscall` (an index into TRACED_SYSCALLS) on `fd` (-1: unknown) that wrote `bytes`. */
  add(syscall: number, fd: number, bytes: number): void {
    // One number per (syscall, fd): no string is built on the hot path.
    const key = (fd + 1) * 8 + syscall;
    let count = this.counts.get(key);
    if (!count) this.counts.set(key, (count = { calls: 0, bytes: 0 }));
    count.calls++;
    count.bytes += bytes;
  }

  /** Adds what this site counted to `table`. */
  addTo(table: SiteTable): void {
    for (const [key, { calls, bytes }] of this.counts) {
      const syscall = TRACED_SYSCALLS[key % 8] as TracedSyscall;
      table.add(this.file, this.line, this.fn, syscall, Math.floor(key / 8) - 1, bytes, calls);
    }
  }
}

/** Every site made so far, in the order first seen. */
const sites: Site[] = [];

/** Adds every count of every site to `table`. */
export function addAllSites(table: SiteTable): void {
  for (const site of sites) site.addTo(table);
}

/** Where the tracer cannot tell. */
export const UNKNOWN_SITE = new Site('<unknown>', 1, '');

/**
 * Frames in this package belong to the runtime: the line a user wants is its caller's. The package is
 * the nearest folder above this file with @writev/runtime's package.json (this file's own folder when
 * it travels bundled, as in the editor extension).
 */
function runtimeFolder(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (manifest.name === '@writev/runtime') return dir + sep;
    } catch {
      // No manifest here: look further up.
    }
    if (dirname(dir) === dir) return __dirname + sep;
  }
}
const RUNTIME = runtimeFolder();
const SELF = __filename;
const sourceMaps =
  process.execArgv.includes('--enable-source-maps') ||
  /--enable-source-maps/.test(process.env.NODE_OPTIONS ?? '');

function fileOf(name: string): string {
  return name.startsWith('file://') ? fileURLToPath(name) : name;
}

const enum Kind {
  /** Node's own code, eval'd code, or this tracer: never the line. */
  Internal,
  /** @writev/runtime: the line only when nothing above it is the program's. */
  Runtime,
  User,
}

/** The kind of each script name seen (a handful of names; V8 hands the same string every time). */
const kinds = new Map<string, Kind>();

function kindOf(name: string | null): Kind {
  if (!name) return Kind.Internal;
  let kind = kinds.get(name);
  if (kind === undefined) {
    if (name.startsWith('node:') || name === SELF || !(name.includes('/') || name.includes('\\')))
      kind = Kind.Internal;
    else kind = fileOf(name).startsWith(RUNTIME) ? Kind.Runtime : Kind.User;
    kinds.set(name, kind);
  }
  return kind;
}

/** Whether `file` (a path or URL) is the program's own: neither Node's, nor this tracer's, nor the runtime's. */
export function isProgramFile(file: string): boolean {
  return kindOf(file) === Kind.User;
}

/** Counts `file` (the tracer's own, where it was loaded from) as Node's: never a caller's line. */
export function ignoreFrames(file: string): void {
  kinds.set(file, Kind.Internal);
}

/** Sites by script name, then by character position in the script. */
const resolved = new Map<string, Map<number, Site>>();

/** The site of a frame: cached by (script, position); resolved through the source map when enabled. */
function siteOf(frame: NodeJS.CallSite, name: string): Site {
  let byPosition = resolved.get(name);
  if (!byPosition) resolved.set(name, (byPosition = new Map<number, Site>()));
  const position = frame.getPosition();
  let site = byPosition.get(position);
  if (!site) {
    site = resolveFrame(frame, name);
    byPosition.set(position, site);
  }
  return site;
}

function resolveFrame(frame: NodeJS.CallSite, name: string): Site {
  const line = frame.getLineNumber() ?? 1;
  const column = frame.getColumnNumber() ?? 1;
  const fn = frame.getFunctionName() ?? frame.getMethodName() ?? '';
  if (sourceMaps) {
    const entry = findSourceMap(name)?.findEntry(line - 1, column - 1);
    // findEntry returns {} where the map has no entry for the position.
    if (entry !== undefined && 'originalSource' in entry) {
      const source = entry.originalSource;
      const file = source.startsWith('file://')
        ? fileURLToPath(source)
        : resolve(dirname(fileOf(name)), source);
      return new Site(file, entry.originalLine + 1, fn);
    }
  }
  return new Site(fileOf(name), line, fn);
}

/** The frame count of the capture in progress: fewer frames than asked means the stack ended. */
let asked = 1;
/** Whether the capture in progress is the last one: then the runtime's frame is better than none. */
let last = false;

/**
 * V8's `prepareStackTrace` for our captures: the first frame of the program, else (when the stack
 * ended there) the first of the runtime; undefined when the capture may have stopped short of it.
 */
function firstSite(_error: Error, frames: NodeJS.CallSite[]): Site | undefined {
  let runtime: NodeJS.CallSite | undefined;
  let runtimeName = '';
  for (const frame of frames) {
    const name = frame.getFileName() ?? null;
    const kind = kindOf(name);
    if (kind === Kind.User) return siteOf(frame, name as string);
    if (kind === Kind.Runtime && !runtime) {
      runtime = frame;
      runtimeName = name as string;
    }
  }
  if (!last && frames.length >= asked) return undefined;
  return runtime ? siteOf(runtime, runtimeName) : UNKNOWN_SITE;
}

const holder: { stack?: unknown } = {};

function capture(above: (...args: never[]) => unknown, limit: number, final: boolean): Site | undefined {
  asked = limit;
  last = final;
  Error.stackTraceLimit = limit;
  Error.captureStackTrace(holder, above);
  return holder.stack as Site | undefined;
}

/**
 * The site of the code that called `above` (a traced wrapper, which must be on the stack): its direct
 * caller when that is the program's, else the first frame up the stack outside Node, this tracer and
 * the runtime. Never throws; `UNKNOWN_SITE` when nothing can be found.
 */
export function siteAbove(above: (...args: never[]) => unknown): Site {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, never called here
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = firstSite;
    return capture(above, 1, false) ?? capture(above, 32, true) ?? UNKNOWN_SITE;
  } catch {
    // A program that froze Error's properties, say: observing must never break it.
    return UNKNOWN_SITE;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}
