// Function-like macros that expand to one write (`#define WRITE(x) write_or_die(fd, x, strlen(x))`),
// defined in the file that uses them. A call to such a macro is read as the write it expands to, with
// the arguments put in place of the parameters: the fix then gathers the expanded buffers.
import type { Node } from 'web-tree-sitter';
import { unaddressedCall, type CWriteFunction } from '../catalogue';
import { constantFlags, descriptorKind, type CallWrite, type CContext } from './writes';
import { canonicalTarget } from './syntax';
import { bodyCalls, macroBody, type MacroBody } from './macroBodies';
import { leadingIf } from './macroStatements';

/** A macro whose body is one call to a known write function. */
export interface CMacro {
  readonly name: string;
  readonly params: readonly string[];
  /** The write function the body calls, and the text of each of its arguments. */
  readonly callee: string;
  readonly args: readonly string[];
  /**
   * The body tests the call's result and handles a failure itself (`if (send(a, b, c, 0) < 0) {
   * error(); return -1; }`): each call is a checked write, and no fix can merge those checks.
   */
  readonly checked?: true;
  /**
   * A body of several writes (see macroBodies.ts); `callee` and `args` are then its first write's.
   */
  readonly body?: MacroBody;
}

/**
 * `if (CALL OP VALUE) FAILURE` as a macro body: the call's text, or undefined. The condition's
 * parentheses are matched, and the failure branch must follow it.
 */
function checkedCall(body: string): string | undefined {
  const found = leadingIf(body);
  if (!found || found.rest.trim() === '') return undefined;
  const test = /^\s*([A-Za-z_]\w*\s*\([\s\S]*\))\s*(?:<|<=|==|!=)\s*([^;{}]+?)\s*$/.exec(found.test);
  // The value compared with: a name or number, possibly parenthesised and cast as hygienic macros
  // write their parameters (`!= (ssize_t)(n)`, `!= sizeof(hdr)`), calling nothing.
  const value = test?.[2] ?? '';
  if (!/^[\w\s()*+-]+$/.test(value) || /\b(?!sizeof\b)[A-Za-z_]\w*\s*\(/.test(value)) return undefined;
  return test?.[1];
}

/** C tokens as far as macros need them: names, literals, single characters. */
export const TOKEN = /[A-Za-z_]\w*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[\s\S]/g;
const SIMPLE = /^([A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*|"(?:[^"\\]|\\.)*"|\d+)$/;

/** Splits a macro body's argument list at its top-level commas. */
export function splitArgs(text: string): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const token of text.match(TOKEN) ?? []) {
    if (token === '(' || token === '[' || token === '{') depth++;
    if (token === ')' || token === ']' || token === '}') depth--;
    if (depth < 0) return undefined;
    if (token === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
    } else current += token;
  }
  args.push(current.trim());
  return depth === 0 ? args : undefined;
}

/** The macro a `#define` is, if its body is one call to a write function the analyzer knows. */
function macroOf(def: Node, functions: ReadonlyMap<string, CWriteFunction>): CMacro | undefined {
  const name = def.childForFieldName('name')?.text;
  const params = def.childForFieldName('parameters')?.namedChildren.map((p) => p?.text ?? '') ?? [];
  const value = def.childForFieldName('value')?.text.replace(/\\\r?\n/g, ' ') ?? '';
  return macroFrom(name, params, value, functions);
}

/** `#define name(params) value` as one definition's text (a header's, see headerIncludes.ts). */
const DEFINITION = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)([\s\S]*)$/;

/**
 * The one-write macros among `defines` (function-like definitions as written, a header's), each name
 * defined once: a header's `#define sock_send(s, b, n) send((s), (b), (n), 0)` read as the file's own
 * would be. A name defined twice (`#ifdef` alternatives) is left out, as {@link fileMacros} does.
 */
export function definedMacros(
  defines: readonly string[],
  functions: ReadonlyMap<string, CWriteFunction>,
): Map<string, CMacro> {
  const parsed = defines.map((d) => DEFINITION.exec(d.replace(/\\\r?\n/g, ' ')));
  const count = new Map<string, number>();
  for (const m of parsed) if (m) count.set(m[1]!, (count.get(m[1]!) ?? 0) + 1);
  const found = new Map<string, CMacro>();
  for (const m of parsed) {
    if (!m || count.get(m[1]!) !== 1) continue;
    const params = m[2]!.trim() === '' ? [] : m[2]!.split(',').map((p) => p.trim());
    const macro = macroFrom(m[1], params, m[3]!, functions);
    if (macro) found.set(macro.name, macro);
  }
  return found;
}

/** {@link macroOf} of a definition's parts. */
function macroFrom(
  name: string | undefined,
  params: readonly string[],
  value: string,
  functions: ReadonlyMap<string, CWriteFunction>,
): CMacro | undefined {
  // A statement macro wraps its call in `do { ... } while (0)` (or braces) to stand as one statement.
  const statement = /^\s*(?:do\s*)?\{([\s\S]*)\}\s*(?:while\s*\(\s*0\s*\))?\s*$/.exec(value);
  const inner = statement ? statement[1]! : value;
  const checked = checkedCall(inner);
  const body = /^\s*([A-Za-z_]\w*)\s*\(([\s\S]*)\)\s*;?\s*$/.exec(checked ?? inner);
  if (!name || !body || params.some((p) => !/^[A-Za-z_]\w*$/.test(p))) return undefined;
  const fn = functions.get(body[1]!);
  const args = splitArgs(body[2]!);
  if (!fn || fn.gathered || !args) return undefined;
  return { name, params, callee: fn.name, args, ...(checked !== undefined && { checked: true as const }) };
}

/**
 * The function-like macros of a file that expand to one write, or to several (top level and
 * conditional blocks). A body of several may use the file's other macros; those it uses are read first
 * as C requires them defined by the use, so a second look reads a body that names one defined later.
 */
export function fileMacros(root: Node, functions: ReadonlyMap<string, CWriteFunction>): Map<string, CMacro> {
  const found = new Map<string, CMacro>();
  const rest: Node[] = [];
  // A name defined twice (`#ifdef VERBOSE` and its `#else`) expands to one body or the other: several
  // writes are read only where there is one definition to read.
  const defined = new Map<string, number>();
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'preproc_function_def' || child.type === 'preproc_def') {
        const name = child.childForFieldName('name')?.text ?? '';
        defined.set(name, (defined.get(name) ?? 0) + 1);
      }
      if (child.type === 'preproc_function_def') {
        const macro = macroOf(child, functions);
        if (macro) found.set(macro.name, macro);
        else rest.push(child);
      } else if (child.type.startsWith('preproc_if') || child.type === 'preproc_else') stack.push(child);
    }
  }
  for (let pass = 0; pass < 2 && rest.length > 0; pass++)
    for (let i = rest.length - 1; i >= 0; i--) {
      const name = rest[i]!.childForFieldName('name')?.text ?? '';
      const macro = defined.get(name) === 1 ? severalOf(rest[i]!, functions, found) : undefined;
      if (!macro) continue;
      found.set(macro.name, macro);
      rest.splice(i, 1);
    }
  return found;
}

/** The macro a `#define` is, if its body is several writes (see macroBody). */
function severalOf(
  def: Node,
  functions: ReadonlyMap<string, CWriteFunction>,
  macros: ReadonlyMap<string, CMacro>,
): CMacro | undefined {
  const name = def.childForFieldName('name')?.text;
  const params = def.childForFieldName('parameters')?.namedChildren.map((p) => p?.text ?? '') ?? [];
  const written = def.childForFieldName('value');
  const value = written?.text.replace(/\\\r?\n/g, ' ') ?? '';
  if (!name || macros.has(name) || params.some((p) => !/^[A-Za-z_]\w*$/.test(p))) return undefined;
  const read = macroBody(value, def.startPosition.row + 1, functions, macros);
  const calls = read && written && bodyCalls(read, written.text, written.startIndex);
  const body = read && calls ? { ...read, calls } : read;
  const first = body?.writes[0];
  return body && first ? { name, params, callee: first.callee, args: first.args, body } : undefined;
}

/** `text` with every parameter replaced by its argument (in parentheses unless it is simple). */
export function substitute(text: string, params: readonly string[], args: readonly string[]): string {
  return (text.match(TOKEN) ?? [])
    .map((token) => {
      const i = params.indexOf(token);
      if (i < 0) return token;
      const arg = args[i]!.trim(); // the caller passes one argument per parameter
      return SIMPLE.test(arg) ? arg : `(${arg})`;
    })
    .join('');
}

/** Identifiers a piece of expression text reads (members after `.`/`->` and called names left out). */
function textNames(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(\.|->)?\s*\b([A-Za-z_]\w*)\b(\s*\()?/g)) {
    if (!m[1] && !m[3] && m[2] !== 'sizeof') found.add(m[2]!);
  }
  return [...found];
}

/** `text` without the parentheses that enclose all of it (`((fd))` is `fd`, `(a)+(b)` stays). */
export function unparenthesised(text: string): string {
  let at = text.trim();
  while (at.startsWith('(') && at.endsWith(')') && splitArgs(at.slice(1, -1))?.length === 1) {
    const inner = at.slice(1, -1);
    // `(a)+(b)` starts and ends with parentheses that are not one pair: the inside must be balanced.
    let depth = 0;
    let balanced = true;
    for (const ch of inner) {
      depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      if (depth < 0) balanced = false;
    }
    if (!balanced || depth !== 0) break;
    at = inner.trim();
  }
  return at;
}

/**
 * The write a call to `macro` with `args` expands to (undefined when it cannot be read safely). A body
 * of several writes is one step of that many syscalls, all to one descriptor, without a fix at the use
 * (see several).
 */
export function expandMacro(macro: CMacro, args: readonly Node[], ctx: CContext): CallWrite | undefined {
  return macro.body ? several(macro, macro.body, args, ctx) : expandOne(macro, args, ctx);
}

/** A use of a macro whose body is several writes: each expanded as a one-write macro's would be. */
function several(
  macro: CMacro,
  body: MacroBody,
  args: readonly Node[],
  ctx: CContext,
): CallWrite | undefined {
  const each: CallWrite[] = [];
  for (const w of body.writes) {
    const write = expandOne(
      { name: macro.name, params: macro.params, callee: w.callee, args: w.args },
      args,
      ctx,
    );
    if (!write) return undefined;
    each.push(write);
  }
  const first = each[0];
  if (!first || each.some((w) => w.target !== first.target || w.family !== first.family)) return undefined;
  const pieces = each.every((w) => w.pieces) ? each.flatMap((w) => w.pieces ?? []) : undefined;
  const guardNames =
    body.guard === undefined
      ? []
      : textNames(
          substitute(
            body.guard,
            macro.params,
            args.map((a) => a.text),
          ),
        );
  return {
    ...first,
    pieces,
    reads: [...new Set([...each.flatMap((w) => w.reads), ...guardNames])],
    checkLen: '',
    fixable: false,
    syscalls: each.length,
    // A run of its own, as writes chained in one condition are; it may still join writes around it.
    chain: true,
    // Under the body's own `if`, the writes run only sometimes: nothing around joins them.
    ...(body.guard !== undefined && { alone: true }),
    noFix: bodyFix(macro.name, body, each.length, ctx.text),
    // The finding stays at the use; its related locations are the body's writes, which the fix changes.
    ...(body.calls && { calls: body.calls }),
    ...(each.some((w) => w.assumed) && { assumed: true }),
  };
}

/** Why a use of a body of several writes has no fix there, and how many uses one fix serves. */
function bodyFix(name: string, body: MacroBody, writes: number, text: string): string {
  // The uses in the file: every call of the name but the definition's own head.
  const uses = (text.match(new RegExp(`\\b${name}\\s*\\(`, 'g'))?.length ?? 1) - 1;
  const serves = uses > 1 ? `one change there serves its ${uses} uses in this file` : 'the change goes there';
  return `the ${writes} writes are in the body of the macro ${name}() (line ${body.line}): ${serves}`;
}

/** The write a call to a macro of one write expands to. */
function expandOne(macro: CMacro, args: readonly Node[], ctx: CContext): CallWrite | undefined {
  const fn = ctx.functions.get(macro.callee);
  if (!fn || args.length !== macro.params.length) return undefined;
  // The body may use an argument twice (`x`, `strlen(x)`): arguments must have no effects.
  if (args.some((a) => a.descendantsOfType(['update_expression', 'assignment_expression']).length > 0))
    return undefined;
  if (macro.args.length !== (fn.arity ?? macro.args.length)) return undefined;
  const texts = args.map((a) => a.text);
  const arg = (i: number | undefined) =>
    i === undefined ? undefined : substitute(macro.args[i] ?? '', macro.params, texts);
  // Calls in the body other than known pure ones could do anything.
  const bodyCalls = [...macro.args.join(',').matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!);
  if (bodyCalls.some((c) => c !== 'sizeof' && !ctx.pure.has(c))) return undefined;
  if (fn.fixed && arg(fn.fixed.index)?.replace(/\s+/g, '') !== fn.fixed.text) return undefined;
  if (!unaddressedCall(fn, arg)) return undefined;
  // A careful macro parenthesises its parameters (`write((fd), ...)`): `(1)` is stdout all the same.
  const fdText = unparenthesised(arg(fn.fd) ?? '');
  const target = canonicalTarget(fdText);
  const kind = descriptorKind(fn, target, ctx);
  if (kind === 'message') return undefined;
  const buf = unparenthesised(arg(fn.buf) ?? '');
  const len = arg(fn.len) ?? `strlen(${buf})`;
  return {
    target,
    fdText,
    targetNames: textNames(fdText),
    callee: macro.name,
    family: fn.gatheredName ?? '',
    pieces: [{ buf, len }],
    reads: textNames(`${buf} ${len}`),
    checkLen: len,
    fixable: fn.gatheredName !== undefined && !macro.checked,
    ...(macro.checked && {
      noFix: `${macro.name}() tests each write and handles its failure itself: gathering them means one test written by hand`,
    }),
    wrapper: { name: macro.name },
    ...(kind === 'unknown' && { assumed: true }),
  };
}

/** Where a call to a one-write macro passes each slot of the write it expands to (see {@link macroSlots}). */
export interface MacroSlots {
  readonly fd: number;
  readonly buf: number;
  /** Absent: the write takes a C string. */
  readonly len?: number;
  /** The macro parameter the write takes its `send()` flags from, when the caller gives them. */
  readonly flags?: number;
}

/**
 * The macro's parameters that the write it expands to takes as its descriptor, buffer and length
 * (`#define sock_send(s, b, n) send((s), (b), (n), 0)`: 0, 1 and 2), so a call of the macro in a
 * helper's body is that write with the call's arguments in place. Undefined for a body of several
 * writes or a checked one, for slots the body computes (`send(s, b, strlen(b), 0)` has no length
 * parameter), and for flags that ask for out-of-band data.
 */
export function macroSlots(macro: CMacro, fn: CWriteFunction): MacroSlots | undefined {
  if (macro.body || macro.checked || fn.gathered) return undefined;
  const param = (k: number) => {
    const arg = macro.args[k];
    return arg === undefined ? -1 : macro.params.indexOf(unparenthesised(arg));
  };
  const fd = param(fn.fd);
  const buf = param(fn.buf);
  const len = fn.len === undefined ? undefined : param(fn.len);
  if (fd < 0 || buf < 0 || (len !== undefined && len < 0)) return undefined;
  if (!unaddressedCall(fn, (k) => macro.args[k])) return undefined;
  let flags: number | undefined;
  if (fn.fixed) {
    const text = macro.args[fn.fixed.index]?.replace(/\s+/g, '');
    if (text === undefined) return undefined;
    const given = param(fn.fixed.index);
    if (fn.fixed.text !== '0') {
      if (text !== fn.fixed.text) return undefined;
    } else if (given >= 0) flags = given;
    else if (!constantFlags(text)) return undefined;
  }
  return { fd, buf, ...(len !== undefined && { len }), ...(flags !== undefined && { flags }) };
}
