// A constant cast to an integer type: `(size_t)-1`, `((ssize_t)-1)`, `(unsigned int)(-1)`. A function
// returning `size_t` says it failed with `(size_t)-1` (often named: `#define NOSIZE ((size_t)-1)`), and
// its callers test `if (send_all(c, p, n) == (size_t)-1)`: the cast gives -1 the callee's type, so the
// comparison is the same failure test as `== -1` on an `ssize_t`. Read with the cast, the test would be
// `== len` with -1 for a length, a success test of a length no write was asked for.
//
// Only C's integer type words and `_t` names count as the type (`(len)-1` is a subtraction): the text
// is read without knowing which names are types.

/** A cast to an integer type, spaces removed: C's integer words, or a `_t` name (`size_t`, `off_t`). */
const INTEGER_CAST = String.raw`\((?:const)?(?:(?:un)?signed)?(?:char|short|int|long|longint|longlong|longlongint|[A-Za-z_]\w*_t)?\)`;

/** An integer constant under parentheses and at most one integer cast (spaces removed). */
const CAST_CONSTANT = new RegExp(String.raw`^\(*(?:${INTEGER_CAST})?\(*(-?\d+)[uUlL]*\)*$`);

/**
 * The integer constant `text` spells under an integer cast and parentheses (`((size_t) -1)` gives
 * `-1`), or `text` itself when it is anything else (unbalanced parentheses, another cast, a name).
 * `text` is a test's operand or a definition's value, whole.
 */
export function uncast(text: string): string {
  if (!text.includes('(')) return text;
  const spelled = text.replace(/\s+/g, '');
  if (spelled === '()') return text;
  const m = CAST_CONSTANT.exec(spelled);
  if (!m) return text;
  const open = spelled.split('(').length;
  const close = spelled.split(')').length;
  return open === close ? m[1]! : text;
}
