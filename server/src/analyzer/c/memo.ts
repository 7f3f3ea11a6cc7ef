// Results per function text. Findings in a function depend only on its text and on the context
// (settings, known wrappers), so after an edit only the edited function is read again: this is what
// keeps the editor's diagnostics fast on large files. Offsets are stored relative to the function.
import type { Finding, Span } from '../model';

/** The finding with every offset moved by `delta`. */
export function shiftFinding(f: Finding, delta: number): Finding {
  const move = (s: Span): Span => ({ start: s.start + delta, end: s.end + delta });
  return {
    ...f,
    span: move(f.span),
    related: f.related.map((r) => ({ ...r, span: move(r.span) })),
    fix: f.fix && { ...f.fix, edits: f.fix.edits.map((e) => ({ ...e, span: move(e.span) })) },
  };
}

/** A bounded cache from function text to a result, emptied when its context changes. */
export class FunctionMemo<T> {
  private readonly entries = new Map<string, T>();
  private context = '';

  constructor(private readonly limit = 20_000) {}

  /** The cached result for `text` under `context`, computing and storing it when missing. */
  get(context: string, text: string, compute: () => T): T {
    if (context !== this.context) {
      this.entries.clear();
      this.context = context;
    }
    const hit = this.entries.get(text);
    if (hit !== undefined) return hit;
    const value = compute();
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(text, value);
    return value;
  }
}
