// A project often checks each write's result through a statement macro of its own: `#define
// SEND_ERR(x) if (x < 0) goto send_error` after `ret = write(...);`. Unexpanded, the use is a call of
// an unknown function between the writes and ends the run; the compiler sees a test of the result that
// leaves on failure, which a run may hold like any written-out check. Such a macro is read as its
// expansion (macroExpansions.ts) wherever the function it is used in is read for writes.

/**
 * A macro body that is one test leaving the function or jumping on (`if (x < 0) goto out`, `if (!(x))
 * return -1;`), bare, in braces or in `do { ... } while (0)`, whose test and returned value call
 * nothing: the macro only checks, so its uses may stand in a run as the test they expand to.
 */
export const CHECK_MACRO_BODY =
  /^\s*(?:do\s*)?\{?\s*if\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*(?:goto\s+\w+|return(?:\s+[^;(){}]*)?)\s*;?\s*\}?\s*(?:while\s*\(\s*0\s*\)\s*)?;?\s*$/;

/**
 * `writing` (the pattern of a write call the expansion rules look for) widened to also match a
 * check-only macro body ({@link CHECK_MACRO_BODY}); flags kept.
 */
export function writingOrChecking(writing: RegExp): RegExp {
  return new RegExp(`(?:${writing.source})|(?:${CHECK_MACRO_BODY.source})`, writing.flags);
}
