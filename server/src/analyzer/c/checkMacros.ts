// A project often checks each write's result through a statement macro of its own: `#define
// SEND_ERR(x) if (x < 0) goto send_error` after `ret = write(...);`. Unexpanded, the use is a call of
// an unknown function between the writes and ends the run; the compiler sees a test of the result that
// leaves on failure, which a run may hold like any written-out check. Such a macro is read as its
// expansion (macroExpansions.ts) wherever the function it is used in is read for writes.

/**
 * A macro body that is one comparison of a result with a number that leaves the function or jumps on
 * (`if (x < 0) goto out`, `if ((x) != 0) return -1;`), bare, in braces or in `do { ... } while (0)`,
 * whose returned value calls nothing: the macro checks a result as a written-out check would. A macro
 * leaving on any other test (`if (!(ok)) return -1`) may leave between writes for a reason of its own
 * and is left as it is.
 */
export const CHECK_MACRO_BODY =
  /^\s*(?:do\s*)?\{?\s*if\s*\(\s*\(?\s*\w+\s*\)?\s*(?:<|<=|==|!=)\s*-?\s*\d+\s*\)\s*(?:goto\s+\w+|return(?:\s+[^;(){}]*)?)\s*;?\s*\}?\s*(?:while\s*\(\s*0\s*\)\s*)?;?\s*$/;

/**
 * `writing` (the pattern of a write call the expansion rules look for) widened to also match a
 * check-only macro body ({@link CHECK_MACRO_BODY}); flags kept.
 */
export function writingOrChecking(writing: RegExp): RegExp {
  return new RegExp(`(?:${writing.source})|(?:${CHECK_MACRO_BODY.source})`, writing.flags);
}
