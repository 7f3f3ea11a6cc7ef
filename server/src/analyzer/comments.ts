// Finds the comments of a C or TS/JS text without a parser: a small lexer that knows where strings,
// character literals, template literals and regular expressions start and end, so `//` inside them is
// not taken for a comment. Suppression directives live in comments; this is all they need.
import type { Language } from './model';

/** A comment: its span (delimiters included) and the text between its delimiters. */
export interface Comment {
  /** UTF-16 offsets of the comment, `//` or `/*` to the end of the line or `*\/`. */
  readonly start: number;
  readonly end: number;
  readonly body: string;
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/** Letters, digits, `_` and `$` (by code, as this loop runs over every character of a file). */
function isWordCode(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 127
  );
}

const isWordChar = (c: string) => isWordCode(c.charCodeAt(0));

/** Space, tab, line breaks, form feed, vertical tab. */
function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The longest word in {@link BEFORE_REGEX}: longer words are never compared. */
const LONGEST_KEYWORD = 10;

/** The end of a quoted literal starting at `start` (an unterminated one ends at the line's end). */
function quoted(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else if (c === '\n' || c === '\r') return i;
    else i++;
  }
  return text.length;
}

/** The end of a regular expression literal starting at `start` (its flags included). */
function regex(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '\n' || c === '\r') return i;
    else {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
      i++;
    }
  }
  i++;
  while (i < text.length && isWordChar(text[i] as string)) i++;
  return i;
}

/**
 * From inside a template literal at `start`: where it ends, and whether it stopped at a `${`
 * substitution (code follows) rather than at its closing backquote.
 */
function template(text: string, start: number): { end: number; substitution: boolean } {
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '`') return { end: i + 1, substitution: false };
    else if (c === '$' && text[i + 1] === '{') return { end: i + 2, substitution: true };
    else i++;
  }
  return { end: text.length, substitution: false };
}

/**
 * Whether `c` (a UTF-16 code) ends a line: `\n`, a `\r` alone or before `\n` (old Mac files, and
 * what GCC and the TypeScript compiler both accept), and in TS/JS also U+2028 and U+2029.
 */
function isLineBreak(c: number, inC: boolean): boolean {
  return c === 10 || c === 13 || (!inC && (c === 0x2028 || c === 0x2029));
}

/** The offset of the first line break at or after `from`, or the text's length. */
function lineBreakAt(text: string, from: number, inC: boolean): number {
  let i = from;
  while (i < text.length && !isLineBreak(text.charCodeAt(i), inC)) i++;
  return i;
}

/** The end of a `//` comment at `start`: the line's end (in C, a backslash before it continues it). */
function lineCommentEnd(text: string, start: number, c: boolean): number {
  let end = start;
  for (;;) {
    const eol = lineBreakAt(text, end, c);
    if (eol === text.length || !(c && text[eol - 1] === '\\')) return eol;
    // The continued line starts after the whole line break (`\r\n` is one).
    end = eol + (text[eol] === '\r' && text[eol + 1] === '\n' ? 2 : 1);
  }
}

/** Every comment of `text`, in order. Strings and (in TS/JS) templates and regexes are skipped. */
export function findComments(text: string, language: Language): Comment[] {
  const c = language === 'c';
  const comments: Comment[] = [];
  // Brace depth inside each open `${` substitution, innermost last.
  const substitutions: number[] = [];
  let regexAllowed = true;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '/' && text[i + 1] === '/') {
      const end = lineCommentEnd(text, i, c);
      comments.push({ start: i, end, body: text.slice(i + 2, end) });
      i = end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      comments.push({ start: i, end, body: text.slice(i + 2, close === -1 ? end : close) });
      i = end;
    } else if (ch === '/') {
      if (!c && regexAllowed) {
        i = regex(text, i);
        regexAllowed = false;
      } else {
        i++;
        regexAllowed = true;
      }
    } else if (ch === '"' || ch === "'") {
      i = quoted(text, i);
      regexAllowed = false;
    } else if (!c && ch === '`') {
      const t = template(text, i + 1);
      if (t.substitution) substitutions.push(0);
      i = t.end;
      regexAllowed = t.substitution;
    } else if (
      !c &&
      ch === '}' &&
      substitutions.length > 0 &&
      substitutions[substitutions.length - 1] === 0
    ) {
      substitutions.pop();
      const t = template(text, i + 1);
      if (t.substitution) substitutions.push(0);
      i = t.end;
      regexAllowed = t.substitution;
    } else if (isWordCode(ch.charCodeAt(0))) {
      let end = i + 1;
      while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
      // Only TS/JS has regex literals; slicing every identifier of a C file would only cost.
      regexAllowed = !c && end - i <= LONGEST_KEYWORD && BEFORE_REGEX.has(text.slice(i, end));
      i = end;
    } else {
      if (substitutions.length > 0) {
        const top = substitutions.length - 1;
        if (ch === '{') substitutions[top] = (substitutions[top] as number) + 1;
        else if (ch === '}') substitutions[top] = (substitutions[top] as number) - 1;
      }
      if (!isSpaceCode(ch.charCodeAt(0))) regexAllowed = ch !== ')' && ch !== ']' && ch !== '}';
      i++;
    }
  }
  return comments;
}
