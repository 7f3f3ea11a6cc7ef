// A helper's status chosen by a test of its own write's result: `ssize_t r = write(fd, s, n); return r
// == (ssize_t)n ? 1 : 0;`. The arm the test picks where the write sent all it was asked is the success
// value, here 1, whatever the other returns look like: read as a choice of codes (0 the success one), a
// caller's `if (!put(a)) put(b);` would pass for two writes in a row, though b is sent only where a
// failed, and `put(a) && put(b)` would be missed. A test whose direction the reading cannot tell
// (`r == 0 ? ... : ...`) leaves the helper with no status at all.
import type { Node } from 'web-tree-sitter';
import { failureTest } from './failurePaths';
import { conjuncts } from './retries';
import { storedResult, unwrap, withoutCasts } from './syntax';

/** How a choice reads its write: which arm the test takes where the write sent its bytes. */
export type ChoiceStatus =
  | { readonly sent: string; readonly failed: string }
  /** The test reads the write's result, but not in a way that says success or failure. */
  | 'undecided';

/**
 * The expression that stands for `write`'s result in its helper: the variable its statement keeps it in
 * (`r = write(...)`, `ssize_t r = (ssize_t)write(...)`), or the call itself when it is kept nowhere.
 */
function resultText(write: Node): string {
  return storedResult(write, { plain: true })?.name ?? write.text;
}

/**
 * True when `term` holds only where the result `name` says the write succeeded: `r == n` (a length, not
 * 0 or -1), `r >= n`, `r >= 0`, `r > 0`, `r > -1`, `r != -1`.
 */
function sentResult(term: Node, name: string): boolean {
  if (term.type !== 'binary_expression') return false;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right) return false;
  const op = term.childForFieldName('operator')?.text;
  const [mine, other] =
    withoutCasts(left).text === name
      ? [left, right]
      : withoutCasts(right).text === name && op === '=='
        ? [right, left]
        : [undefined, undefined];
  if (!mine || !other) return false;
  const bound = withoutCasts(other).text.replace(/\s+/g, '');
  if (op === '==') return !/^-?\d+$/.test(bound) || /^[1-9]\d*$/.test(bound);
  if (op === '>=') return bound !== '-1';
  if (op === '>') return bound === '0' || bound === '-1';
  return op === '!=' && bound === '-1';
}

/**
 * How `value` (a returned expression) gives the helper's status when it is a choice between two
 * constants whose test reads `write`'s result: the arm taken where the write sent its bytes and the arm
 * taken where it failed (texts without spaces or parentheses), or `'undecided'` when the test reads the
 * result in no way that tells. Undefined when `value` is no such choice (its test reads something else,
 * an arm is no constant): other readings decide. Does not modify `value`.
 */
export function choiceStatus(value: Node, write: Node): ChoiceStatus | undefined {
  const at = unwrap(value);
  if (at.type !== 'conditional_expression') return undefined;
  const test = at.childForFieldName('condition');
  const yes = at.childForFieldName('consequence');
  const no = at.childForFieldName('alternative');
  if (!test || !yes || !no) return undefined;
  const name = resultText(write);
  const reads = (n: Node): boolean =>
    n.text === name || (n.type === 'identifier' ? false : n.namedChildren.some((c) => !!c && reads(c)));
  if (!reads(test)) return undefined;
  const text = (n: Node) => n.text.replace(/[\s()]/g, '');
  const constant = (n: Node) => /^-?(\d+|[A-Z][A-Z0-9_]*|true|false)$/.test(text(n));
  if (!constant(yes) || !constant(no)) return 'undecided';
  const sent = conjuncts(withoutCasts(test));
  if (sent.length > 0 && sent.every((t) => sentResult(t, name))) return { sent: text(yes), failed: text(no) };
  if (failureTest(test, name)) return { sent: text(no), failed: text(yes) };
  return 'undecided';
}
