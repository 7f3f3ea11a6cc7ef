// Finds wrapper functions: a function whose body is one write of its buffer parameter to a
// descriptor, e.g. `static void emit(const char *buf, size_t n) { if (write_in_full(out_fd, buf, n) < 0)
// die(...); }`, directly or through another wrapper, and printf-style helpers that format then write
// once. Calls to it then count as writes to `out_fd`.
import type { Node } from 'web-tree-sitter';
import type { WrapperSetting } from '../settings';
import type { Step } from '../model';
import { ioName } from '../catalogue';
import {
  callArgs,
  calleeName,
  calls,
  functionDeclarator,
  functionName,
  identifiers,
  namedKids,
  parameterNames,
  unwrap,
} from './syntax';
import { readFunction } from './steps';
import { armedFrameWrites } from './armedFrames';
import { writeHelperOf } from './helperBodies';
import { singleIovecHelperOf } from './iovecHelpers';
import { framedIovecHelperOf } from './framedIovecHelpers';
import { selectedConstantOf } from './selectedConstants';
import { refused } from './helperRefusals';
import { writesOnlyInSomeConfigurations } from './configuredWrites';
import { libraryQuiet } from './functionFacts';
import { statementCall, writeStep, type CContext, type CWrapper } from './writes';
import { codeLength } from './commentedLength';
import { leavingGuard } from './leavingGuards';

function paramIndex(node: Node | undefined, params: readonly (string | undefined)[]): number {
  const bare = node ? unwrap(node) : undefined;
  return bare?.type === 'identifier' ? params.indexOf(bare.text) : -1;
}

/** A constant buffer argument (`"0000"`, `4`): no names in it, so every call sends the same bytes. */
function constant(node: Node | undefined): boolean {
  return (
    node !== undefined &&
    identifiers(node).size === 0 &&
    node.descendantsOfType('call_expression').length === 0
  );
}

/**
 * A step a frame may hold besides its writes: a computation (calling nothing, or only functions that
 * do no output: `strlen`, `htonl`), or an if that only computes.
 */
function computes(s: Step): boolean {
  const quietOther = (x: Step) =>
    x.kind === 'other' && !x.barrier && (x.calls.length === 0 || x.output === false);
  if (s.kind === 'other') return quietOther(s);
  return s.kind === 'branch' && !s.partial?.opaque && s.arms.every((a) => a.steps.every(quietOther));
}

/** The names a computing step may change (an if's arms included). */
function changes(s: Step): string[] {
  if (s.kind === 'other') return [...s.writes];
  if (s.kind === 'branch') return s.arms.flatMap((a) => a.steps.flatMap(changes));
  return [];
}

/**
 * `if (size > 0) ret = put(fd, data, size);`, an `if` whose one arm is one write keeping its result:
 * that write under the test, as `if (size > 0) put(...)` reads. A frame returns the last write's
 * result whichever writes ran, so what it keeps matters to no later write of the frame.
 */
function guardedWrite(s: Step): Step {
  if (s.kind !== 'branch' || !s.partial || s.partial.opaque || s.partial.exit || s.arms.length !== 1)
    return s;
  const only = s.arms[0]!.steps;
  const write = only.length === 1 ? only[0] : undefined;
  if (write?.kind !== 'write' || write.condition) return s;
  return { ...write, span: s.span, condition: s.partial.condition };
}

/**
 * A framing wrapper: a body of two or more writes to one descriptor (a parameter or a fixed global),
 * with only computations between (`put_be32(hdr, len)`, `if (buf) len = strlen(buf);`), the payload
 * possibly under a test (`if (len > 0)`) or the writes split over the arms of an if/else that are
 * frames themselves (see armedFrames.ts), and a `return` at the end at most, constant or the last
 * write's outcome. Each call then makes that many syscalls (at most); calls in a row are one sequence,
 * reported without a fix.
 */
function framingWrapper(fn: Node, name: string, ctx: CContext): CWrapper | undefined {
  // A frame is a few plain statements: anything with control flow or a long body is no wrapper, and
  // reading every function in full would cost the whole-tree speed.
  const block = fn.childForFieldName('body') as Node;
  const statements = namedKids(block);
  const plain = ['expression_statement', 'declaration', 'if_statement'];
  const end = statements[statements.length - 1];
  const returns = end?.type === 'return_statement' && calls(end).length === 0 ? 1 : 0;
  const body = statements.slice(0, statements.length - returns);
  // A frame may end by returning its last write's outcome (`return write(fd, s, n) == n;`): that
  // return is the frame's last write (see returnStep), read with the rest.
  const framed = (st: Node) => plain.includes(st.type) || (st === end && st.type === 'return_statement');
  if (statements.length > 8 || !body.every(framed)) return undefined;
  // Each write of a frame calls a write function, a macro or a helper of one write by name: a body
  // that names them fewer than twice in all is no frame, without reading it (most short functions that
  // call a wrapper once: cgit's). A frame may mix them: a length through a helper that sends an int,
  // then the bytes with send().
  const text = ctx.text.slice(block.startIndex, block.endIndex);
  const single = singleWrites(ctx);
  if (writeNames(ctx, text, 2) + wrapperCalls(single, text, 2) < 2) return undefined;
  // A body opening with a guard that leaves is no frame, and reading it whole to find that was most
  // of an edited writer's reading as a helper, at every keystroke.
  if (leavingGuard(statements[0])) return undefined;
  // A plain write() to a parameter is read as a stream's here; whether it is one is the caller's
  // question, asked of the frame's `messages` below.
  const params = parameterNames(fn);
  const blocks = readFunction(fn, {
    ...ctx,
    wrappers: single,
    streams: new Set(params.filter((p): p is string => p !== undefined)),
    assumeStreams: true,
  });
  const steps = blocks[blocks.length - 1]?.steps.slice(0, body.length).map(guardedWrite);
  if (!steps) return undefined;
  // An if/else whose arms are frames of their own (a length, then the string when there is one).
  const armed = steps.map((s) => armedFrameWrites(s, computes));
  const writes = steps.flatMap((s, i) => (s.kind === 'write' ? [s] : (armed[i] ?? [])));
  if (writes.length < 2 || steps.some((s, i) => s.kind !== 'write' && !armed[i] && !computes(s)))
    return undefined;
  const first = writes[0]!; // at least two, checked above
  if (first.condition || writes.some((w) => w.target !== first.target || w.stream || w.position))
    return undefined;
  const fdParam = params.indexOf(first.target);
  if (fdParam < 0 && first.targetNames.some((n) => params.includes(n))) return undefined;
  // Nothing between the writes may change the descriptor.
  if (steps.some((s) => changes(s).some((n) => first.targetNames.includes(n)))) return undefined;
  const syscalls = writes.reduce((sum, w) => sum + (w.syscalls ?? 1), 0);
  return {
    name,
    exported: !isStatic(fn, name),
    fd: fdParam >= 0 ? { param: fdParam } : { text: first.fdText, names: first.targetNames },
    buf: -1,
    family: first.family,
    arity: params.length,
    syscalls,
    // Plain writes keep message boundaries on a datagram socket: calls join where the caller's
    // descriptor is a stream, as the writes themselves would.
    ...(writes.some((w) => plainWrite(w.callee, single, ctx)) && { messages: true }),
    noFix: writes.some((w) => w.condition)
      ? `${name}() writes up to ${syscalls} times per call (a header, then its payload when there is one); gathering across calls needs a variant of it that fills an iovec`
      : undefined,
  };
}

/**
 * Comments, string and character literals: a write named there (a comment saying what `write()`
 * returns, `perror("write()")`) is no call, and must not make a helper's one write look like two.
 */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/**
 * True when `text` calls two different write functions, macros or wrappers of `ctx` (the same one twice
 * may be one write retried, which {@link writeHelperOf} tells by the arguments). Comments and literals
 * are not read.
 */
function callsTwice(ctx: CContext, text: string): boolean {
  let first: string | undefined;
  for (const m of text.replace(NOISE, ' ').matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
    const name = m[1]!;
    if (ctx.functions.has(name) || ctx.wrappers.has(name) || ctx.macros?.has(name)) {
      // The same function again may be the same write retried: the body's reading tells.
      if (first !== undefined && name !== first) return true;
      first = name;
    }
  }
  return false;
}

/** True when `callee` is one plain `write`/`send` (or a helper of one), not a loop that writes it all. */
function plainWrite(callee: string, wrappers: ReadonlyMap<string, CWrapper>, ctx: CContext): boolean {
  return !!(ctx.functions.get(callee)?.messages ?? wrappers.get(callee)?.messages);
}

/**
 * The wrappers of `ctx` whose calls make one write each: no frames of their own, no printf-style
 * formatting. A helper that writes the bytes of the value it is given (`put_int(fd, len)`) is one: it
 * is how a frame's length header is often sent.
 */
function singleWrites(ctx: CContext): Map<string, CWrapper> {
  const single = new Map<string, CWrapper>();
  for (const [name, w] of ctx.wrappers)
    if ((w.syscalls ?? 1) === 1 && (!w.formats || w.object)) single.set(name, w);
  return single;
}

/** How many calls of the wrappers of `wrappers` `text` makes, counted up to `most`. */
function wrapperCalls(wrappers: ReadonlyMap<string, CWrapper>, text: string, most: number): number {
  if (wrappers.size === 0) return 0;
  let seen = 0;
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) if (wrappers.has(m[1]!) && ++seen === most) break;
  return seen;
}

/** Bodies longer than this (characters, comments left out) are not read as a project's write helper. */
const HELPER_TEXT_LIMIT = 3000;

/** Patterns of {@link namesTwice}, by the names they find. */
const namePatterns = new Map<string, RegExp | undefined>();

/**
 * How many times `text` names the write functions and macros of `ctx` (wrappers aside) as words,
 * counted up to `most`: what writes to them need. `most` when a name is not a plain word (not searched
 * for).
 */
function writeNames(ctx: CContext, text: string, most: number): number {
  const names = [...ctx.functions.keys(), ...(ctx.macros?.keys() ?? [])];
  const key = names.join('|');
  let pattern = namePatterns.get(key);
  if (!namePatterns.has(key)) {
    pattern = names.every((n) => /^\w+$/.test(n)) ? new RegExp(`\\b(?:${key})\\b`, 'g') : undefined;
    // Macros are a file's own: a long-lived server meets many sets of them.
    if (namePatterns.size >= 64) namePatterns.clear();
    namePatterns.set(key, pattern);
  }
  if (!pattern) return most;
  pattern.lastIndex = 0;
  let seen = 0;
  while (seen < most && pattern.test(text)) seen++;
  return seen;
}

/** Where a write call carries its descriptor (absent: fixed by the callee), buffer and length. */
interface Slots {
  readonly fd?: number;
  readonly buf: number;
  readonly len?: number;
}

/** The argument slots of `callee`: a write function, or a wrapper whose buffer a fix can list. */
function slotsOf(callee: string, ctx: CContext): Slots | undefined {
  const fn = ctx.functions.get(callee);
  if (fn) return { fd: fn.fd, buf: fn.buf, len: fn.len };
  const w = ctx.wrappers.get(callee);
  // A printf-style helper's bytes cannot be listed; a framing wrapper's calls are several writes.
  if (
    !w ||
    w.noFix ||
    (w.syscalls ?? 1) > 1 ||
    ('param' in w.fd && (w.fd.member || w.fd.element || w.fd.deref || w.fd.accessor))
  )
    return undefined;
  return { fd: 'param' in w.fd ? w.fd.param : undefined, buf: w.buf, len: w.len };
}

/**
 * The length parameter a forwarded length is: a parameter (its index), `strlen(buf)` of the forwarded
 * buffer (undefined: the wrapper takes a C string), or -1 when it is anything else.
 */
function lengthParam(node: Node | undefined, bufText: string, params: readonly (string | undefined)[]) {
  if (!node) return undefined;
  const bare = unwrap(node);
  if (bare.type === 'call_expression' && calleeName(bare) === 'strlen') {
    const args = callArgs(bare);
    return args.length === 1 && unwrap(args[0]!).text === bufText ? undefined : -1;
  }
  return paramIndex(bare, params);
}

/** The context a function is read in while deciding what it wraps: it cannot wrap itself. */
function without(ctx: CContext, name: string): CContext {
  if (!ctx.wrappers.has(name)) return ctx;
  const wrappers = new Map(ctx.wrappers);
  wrappers.delete(name);
  return { ...ctx, wrappers };
}

function isStatic(fn: Node, name: string): boolean {
  return /(^|\s)static\s/.test(fn.text.slice(0, fn.text.indexOf(name)));
}

/**
 * The wrapper a function definition is, if it is one: its body is one write of its buffer parameter,
 * to a write function or to a wrapper already known (`html(txt)` forwarding to `html_raw(txt,
 * strlen(txt))`, which writes to stdout). Chains resolve one level per call; see wrapperChains.ts.
 */
export function wrapperOf(fn: Node, outer: CContext): CWrapper | undefined {
  const body = fn.childForFieldName('body');
  const name = functionName(fn);
  if (!body || !name || outer.functions.has(name)) return undefined;
  const ctx = without(outer, name);
  const statements = namedKids(body);
  // A helper is short and makes one write call: a body naming write functions twice is none, and
  // reading every long function that writes as a candidate cost the whole-tree speed.
  const helper = () => {
    const text = ctx.text.slice(body.startIndex, body.endIndex);
    // Two under `#if`/`#else`, in the arms of an `if`/`else` or `?:`, in two cases of a `switch` (see
    // caseAlternatives.ts), or in an `if` that returns and after it (see sessionChoices.ts) may be
    // alternatives of one write: the body's reading tells.
    if (text.length > HELPER_TEXT_LIMIT && codeLength(text) > HELPER_TEXT_LIMIT)
      return refused('too-long', body);
    if (
      callsTwice(ctx, text) &&
      !/^[ \t]*#[ \t]*(?:else|elif)\b|\belse\b|\?|\bswitch\b/m.test(text) &&
      !/\bif\b[^;]*\)\s*(?:\{[^{}]*)?\breturn\b/.test(text)
    )
      return refused('names-two-writes', body);
    return (
      writeHelperOf(fn, name, !isStatic(fn, name), ctx) ??
      singleIovecHelperOf(fn, name, !isStatic(fn, name), ctx) ??
      framedIovecHelperOf(fn, name, !isStatic(fn, name), ctx) ??
      selectedConstantOf(fn, name, !isStatic(fn, name), ctx)
    );
  };
  if (statements.length > 1)
    return compiledAlways(
      fn,
      name,
      ctx,
      formatterOf(fn, name, statements, ctx) ??
        framingWrapper(fn, name, ctx) ??
        frameForwarderOf(fn, name, statements, ctx) ??
        helper(),
    );
  if (statements.length !== 1) return undefined;
  return compiledAlways(
    fn,
    name,
    ctx,
    forwarderOf(fn, name, statements[0]!, ctx) ?? frameForwarderOf(fn, name, statements, ctx) ?? helper(),
  );
}

/**
 * `wrapper`, unless some configuration compiles `fn` without its writes (see configuredWrites.ts): a
 * file with no directive line has none to ask about.
 */
function compiledAlways(
  fn: Node,
  name: string,
  ctx: CContext,
  wrapper: CWrapper | undefined,
): CWrapper | undefined {
  if (!wrapper || !ctx.text.includes('#')) return wrapper;
  const writes = (call: Node) => {
    const callee = calleeName(call);
    return callee !== undefined && (ctx.functions.has(callee) || ctx.wrappers.has(callee));
  };
  const output = (call: Node) => {
    const callee = calleeName(call);
    if (callee === undefined || writes(call)) return true;
    return !(ctx.quiet(callee) || ctx.pure.has(callee) || libraryQuiet(callee));
  };
  return writesOnlyInSomeConfigurations(fn, name, writes, output) ? refused('configured-write', fn) : wrapper;
}

/**
 * A body that makes one call of a framing wrapper and handles its failure (`if (!send_frame(peer, s))
 * fatal("...");`, then a constant `return` at most): each call sends the same frame, as many writes, to
 * the descriptor it passes on. The handling may report, but must not hand the descriptor to anything.
 */
function frameForwarderOf(
  fn: Node,
  name: string,
  statements: readonly Node[],
  ctx: CContext,
): CWrapper | undefined {
  const [only, end] = statements;
  if (!only || statements.length > 2 || (end && (end.type !== 'return_statement' || calls(end).length > 0)))
    return undefined;
  const value = only.type === 'return_statement' && !end ? only.namedChild(0) : null;
  const call = value ? unwrap(value) : statementCall(only, ctx);
  const callee = call?.type === 'call_expression' ? calleeName(call) : undefined;
  const inner = callee === undefined ? undefined : ctx.wrappers.get(callee);
  if (!call || !inner || (inner.syscalls ?? 1) < 2) return undefined;
  // Whether its descriptor keeps message boundaries is the caller's question, as for the frame itself.
  const params = parameterNames(fn);
  const write = writeStep(value ? call : only, call, {
    ...ctx,
    streams: new Set(params.filter((p): p is string => p !== undefined)),
    assumeStreams: true,
  });
  if (!write) return undefined;
  const fdParam = 'param' in inner.fd ? paramIndex(callArgs(call)[inner.fd.param], params) : -1;
  if (fdParam < 0 && write.targetNames.some((n) => params.includes(n))) return undefined;
  const inside = (c: Node) => c.startIndex >= call.startIndex && c.endIndex <= call.endIndex;
  for (const c of calls(only)) {
    if (inside(c)) continue;
    const other = calleeName(c);
    if (!other || ctx.functions.has(other) || ctx.wrappers.has(other) || ctx.macros?.has(other))
      return undefined;
    if ([...identifiers(c)].some((n) => write.targetNames.includes(n))) return undefined;
  }
  return {
    name,
    exported: !isStatic(fn, name),
    fd: fdParam >= 0 ? { param: fdParam } : { text: write.fdText, names: write.targetNames },
    buf: -1,
    family: inner.family,
    arity: params.length,
    syscalls: inner.syscalls,
    ...(inner.messages && { messages: true }),
    noFix:
      inner.noFix ??
      `${name}() sends ${callee}()'s frame of ${inner.syscalls} writes per call; gathering across calls needs a variant of it that fills an iovec`,
  };
}

/** A body of one statement that writes the function's buffer parameter (see {@link wrapperOf}). */
function forwarderOf(fn: Node, name: string, only: Node, ctx: CContext): CWrapper | undefined {
  let stmt = only;
  let returns = false;
  if (stmt.type === 'return_statement') {
    const value = stmt.namedChild(0);
    if (!value || unwrap(value).type !== 'call_expression') return undefined;
    returns = true;
  }
  const call = returns ? unwrap(stmt.namedChild(0) as Node) : statementCall(stmt, ctx);
  if (!call) return undefined;
  if (returns) stmt = call;
  const write = returns ? writeStep(call, call, ctx) : writeStep(stmt, call, ctx);
  if (!write?.pieces || write.pieces.length !== 1) return undefined;
  const params = parameterNames(fn);
  const args = callArgs(call);
  const slots = slotsOf(write.callee, ctx);
  if (!slots || slots.buf < 0) return undefined;
  const bufArg = args[slots.buf];
  if (bufArg === undefined) return undefined; // too few arguments to read the buffer from
  const buf = paramIndex(bufArg, params);
  const lenArg = slots.len === undefined ? undefined : args[slots.len];
  const len = lenArg === undefined ? undefined : lengthParam(lenArg, unwrap(bufArg).text, params);
  // A helper that writes fixed bytes (a flush packet) sends a constant on every call.
  const fixedBytes =
    buf < 0 && constant(bufArg) && (lenArg === undefined || constant(lenArg)) ? write.pieces[0] : undefined;
  if ((buf < 0 || len === -1) && !fixedBytes) return undefined;
  const fdParam = slots.fd === undefined ? -1 : paramIndex(args[slots.fd], params);
  const fdNames = write.targetNames;
  if (fdParam < 0 && fdNames.some((n) => params.includes(n))) return undefined;
  const inner = ctx.wrappers.get(write.callee);
  // The handler (`die("...")`) is copied to every call site: it must not use the wrapper's parameters.
  let template = returns ? undefined : write.template;
  if (template) {
    const handler = identifiers(stmt);
    for (const n of identifiers(call)) handler.delete(n);
    if ([...handler].some((n) => params.includes(n))) template = undefined;
    else if (template.before.trim() === '' && template.after.trim() === ';') template = undefined;
  }
  return {
    name,
    exported: !isStatic(fn, name),
    fd: fdParam >= 0 ? { param: fdParam } : { text: write.fdText, names: fdNames },
    buf: fixedBytes ? -1 : buf,
    len: fixedBytes ? undefined : len,
    constant: fixedBytes && { buf: fixedBytes.buf, len: fixedBytes.len ?? '' },
    family: write.family,
    template,
    arity: params.length,
    // Forwarding to another file's wrapper that handles its own errors: that handling is not here to copy.
    noFix:
      inner?.noFix ??
      (inner?.file && inner.template
        ? `${inner.name}() handles its errors in another file, and the fix cannot copy that handling here`
        : undefined),
  };
}

/**
 * A printf-style helper (`htmlf(fmt, ...)`): variadic, straight-line, and its one write sends what it
 * formatted, to a fixed descriptor or its descriptor parameter. Each call is one write, so it takes its
 * place in a run, but the bytes exist only once it has formatted them: no iovec can list them.
 */
function formatterOf(fn: Node, name: string, statements: readonly Node[], ctx: CContext) {
  const list = functionDeclarator(fn)?.childForFieldName('parameters');
  if (!list || !namedKids(list).some((p) => p.type === 'variadic_parameter')) return undefined;
  const params = parameterNames(fn);
  if (params.length === 0 || params.includes(undefined)) return undefined;
  let found: { stmt: Node; call: Node; write: NonNullable<ReturnType<typeof writeStep>> } | undefined;
  for (const stmt of statements) {
    if (stmt.type !== 'expression_statement' && stmt.type !== 'declaration') return undefined;
    const call = statementCall(stmt, ctx);
    const write = call && writeStep(stmt, call, ctx);
    if (call && write) {
      if (found) return undefined;
      found = { stmt, call, write };
      continue;
    }
    // Anything else may only compute: no call that could write or leave.
    for (const c of calls(stmt)) {
      const callee = calleeName(c);
      if (!callee || ctx.functions.has(callee) || ctx.wrappers.has(callee)) return undefined;
      if (ioName(callee) && !ctx.quiet(callee)) return undefined;
    }
  }
  if (!found || found.write.pieces?.length !== 1) return undefined;
  const slots = slotsOf(found.write.callee, ctx);
  if (!slots) return undefined;
  const fdParam = slots.fd === undefined ? -1 : paramIndex(callArgs(found.call)[slots.fd], params);
  if (fdParam < 0 && found.write.targetNames.some((n) => params.includes(n))) return undefined;
  const buf = fdParam === 0 ? 1 : 0;
  if (buf >= params.length) return undefined;
  return {
    name,
    exported: !isStatic(fn, name),
    fd: fdParam >= 0 ? { param: fdParam } : { text: found.write.fdText, names: found.write.targetNames },
    buf,
    family: found.write.family,
    arity: params.length,
    noFix: `${name}() formats its text before writing it, so no iovec can list its bytes`,
    formats: true,
    printf: true,
  } satisfies CWrapper;
}

/** A wrapper declared in settings (`writev.wrappers`, language "c"). */
export function settingWrapper(setting: WrapperSetting, family: string): CWrapper {
  return {
    name: setting.name,
    exported: true,
    fd: { text: setting.fd, names: setting.fd.match(/[A-Za-z_]\w*/g) ?? [] },
    buf: setting.buf,
    len: setting.len,
    family,
    arity: Math.max(setting.buf, setting.len ?? 0) + 1,
  };
}
