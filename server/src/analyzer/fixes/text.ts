// Text helpers shared by the fix builders.
import type { Template } from '../model';

/** One indentation step in the style of `indent` (a tab, or as many spaces as the file seems to use). */
export function indentUnit(indent: string): string {
  if (indent.includes('\t') || indent === '') return indent === '' ? '    ' : '\t';
  return indent.length % 4 === 0 ? '    ' : '  ';
}

/** A line break as the editor counts it (CRLF, LF or a lone CR): a fix keeps the file's own. */
const LINE_BREAK = '\\r\\n|\\r|\\n';

/** Re-bases a template's continuation lines from its own indent onto `indent`. */
export function rebase(t: Template, indent: string): Template {
  const own = new RegExp(`(${LINE_BREAK})${t.indent}`, 'g'); // an indent is spaces and tabs only
  const move = (s: string) => s.replace(own, (_, eol: string) => eol + indent);
  return { before: move(t.before), after: move(t.after), indent };
}

/** Templates are alike when they differ only in whitespace (the same error handling). */
export function sameTemplate(a: Template, b: Template): boolean {
  const squash = (s: string) =>
    s
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      .replace(/^\s*\(void\)/, '')
      .replace(/\s+/g, ' ')
      .trim();
  return squash(a.before) === squash(b.before) && squash(a.after) === squash(b.after);
}

/** Prefixes every line after the first with `extra`. */
export function indentLines(text: string, extra: string): string {
  return text.replace(new RegExp(LINE_BREAK, 'g'), (eol) => eol + extra);
}

/** A line ending: what a file uses between lines. */
export type LineEnding = '\n' | '\r\n' | '\r';

/**
 * The line ending `text` uses most (LF when it has none): inserted lines use it, so a fix never leaves
 * a CRLF file with mixed line endings.
 */
export function lineEndingOf(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  let cr = 0;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) !== 10) cr++;
  }
  if (crlf > lf && crlf >= cr) return '\r\n';
  if (cr > lf && cr > crlf) return '\r';
  return '\n';
}

/** `text` with every line break (LF, CRLF or CR) written as `eol`. */
export function withLineEnding(text: string, eol: LineEnding): string {
  return eol === '\n' && !text.includes('\r') ? text : text.replace(/\r\n|\r|\n/g, eol);
}
