// Calls that never return, for failure paths that must leave. `n = write(fd, hdr, len); if (n != len)
// die("short header");` leaves as surely as `exit(1)` when `die` ends in `exit` on every path, which
// its body shows; C code reports and leaves through such a function, through a statement macro
// (`#define fatal(...) do { fprintf(stderr, __VA_ARGS__); exit(1); } while (0)`), or through the same
// statements written out in a `do { ... } while (0)` block. The library's own are known by name.
import type { Node } from 'web-tree-sitter';
import { balanced, macroBodies } from './macroStatements';
import { constantCondition, namedKids } from './syntax';
import { LITERALS_AND_COMMENTS } from './comments';

/** The C library's calls that never return. */
const LIBRARY = /^(?:_?exit|_Exit|quick_exit|abort|err|errx|verr|verrx|longjmp|siglongjmp)$/;

/** How deep a chain of helpers (`die` calling `vdie` calling `exit`) is followed. */
const MAX_DEPTH = 3;

/**
 * What a call that never returns is looked up in: the file's text and its included macros, then the
 * functions of other files the tree shows to leave (see leavingFunctions.ts).
 */
export interface NoReturnSources {
  readonly text: string;
  readonly included?: string;
  readonly leaving?: ReadonlySet<string>;
}

/** True for the C library's calls that never return. */
export function libraryNeverReturns(name: string): boolean {
  return LIBRARY.test(name);
}

/**
 * `stmts` with a block that ends them opened: the statements of a trailing `{ ... }`, or of a trailing
 * `do { ... } while (0)` (which runs once), stand in its place, as they run. A `do` block holding a
 * `break` or `continue` is left whole: those leave the block, not the code around it.
 */
export function openTrailingBlocks(stmts: readonly Node[]): Node[] {
  let list = [...stmts];
  for (;;) {
    const last = list[list.length - 1];
    let inner: Node | null | undefined;
    if (last?.type === 'compound_statement') inner = last;
    else if (
      last?.type === 'do_statement' &&
      constantCondition(last.childForFieldName('condition')) === 0 &&
      last.descendantsOfType(['break_statement', 'continue_statement']).length === 0
    )
      inner = last.childForFieldName('body');
    if (inner?.type !== 'compound_statement') return list;
    list = [...list.slice(0, -1), ...namedKids(inner)];
  }
}

/**
 * True when a statement calling `name` never returns: a library call that never does; a statement
 * macro every definition of which ends in one (or in `return` or `goto`, which leave as well); a
 * function of the file whose body holds no `return` and ends in one, or that the file declares
 * `noreturn` (`__attribute__((noreturn))`, `_Noreturn`, a `NORETURN` macro); a function the file does
 * not define that the tree shows to leave (`sources.leaving`). Read from the text: the helper's
 * definition need not be among the functions parsed.
 */
export function neverReturns(name: string, sources: NoReturnSources, depth = 0): boolean {
  if (LIBRARY.test(name)) return true;
  if (depth >= MAX_DEPTH || !/^[A-Za-z_]\w*$/.test(name)) return false;
  const bodies = macroBodies(name, sources.text, sources.included);
  if (bodies) return bodies.every((body) => bodyLeaves(body, sources, depth + 1));
  const memo = memoFor(sources);
  const known = memo.get(name);
  if (known !== undefined) return known;
  // A helper calling itself (or a cycle) is taken not to leave while it is being read.
  memo.set(name, false);
  const answer =
    declaredNoReturn(name, sources.text) ||
    (definedToLeave(name, sources, depth) ?? sources.leaving?.has(name) ?? false);
  memo.set(name, answer);
  return answer;
}

/**
 * The answers for the last text read (each failure path of a file asks again), with the tree's leaving
 * functions it was read with: a first pass not told them answers otherwise.
 */
let memoText: string | undefined;
let memoLeaving: ReadonlySet<string> | undefined;
let memoAnswers = new Map<string, boolean>();

function memoFor(sources: NoReturnSources): Map<string, boolean> {
  if (memoText !== sources.text || memoLeaving !== sources.leaving) {
    memoText = sources.text;
    memoLeaving = sources.leaving;
    memoAnswers = new Map();
  }
  return memoAnswers;
}

/**
 * True when a declaration of `name` in `text` (a statement ending in `;`) says it does not return. The
 * declaration starts after the last `;` or brace before the name (a call that opens a body is preceded
 * by its function's header, which says nothing of the call); directive lines inside it are left out:
 * `#if !defined(NORETURN)` before a function tests a macro, it declares nothing.
 */
function declaredNoReturn(name: string, text: string): boolean {
  if (!/noreturn/i.test(text)) return false;
  for (const m of text.matchAll(new RegExp(`\\b${name}\\s*\\(`, 'g'))) {
    const from =
      Math.max(
        text.lastIndexOf(';', m.index),
        text.lastIndexOf('}', m.index),
        text.lastIndexOf('{', m.index),
      ) + 1;
    const semicolon = text.indexOf(';', m.index);
    const brace = text.indexOf('{', m.index);
    if (semicolon === -1 || (brace !== -1 && brace < semicolon)) continue;
    if (/noreturn/i.test(withoutDirectives(text.slice(from, semicolon)))) return true;
  }
  return false;
}

/** `text` without its preprocessor directive lines (a `\`-continued directive's lines with it). */
function withoutDirectives(text: string): string {
  return text.replace(/^[ \t]*#(?:[^\n]*\\\n)*[^\n]*/gm, '');
}

/**
 * Whether the file's definition of `name` has a body that holds no `return` and ends in a call that never
 * returns; undefined when the file defines no `name` (or its body cannot be read).
 */
function definedToLeave(name: string, sources: NoReturnSources, depth: number): boolean | undefined {
  const { text } = sources;
  // The definition's line starts with its type or its name (a call in a test, `if (die(x)) {`, does not).
  const header = new RegExp(`^(?:[A-Za-z_][^\\n;{}#=()]*[\\s*])?${name}\\s*\\([^;{}]*\\)\\s*\\{`, 'm').exec(
    text,
  );
  if (!header) return undefined;
  const open = header.index + header[0].length - 1;
  const body = blockAt(text, open);
  if (body === undefined) return undefined;
  const code = withoutComments(body);
  if (/\breturn\b/.test(code)) return false;
  return bodyLeaves(code, sources, depth + 1, false);
}

/** The text inside the braces opening at `open` (strings and comments skipped), or undefined. */
function blockAt(text: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) return undefined;
      i = end + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

function withoutComments(text: string): string {
  return text.replace(LITERALS_AND_COMMENTS, (m) => (m.startsWith('/') ? ' ' : m));
}

/** `do { ... } while (0)`, braces or a trailing `;` around a macro body. */
const WRAPPERS = [/^do\s*\{([\s\S]*)\}\s*while\s*\(\s*0\s*\)\s*;?$/, /^\{([\s\S]*)\}$/, /^([\s\S]*);$/];

/**
 * True when a body (a macro's, as written, `\`-continued; or a function's) leaves on every path: a
 * statement at its top level is a call that never returns, or (in a macro, which leaves the function
 * around its use) `return` or `goto`. Every path reaches such a statement, wherever it stands (`exit(1);
 * va_end(ap);` leaves before its `va_end`), unless a `goto` jumps past it: then only the last counts.
 */
function bodyLeaves(body: string, sources: NoReturnSources, depth: number, macro = true): boolean {
  let text = body.replace(/\\\n/g, ' ').trim();
  for (let again = true; again;) {
    again = false;
    for (const w of WRAPPERS) {
      const m = w.exec(text);
      if (m && balanced(m[1]!)) {
        text = m[1]!.trim();
        again = true;
      }
    }
  }
  const statements = topStatements(text);
  if (statements === undefined || statements.length === 0) return false;
  const reached = /\bgoto\b/.test(text) ? statements.slice(-1) : statements;
  return reached.some((s) => statementLeaves(s, sources, depth, macro));
}

/** True when a statement of a body, as {@link bodyLeaves} reads it, leaves. */
function statementLeaves(
  statement: string,
  sources: NoReturnSources,
  depth: number,
  macro: boolean,
): boolean {
  if (macro && /^(?:return|goto)\b/.test(statement)) return true;
  const m = /^(?:\(\s*void\s*\)\s*)?([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(statement);
  return !!m && balanced(m[2]!) && neverReturns(m[1]!, sources, depth);
}

/** The statements of `text` at the top level (outside any parentheses or braces), trimmed. */
function topStatements(text: string): string[] | undefined {
  let depth = 0;
  let start = 0;
  const statements: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      // Skip the literal (its `;` and braces are none).
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
    } else if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') {
      depth--;
      // A block closing at the top level ends a statement (`if (x) { ... }`).
      if (depth === 0 && ch === '}') {
        statements.push(text.slice(start, i + 1).trim());
        start = i + 1;
      }
    } else if (ch === ';' && depth === 0) {
      statements.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) statements.push(rest);
  return depth === 0 ? statements.filter((s) => s !== '') : undefined;
}
