// Finds wrapper functions (shape 4): a function whose body is one write of its buffer parameter to a
// descriptor, e.g. `static void emit(const char *buf, size_t n) { if (write_in_full(out_fd, buf, n) < 0)
// die(...); }`. Calls to it then count as writes to `out_fd`.
import type { Node } from 'web-tree-sitter';
import type { WrapperSetting } from '../settings';
import { functionName, identifiers, namedKids, parameterNames, unwrap } from './syntax';
import { statementCall, writeStep, type CContext, type CWrapper } from './writes';

function paramIndex(node: Node | undefined, params: readonly (string | undefined)[]): number {
  const bare = node ? unwrap(node) : undefined;
  return bare?.type === 'identifier' ? params.indexOf(bare.text) : -1;
}

/** The wrapper a function definition is, if it is one. */
export function wrapperOf(fn: Node, ctx: CContext): CWrapper | undefined {
  const body = fn.childForFieldName('body');
  const name = functionName(fn);
  if (!body || !name || ctx.functions.has(name)) return undefined;
  const statements = namedKids(body);
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
  const inner: CContext = { ...ctx, wrappers: new Map() };
  if (returns) stmt = call;
  const write = returns ? writeStep(call, call, inner) : writeStep(stmt, call, inner);
  if (!write?.pieces || write.pieces.length !== 1) return undefined;
  const params = parameterNames(fn);
  const args = namedKids(call.childForFieldName('arguments') as Node);
  const fnInfo = ctx.functions.get(write.callee);
  if (!fnInfo) return undefined;
  const buf = paramIndex(args[fnInfo.buf], params);
  const len = fnInfo.len === undefined ? undefined : paramIndex(args[fnInfo.len], params);
  if (buf < 0 || len === -1) return undefined;
  const fdParam = paramIndex(args[fnInfo.fd], params);
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
    buf,
    len,
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
