// Functions of a file that write nothing to a descriptor they are given, read from their bodies: a
// wait until the descriptor is writable (`select()` on it) that logs its failures elsewhere. A
// write-in-full loop that waits with such a function in its EAGAIN branch still makes one write per
// call, whatever the wait's name says: a name that reads as I/O (`wait_for_write(fd, timeout)`) is only
// a guess where no body is read, and a body wins over it. Read from the text alone, as the fact base
// reads bodies (the batch run parses only the parts that call writes, and a wait calls none): what the
// text does not show plainly (a call through a pointer, a second definition under `#if`) leaves the
// parameter written.
import { ioName, libraryWaits } from '../catalogue';
import { functionMacros } from './functionFacts';
import { blankedKeepingLines } from './comments';
import { parameterName } from './parameterName';
import { changedLines, changedLinesFree } from './textChanges';

/** Comments, string and character literals, blanked (same length) before reading a body. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Names that look like calls but are not. */
const KEYWORDS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'do', 'else', 'case']);

/** How deep calls of the file's own functions are followed, the parameter passed down. */
const DEPTH = 3;

/**
 * For the file `text`: the parameters (by index) a function defined there writes nothing to, or
 * undefined when its body is not read (no single definition in the file). A parameter is written when
 * the body hands it (or a name copied from it) to a call, before any format string, that is not
 * `quiet` (no output), a library wait, or one of the file's functions that writes nothing to it in turn.
 * A function-like macro of the file or of `included` (its headers' definitions) with no function of
 * its name is read as its expansion stands at its use, where a helper's reading takes a call whose name
 * does not read as I/O for no write: `#define write_ready(fd, t) poll_one((fd), POLLOUT, (t))`
 * writes nothing to `fd`, whatever file defines `poll_one`.
 */
export function silentParameters(
  text: string,
  quiet: (name: string) => boolean,
  included?: string,
): (name: string) => ReadonlySet<number> | undefined {
  const file = definitionsOf(text);
  const macro = macrosOf(text, included);
  const definitionOf = (name: string) => {
    const def = file(name);
    if (def) return { def, expands: false };
    const expansion = macro(name);
    return expansion && { def: expansion, expands: true };
  };
  const answers = new Map<string, ReadonlySet<number> | undefined>();
  const silent = (name: string, index: number, depth: number): boolean => {
    const found = definitionOf(name);
    if (!found || index >= found.def.params.length) return false;
    const { def, expands } = found;
    const names = copies(def.body, def.params[index]!);
    return calledWith(def.body, names).every(
      ({ callee, arg }) =>
        callee !== undefined &&
        callee !== name &&
        (quiet(callee) ||
          libraryWaits(callee) ||
          (expands && !def.params.includes(callee) && !ioName(callee) && !file(callee) && !macro(callee)) ||
          (depth < DEPTH && silent(callee, arg, depth + 1))),
    );
  };
  return (name) => {
    if (answers.has(name)) return answers.get(name);
    const def = definitionOf(name)?.def;
    const answer = def ? new Set(def.params.map((_, k) => k).filter((k) => silent(name, k, 0))) : undefined;
    answers.set(name, answer);
    return answer;
  };
}

/** A function's one definition in a file: its parameter names and its body (blanked). */
interface Definition {
  readonly params: readonly string[];
  readonly body: string;
}

/**
 * The definitions of the last file asked about, by name. A file's analysis asks once for each
 * reading of its helpers (every round of its partial parse, then with the fact base's answers),
 * each time with other answers for what is quiet: the blanked text and the definitions found in it
 * are the same every time, and finding one searches the whole file.
 */
let lastFile: { text: string; clean?: string; found: Map<string, Definition | undefined> } | undefined;

/** {@link definition} in `text` (blanked once), remembered for the last text asked about. */
function definitionsOf(text: string): (name: string) => Definition | undefined {
  if (lastFile?.text !== text) lastFile = { text, clean: editedClean(lastFile, text), found: new Map() };
  const file = lastFile;
  return (name) => {
    if (file.found.has(name)) return file.found.get(name);
    file.clean ??= text.replace(NOISE, (m) =>
      m.startsWith('"') ? `"${' '.repeat(m.length - 2)}"` : ' '.repeat(m.length),
    );
    const def = definition(file.clean, name);
    file.found.set(name, def);
    return def;
  };
}

/**
 * What a comment, a literal or a directive could start or end in: an edit of lines holding none of
 * these (see changedLinesFree) leaves every such construct of the text where it was.
 */
const NOISE_OR_DIRECTIVE = /[/*"'#\\]/;

/**
 * `text` blanked as {@link definitionsOf} blanks it, from the blanked text of the version `last` held
 * (an edited document's analysis asks again at every keystroke): only the changed lines are new, when
 * they neither open nor close a comment or a literal: they are then wholly inside one comment, blanked,
 * or outside any, as the lines they replace were. Undefined when the whole text must be blanked anew.
 */
function editedClean(last: typeof lastFile, text: string): string | undefined {
  if (last?.clean === undefined) return undefined;
  const change = changedLines(last.text, text);
  if (!change || !changedLinesFree(last.text, text, change, NOISE_OR_DIRECTIVE)) return undefined;
  const { start, beforeEnd, afterEnd } = change;
  // Lines inside a comment have the line end before them blanked too (the comment runs on over it),
  // and a comment can neither start nor end in them; no literal or `//` comment holds a line end.
  const inComment = start > 0 && last.clean.charCodeAt(start - 1) !== 10;
  const lines = text.slice(start, afterEnd);
  return (
    last.clean.slice(0, start) + (inComment ? ' '.repeat(lines.length) : lines) + last.clean.slice(beforeEnd)
  );
}

/** The function-like macros of the last file asked about (see {@link macrosOf}). */
let lastMacros: { text: string; found?: Map<string, Definition | undefined> } | undefined;

/**
 * The function-like macros of the headers' texts asked about lately, by text. The second pass reads
 * the files of a tree with their headers' definitions, and files that include the same headers have
 * the same text of them: reading it again for each file was most of the second pass's reading of
 * wait macros.
 */
const headerMacros = new Map<string, Map<string, Definition | undefined>>();
const HEADER_MACROS = 32;

/**
 * The function-like macros `text` and `included` define, by name: those defined once (the file's own
 * first, as the preprocessor would see them), as a {@link Definition} of their expansion.
 */
function macrosOf(text: string, included: string | undefined): (name: string) => Definition | undefined {
  // Asked again for every reading of the same file's helpers, with the same headers: cleaning the
  // headers' text each time cost as much as a pass over it.
  if (lastMacros?.text !== text) lastMacros = { text, ...keptMacros(lastMacros, text) };
  const memo = lastMacros;
  let headers: Map<string, Definition | undefined> | undefined;
  return (name) => {
    const own = (memo.found ??= sourceMacros(text));
    if (own.has(name) || included === undefined) return own.get(name);
    if (!headers) {
      headers = headerMacros.get(included);
      if (!headers) {
        headers = sourceMacros(included);
        if (headerMacros.size >= HEADER_MACROS) headerMacros.clear();
        headerMacros.set(included, headers);
      }
    }
    return headers.get(name);
  };
}

/**
 * The macros `last` found, when `text` differs from its text only in lines that hold no directive, no
 * continuation, and neither open nor close a comment or a literal (see changedLinesFree): the lines of
 * every definition, and what blanking them found, are the same. An edit's analysis in the editor finds
 * the file's macros again at every keystroke, and blanking the whole text for them was most of it.
 */
function keptMacros(
  last: typeof lastMacros,
  text: string,
): { found: Map<string, Definition | undefined> } | undefined {
  if (last?.found === undefined) return undefined;
  const change = changedLines(last.text, text);
  return change && changedLinesFree(last.text, text, change, NOISE_OR_DIRECTIVE)
    ? { found: last.found }
    : undefined;
}

/** The function-like macros one text defines, by name: undefined for a name defined twice. */
function sourceMacros(source: string): Map<string, Definition | undefined> {
  const own = new Map<string, Definition | undefined>();
  if (!source.includes('#')) return own;
  const clean = source.replace(NOISE, (c) =>
    c.startsWith('"') ? `"${' '.repeat(c.length - 2)}"` : blankedKeepingLines(c),
  );
  for (const m of functionMacros(clean)) {
    // A variadic parameter is `__VA_ARGS__` in the body, or the name before its `...`.
    const params = m[2]!.split(',').map((p) => {
      const name = p.trim();
      return name === '...' ? '__VA_ARGS__' : name.replace(/\s*\.\.\.$/, '');
    });
    const body = m[3]!.replace(/\\\r?\n/g, ' ');
    own.set(m[1]!, own.has(m[1]!) ? undefined : { params, body: `{${body}}` });
  }
  return own;
}

/** A name of word characters that does not start with a digit. */
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/**
 * The one head `(?:^|[\s*])name\s*\(([^()]*)\)\s*\{` matches in `clean` (a match, and where its `{`
 * stands), or undefined for none or several: for an identifier `name`, tried at each place the name
 * stands. The pattern's search, which starts with no text to look for, tried every character of the
 * file for every name asked about. Such matches cannot overlap (a match's name follows no word
 * character), so each place answers as the search would.
 */
function headOf(clean: string, name: string): [RegExpExecArray, number] | undefined {
  let head: [RegExpExecArray, number] | undefined;
  for (let at = clean.indexOf(name); at >= 0; at = clean.indexOf(name, at + 1)) {
    if (at > 0 && !HEAD_BEFORE.test(clean[at - 1]!)) continue;
    HEAD_AFTER.lastIndex = at + name.length;
    const m = HEAD_AFTER.exec(clean);
    if (!m) continue;
    // Two definitions (under #if alternatives): neither is the one.
    if (head) return undefined;
    head = [m, HEAD_AFTER.lastIndex - 1];
  }
  return head;
}

/** {@link headOf} by the pattern's own search, for any other `name` (empty, or with `$`). */
function headMatching(clean: string, name: string): [RegExpExecArray, number] | undefined {
  const header = new RegExp(`(?:^|[\\s*])${name}\\s*\\(([^()]*)\\)\\s*\\{`, 'gm');
  const found = [...clean.matchAll(header)];
  if (found.length !== 1) return undefined;
  const m = found[0]!;
  return [m, m.index + m[0].length - 1];
}

/** What stands before a definition's name: a line's start (tested apart), a space or a `*`. */
const HEAD_BEFORE = /[\s*]/;

/** What follows a definition's name: its parameter list, then its body's `{` (sticky). */
const HEAD_AFTER = /\s*\(([^()]*)\)\s*\{/y;

/** The one definition of `name` in `clean`: its parameter names and its body, or undefined. */
function definition(clean: string, name: string): Definition | undefined {
  const head = IDENTIFIER.test(name) ? headOf(clean, name) : headMatching(clean, name);
  if (!head) return undefined;
  const [m, open] = head;
  let depth = 0;
  for (let k = open; k < clean.length; k++) {
    const c = clean[k];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const params = m[1]!.split(',').map((p) => parameterName(p.trim()));
      return { params, body: clean.slice(open, k + 1) };
    }
  }
  return undefined;
}

/** `param` and the names the body copies it into (`int s = fd;`, `s = fd + 0;`), two levels deep. */
function copies(body: string, param: string): Set<string> {
  const names = new Set([param]);
  for (let round = 0; round < 2; round++) {
    for (const m of body.matchAll(/([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?=(?!=)([^;]*)/g)) {
      if ([...names].some((n) => new RegExp(`\\b${n}\\b`).test(m[2]!))) names.add(m[1]!);
    }
  }
  return names;
}

/**
 * The calls in `body` given one of `names` before any format string: the callee (undefined for a
 * call through a pointer or a member) and the argument's index.
 */
function calledWith(body: string, names: ReadonlySet<string>): { callee?: string; arg: number }[] {
  const found: { callee?: string; arg: number }[] = [];
  // Each name's pattern made once, when first tested (a macro's parameter is not always a name).
  const patterns = new Map<string, RegExp>();
  const named = (n: string) => {
    let pattern = patterns.get(n);
    if (!pattern) patterns.set(n, (pattern = new RegExp(`\\b${n}\\b`)));
    return pattern;
  };
  for (let at = body.indexOf('('); at >= 0; at = body.indexOf('(', at + 1)) {
    const callee = nameBefore(body, at);
    if (callee && KEYWORDS.has(callee)) continue;
    const direct = callee !== undefined && !memberBefore(body, at - callee.length);
    // A parenthesis after no name is a cast or a grouping, unless a call through a pointer follows it.
    if (!callee && body[spacesBefore(body, at, 0) - 1] !== ')') continue;
    const args = argumentsAt(body, at);
    const format = args.findIndex((a) => a.trim().startsWith('"'));
    args.forEach((a, k) => {
      if (format >= 0 && k > format) return;
      if ([...names].some((n) => named(n).test(a))) found.push(direct ? { callee, arg: k } : { arg: k });
    });
  }
  return found;
}

// The three readers below look back from a position by hand, as `/...\s*$/` on the text before it
// would, without the searches from its start that made reading a long body's calls quadratic.

/** A character `\s` matches. */
const SPACE = /\s/;

/** Where the white space (`\s`) that ends `text[from..end)` starts. */
function spacesBefore(text: string, end: number, from: number): number {
  let k = end;
  while (k > from && SPACE.test(text[k - 1]!)) k--;
  return k;
}

/**
 * The name right before `at`, past white space, looked for in the 80 characters before it (as
 * `([A-Za-z_]\w*)?\s*$` would find it there): from its first letter or `_` on.
 */
function nameBefore(text: string, at: number): string | undefined {
  const from = Math.max(0, at - 80);
  const end = spacesBefore(text, at, from);
  let start = end;
  while (start > from && isWord(text.charCodeAt(start - 1))) start--;
  while (start < end && isDigit(text.charCodeAt(start))) start++;
  return start < end ? text.slice(start, end) : undefined;
}

/** Whether `text[0..end)` ends with `->` or `.` and white space (a member's name follows). */
function memberBefore(text: string, end: number): boolean {
  const k = spacesBefore(text, end, 0);
  return text[k - 1] === '.' || (text[k - 1] === '>' && text[k - 2] === '-');
}

function isWord(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isDigit(code) || code === 95;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The top-level arguments of the call whose `(` is at `open`. */
function argumentsAt(body: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let k = open; k < body.length; k++) {
    const c = body[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        args.push(body.slice(start, k));
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(body.slice(start, k));
      start = k + 1;
    }
  }
  return args;
}
