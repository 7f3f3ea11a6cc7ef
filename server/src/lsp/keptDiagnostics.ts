// The diagnostics of each open document's findings, kept from one analysis to the next. The C front
// end gives a function the edit left in place the very finding objects of the analysis before (see
// CAnalyzer.placedFindings), so such a finding keeps its diagnostic whenever its positions cannot
// have moved; only the others are converted. Placing hundreds of findings again at every keystroke
// (two line lookups for each of their spans) was a visible part of the edit-to-diagnostics time in a
// file with many findings.
import type { Diagnostic } from 'vscode-languageserver';
import type { Finding, LineIndex } from '../index';
import { sameEnds } from '../analyzer/c/textChanges';
import { toDiagnostic } from './convert';

/** What one document's last conversion made: the text it placed the findings in, and their diagnostics. */
interface Kept {
  readonly text: string;
  readonly diagnostics: ReadonlyMap<Finding, Diagnostic>;
}

/** Converts findings to diagnostics, reusing those of the document's previous conversion that still hold. */
export class KeptDiagnostics {
  private readonly kept = new Map<string, Kept>();

  /**
   * The diagnostics of `findings`, found in `text` (document `uri`, whose line index is `lines`): the
   * same as `findings.map((f) => toDiagnostic(f, uri, lines))`.
   */
  of(uri: string, text: string, findings: readonly Finding[], lines: LineIndex): Diagnostic[] {
    const before = this.kept.get(uri);
    const stillPlaced = before ? unmoved(before.text, text) : () => false;
    const made = new Map<Finding, Diagnostic>();
    const diagnostics = findings.map((f) => {
      const old = before?.diagnostics.get(f);
      const diagnostic = old && stillPlaced(f) ? old : toDiagnostic(f, uri, lines);
      made.set(f, diagnostic);
      return diagnostic;
    });
    this.kept.set(uri, { text, diagnostics: made });
    return diagnostics;
  }

  /** Drops what is kept for `uri` (closed). */
  forget(uri: string): void {
    this.kept.delete(uri);
  }
}

/**
 * Whether a finding (the same object, so the same offsets) has the same line and character positions
 * in `after` as in `before`. When the change kept the length and put or took no line break, every
 * offset keeps its position; otherwise only what lies wholly before the change does. The character
 * after the last offset counts too: after a `\r`, whether a `\n` follows decides the line.
 */
function unmoved(before: string, after: string): (f: Finding) => boolean {
  if (before === after) return () => true;
  const { prefix, suffix } = sameEnds(before, after);
  const breaks = /[\r\n]/;
  if (
    before.length === after.length &&
    !breaks.test(before.slice(prefix, before.length - suffix)) &&
    !breaks.test(after.slice(prefix, after.length - suffix))
  )
    return () => true;
  return (f) => lastOffset(f) < prefix;
}

/** The largest offset a finding's diagnostic places (its span's end, or a related span's). */
function lastOffset(f: Finding): number {
  let last = f.span.end;
  for (const r of f.related) if (r.span.end > last) last = r.span.end;
  return last;
}
