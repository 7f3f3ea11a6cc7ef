// A connection built for one of several TLS libraries picks its library's arm with `#if`/`#elif`, each
// arm an `if` whose `else` runs on into the plain write after `#endif`:
//
//   #if defined(USE_MBEDTLS)
//     if (ssl) n = mbed_write(ssl, buf, len); else
//   #elif !defined(NO_SSL)
//     if (ssl) n = SSL_write(ssl, buf, len); else
//   #endif
//     n = send(sock, buf, len, 0);
//
// The grammar reads each group alone, so each such `else` stands by itself (an ERROR node). With one
// group it follows its `if` (sessionAlternatives.ts's splitElse); with `#elif` arms the grammar nests
// each arm in the one before, and the `else` of the last arm lands after the arm that holds it, as the
// sibling of the outermost `#elif`. These helpers find that `else` wherever the nesting put it.
import type { Node } from 'web-tree-sitter';

const ARMS = new Set(['preproc_elif', 'preproc_else']);
const GROUPS = new Set(['preproc_if', 'preproc_ifdef']);

/** True when `node` is the `else` the grammar reads alone, as an ERROR node. */
export function strayElse(node: Node | null | undefined): boolean {
  return node?.type === 'ERROR' && node.text.trim() === 'else';
}

/** The last named child of `node` that is not a comment. */
function lastStatement(node: Node): Node | undefined {
  for (let k = node.namedChildCount - 1; k >= 0; k--) {
    const child = node.namedChild(k);
    if (child && child.type !== 'comment') return child;
  }
  return undefined;
}

/**
 * True when `node` (an `#elif` or `#else` arm) ends, through the arms nested in it, in an `if` without an
 * `else` of its own: the `if` whose `else` the grammar put after `node`.
 */
export function endsInOpenIf(node: Node): boolean {
  let at: Node | undefined = node;
  while (at && ARMS.has(at.type)) at = lastStatement(at);
  return at?.type === 'if_statement' && !at.childForFieldName('alternative');
}

/**
 * True when the `if` statement `stmt` lost its `else` to the end of its `#if` arm: the `else` follows it
 * in the same arm, or `stmt` ends the last of nested `#elif` arms and the `else` follows the outermost of
 * them.
 */
export function danglingElse(stmt: Node): boolean {
  let at: Node = stmt;
  for (;;) {
    const next = at.nextSibling;
    if (strayElse(next)) return true;
    const parent = at.parent;
    if (next || !parent || !ARMS.has(parent.type)) return false;
    at = parent;
  }
}

/** The `#if`/`#ifdef` group whose arms (`#elif`, `#else` included) hold `node` directly, if any. */
export function armGroup(node: Node): Node | undefined {
  let at = node.parent;
  while (at && ARMS.has(at.type)) at = at.parent;
  return at && GROUPS.has(at.type) ? at : undefined;
}

/** True when `parent`, the node an ERROR `else` lies in, is an `#if` group or one of its arms. */
export function inDirectiveArm(parent: Node | null): boolean {
  return !!parent && (GROUPS.has(parent.type) || ARMS.has(parent.type));
}
