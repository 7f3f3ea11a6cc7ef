// The one place that converts between offsets and line/character positions.

/** A zero-based line and UTF-16 character, as LSP counts them. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** Maps UTF-16 offsets of one text to zero-based lines and characters, and back. Immutable. */
export class LineIndex {
  private readonly starts: number[] = [0];

  /** Indexes `text` once (O(length)); lookups are O(log lines). */
  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The position of `offset` (clamped to the text). */
  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: at - this.starts[lo] };
  }

  /** The offset of `position` (clamped to its line and to the text). */
  offsetAt(position: Position): number {
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, position.line)];
    const next = position.line + 1 < this.starts.length ? this.starts[position.line + 1] : this.text.length;
    return Math.min(start + Math.max(0, position.character), next);
  }

  /** The offset where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.starts[this.positionAt(offset).line];
  }
}

/** The whitespace that starts the line holding `offset` in `text`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return match ? match[0] : '';
}
