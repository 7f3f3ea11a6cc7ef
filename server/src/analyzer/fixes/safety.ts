// Which fixes keep behaviour as it stands (safe: `--fix` and the editor's fix-all apply them) and which
// change it in a way a reviewer should see first (unsafe: `--unsafe-fixes`, or one quick fix at a time).
//
// A gathered call replacing writes that stand side by side, each with the same error handling, fails
// the way each of them did: with the same message, through the same exit. Its arguments are evaluated
// before the first byte goes out where the later writes' used to be evaluated after the earlier writes,
// but the shapes only let names through that no write changes, so that order is not observable.
//
// What is observable, and makes a fix unsafe:
// - a statement between the writes: the gathered call moves it after the writes (C, TS), or, for a
//   corked stream, the earlier chunks now leave after it ran; on a failed write it now runs (or is
//   skipped) where it did not before;
// - writes of different families gathered into the strictest one: a write whose result was ignored, or
//   that restarted nothing, now fails as the gathered call does (retries, reports or dies);
// - a later write's test that calls a function: it now runs before the earlier writes went out.
import type { Fix, FixSafety, WriteStep } from '../model';
import type { WriteRun } from '../shapes/sequences';

/** A fix's class and, for an unsafe one, why. */
export type SafetyClass = Pick<Fix, 'safety' | 'unsafeBecause'>;

/** The class of a fix that changes nothing but the writes. */
export const SAFE: SafetyClass = { safety: 'safe' };

/** `n statement(s)`. */
function statements(n: number): string {
  return `${n} statement${n === 1 ? '' : 's'}`;
}

/** A call in a test, as written: a name followed by `(` that is not a cast or a keyword. */
const CALL = /(^|[^\w$.])(?!sizeof\b|typeof\b)[A-Za-z_$][\w$]*\s*\(/;

/**
 * The class of a gathered-call fix for `run` whose writes become one call of `family`. `corked`: the
 * writes stay where they are and the stream is corked around them (TS streams).
 */
export function gatheredSafety(
  run: WriteRun,
  writes: readonly WriteStep[],
  family: string,
  corked = false,
): SafetyClass {
  const reasons: string[] = [];
  const between = run.moved.filter((m) => !m.comment).length;
  if (between > 0) {
    reasons.push(
      corked
        ? `the chunks written before the ${statements(between)} between the writes now go out after them`
        : `moves the ${statements(between)} between the writes to after the gathered call`,
    );
  }
  const others = [...new Set(writes.filter((w) => w.family !== family).map((w) => `${w.callee}()`))];
  if (!corked && others.length > 0) {
    reasons.push(
      `a failure of ${others.join(', ')} now takes the path of ${family}() (retried, reported or fatal)`,
    );
  }
  const tested = writes.slice(1).find((w) => w.condition !== undefined && CALL.test(w.condition));
  if (!corked && tested) {
    reasons.push(`the test ${tested.condition} now runs before the earlier writes go out`);
  }
  return classOf(reasons);
}

/** Safe without reasons; unsafe with them, joined. */
export function classOf(reasons: readonly string[]): SafetyClass {
  const safety: FixSafety = reasons.length === 0 ? 'safe' : 'unsafe';
  return reasons.length === 0 ? SAFE : { safety, unsafeBecause: reasons.join('; ') };
}

/** Whether `fix` is applied by a run that applies unsafe fixes when `unsafe` is true. */
export function applies(fix: Pick<Fix, 'safety'> | undefined, unsafe: boolean): boolean {
  return fix !== undefined && (unsafe || fix.safety === 'safe');
}
