// Function-like macros that expand to one write (`#define WRITE(x) write_or_die(fd, x, strlen(x))`),
// defined in the file that uses them. A call to such a macro is read as the write it expands to, with
// the arguments put in place of the parameters: the fix then gathers the expanded buffers.
import type { Node } from 'web-tree-sitter';
import type { CWriteFunction } from '../catalogue';
import { descriptorKind, type CallWrite, type CContext } from './writes';
import { canonicalTarget } from './syntax';

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
}

/**
 * `if (CALL OP VALUE) FAILURE` as a macro body: the call's text, or undefined. The condition's
 * parentheses are matched, and the failure branch must follow it.
 */
function checkedCall(body: string): string | undefined {
  const head = /^\s*if\s*\(/.exec(body);
  if (!head) return undefined;
  let depth = 1;
  let i = head[0].length;
  for (; i < body.length && depth > 0; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')') depth--;
  }
  if (depth !== 0 || body.slice(i).trim() === '') return undefined;
  const test = /^\s*([A-Za-z_]\w*\s*\([\s\S]*\))\s*(?:<|<=|==|!=)\s*-?\w+\s*$/.exec(
    body.slice(head[0].length, i - 1),
  );
  return test?.[1];
}

const TOKEN = /[A-Za-z_]\w*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[\s\S]/g;
const SIMPLE = /^([A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*|"(?:[^"\\]|\\.)*"|\d+)$/;

/** Splits a macro body's argument list at its top-level commas. */
function splitArgs(text: string): string[] | undefined {
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

/** The function-like macros of a file that expand to one write (top level and conditional blocks). */
export function fileMacros(root: Node, functions: ReadonlyMap<string, CWriteFunction>): Map<string, CMacro> {
  const found = new Map<string, CMacro>();
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'preproc_function_def') {
        const macro = macroOf(child, functions);
        if (macro) found.set(macro.name, macro);
      } else if (child.type.startsWith('preproc_if') || child.type === 'preproc_else') stack.push(child);
    }
  }
  return found;
}

/** `text` with every parameter replaced by its argument (in parentheses unless it is simple). */
function substitute(text: string, params: readonly string[], args: readonly string[]): string {
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
function unparenthesised(text: string): string {
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

/** The write a call to `macro` with `args` expands to (undefined when it cannot be read safely). */
export function expandMacro(macro: CMacro, args: readonly Node[], ctx: CContext): CallWrite | undefined {
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
