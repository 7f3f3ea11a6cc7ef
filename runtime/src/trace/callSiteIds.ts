/**
 * Call sites numbered when a module loads, so that a traced write learns its line without a stack
 * capture. A capture costs more than the write itself (V8 rebuilds the optimized frames it walks); a
 * site id costs a function call that V8 inlines.
 *
 * The CommonJS loader's compile step is wrapped: in each of the program's files, the last argument of
 * every write call the scanner finds (writeCallScanner.ts) is wrapped in a marker,
 *
 *     out.write('k=' + i)
 *     out.write((typeof __writevSite=="function"?__writevSite:(i,v)=>v)(7,'k=' + i))
 *
 * on the same line (lines never move; columns after the marker on that line do, which is why a file
 * with a source map is left alone). The marker runs after every other argument and just before the
 * call, records "site 7, with this value", and returns the value unchanged. Where no marker is defined
 * (a function's text run in a browser page or a new `vm` context), the stand-in returns the value alone. The traced wrapper then
 * takes the id, and accepts it only when the method it wraps is the one written at site 7 and its last
 * argument is the very value marked; anything else (a `write` method of the program's own that calls
 * `console.log`, a marked call that never reached a wrapper) falls back to the stack capture, which is
 * also what calls from code never rewritten (ES modules, eval, Node's own callbacks) get. The first call
 * from each site is captured anyway, to learn the function's name and to check that the capture agrees
 * with the id; an id whose capture disagrees is never trusted.
 */
import Module = require('node:module');
import { findWriteCalls, WRITE_METHODS, type WriteMethod } from './writeCallScanner';
import { siteAbove, type Site } from './callerSite';

/** The marker's global name; a file that already uses it is not rewritten. */
export const MARKER = '__writevSite';

/** The callee written before a marked argument: the marker, or an identity stand-in where it is not defined. */
const MARKED = `(typeof ${MARKER}=="function"?${MARKER}:(i,v)=>v)`;

/** Files larger than this (bundles) are not scanned: the scan would cost more at start-up than it saves. */
const MAX_SOURCE = 4 * 1024 * 1024;

interface Entry {
  readonly method: number;
  readonly file: string;
  readonly line: number;
  site?: Site;
}

/** Entries by id; id 0 means "none pending". */
const entries: (Entry | undefined)[] = [undefined];

let pendingId = 0;
let pendingValue: unknown;

function mark(id: number, value: unknown): unknown {
  pendingId = id;
  pendingValue = value;
  return value;
}

/** The index of a method in WRITE_METHODS: what a wrapper passes to `takeSite`. */
export const methodId = (method: WriteMethod): number => WRITE_METHODS.indexOf(method);

/**
 * The site whose id the program marked for this call, or undefined (then capture): the pending id is
 * taken (cleared) in any case. `method` is the wrapped method's id, `last` the call's last argument,
 * `above` the wrapper (for the first call's capture).
 */
export function takeSite(
  method: number,
  last: unknown,
  above: (...args: never[]) => unknown,
): Site | undefined {
  const id = pendingId;
  if (id === 0) return undefined;
  pendingId = 0;
  const value = pendingValue;
  pendingValue = undefined;
  const entry = entries[id];
  if (!entry || entry.method !== method || value !== last) return undefined;
  if (entry.site) return entry.site;
  const site = siteAbove(above);
  if (site.file === entry.file && site.line === entry.line) entry.site = site;
  return site;
}

/** The 1-based line of each offset in `offsets` (ascending), counting line ends as V8 does. */
function linesOf(source: string, offsets: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  for (const offset of offsets) {
    for (; at < offset; at++) {
      const c = source.charCodeAt(at);
      if (c === 10 || c === 0x2028 || c === 0x2029 || (c === 13 && source.charCodeAt(at + 1) !== 10)) line++;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * `source` (the file `file`) with the last argument of each write call wrapped in the marker, or
 * `source` itself when there is nothing to rewrite or the scanner cannot be sure of the file.
 */
export function rewriteWriteCalls(source: string, file: string): string {
  if (source.length > MAX_SOURCE || !/(?:write|end)\w*\s*\(/.test(source)) return source;
  // Columns move on a rewritten line: a source map (or a tool that reads one) would point wrong.
  if (source.includes('sourceMappingURL') || source.includes(MARKER)) return source;
  const calls = findWriteCalls(source);
  if (!calls || calls.length === 0) return source;
  const lines = linesOf(
    source,
    calls.map((c) => c.nameAt),
  );
  const edits: { at: number; text: string; order: number }[] = [];
  calls.forEach((call, index) => {
    const id = entries.length;
    entries.push({ method: methodId(call.method), file, line: lines[index] ?? 1 });
    edits.push({ at: call.argStart, text: `${MARKED}(${id},`, order: 1 });
    edits.push({ at: call.argEnd, text: ')', order: 0 });
  });
  // At one offset, a marker's `)` closes before another's opens.
  edits.sort((a, b) => a.at - b.at || a.order - b.order);
  let out = '';
  let from = 0;
  for (const edit of edits) {
    out += source.slice(from, edit.at) + edit.text;
    from = edit.at;
  }
  return out + source.slice(from);
}

type Compile = (this: unknown, content: unknown, filename: unknown, ...rest: unknown[]) => unknown;

/**
 * Defines the marker and wraps the CommonJS compile step so that the files `rewritable` accepts load
 * rewritten. Never throws into the program: a file the rewrite fails on loads as it was.
 */
export function rewriteModules(rewritable: (file: string) => boolean): void {
  // A second copy of the tracer in one process (a traced writev-trace, say) leaves the first one's.
  if (Object.hasOwn(globalThis, MARKER)) return;
  Object.defineProperty(globalThis, MARKER, {
    value: mark,
    writable: false,
    enumerable: false,
    configurable: false,
  });
  const proto = (Module as unknown as { prototype: { _compile?: Compile } }).prototype;
  const compile = proto._compile;
  if (typeof compile !== 'function') return;
  proto._compile = function compileRewritten(
    this: unknown,
    content: unknown,
    filename: unknown,
    ...rest: unknown[]
  ) {
    let text = content;
    if (typeof content === 'string' && typeof filename === 'string') {
      try {
        if (rewritable(filename)) text = rewriteWriteCalls(content, filename);
      } catch {
        // Observing must never break the program: the file loads as it was.
      }
    }
    return compile.call(this, text, filename, ...rest);
  };
}
