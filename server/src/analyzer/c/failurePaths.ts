// A write helper's failure path: what it may do with its descriptor and still be one write per call.
// "Disconnect on write error" is the usual server idiom: `n = write(c->fd, buf, len); if (n != len) {
// close(c->fd); conn_free(c); return 0; }`. Closing (or shutting down) the descriptor there and leaving
// writes nothing more; each call still makes its one write. A gathered call keeps that failure path,
// and the writes after it no longer go to a descriptor closed (and maybe reused) by the first failure.
import { storedResult, withoutCasts } from './syntax';
import type { Node } from 'web-tree-sitter';
import { conjuncts } from './retries';

/** Library calls that end a descriptor's use without writing to it. */
const RELEASES = new Set(['close', 'shutdown']);

/**
 * A project's own closing helper (`sock_close`, `tcpClose`): on the failure path, where the write's run
 * has ended and the helper leaves, it may clear the descriptor its caller holds as well.
 */
const CLOSING_NAME = /(?:^|_|[a-z](?=[A-Z]))close$/i;

/** The terms of a test joined by `||` (any of them makes the consequence run). */
function disjuncts(test: Node): Node[] {
  const b = withoutCasts(test);
  if (b.type === 'binary_expression' && b.childForFieldName('operator')?.text === '||') {
    const left = b.childForFieldName('left');
    const right = b.childForFieldName('right');
    return left && right ? [...disjuncts(left), ...disjuncts(right)] : [b];
  }
  return [b];
}

/**
 * True when `term` holds only when the result `name` says the write failed or fell short: `n < 0`,
 * `n < 1`, `n <= 0`, `n == -1`, `n != len`, `n < len` (a write never sends more than asked).
 */
function failedResult(term: Node, name: string): boolean {
  if (term.type !== 'binary_expression') return false;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right || withoutCasts(left).text !== name) return false;
  const op = term.childForFieldName('operator')?.text;
  const bound = withoutCasts(right).text.replace(/\s+/g, '');
  if (op === '!=' || op === '<') return !/^(-1|0)$/.test(bound) || op === '<';
  return (op === '<=' && bound === '0') || (op === '==' && bound === '-1');
}

/** The variable a write's statement keeps its result in (`n = write(...)`, `ssize_t n = write(...)`). */
function resultOf(write: Node): { readonly name: string; readonly stmt: Node } | undefined {
  const result = storedResult(write, { bare: true, plain: true });
  const stmt = result?.holder.parent;
  if (!result || !stmt || !['expression_statement', 'declaration'].includes(stmt.type)) return undefined;
  return { name: result.name, stmt };
}

/**
 * True when `call` runs only on the failure path of `write` whose result is kept in a variable: it is in
 * the consequence of the `if` right after the write's statement, whose test holds only when the result
 * says the write failed or fell short (every `||` term, or one `&&` term). Statements `checks` takes for
 * a part of the check of the result (an assertion that only reads it) may stand before that `if`.
 */
export function onStoredFailure(
  call: Node,
  write: Node,
  checks?: (stmt: Node, result: string) => boolean,
): boolean {
  const result = resultOf(write);
  let next = result?.stmt.nextNamedSibling;
  while (result && next && next.type !== 'if_statement' && checks?.(next, result.name))
    next = next.nextNamedSibling;
  if (!result || next?.type !== 'if_statement') return false;
  const test = next.childForFieldName('condition');
  const then = next.childForFieldName('consequence');
  if (!test || !then || call.startIndex < then.startIndex || call.endIndex > then.endIndex) return false;
  return failureTest(test, result.name);
}

/**
 * True when `node` runs only where `write`, whose result is kept in a variable, succeeded: in the `else`
 * of the `if` right after the write's statement whose test says it failed or fell short (past every
 * such test of an `else if` chain: `if (n < 0) ...; else if (n < len) ...; else return 0;`).
 */
export function onStoredSuccess(node: Node, write: Node): boolean {
  const result = resultOf(write);
  let at = result?.stmt.nextNamedSibling;
  while (result && at?.type === 'if_statement') {
    const test = at.childForFieldName('condition');
    if (!test || !failureTest(test, result.name)) return false;
    let other = at.childForFieldName('alternative');
    if (other?.type === 'else_clause') other = other.namedChild(0);
    if (!other || node.startIndex < other.startIndex || node.endIndex > other.endIndex) return false;
    if (other.type !== 'if_statement') return true;
    at = other;
  }
  return false;
}

/**
 * True when `test` holds only when the result kept in `name` says the write failed or fell short:
 * every `||` term such a comparison (`n < 0 || n != len`), or one `&&` term of a single one.
 */
export function failureTest(test: Node, name: string): boolean {
  const fails = (t: Node) => failedResult(t, name);
  const terms = disjuncts(test);
  return terms.every(fails) || (terms.length === 1 && conjuncts(withoutCasts(test)).some(fails));
}

/** True when a function of this name closes (or shuts down) the descriptor it is given. */
export function releasesDescriptor(name: string): boolean {
  return RELEASES.has(name) || CLOSING_NAME.test(name);
}

/**
 * True when `call` closes (or shuts down) a descriptor on the failure path of the helper's one write
 * (`onFailure` tells that) and the path then leaves the helper: no write follows it in that call.
 */
export function releasesOnFailure(call: Node, name: string, onFailure: boolean): boolean {
  if (!releasesDescriptor(name) || !onFailure) return false;
  for (let at = call.parent; at; at = at.parent) {
    if (at.type === 'if_statement') {
      const then = at.childForFieldName('consequence');
      return !!then && then.descendantsOfType('return_statement').length > 0;
    }
  }
  return false;
}
