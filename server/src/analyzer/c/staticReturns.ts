// Functions that return static storage: `static char buf[16]; ... return buf;`, a pointer into a
// file-scope array (`char *s = digits + 20; ... return s;`), or the library's (`inet_ntoa`, `ctime`).
// The next call overwrites what the last one returned, so two writes each sending such a result send
// the last value twice once gathered into one writev (which reads every buffer when it runs). Each
// statement is marked with the calls it makes of such functions, and each write with the ones whose
// result it sends (in its arguments, or through a local assigned from a call); the run joiner
// staticReturns ends a run where a later call overwrites what an earlier write sent.
import type { Node } from 'web-tree-sitter';
import { C_STATIC_RETURNING } from '../catalogue';
import type { Step } from '../model';
import type { CFunctionFact } from './functionFacts';
import { calleeName, calls, declaredName, identifiers } from './syntax';

/** Arrays declared in a statement's text (`char a[8], b[N]`), its initialiser left out. */
function arraysIn(declaration: string): string[] {
  const names: string[] = [];
  const head = declaration.split('=')[0]!;
  for (const m of head.matchAll(/(\w+)\s*\[/g)) names.push(m[1]!);
  return names;
}

/**
 * Arrays declared at file level (a line starting with the type: a body's statements are indented),
 * `const` ones left out: a table that never changes gives every caller the same bytes.
 */
export const FILE_ARRAY = /^(?:static\s+)?[A-Za-z_][\w \t*]*?[\s*]\w+\s*\[[^;{}]*;/gm;

/** {@link FILE_ARRAY} tried at one place (sticky). */
const FILE_ARRAY_HERE = new RegExp(FILE_ARRAY.source, 'my');

/** Whether a character code may start a C name. */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** Whether a declaration's head may run over the character code before its `[`: a name's, a blank, a `*`. */
function isHeadCharacter(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 32 || c === 9 || c === 42;
}

/**
 * The texts of {@link FILE_ARRAY}'s matches in `clean`, as its global search finds them, tried only
 * where a line starts with a name and runs over type words, names, blanks and stars to a `[` or to
 * other white space (a line feed inside the head): the search tried every line of every file, and
 * most (a definition's head, a prototype, a call) reach a `(` first. Matches start lines and end at a
 * `;`, which starts none: a line at or after a match's end is where the search would go on.
 */
export function fileArrayDeclarations(clean: string): string[] {
  // Lines end at other terminators too for `^`; such text is rare, and searched as the pattern would.
  // Asked with indexOf rather than a character class: a search for one character is many times faster.
  if (clean.includes('\r') || clean.includes('\u2028') || clean.includes('\u2029'))
    return [...clean.matchAll(FILE_ARRAY)].map((m) => m[0]);
  const found: string[] = [];
  for (let line = 0; line < clean.length;) {
    const next = clean.indexOf('\n', line);
    const end = next < 0 ? clean.length : next;
    let k = line;
    if (isNameStart(clean.charCodeAt(line))) while (k < end && isHeadCharacter(clean.charCodeAt(k))) k++;
    // A match's head reaches its `[` over those characters, or over white space a line feed ends.
    if (k > line && (k === end ? next >= 0 : clean[k] === '[' || /\s/.test(clean[k]!))) {
      FILE_ARRAY_HERE.lastIndex = line;
      const m = FILE_ARRAY_HERE.exec(clean);
      if (m) {
        found.push(m[0]);
        const after = clean.indexOf('\n', FILE_ARRAY_HERE.lastIndex);
        if (after < 0) break;
        line = after + 1;
        continue;
      }
    }
    if (next < 0) break;
    line = next + 1;
  }
  return found;
}

/** A `static` declaration inside a body, up to its `;`. */
const STATIC_LOCAL = /\bstatic\s[^;{}]*;/g;

/** `name = value;` (also declared), the value up to the `;`. */
const ASSIGNED = /(\w+)\s*=(?!=)\s*([^;]+);/g;

/** A `return value;`. */
const RETURNED = /\breturn\b([^;]*);/g;

let lastText: string | undefined;
let lastArrays: ReadonlySet<string> = new Set();

/** The file-level arrays of `clean` that may change (the last text's, remembered). */
function fileArrays(clean: string): ReadonlySet<string> {
  if (clean === lastText) return lastArrays;
  const found = new Set<string>();
  for (const m of fileArrayDeclarations(clean)) {
    if (/\bconst\b|\bextern\b|\(/.test(m) || /^(?:return|case|goto|else|typedef)\b/.test(m)) continue;
    for (const n of arraysIn(m)) found.add(n);
  }
  lastText = clean;
  lastArrays = found;
  return found;
}

/** The array a pointer expression's text points into: `buf`, `buf + n`, `&buf[i]`, under casts. */
function pointedArray(value: string): string | undefined {
  let v = value.trim();
  // Outer parentheses and casts (`(char *)`, `(const char *)`).
  for (let m = /^\(\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?\w+\s*\*+\s*\)/.exec(v); m;) {
    v = v.slice(m[0].length).trim();
    m = /^\(\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?\w+\s*\*+\s*\)/.exec(v);
  }
  while (v.startsWith('(') && v.endsWith(')')) v = v.slice(1, -1).trim();
  const address = /^&\s*(\w+)\s*\[[^\]]*\]$/.exec(v);
  if (address) return address[1];
  const plain = /^(\w+)\s*(?:[+-][^=]*)?$/.exec(v);
  return plain && !/^\d/.test(plain[1]!) ? plain[1] : undefined;
}

/**
 * True when the body `clean[open..close]` (comments and literals blanked) returns static storage:
 * some `return` gives a static local array, a file-level array, or a pointer assigned from one
 * (`char *s = digits + 20; ... return s;`). Arrays declared `const` are left out (they never change).
 */
export function returnsStatic(clean: string, open: number, close: number): boolean {
  const body = clean.slice(open + 1, close);
  if (!/\breturn\b/.test(body)) return false;
  const held = new Set<string>();
  for (const m of body.matchAll(STATIC_LOCAL)) {
    if (/\bconst\b/.test(m[0])) continue;
    for (const n of arraysIn(m[0])) held.add(n);
  }
  for (const n of fileArrays(clean)) {
    // A local of the same name hides the file's array.
    if (body.includes(n) && !new RegExp(`[\\w*]\\s+\\*?\\s*${n}\\s*[\\[;=,]`).test(body)) held.add(n);
  }
  if (held.size === 0) return false;
  const assigned = [...body.matchAll(ASSIGNED)];
  for (let grew = true; grew;) {
    grew = false;
    for (const m of assigned) {
      const array = pointedArray(m[2]!);
      if (array && held.has(array) && !held.has(m[1]!)) {
        held.add(m[1]!);
        grew = true;
      }
    }
  }
  for (const m of body.matchAll(RETURNED)) {
    const array = pointedArray(m[1]!);
    if (array && held.has(array)) return true;
  }
  return false;
}

/**
 * The functions returning static storage where a file is read: the library's, the file's own
 * (`functions`, see {@link returnsStatic}) and other files' (`elsewhere`) it does not define (`own`).
 */
export function staticReturningWith(
  functions: readonly CFunctionFact[],
  own: ReadonlySet<string>,
  elsewhere: ReadonlySet<string>,
): ReadonlySet<string> {
  const found = new Set(C_STATIC_RETURNING);
  for (const f of functions) if (f.returnsStatic) found.add(f.name);
  for (const n of elsewhere) if (!own.has(n)) found.add(n);
  return found.size === C_STATIC_RETURNING.size ? C_STATIC_RETURNING : found;
}

/** `name = value` of every plain assignment and initialised declarator in `fn`. */
function assignments(fn: Node): { name: string; value: Node }[] {
  const found: { name: string; value: Node }[] = [];
  for (const node of fn.descendantsOfType(['init_declarator', 'assignment_expression'])) {
    if (!node) continue;
    if (node.type === 'init_declarator') {
      const name = declaredName(node.childForFieldName('declarator'));
      const value = node.childForFieldName('value');
      if (name && value) found.push({ name, value });
    } else if (node.childForFieldName('operator')?.text === '=') {
      const left = node.childForFieldName('left');
      const value = node.childForFieldName('right');
      if (left?.type === 'identifier' && value) found.push({ name: left.text, value });
    }
  }
  return found;
}

const patterns = new WeakMap<ReadonlySet<string>, RegExp>();

/** A call of one of `names`, in text. */
function callPattern(names: ReadonlySet<string>): RegExp {
  let p = patterns.get(names);
  if (!p) {
    p = new RegExp(`\\b(?:${[...names].filter((n) => /^\w+$/.test(n)).join('|')})\\s*\\(`);
    patterns.set(names, p);
  }
  return p;
}

/** The functions of `names` called in `node`. */
function calledOf(node: Node, names: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const call of calls(node)) {
    const name = calleeName(call);
    if (name && names.has(name)) found.add(name);
  }
  return [...found];
}

/** By parse tree (a file, or its macro expansion), by function: what {@link heldResults} found. */
const heldByFunction = new WeakMap<object, Map<number, ReadonlyMap<string, readonly string[]>>>();

/** The locals of the function around `stmt` assigned from calls of `names`, with those names. */
function heldResults(stmt: Node, names: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
  let fn: Node | null = stmt;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return new Map();
  const byFn = heldByFunction.get(fn.tree) ?? new Map<number, ReadonlyMap<string, readonly string[]>>();
  heldByFunction.set(fn.tree, byFn);
  const known = byFn.get(fn.id);
  if (known) return known;
  const held = new Map<string, string[]>();
  const pattern = callPattern(names);
  for (const { name, value } of assignments(fn)) {
    if (!pattern.test(value.text)) continue;
    const called = calledOf(value, names);
    if (called.length > 0) held.set(name, [...(held.get(name) ?? []), ...called]);
  }
  byFn.set(fn.id, held);
  return held;
}

/**
 * `step` (read from `stmt`) with the calls it makes of functions returning static storage (`names`)
 * and, for a write, those whose results it sends. A call of a helper of `senders` (see
 * staticSenders.ts) is a call of the functions whose storage it sends as well. Does not modify its
 * arguments.
 */
export function withStaticCalls(
  step: Step,
  stmt: Node,
  text: string,
  names: ReadonlySet<string>,
  senders?: ReadonlyMap<string, readonly string[]>,
): Step {
  if (step.kind !== 'write' && step.kind !== 'other') return step;
  if (names.size === 0) return step;
  const pattern = callPattern(names);
  let own = pattern.test(text.slice(stmt.startIndex, stmt.endIndex)) ? calledOf(stmt, names) : [];
  if (senders && own.some((n) => senders.has(n)))
    own = [...new Set(own.flatMap((n) => [n, ...(senders.get(n) ?? [])]))];
  if (step.kind === 'other') return own.length > 0 ? { ...step, staticCalls: own } : step;
  // A write that formats its arguments sends text of its own: the storage it read is not sent.
  if (step.formatted) return own.length > 0 ? { ...step, staticCalls: own } : step;
  const held = heldResults(stmt, names);
  const sent = new Set(own);
  if (held.size > 0) for (const id of identifiers(stmt)) for (const f of held.get(id) ?? []) sent.add(f);
  if (own.length === 0 && sent.size === 0) return step;
  return {
    ...step,
    ...(own.length > 0 && { staticCalls: own }),
    ...(sent.size > 0 && { staticSent: [...sent] }),
  };
}
