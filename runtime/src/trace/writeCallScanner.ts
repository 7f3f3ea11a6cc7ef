/**
 * Finds the write calls in a JavaScript source (`x.write(...)`, `fs.writeSync(...)`, ...) and the exact
 * span of each call's last argument, without a parser library (the runtime imports only `node:`
 * modules): a tokenizer that knows strings, template literals, comments and regular expressions, and
 * tracks brackets. It never guesses: where JavaScript's grammar leaves a `/` ambiguous to a tokenizer
 * (after the `}` of a brace that could be a block or an object), or where the source does not end in a
 * clean state (an unterminated string, unbalanced brackets), it answers `undefined`, and the caller
 * leaves the file as it was.
 *
 * Is a `/` a division or the start of a regular expression? That depends on the token before it:
 * after a value (a name, a number, a string, `)` or `]`) it divides; after an operator or a keyword that
 * expects an expression (`return`, `typeof`, ...) it starts a regular expression. Two tokens need more:
 * `)` closing `if (...)`, `while (...)`, `for (...)` or `with (...)` ends a statement head (a regular
 * expression may follow), and `}` closing a block does too while `}` closing an object literal is a
 * value. The kind of each `{` comes from the token before it.
 */

/** The write methods whose calls the scanner reports, by name (the names the Node tracer wraps). */
export const WRITE_METHODS = ['writeSync', 'writevSync', 'write', 'writev', 'end'] as const;
/** One of WRITE_METHODS. */
export type WriteMethod = (typeof WRITE_METHODS)[number];

/** Names also called bare, as a destructured `fs` function (`const { writeSync } = require('fs')`). */
const BARE_CALLS = new Set<string>(['writeSync', 'writevSync', 'write', 'writev']);
const METHODS = new Set<string>(WRITE_METHODS);

/** A write call found in the source. Offsets are UTF-16 code-unit indexes into the source. */
export interface WriteCall {
  readonly method: WriteMethod;
  /** Offset of the method's name. */
  readonly nameAt: number;
  /** Offset of the last argument's first character. */
  readonly argStart: number;
  /** Offset just past the last argument's last character (before a trailing comma or comment). */
  readonly argEnd: number;
}

/** Keywords after which an expression (so possibly a regular expression) starts. */
const EXPRESSION_KEYWORDS = new Set([
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
  'extends',
]);
const CONDITION_KEYWORDS = new Set(['if', 'while', 'for', 'with']);

const enum Tok {
  Name,
  /** A number, string, template, regular expression: a value. */
  Value,
  Punct,
}

const enum Brace {
  Block,
  Object,
  /** A `{` after `:` outside an object: a label's block, a `case`'s, or an object in `? :`. */
  Unknown,
  /** `${` inside a template literal. */
  Template,
}

/** An open bracket; for the `(` of a write call, what the scan learned of its arguments so far. */
interface Open {
  readonly char: number;
  /** `(`: it follows if/while/for/with. */
  readonly cond?: boolean;
  /** `{`: what it opens. */
  readonly brace?: Brace;
  readonly call?: {
    method: WriteMethod;
    nameAt: number;
    argStart: number;
    argEnd: number;
    spread: boolean;
    /** The previous argument, for a trailing comma. */
    lastStart: number;
    lastEnd: number;
    lastSpread: boolean;
  };
}

const SLASH = 47;
const BACKSLASH = 92;
const NEWLINE = 10;
const CR = 13;

function isLineEnd(c: number): boolean {
  return c === NEWLINE || c === CR || c === 0x2028 || c === 0x2029;
}

function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 36 ||
    c === BACKSLASH ||
    c === 35 ||
    (c >= 0x80 && !isSpace(c))
  );
}

/** Whether only blanks (or a comment's end, conservatively) stand between `at` and the start of its line. */
function firstOnLine(source: string, at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const c = source.charCodeAt(j);
    if (isLineEnd(c) || (c === SLASH && source.charCodeAt(j - 1) === 42)) return true;
    if (!isSpace(c)) return false;
  }
  return true;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The write calls of `source` (a script or module body), in the order they close, or `undefined` when the
 * source holds something this tokenizer cannot be sure of (then nothing may be rewritten). Calls whose
 * last argument is a spread, calls without arguments, and method definitions named like a write method
 * are left out.
 */
export function findWriteCalls(source: string): WriteCall[] | undefined {
  const found: WriteCall[] = [];
  const stack: Open[] = [];
  const n = source.length;
  let i = 0;
  // The previous significant token.
  let prevTok: Tok = Tok.Punct;
  let prevText = ';';
  /** Whether a `/` here starts a regular expression; undefined: cannot tell (after an Unknown `}`). */
  let regexOk: boolean | undefined = true;
  /** A write method's name just seen: a `(` next makes it a call. */
  let pendingName: { method: WriteMethod; at: number } | undefined;
  /** A call just closed: a `{` next means it was a method definition, not a call. */
  let closedCall: WriteCall | undefined;

  if (source.startsWith('#!')) while (i < n && !isLineEnd(source.charCodeAt(i))) i++;

  /** Records a token [start, end) in the innermost open bracket's current argument. */
  const inArgument = (start: number, end: number, text: string): void => {
    const call = stack[stack.length - 1]?.call;
    if (!call) return;
    if (text === ',') {
      call.lastStart = call.argStart;
      call.lastEnd = call.argEnd;
      call.lastSpread = call.spread;
      call.argStart = -1;
      call.spread = false;
      return;
    }
    if (call.argStart < 0) {
      call.argStart = start;
      call.spread = text === '...';
    }
    call.argEnd = end;
  };

  /** Ends a token: what may follow it, and the calls it completes or cancels. */
  const token = (kind: Tok, text: string, start: number, end: number): void => {
    if (closedCall) {
      if (text !== '{') found.push(closedCall);
      closedCall = undefined;
    }
    const name = pendingName;
    pendingName = undefined;
    if (kind === Tok.Name) {
      const member = prevText === '.' || prevText === '?.';
      if (METHODS.has(text) && (member || (BARE_CALLS.has(text) && prevText !== 'function')))
        pendingName = { method: text as WriteMethod, at: start };
      regexOk = !member && EXPRESSION_KEYWORDS.has(text);
    } else if (kind === Tok.Value) {
      regexOk = false;
    }
    if (kind !== Tok.Punct || (text !== '(' && text !== ')' && text !== '}' && text !== ']'))
      inArgument(start, end, text);
    if (kind === Tok.Punct) punct(text, start, end, name);
    prevTok = kind;
    prevText = text;
  };

  /** Cleared when a closing bracket does not match the open one. */
  let balanced = true;
  const punct = (text: string, start: number, end: number, name?: { method: WriteMethod; at: number }) => {
    const c = text.charCodeAt(0);
    if (text === '(' || text === '[' || text === '{') {
      inArgument(start, end, text);
      const cond = text === '(' && prevTok === Tok.Name && CONDITION_KEYWORDS.has(prevText);
      const brace = text === '{' ? braceKind() : undefined;
      const open: Open =
        text === '(' && name
          ? {
              char: c,
              cond,
              call: {
                method: name.method,
                nameAt: name.at,
                argStart: -1,
                argEnd: -1,
                spread: false,
                lastStart: -1,
                lastEnd: -1,
                lastSpread: false,
              },
            }
          : { char: c, cond, brace };
      stack.push(open);
      regexOk = true;
      return;
    }
    if (text === ')' || text === ']' || text === '}') {
      const open = stack.pop();
      const want = text === ')' ? 40 : text === ']' ? 91 : 123;
      if (!open || open.char !== want) {
        balanced = false;
        return;
      }
      inArgument(start, end, text);
      if (text === ')') {
        regexOk = open.cond === true;
        const call = open.call;
        if (call) {
          const useLast = call.argStart < 0;
          const argStart = useLast ? call.lastStart : call.argStart;
          const spread = useLast ? call.lastSpread : call.spread;
          if (argStart >= 0 && !spread)
            closedCall = {
              method: call.method,
              nameAt: call.nameAt,
              argStart,
              argEnd: useLast ? call.lastEnd : call.argEnd,
            };
        }
      } else if (text === ']') regexOk = false;
      else regexOk = open.brace === Brace.Block ? true : open.brace === Brace.Object ? false : undefined;
      return;
    }
    regexOk = !(text === '++' || text === '--');
  };

  /** The kind of a `{` from the token before it. */
  const braceKind = (): Brace => {
    if (prevTok === Tok.Name) return EXPRESSION_KEYWORDS.has(prevText) ? Brace.Object : Brace.Block;
    if (prevTok === Tok.Value) return Brace.Block;
    if (prevText === ')' || prevText === '=>' || prevText === ';' || prevText === '{' || prevText === '}')
      return Brace.Block;
    if (prevText === ':') {
      const outer = stack[stack.length - 1];
      if (!outer) return Brace.Unknown;
      return outer.char !== 123 || outer.brace === Brace.Object ? Brace.Object : Brace.Unknown;
    }
    return Brace.Object;
  };

  /** Scans template characters from `i` (just past a backtick or a `}`) to the closing backtick or a `${`. */
  const templateRest = (): boolean => {
    while (i < n) {
      const c = source.charCodeAt(i);
      if (c === BACKSLASH) i += 2;
      else if (c === 96) {
        i++;
        return true;
      } else if (c === 36 && source.charCodeAt(i + 1) === 123) {
        i += 2;
        stack.push({ char: 123, brace: Brace.Template });
        regexOk = true;
        return true;
      } else i++;
    }
    return false;
  };

  while (i < n) {
    if (!balanced) return undefined;
    const c = source.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === SLASH) {
      const next = source.charCodeAt(i + 1);
      if (next === SLASH) {
        while (i < n && !isLineEnd(source.charCodeAt(i))) i++;
        continue;
      }
      if (next === 42) {
        const close = source.indexOf('*/', i + 2);
        if (close < 0) return undefined;
        i = close + 2;
        continue;
      }
      if (regexOk === undefined) return undefined;
      if (regexOk) {
        i++;
        let inClass = false;
        for (;;) {
          if (i >= n) return undefined;
          const r = source.charCodeAt(i);
          if (isLineEnd(r)) return undefined;
          if (r === BACKSLASH) i++;
          else if (r === 91) inClass = true;
          else if (r === 93) inClass = false;
          else if (r === SLASH && !inClass) break;
          i++;
        }
        i++;
        while (i < n && isNameChar(source.charCodeAt(i))) i++;
        token(Tok.Value, '/re/', start, i);
        continue;
      }
    }
    if (c === 39 || c === 34) {
      i++;
      for (;;) {
        if (i >= n) return undefined;
        const s = source.charCodeAt(i);
        if (s === c) break;
        if (s === BACKSLASH) {
          i++;
          if (source.charCodeAt(i) === CR && source.charCodeAt(i + 1) === NEWLINE) i++;
        } else if (s === NEWLINE || s === CR) return undefined;
        i++;
      }
      i++;
      token(Tok.Value, '"', start, i);
      continue;
    }
    if (c === 96) {
      i++;
      // Part of the current argument before its `${` (if any) opens a bracket of its own.
      inArgument(start, i, '`');
      const depth = stack.length;
      if (!templateRest()) return undefined;
      // A template that opened a `${` is a value only once its last part is scanned.
      if (stack.length === depth) token(Tok.Value, '`', start, i);
      else {
        pendingName = undefined;
        prevTok = Tok.Punct;
        prevText = '${';
      }
      continue;
    }
    if (
      c === 125 &&
      stack[stack.length - 1]?.brace === Brace.Template &&
      stack[stack.length - 1]?.char === 123
    ) {
      stack.pop();
      i++;
      const depth = stack.length;
      if (!templateRest()) return undefined;
      if (stack.length === depth) token(Tok.Value, '`', start, i);
      else {
        prevTok = Tok.Punct;
        prevText = '${';
      }
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(source.charCodeAt(i + 1)))) {
      const radix = c === 48 && /[xXoObB]/.test(source[i + 1] ?? '');
      let dot = c === 46;
      i++;
      for (;;) {
        const d = source.charCodeAt(i);
        if (isNameChar(d)) i++;
        else if (d === 46 && !dot && !radix) {
          dot = true;
          i++;
        } else if (
          (d === 43 || d === 45) &&
          !radix &&
          (source.charCodeAt(i - 1) === 101 || source.charCodeAt(i - 1) === 69)
        )
          i++;
        else break;
      }
      token(Tok.Value, '0', start, i);
      continue;
    }
    if (isNameChar(c)) {
      while (i < n && isNameChar(source.charCodeAt(i))) i++;
      token(Tok.Name, source.slice(start, i), start, i);
      continue;
    }
    const two = source.slice(i, i + 2);
    let text: string;
    if (source.startsWith('...', i)) text = '...';
    else if (two === '=>' || two === '++' || two === '--') text = two;
    else if (two === '?.' && !isDigit(source.charCodeAt(i + 2))) text = '?.';
    else text = source[i] as string;
    // HTML-like comments (`<!--`, and `-->` first on a line) are comments in sloppy scripts: too rare
    // to model, and `x-->0` is not one.
    if (
      (text === '<' && source.startsWith('!--', i + 1)) ||
      (text === '--' && source[i + 2] === '>' && firstOnLine(source, i))
    )
      return undefined;
    i += text.length;
    token(Tok.Punct, text, start, i);
  }
  if (closedCall) found.push(closedCall);
  if (!balanced || stack.length > 0) return undefined;
  return found;
}
