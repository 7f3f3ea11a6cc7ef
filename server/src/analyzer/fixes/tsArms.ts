// Filling the vector where each write stands, for a TS/JS run whose writes sit in the arms of ifs (an
// if/else passed through, the start of an `if` body, the end of one): every write statement becomes a
// push of its buffers onto the vector, and the tests and braces around them stay as written, so on
// every path the vector holds what would have gone out, in order; one gathered call after the run
// sends it. Only runs made of nothing but writes and ifs whose arms hold nothing but writes (and such
// ifs again) qualify: a statement between that computes or calls would run before the writes that
// preceded it had gone out, and on a failed write it would have run where it did not before.
import * as ts from 'typescript';
import type { Span, WriteStep } from '../model';

/** Where a write's own statement is: the inner one of `if (test) write(...)`, else the statement. */
function callSpan(w: WriteStep): Span {
  return w.condition && w.calls?.length === 1 && !w.chain ? w.calls[0]! : w.span;
}

/**
 * The text of `span` with each write statement replaced by `fill(write)`, or undefined when the span
 * holds anything but the writes, `if`/`else`, blocks and empty statements (comments aside).
 */
export function fillInPlace(
  span: Span,
  text: string,
  writes: readonly WriteStep[],
  fill: (w: WriteStep) => string,
): string | undefined {
  const region = text.slice(span.start, span.end);
  const file = ts.createSourceFile('run.ts', region, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const byStart = new Map(writes.map((w) => [callSpan(w).start - span.start, w]));
  const found: WriteStep[] = [];
  const ok = (stmt: ts.Statement): boolean => {
    const w = byStart.get(stmt.getStart(file));
    if (w) {
      found.push(w);
      return stmt.end === callSpan(w).end - span.start;
    }
    if (ts.isBlock(stmt)) return stmt.statements.every(ok);
    if (ts.isEmptyStatement(stmt)) return true;
    if (ts.isIfStatement(stmt)) {
      // A test that moves nothing: the tests of the run's ifs only read (or run before any write).
      return ok(stmt.thenStatement) && (!stmt.elseStatement || ok(stmt.elseStatement));
    }
    return false;
  };
  if (!file.statements.every(ok) || found.length !== writes.length) return undefined;
  let out = region;
  // From the last write back, so the offsets of the earlier ones still hold.
  for (const w of [...writes].sort((a, b) => callSpan(b).start - callSpan(a).start)) {
    const s = callSpan(w);
    out = out.slice(0, s.start - span.start) + fill(w) + out.slice(s.end - span.start);
  }
  return out;
}
