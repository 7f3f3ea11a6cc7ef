// Assertions known only by their name. Libraries give their own assert macros in headers a tree does not
// hold (a portability runtime's `PR_ASSERT(rc > 0)`, a toolkit's `g_assert(n == len)`, a unit-test
// framework's `assert_int_equal(n, len)`): like `assert(n == len)` each tests a write's result and stops
// the program (or the test) when the test fails, or compiles to nothing. A gathered write's result can be
// asserted the same way, so such a check leaves as surely as a return does.
import type { CContext } from './writes';
import { macroBodies } from './macroStatements';

/** The word a name must contain to read as an assertion: `PR_ASSERT`, `g_assert_cmpint`, `ckAssert`. */
const ASSERT_WORD = 'assert';

/** The words of a name: split at underscores and where a lower-case letter or digit meets a capital. */
function words(name: string): string[] {
  return name.split(/_|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase());
}

/**
 * True when a call of `name` is an assertion the analyzer knows by name alone: one of its words is
 * "assert", and neither the file nor the headers it includes define a macro of that name, nor does any
 * file the analyzer reads define a function of it ({@link CContext.unread}: a body found later overrules
 * the name). A definition that is read says what the call does instead (see `assertionMacro`).
 */
export function namedAssertion(name: string, ctx: CContext): boolean {
  if (!words(name).includes(ASSERT_WORD)) return false;
  if (macroBodies(name, ctx.text, ctx.included) !== undefined) return false;
  return ctx.unread?.(name) === true;
}
