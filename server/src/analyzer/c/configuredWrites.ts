// A helper that writes only in some configurations: its writes sit in arms of `#if`/`#ifdef` inside its
// body that another arm, or a missing `#else`, compiles with no output at all (`#ifdef DEBUG write(2,
// s, n); #endif`), or its definition sits in an arm of a group whose other arm defines the same name
// with no output (`#ifdef DEBUG void trace(...) { write(...); } #else void trace(...) {} #endif`, or
// `#define trace(s)` there). Read as a write, each call would join the writes around it into a run that
// the other configuration compiles with one write less: such a helper is no write helper, and its call
// is a call that may do output. An arm that outputs by other means (`WriteFile()` on another platform,
// a TLS library's write, `syslog()`) is left to the helper's reading. A group holding the whole
// definition with no other arm is no question: where it is not compiled, neither is the function, nor
// any call of it outside a like group.
import type { Node } from 'web-tree-sitter';
import { functionName } from './syntax';

/** The node types that open an arm of a conditional group (the group's head is its first arm). */
const ARMS = new Set(['preproc_if', 'preproc_ifdef', 'preproc_elif', 'preproc_elifdef', 'preproc_else']);
const HEADS = new Set(['preproc_if', 'preproc_ifdef']);

/** The arms of the group `head` opens, in order (the head, then each `#elif`, then the `#else`). */
function armsOf(head: Node): Node[] {
  const arms: Node[] = [];
  for (let at: Node | null = head; at && ARMS.has(at.type); at = at.childForFieldName('alternative'))
    arms.push(at);
  return arms;
}

/** Whether `node` lies in `arm`'s own part (not in the arms after it, which tree-sitter nests inside). */
function inOwnPart(node: Node, arm: Node): boolean {
  const next = arm.childForFieldName('alternative');
  const within = (n: Node, outer: Node) => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;
  return within(node, arm) && !(next && within(node, next));
}

/** The text of `arm`'s own part (up to the arm after it), as its tree spells it. */
function ownText(arm: Node): string {
  const next = arm.childForFieldName('alternative');
  const text = arm.text;
  return next ? text.slice(0, next.startIndex - arm.startIndex) : text;
}

/**
 * The nodes of `types` in `arm`'s own part, in document order: those below each of its children but
 * the arm after it. Searching the whole arm and dropping what lies in the arms after it walked each
 * later arm again for every arm before it (a ladder of `#elif` arms each defining the same function).
 */
function ownDescendants(arm: Node, types: string[]): Node[] {
  const next = arm.childForFieldName('alternative');
  const found: Node[] = [];
  for (const child of arm.children) {
    if (!child || (next && child.id === next.id)) continue;
    for (const n of child.descendantsOfType(types)) if (n) found.push(n);
  }
  return found;
}

/** The calls in `arm`'s own part. */
function ownCalls(arm: Node): Node[] {
  return ownDescendants(arm, ['call_expression']);
}

/** A group spelled to be always or never compiled (`#if 1`, `#if 0`): no configuration question. */
function fixed(head: Node): boolean {
  return head.type === 'preproc_if' && /^[01]$/.test(head.childForFieldName('condition')?.text.trim() ?? '');
}

/**
 * True when some configuration compiles `fn` (named `name`) with none of the writes its body makes
 * (`writes`: its calls of a write function or a known helper), or compiles, under the same name, a
 * definition that does no output (see the file comment). `output`: whether a call may do output (a
 * write, or a call of a function not known to be quiet: `WriteFile()` on another platform, a TLS
 * library's write, a log line, are the helper's output by other means there). Reads the syntax only.
 */
export function writesOnlyInSomeConfigurations(
  fn: Node,
  name: string,
  writes: (call: Node) => boolean,
  output: (call: Node) => boolean,
): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  const own = body.descendantsOfType('call_expression').filter(writes);
  if (own.length === 0) return false;
  // Inside the body: a write is compiled only in some configurations when a group around it has an
  // arm with no output, or no `#else` (an arm with nothing); when every write is, some configuration
  // may compile none of them.
  const silentArm = new Map<number, boolean>();
  const hasSilentArm = (head: Node) => {
    let known = silentArm.get(head.id);
    if (known === undefined) {
      const arms = armsOf(head);
      known =
        arms[arms.length - 1]!.type !== 'preproc_else' || arms.some((arm) => !ownCalls(arm).some(output));
      silentArm.set(head.id, known);
    }
    return known;
  };
  const conditional = (call: Node) => {
    for (let at = call.parent; at && at.id !== body.id; at = at.parent)
      if (HEADS.has(at.type) && !fixed(at) && hasSilentArm(at)) return true;
    return false;
  };
  if (own.every(conditional)) return true;
  // Around the definition: another arm of its group defining the name with no output.
  for (let at = fn.parent; at; at = at.parent) {
    if (!ARMS.has(at.type)) continue;
    let head = at;
    while (!HEADS.has(head.type) && head.parent && ARMS.has(head.parent.type)) head = head.parent;
    if (fixed(head)) continue;
    const arms = armsOf(head);
    const mine = arms.find((arm) => inOwnPart(fn, arm));
    if (arms.some((arm) => arm !== mine && definesQuietly(arm, name, output))) return true;
    at = head;
  }
  return false;
}

/**
 * Whether `arm`'s own part defines `name` as a function with no call that may do output, or as a
 * macro that calls nothing (`#define trace(s)`, `#define trace(s) ((void)0)`).
 */
function definesQuietly(arm: Node, name: string, output: (call: Node) => boolean): boolean {
  // A definition of `name` spells it in the arm's own text: an arm that does not is not walked for
  // definitions (a group around a whole file's functions was walked again for each of them).
  if (!ownText(arm).includes(name)) return false;
  for (const def of ownDescendants(arm, ['function_definition', 'preproc_def', 'preproc_function_def'])) {
    if (def.type !== 'function_definition') {
      if (def.childForFieldName('name')?.text !== name) continue;
      if (!/\w\s*\(/.test(def.childForFieldName('value')?.text ?? '')) return true;
      continue;
    }
    if (functionName(def) !== name) continue;
    const calls = def.childForFieldName('body')?.descendantsOfType('call_expression') ?? [];
    if (!calls.some(output)) return true;
  }
  return false;
}
