// Functions whose result no caller reads: a `static` function (no other file can call it) whose every
// use in its file is its definition, a prototype, or a call standing as a statement of its own
// (`draw_banner(b, fd);`, `(void)draw_banner(b, fd);`). What such a function returns decides nothing;
// a rule may then treat a value it only returns as a value nothing reads (talliedCounts.ts: a byte
// tally returned to callers that drop it is as unread as one only logged). The file is read from its
// text, comments and literals blanked: a function may come from a parse of part of the file (see
// parser.ts `functions`), and its callers are outside that part.
import { codeOnly, functionSpans } from './settledGlobals';

/** The file read last: its code (comments and literals blanked), function bodies, answers by name. */
let lastFile:
  | {
      readonly text: string;
      code?: string;
      spans?: ReturnType<typeof functionSpans>;
      readonly answers: Map<string, boolean>;
    }
  | undefined;

/**
 * True when the C file `text` defines `name` as a `static` function and every call of it in the file
 * discards the result (see the file's comment). False when the name is taken as a value (a function
 * pointer may be called anywhere) or a call's result is read.
 */
export function resultDiscarded(text: string, name: string): boolean {
  if (lastFile?.text !== text) lastFile = { text, answers: new Map() };
  const known = lastFile.answers.get(name);
  if (known !== undefined) return known;
  let answer = false;
  if (text.includes(name)) {
    lastFile.code ??= codeOnly(text);
    lastFile.spans ??= functionSpans(lastFile.code);
    answer = discardedIn(lastFile.code, lastFile.spans, name);
  }
  lastFile.answers.set(name, answer);
  return answer;
}

function discardedIn(code: string, spans: ReturnType<typeof functionSpans>, name: string): boolean {
  // The definition: the name at file scope, its parameter list, then the body's brace (the spans'
  // own names are not used: a function-like macro defined just before may be read as the name).
  const definition = [...code.matchAll(new RegExp(`(?<![\\w.>])${name}\\s*\\(`, 'g'))].find((m) => {
    if (spans.some((s) => s.from <= m.index && m.index < s.to)) return false;
    const close = closingParen(code.slice(m.index + name.length));
    return close >= 0 && /^\s*\{/.test(code.slice(m.index + name.length + close + 1));
  });
  if (!definition) return false;
  // The declaration's words before the name, from the end of the previous declaration or function.
  const words =
    code
      .slice(Math.max(0, definition.index - 400), definition.index)
      .split(/[;}]/)
      .pop() ?? '';
  if (!/\bstatic\b/.test(words)) return false;
  const spanAt = (at: number) => spans.find((s) => s.from <= at && at < s.to);
  for (const m of code.matchAll(new RegExp(`(?<![\\w.>])${name}\\b`, 'g'))) {
    const at = m.index;
    const after = code.slice(at + name.length);
    if (!/^\s*\(/.test(after)) return false;
    const span = spanAt(at);
    if (!span) {
      // The definition's head or a prototype; anything else outside a body (a macro's definition, an
      // initialiser) may hand the result on.
      const close = closingParen(after);
      if (close < 0 || !/^\s*[{;,]/.test(after.slice(close + 1)) || /^[ \t]*#/m.test(lineOf(code, at)))
        return false;
      continue;
    }
    // Inside parentheses (a `for` header's condition) a `;` before the call ends no statement.
    if (openParens(code.slice(span.from, at)) > 0) return false;
    if (!statementStart(code.slice(0, at).replace(/\(\s*void\s*\)\s*$/, ''))) return false;
    const close = closingParen(after);
    if (close < 0 || !/^\s*;/.test(after.slice(close + 1))) return false;
  }
  return true;
}

/**
 * True when `before` ends where a statement may start: after a statement, a block's brace, an else, a
 * label (`case 1:`, `done:`), or the condition of an if or a loop (not a cast's parenthesis).
 */
function statementStart(before: string): boolean {
  const t = before.trimEnd();
  if (/(?:[;{}]|\belse)$/.test(t)) return true;
  if (t.endsWith(':'))
    return /^[ \t]*(?:case\b[^\n]*|default|[A-Za-z_]\w*)[ \t]*:$/m.test(t.slice(t.lastIndexOf('\n') + 1));
  if (!t.endsWith(')')) return false;
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    if (t[i] === ')') depth++;
    else if (t[i] === '(' && --depth === 0) return /\b(?:if|while|for)\s*$/.test(t.slice(0, i));
  }
  return false;
}

/** The line of `code` holding offset `at`. */
function lineOf(code: string, at: number): string {
  const start = code.lastIndexOf('\n', at - 1) + 1;
  const end = code.indexOf('\n', at);
  return code.slice(start, end < 0 ? code.length : end);
}

/** How many parentheses `text` opens and does not close. */
function openParens(text: string): number {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
  }
  return depth;
}

/** The index in `text` (which starts with optional blanks and `(`) of the parenthesis closing the first. */
function closingParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
