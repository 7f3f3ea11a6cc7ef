// Recognises C statements that are one write: a call to a write function (or a wrapper of one) as a
// bare statement, behind `(void)`, or checked as `if (call < 0) handler`.
import type { Node } from 'web-tree-sitter';
import type { CWriteFunction } from '../catalogue';
import type { Piece, Template, WriteStep } from '../model';
import { indentAt } from '../positions';
import { callArgs, calleeName, calls, canonicalTarget, identifiers, unwrap } from './syntax';

/** A function whose body only writes its buffer argument to a descriptor (shape 4). */
export interface CWrapper {
  readonly name: string;
  /** The file that defines it, for wrappers found elsewhere in the workspace. */
  readonly file?: string;
  /** Visible outside its file (not `static`). */
  readonly exported: boolean;
  /** The descriptor: one of the wrapper's parameters, or a fixed expression such as `out_fd`. */
  readonly fd: { readonly param: number } | { readonly text: string; readonly names: readonly string[] };
  /** Parameter index of the buffer, and of the length (absent: a C string, `strlen`). */
  readonly buf: number;
  readonly len?: number;
  /** The gathered function a run of calls becomes. */
  readonly family: string;
  /** A wrapper with its own error handling: its statement around the write (calls must be bare). */
  readonly template?: Template;
  /** The fewest arguments a call must pass. */
  readonly arity: number;
  /** Why calls to it cannot be gathered by a fix (a printf-style helper formats its buffer first). */
  readonly noFix?: string;
}

/** What the C front end knows while reading one file. */
export interface CContext {
  readonly text: string;
  readonly functions: ReadonlyMap<string, CWriteFunction>;
  readonly wrappers: ReadonlyMap<string, CWrapper>;
  readonly pure: ReadonlySet<string>;
}

/** Stands for the byte count in a `!= len` check; a fix puts the sum of the lengths there. */
export const LENGTH_MARK = '\u0000length\u0000';

/** The right operand of `if (call != len)`, the check that every byte went out. */
function lengthCheck(stmt: Node): Node | undefined {
  if (stmt.type !== 'if_statement') return undefined;
  const cond = stmt.childForFieldName('condition');
  const test = cond ? unwrap(cond) : undefined;
  if (test?.type !== 'binary_expression' || test.childForFieldName('operator')?.text !== '!=')
    return undefined;
  return test.childForFieldName('right') ?? undefined;
}

/** The call a statement is built around, if the statement is a bare or checked call. */
export function statementCall(stmt: Node): Node | undefined {
  if (stmt.type === 'expression_statement') {
    const expr = stmt.namedChild(0);
    const call = expr ? unwrap(expr) : undefined;
    return call?.type === 'call_expression' ? call : undefined;
  }
  if (stmt.type !== 'if_statement' || stmt.childForFieldName('alternative')) return undefined;
  const cond = stmt.childForFieldName('condition');
  const test = cond ? unwrap(cond) : undefined;
  if (test?.type !== 'binary_expression') return undefined;
  const op = test.childForFieldName('operator')?.text;
  const right = test.childForFieldName('right')?.text.replace(/\s+/g, '');
  const left = test.childForFieldName('left');
  const checked = (op === '<' && right === '0') || (op === '==' && right === '-1') || op === '!=';
  if (!left || !checked) return undefined;
  const call = unwrap(left);
  return call.type === 'call_expression' ? call : undefined;
}

/** True when every call inside `nodes` is to a pure function: evaluating them early is harmless. */
function onlyPureCalls(nodes: readonly Node[], pure: ReadonlySet<string>): boolean {
  return nodes.every((node) => calls(node).every((call) => pure.has(calleeName(call) ?? '')));
}

/** True when evaluating `node` changes something (`fds[i++]`): the same text names another descriptor. */
function hasEffects(node: Node): boolean {
  return node.descendantsOfType(['update_expression', 'assignment_expression']).length > 0;
}

function template(stmt: Node, call: Node, text: string): Template {
  const check = lengthCheck(stmt);
  const after = check
    ? text.slice(call.endIndex, check.startIndex) + LENGTH_MARK + text.slice(check.endIndex, stmt.endIndex)
    : text.slice(call.endIndex, stmt.endIndex);
  return {
    before: text.slice(stmt.startIndex, call.startIndex),
    after,
    indent: indentAt(text, stmt.startIndex),
  };
}

/** A `!= len` check must compare with the very length the call writes, or its meaning is unclear. */
function checksItsLength(stmt: Node, len: string | undefined): boolean {
  const check = lengthCheck(stmt);
  return !check || (len !== undefined && check.text.replace(/\s+/g, '') === len.replace(/\s+/g, ''));
}

function isBare(t: Template): boolean {
  return t.before.trim() === '' && t.after.trim() === ';';
}

function piece(buf: Node, len: Node | undefined, text: string): Piece {
  const bufText = text.slice(buf.startIndex, buf.endIndex);
  return { buf: bufText, len: len ? text.slice(len.startIndex, len.endIndex) : `strlen(${bufText})` };
}

function names(nodes: readonly (Node | undefined)[]): string[] {
  const into = new Set<string>();
  for (const node of nodes) if (node) identifiers(node, into);
  return [...into];
}

/**
 * The write step for statement `stmt` built around `call`, or undefined when the call is not a write
 * the analyzer understands fully (unknown function, wrong arity, a call with side effects in the
 * arguments, a descriptor computed by a call).
 */
export function writeStep(stmt: Node, call: Node, ctx: CContext): WriteStep | undefined {
  const name = calleeName(call);
  if (!name || stmt.hasError) return undefined;
  const args = callArgs(call);
  if (!onlyPureCalls(args, ctx.pure)) return undefined;
  const fn = ctx.functions.get(name);
  const span = { start: stmt.startIndex, end: stmt.endIndex };
  const site = template(stmt, call, ctx.text);
  if (fn) {
    const needed = fn.arity ?? Math.max(fn.fd, fn.buf, fn.len ?? 0) + 1;
    if (fn.arity !== undefined ? args.length !== needed : args.length < needed) return undefined;
    if (fn.fixed && args[fn.fixed.index]?.text.replace(/\s+/g, '') !== fn.fixed.text) return undefined;
    const fd = args[fn.fd];
    if (hasEffects(fd)) return undefined;
    if (fn.messages && !['1', '2'].includes(canonicalTarget(fd.text))) return undefined;
    const len = fn.len === undefined ? undefined : args[fn.len];
    if (!checksItsLength(stmt, len ? len.text : `strlen(${args[fn.buf].text})`)) return undefined;
    return {
      kind: 'write',
      span,
      target: canonicalTarget(fd.text),
      fdText: ctx.text.slice(fd.startIndex, fd.endIndex),
      targetNames: names([fd]),
      callee: name,
      family: fn.gatheredName ?? '',
      pieces: fn.gathered ? undefined : [piece(args[fn.buf], len, ctx.text)],
      reads: names([args[fn.buf], len]),
      template: fn.gatheredName && !fn.noFix ? site : undefined,
      noFix: fn.noFix,
    };
  }
  const wrapper = ctx.wrappers.get(name);
  if (!wrapper || args.length < wrapper.arity) return undefined;
  // A wrapper that handles its own errors is called as a bare statement; anything else is unclear.
  if (wrapper.template && !isBare(site)) return undefined;
  const fd = 'param' in wrapper.fd ? args[wrapper.fd.param] : undefined;
  if (fd && hasEffects(fd)) return undefined;
  const len = wrapper.len === undefined ? undefined : args[wrapper.len];
  if (!checksItsLength(stmt, len ? len.text : `strlen(${args[wrapper.buf].text})`)) return undefined;
  return {
    kind: 'write',
    span,
    target: canonicalTarget(fd ? fd.text : 'text' in wrapper.fd ? wrapper.fd.text : ''),
    fdText: fd ? ctx.text.slice(fd.startIndex, fd.endIndex) : 'text' in wrapper.fd ? wrapper.fd.text : '',
    targetNames: fd ? names([fd]) : 'names' in wrapper.fd ? wrapper.fd.names : [],
    callee: name,
    family: wrapper.family,
    pieces: wrapper.noFix ? undefined : [piece(args[wrapper.buf], len, ctx.text)],
    reads: wrapper.noFix ? names(args) : names([args[wrapper.buf], len]),
    // A wrapper defined in another file may write to a descriptor this file cannot name: no fix.
    template: wrapper.file || wrapper.noFix ? undefined : (wrapper.template ?? site),
    noFix: wrapper.noFix,
    wrapper: { name, file: wrapper.file },
  };
}
