// The one place that converts between offsets and line/character positions.
import { TextDocument } from 'vscode-languageserver-textdocument';

/** A zero-based line and UTF-16 character, as LSP counts them. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/**
 * Maps UTF-16 offsets of one text to zero-based lines and characters, and back, counting line breaks
 * as LSP does (`\r\n`, `\n` and a lone `\r`): the editor's own `TextDocument` does the counting, so
 * the CLI's line numbers and the editor's ranges agree. Immutable.
 */
export class LineIndex {
  private readonly doc: TextDocument;

  /** Indexes `text` once (O(length)); lookups are O(log lines). */
  constructor(text: string) {
    this.doc = TextDocument.create('', '', 0, text);
  }

  /** The position of `offset` (clamped to the text). */
  positionAt(offset: number): Position {
    return this.doc.positionAt(offset);
  }

  /** The offset of `position` (clamped to its line and to the text). */
  offsetAt(position: Position): number {
    return this.doc.offsetAt(position);
  }

  /** The offset where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.doc.offsetAt({ line: this.doc.positionAt(offset).line, character: 0 });
  }
}

/** The whitespace that starts the line holding `offset` in `text` (lines end as {@link LineIndex} counts). */
export function indentAt(text: string, offset: number): string {
  const lineStart = lineStartAt(text, offset);
  const match = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return match ? match[0] : '';
}

/**
 * Where the line holding `offset` starts (after the nearest `\n` or `\r` before it). Scans back over
 * that line only: `lastIndexOf('\r')` in a file without one ran back to the start of the text on every
 * call.
 */
export function lineStartAt(text: string, offset: number): number {
  let start = Math.min(offset, text.length);
  while (start > 0) {
    const c = text.charCodeAt(start - 1);
    if (c === 10 || c === 13) break;
    start--;
  }
  return start;
}
