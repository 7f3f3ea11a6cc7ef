// A write helper's status named by constants its file does not define: `return ERROR;` where the write
// failed and `return OK;` at its end, with `typedef enum { OK, ERROR } Success;` in a header. Each file
// of a tree is first read alone, before any header's codes are known (see statusConstants.ts): the
// names then have no value, and the helper is read as a writer whose result says nothing. Its callers
// in other files see the header (`write_data(s, &a, n) == OK && write_data(s, &b, m) == OK`) and read
// `OK` as 0, but without the helper's fact that 0 is its success they cannot read `== 0` as a test that
// the write went out. The helper keeps the name it returns on success instead; where the caller's codes
// give that name the value 0, the helper is 0 on success there, as if its file had known the value.
import type { Node } from 'web-tree-sitter';
import type { CWrapper } from '../wrapper';

/** A constant status: a number, or a name in capitals (an enum member or a macro). */
const STATUS = /^(?:-?\d+|[A-Z][A-Z0-9_]*)$/;

/** A name in capitals, as returned. */
const NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * The name `body` returns wherever its write did not fail, when `codes` gives it no value and every
 * return of `body` gives a constant: `failed` says which returns lie on the write's failure path, and
 * those must all give something else (at least one of them). Undefined for any other helper (a count
 * returned, a status passed on, one name on both paths, names the file gives values itself).
 */
export function namedSuccess(
  body: Node,
  failed: (ret: Node) => boolean,
  codes: ReadonlyMap<string, number> | undefined,
): string | undefined {
  const returns = body.descendantsOfType('return_statement').filter((r): r is Node => r !== null);
  const successes = new Set<string>();
  const failures = new Set<string>();
  for (const r of returns) {
    const value = r.namedChild(0)?.text.replace(/[\s()]/g, '') ?? '';
    if (!STATUS.test(value)) return undefined;
    (failed(r) ? failures : successes).add(value);
  }
  const [success] = successes;
  if (successes.size !== 1 || failures.size === 0 || success === undefined) return undefined;
  if (!NAME.test(success) || failures.has(success) || codes?.has(success)) return undefined;
  return success;
}

/**
 * Whether `wrapper` returns 0 on success where `codes` are the caller's named codes: it was read so in
 * its own file, or the name it returns on success (see {@link namedSuccess}) has the value 0 here.
 */
export function zeroOnSuccessWith(
  wrapper: Pick<CWrapper, 'zeroOnSuccess' | 'successName'> | undefined,
  codes: ReadonlyMap<string, number> | undefined,
): boolean {
  if (!wrapper) return false;
  if (wrapper.zeroOnSuccess === true) return true;
  return wrapper.successName !== undefined && codes?.get(wrapper.successName) === 0;
}
