// Finds wrapper functions (shape 4): a function whose body is one write of its buffer parameter to a
// descriptor, e.g. `static void emit(const char *buf, size_t n) { if (write_in_full(out_fd, buf, n) < 0)
// die(...); }`. Calls to it then count as writes to `out_fd`.
import type { Node } from 'web-tree-sitter';
import type { WrapperSetting } from '../settings';
import { functionName, identifiers, namedKids, parameterNames, unwrap } from './syntax';
import { readFunction } from './steps';
import { statementCall, writeStep, type CContext, type CWrapper } from './writes';

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
 * A framing wrapper: a body of two or more writes to one descriptor (a parameter or a fixed global),
 * with only harmless statements between (`put_be32(hdr, len)`). Each call then makes that many
 * syscalls; calls in a row are one sequence, reported without a fix.
 */
function framingWrapper(fn: Node, name: string, ctx: CContext): CWrapper | undefined {
  // A frame is a few plain statements: anything with control flow or a long body is no wrapper, and
  // reading every function in full would cost the whole-tree speed.
  const statements = namedKids(fn.childForFieldName('body') as Node);
  const plain = ['expression_statement', 'declaration', 'if_statement'];
  if (statements.length > 8 || statements.some((st) => !plain.includes(st.type))) return undefined;
  const blocks = readFunction(fn, { ...ctx, wrappers: new Map() });
  if (blocks.length !== 1) return undefined;
  const steps = blocks[0].steps;
  const writes = steps.filter((s) => s.kind === 'write');
  if (writes.length < 2 || steps.some((s) => s.kind !== 'write' && (s.kind !== 'other' || s.barrier)))
    return undefined;
  const first = writes[0];
  if (writes.some((w) => w.target !== first.target || w.condition || w.stream || w.position))
    return undefined;
  const params = parameterNames(fn);
  const fdParam = params.indexOf(first.target);
  if (fdParam < 0 && first.targetNames.some((n) => params.includes(n))) return undefined;
  // Nothing between the writes may change the descriptor.
  if (steps.some((s) => s.kind === 'other' && s.writes.some((n) => first.targetNames.includes(n))))
    return undefined;
  const isStatic = /(^|\s)static\s/.test(fn.text.slice(0, fn.text.indexOf(name)));
  return {
    name,
    exported: !isStatic,
    fd: fdParam >= 0 ? { param: fdParam } : { text: first.fdText, names: first.targetNames },
    buf: -1,
    family: first.family,
    arity: params.length,
    syscalls: writes.reduce((sum, w) => sum + (w.syscalls ?? 1), 0),
  };
}

/** Where the descriptor, buffer and length go in a call to a write function or a wrapper. */
function argumentsOf(
  callee: string,
  ctx: CContext,
  wrappers: ReadonlyMap<string, CWrapper>,
): { fd?: number; buf: number; len?: number } | undefined {
  const fn = ctx.functions.get(callee);
  if (fn) return fn;
  const w = wrappers.get(callee);
  if (!w || (w.syscalls ?? 1) > 1) return undefined;
  return { fd: 'param' in w.fd ? w.fd.param : undefined, buf: w.buf, len: w.len };
}

/** The wrapper a function definition is, if it is one. */
export function wrapperOf(fn: Node, ctx: CContext): CWrapper | undefined {
  const body = fn.childForFieldName('body');
  const name = functionName(fn);
  if (!body || !name || ctx.functions.has(name)) return undefined;
  const statements = namedKids(body);
  if (statements.length > 1) return framingWrapper(fn, name, ctx);
  if (statements.length !== 1) return undefined;
  let stmt = statements[0];
  let returns = false;
  if (stmt.type === 'return_statement') {
    const value = stmt.namedChild(0);
    if (!value || unwrap(value).type !== 'call_expression') return undefined;
    returns = true;
  }
  const call = returns ? unwrap(stmt.namedChild(0) as Node) : statementCall(stmt);
  if (!call) return undefined;
  // A wrapper may call another wrapper (`html()` calling `html_raw()`), never itself.
  const others = new Map(ctx.wrappers);
  others.delete(name);
  const inner: CContext = { ...ctx, wrappers: others };
  if (returns) stmt = call;
  const write = returns ? writeStep(call, call, inner) : writeStep(stmt, call, inner);
  if (!write?.pieces || write.pieces.length !== 1) return undefined;
  const params = parameterNames(fn);
  const args = namedKids(call.childForFieldName('arguments') as Node);
  const at = argumentsOf(write.callee, ctx, others);
  if (!at || at.buf < 0) return undefined;
  const buf = paramIndex(args[at.buf], params);
  const lenArg = at.len === undefined ? undefined : args[at.len];
  // `strlen(s)` of the buffer parameter: the wrapper takes a C string.
  const cString = buf >= 0 && lenArg?.text.replace(/\s+/g, '') === `strlen(${params[buf]})`;
  const len = lenArg === undefined || cString ? undefined : paramIndex(lenArg, params);
  // A helper that writes fixed bytes (a flush packet) sends a constant on every call.
  const fixedBytes =
    buf < 0 && constant(args[at.buf]) && (lenArg === undefined || constant(lenArg))
      ? write.pieces[0]
      : undefined;
  if ((buf < 0 || len === -1) && !fixedBytes) return undefined;
  const fdParam = at.fd === undefined ? -1 : paramIndex(args[at.fd], params);
  const fdNames = write.targetNames;
  if (fdParam < 0 && fdNames.some((n) => params.includes(n))) return undefined;
  // The handler (`die("...")`) is copied to every call site: it must not use the wrapper's parameters.
  let template = returns ? undefined : write.template;
  if (template) {
    const handler = identifiers(stmt);
    for (const n of identifiers(call)) handler.delete(n);
    if ([...handler].some((n) => params.includes(n))) template = undefined;
    else if (template.before.trim() === '' && template.after.trim() === ';') template = undefined;
  }
  const isStatic = /(^|\s)static\s/.test(fn.text.slice(0, fn.text.indexOf(name)));
  return {
    name,
    exported: !isStatic,
    fd: fdParam >= 0 ? { param: fdParam } : { text: write.fdText, names: fdNames },
    buf: fixedBytes ? -1 : buf,
    len: fixedBytes ? undefined : len,
    constant: fixedBytes && { buf: fixedBytes.buf, len: fixedBytes.len ?? '' },
    family: write.family,
    template,
    arity: params.length,
  };
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
