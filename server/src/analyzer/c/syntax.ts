// Small questions about tree-sitter C nodes, shared by the C front end.
import type { Node, TreeCursor } from 'web-tree-sitter';
import { C_DESCRIPTOR_ALIASES } from '../catalogue';
import { oldStyleParameterNames } from './oldStyleParameters';

/** The named children of `node`, comments left out. */
export function namedKids(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment');
}

/** The arguments of a call expression (comments left out). */
export function callArgs(call: Node): Node[] {
  const list = call.childForFieldName('arguments');
  return list ? namedKids(list) : [];
}

/** The called name when the callee is a plain identifier. */
export function calleeName(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  return fn?.type === 'identifier' ? fn.text : undefined;
}

/** The node inside parentheses and `(void)` casts. */
export function unwrap(node: Node): Node {
  let at = node;
  for (;;) {
    // Read once: each read of `type` crosses the parser's wasm boundary (63,000 reads on busybox).
    const type = at.type;
    if (type === 'parenthesized_expression' && at.namedChildCount === 1) at = at.namedChild(0) ?? at;
    else if (type === 'cast_expression' && at.childForFieldName('type')?.text === 'void') {
      at = at.childForFieldName('value') ?? at;
    } else return at;
  }
}

/** `node` without parentheses and casts (`(const char *)buf` is buf; a cast is a conversion too). */
export function withoutCasts(node: Node): Node {
  let at = node;
  for (;;) {
    if (at.type === 'parenthesized_expression' && at.namedChildCount === 1) at = at.namedChild(0) ?? at;
    else if (at.type === 'cast_expression') at = at.childForFieldName('value') ?? at;
    else return at;
  }
}

/** The variable an lvalue-ish expression is rooted in (`a` for `a.b[i]->c`, `*a`, `&a`). */
export function rootName(node: Node): string | undefined {
  let at: Node | null = node;
  while (at) {
    switch (at.type) {
      case 'identifier':
        return at.text;
      case 'field_expression':
      case 'subscript_expression':
      case 'pointer_expression':
        at = at.childForFieldName('argument');
        break;
      case 'parenthesized_expression':
        at = at.namedChild(0);
        break;
      case 'cast_expression':
        at = at.childForFieldName('value');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The identifier a declarator declares (through pointers, arrays, initialisers, parentheses). */
export function declaredName(node: Node | null): string | undefined {
  let at = node;
  while (at && at.type !== 'identifier') {
    if (at.type === 'field_identifier' || at.type === 'type_identifier') return at.text;
    // `(*f)` in a function pointer's declarator holds the name without a field for it.
    at = at.type === 'parenthesized_declarator' ? at.namedChild(0) : at.childForFieldName('declarator');
  }
  return at?.text;
}

/** Parameter names of a function definition, in order (`undefined` for unnamed ones). */
export function parameterNames(fn: Node): (string | undefined)[] {
  const declarator = functionDeclarator(fn);
  const list = declarator?.childForFieldName('parameters');
  if (!list) return [];
  const oldStyle = oldStyleParameterNames(namedKids(list));
  if (oldStyle) return oldStyle;
  return namedKids(list)
    .filter((p) => p.type === 'parameter_declaration')
    .map((p) => declaredName(p.childForFieldName('declarator')));
}

/** The function_declarator of a function definition (under any pointer declarators). */
export function functionDeclarator(fn: Node): Node | undefined {
  let at = fn.childForFieldName('declarator');
  while (at && at.type !== 'function_declarator') at = at.childForFieldName('declarator');
  return at ?? undefined;
}

/**
 * The declarations of function `fn`'s parameters and of every local in its body, nested blocks
 * included, in source order. Does not modify `fn`.
 */
export function declarationsOf(fn: Node): Node[] {
  const list = functionDeclarator(fn)?.childForFieldName('parameters');
  return [
    ...(list ? namedKids(list).filter((p) => p.type === 'parameter_declaration') : []),
    ...fn.descendantsOfType('declaration').filter((d): d is Node => d !== null),
  ];
}

/** The name of a function definition. */
export function functionName(fn: Node): string | undefined {
  return declaredName(functionDeclarator(fn)?.childForFieldName('declarator') ?? null);
}

/** The descriptor expression in canonical form: whitespace removed, standard names as numbers. */
export function canonicalTarget(text: string): string {
  const bare = unparenthesised(text.replace(/\s+/g, ''));
  return C_DESCRIPTOR_ALIASES[bare] ?? bare;
}

/**
 * `text` without the parentheses around all of it: a macro's expansion spells its parameter `(fd)`,
 * which is the same descriptor as `fd` (a cast's `(int)fd` keeps its parentheses).
 */
function unparenthesised(text: string): string {
  let t = text;
  while (t.startsWith('(') && t.endsWith(')')) {
    let depth = 0;
    let closes = -1;
    for (let i = 0; i < t.length && closes < 0; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')' && --depth === 0) closes = i;
    }
    if (closes !== t.length - 1) break;
    t = t.slice(1, -1);
  }
  return t;
}

/** Literals: nothing in them is a name. */
const LITERALS: ReadonlySet<string> = new Set(['string_literal', 'char_literal', 'number_literal']);

/**
 * Every identifier read in `node` (call targets are not reads of a variable). Walks with a cursor:
 * reading `namedChildren` and `parent` made a node object for every node of the statement across the
 * parser's wasm boundary, a cost that showed in whole-tree profiles; the cursor makes one only for each
 * identifier.
 */
export function identifiers(node: Node, into: Set<string> = new Set()): Set<string> {
  if (node.type === 'identifier') {
    const parent = node.parent;
    if (!(parent?.type === 'call_expression' && parent.childForFieldName('function')?.equals(node))) {
      into.add(node.text);
    }
    return into;
  }
  if (LITERALS.has(node.type)) return into;
  // One cursor for the thread, reset to each node: a new cursor per call (a wasm allocation, a
  // finalizer registration, and its deletion) was a third of this function's time on cgit.
  if (cursor) cursor.reset(node);
  else cursor = node.walk();
  // The types of the nodes the cursor stands under, node's own first.
  const parents: string[] = [node.type];
  if (!cursor.gotoFirstChild()) return into;
  for (;;) {
    const type = cursor.nodeType;
    if (type === 'identifier') {
      const callee =
        cursor.currentFieldName === 'function' && parents[parents.length - 1] === 'call_expression';
      if (!callee) into.add(cursor.currentNode.text);
    } else if (cursor.nodeIsNamed && !LITERALS.has(type) && cursor.gotoFirstChild()) {
      parents.push(type);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (parents.length === 1 || !cursor.gotoParent()) return into;
      parents.pop();
    }
  }
}

/**
 * The cursor {@link identifiers} walks with, kept between calls (never deleted: one per thread). A
 * reset points it at a node of any tree, so a tree deleted meanwhile leaves nothing behind in it.
 */
let cursor: TreeCursor | undefined;

/** Every call in `node` (the node itself included). */
export function calls(node: Node): Node[] {
  return node.type === 'call_expression'
    ? [
        node,
        ...node.descendantsOfType('call_expression').filter((c): c is Node => c !== null && !c.equals(node)),
      ]
    : node.descendantsOfType('call_expression').filter((c): c is Node => c !== null);
}

/** Node types that can hold function definitions (file level, conditional compilation, errors). */
export const HOLDS_FUNCTIONS: ReadonlySet<string> = new Set([
  'translation_unit',
  'preproc_if',
  'preproc_ifdef',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
  'linkage_specification',
  'declaration_list',
  'ERROR',
]);

/** The number a preprocessor condition is (`0`, `(1)`), or undefined for anything else. */
export function constantCondition(cond: Node | null): number | undefined {
  let at = cond;
  while (at?.type === 'parenthesized_expression' && at.namedChildCount === 1) at = at.namedChild(0);
  if (at?.type !== 'number_literal' || !/^\d+$/.test(at.text)) return undefined;
  return Number(at.text);
}

/**
 * The function definitions of a file, without entering their bodies: much cheaper than searching the
 * whole tree, which is what keeps an edit's reanalysis fast.
 */
export function functionDefinitions(root: Node): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    // Code under `#if 0` (or after `#if 1`, in its `#else`) is in no configuration: not read.
    const value =
      node.type === 'preproc_if' || node.type === 'preproc_elif'
        ? constantCondition(node.childForFieldName('condition'))
        : undefined;
    const alternative = value === undefined ? null : node.childForFieldName('alternative');
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (alternative?.equals(child)) {
        if (value === 0) stack.push(child);
      } else if (value === 0) continue;
      else if (child.type === 'function_definition') found.push(child);
      else if (HOLDS_FUNCTIONS.has(child.type)) stack.push(child);
    }
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

/**
 * `nerr`, `l->nerror`, `st.failed`: a variable or members of one, canonical (whitespace removed);
 * undefined for anything else (`*p`, `a[i]`, a call's result).
 */
export function lvaluePath(node: Node): string | undefined {
  let at = unwrap(node);
  const text = at.text.replace(/\s+/g, '');
  while (at.type === 'field_expression') {
    const arg = at.childForFieldName('argument');
    if (!arg) return undefined;
    at = unwrap(arg);
  }
  return at.type === 'identifier' ? text : undefined;
}

/** The name and the value of `name = value;` or `T name = value;` (one declarator), if `stmt` is one. */
export function plainAssignment(stmt: Node): { name: string; value: Node } | undefined {
  let left: Node | null = null;
  let right: Node | null = null;
  if (stmt.type === 'expression_statement') {
    const expr = stmt.namedChild(0);
    const assign = expr ? unwrap(expr) : undefined;
    if (assign?.type !== 'assignment_expression' || assign.childForFieldName('operator')?.text !== '=')
      return undefined;
    left = assign.childForFieldName('left');
    right = assign.childForFieldName('right');
  } else if (stmt.type === 'declaration') {
    const declarators = stmt.childrenForFieldName('declarator');
    const d = declarators[0];
    if (declarators.length !== 1 || d?.type !== 'init_declarator') return undefined;
    left = d.childForFieldName('declarator');
    right = d.childForFieldName('value');
  }
  return left?.type === 'identifier' && right ? { name: left.text, value: right } : undefined;
}

/**
 * The operands of a comma expression before its last one, and the last one (`a, b, c` gives `[a, b]`
 * and `c`), or undefined when `node` is no comma expression.
 */
export function commaParts(node: Node): { prelude: Node[]; value: Node } | undefined {
  let at = unwrap(node);
  if (at.type !== 'comma_expression') return undefined;
  const prelude: Node[] = [];
  while (at.type === 'comma_expression') {
    const left = at.childForFieldName('left');
    const right = at.childForFieldName('right');
    if (!left || !right) return undefined;
    prelude.push(left);
    at = unwrap(right);
  }
  return { prelude, value: at };
}

/** Where a call's result is kept: the variable's name and the assignment or declarator that keeps it. */
export interface StoredResult {
  readonly name: string;
  readonly holder: Node;
}

/**
 * Where `call`'s result is kept, if in a plain variable: `n = write(...)`, `ssize_t n = write(...)`,
 * `rc = (int)write(...)`, `total += write(...)`. `bare` refuses a result that is cast or parenthesised
 * first; `plain` refuses compound assignments, whose variable holds more than this call's result.
 */
export function storedResult(
  call: Node,
  how: { readonly bare?: boolean; readonly plain?: boolean } = {},
): StoredResult | undefined {
  let holder = call.parent;
  if (!how.bare)
    while (holder?.type === 'cast_expression' || holder?.type === 'parenthesized_expression')
      holder = holder.parent;
  if (!holder) return undefined;
  const target =
    holder.type === 'assignment_expression' &&
    (!how.plain || holder.childForFieldName('operator')?.text === '=')
      ? holder.childForFieldName('left')
      : holder.type === 'init_declarator'
        ? holder.childForFieldName('declarator')
        : null;
  return target?.type === 'identifier' ? { name: target.text, holder } : undefined;
}

/** The name a call's result is stored in (`n = write(...)`, `ssize_t n = write(...)`), if any. */
export function resultName(call: Node): string | undefined {
  return storedResult(call)?.name;
}
