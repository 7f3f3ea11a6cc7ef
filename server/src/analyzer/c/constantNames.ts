// Names whose value no statement can change. A test between writes often compares with a name the
// function does not declare (`if (kind == KIND_LAST) return 0;`, `if (mode & MODE_QUIET)`): read as a
// global, a call before it might change it, so the run stopped there. Where the file or a header it
// includes defines the name as one of these, reading it reads a constant:
// - an enum member (C gives each an integer constant);
// - an object-like `#define` every definition of which is a constant expression: literals, operators,
//   parentheses, casts to C's integer words or `_t` types, `sizeof`, and other such names
//   (`#define TAIL_LEN (HDR_LEN + 2)`). A body with a call (`#define MODE get_mode()`) or a name of
//   anything else (`#define MODE cur_mode`) is not one;
// - a file-scope object declared `const` and not through a pointer (`static const int limit = 4;`):
//   `char *const p` may point at bytes that change, and `const char *p` may be re-pointed. One the text
//   assigns, increments or takes the address of anyway is left out.
// The text is read as written, without preprocessing: a name defined once as a constant and once as
// anything else (under two `#if` arms) is left out.
import { lineMatches } from './lineMatches';

/** `#define NAME body` of an object-like macro on one line (sticky: see lineMatches). */
const OBJECT_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])([^\n]*)$/my;

/** Comments, for dropping them from a definition's body. */
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/.*$/g;

/** A token of a constant expression; identifiers are checked apart (see {@link constantBody}). */
const TOKEN =
  /\s+|0[xX][\da-fA-F]+[uUlL]*|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[uUlLfF]*|'(?:\\.|[^'\\])+'|"(?:\\.|[^"\\])*"|<<|>>|[-+*/%&|^~!<>=?:()]|[A-Za-z_]\w*/y;

/** The words a cast or a `sizeof` of a constant expression may hold. */
const TYPE_WORDS: ReadonlySet<string> = new Set([
  'sizeof',
  'struct',
  'union',
  'enum',
  'void',
  'float',
  'double',
  'const',
  'signed',
  'unsigned',
  'char',
  'short',
  'int',
  'long',
]);

/** An enum's member list: `enum [tag] { ... }`. */
const ENUM_BODY = /\benum\b[^{;()]*\{([^{}]*)\}/g;

/** Comments and preprocessor lines inside an enum's member list. */
const ENUM_NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|^[ \t]*#[^\n]*/gm;

/** An enum member's name, at the start of its item. */
const MEMBER = /^\s*([A-Za-z_]\w*)\s*(?:=|$)/;

/**
 * A file-scope declaration (at a line's start) of one `const` object without a pointer: its name, then
 * `=`, `[` or `;` (sticky: see lineMatches). `volatile` is left out: something outside the program
 * may change it.
 */
const CONST_OBJECT =
  /^(?:(?:static|extern)[ \t]+)?(?:const[ \t]+)?(?:(?:unsigned|signed|struct|enum|union)[ \t]+)?[A-Za-z_]\w*(?:[ \t]+(?:int|long|char|short|const))*[ \t]+([A-Za-z_]\w*)[ \t]*(?:\[[^\]\n]*\][ \t]*)?(?:=|;)/my;

/** The text {@link constantNames} read last, and what it found there. */
let last: { readonly text: string; readonly found: ReadonlySet<string> } | undefined;

/**
 * The names `text` defines as constants: enum members, object-like macros of constant expressions and
 * `const` objects (see the file comment). `known`: names defined as constants elsewhere (an included
 * header's), which a macro's body may use. Reads `text` only.
 */
export function constantNames(text: string, known: ReadonlySet<string> = NO_NAMES): ReadonlySet<string> {
  if (last?.text === text && known.size === 0) return last.found;
  const found = new Set<string>();
  // Every name defined as anything else (a macro of another body, a variable), kept out at the end.
  const other = new Set<string>();
  if (text.includes('enum'))
    for (const m of text.matchAll(ENUM_BODY))
      for (const item of m[1]!.replace(ENUM_NOISE, ' ').split(',')) {
        const member = MEMBER.exec(item);
        if (member) found.add(member[1]!);
      }
  if (text.includes('const')) constObjects(text, found, other);
  if (text.includes('define')) {
    // A body may name a macro defined further down, or one defined through another: read to a fixed
    // point, each body against the names known so far.
    const bodies: [string, string][] = [];
    for (const m of lineMatches(text, 'define', OBJECT_DEFINE)) {
      const body = m[2]!.replace(COMMENTS, '').trim();
      // A continued line's body is not all on it: left out.
      if (body === '' || body.endsWith('\\')) other.add(m[1]!);
      else bodies.push([m[1]!, body]);
    }
    const macros = new Set<string>();
    const names = new Map<string, string[]>();
    for (const [name, body] of bodies) {
      const words = constantBody(body);
      if (words === undefined) other.add(name);
      else names.set(name, [...(names.get(name) ?? []), ...words]);
      macros.add(name);
    }
    for (let grew = true; grew;) {
      grew = false;
      for (const [name, words] of names) {
        if (found.has(name) || other.has(name)) continue;
        if (words.every((w) => w !== name && (found.has(w) || known.has(w)))) {
          found.add(name);
          grew = true;
        }
      }
    }
    for (const name of macros) if (!found.has(name)) other.add(name);
  }
  for (const name of other) found.delete(name);
  if (known.size === 0) last = { text, found };
  return found;
}

/** No names. */
const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a macro's body uses, when it is a constant expression of literals, operators and those
 * names (see the file comment); undefined when it holds anything else, or a call.
 */
function constantBody(body: string): string[] | undefined {
  const words: string[] = [];
  TOKEN.lastIndex = 0;
  let before = '';
  while (TOKEN.lastIndex < body.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(body);
    if (!m) return undefined;
    const token = m[0];
    if (/^\s/.test(token)) continue;
    if (/^[A-Za-z_]/.test(token)) {
      // A call: a name before `(` that is no type word (`sizeof(int)` and `(int)-1` are no calls).
      if (!TYPE_WORDS.has(token) && /^\s*\(/.test(body.slice(at + token.length))) return undefined;
      if (!TYPE_WORDS.has(token) && !/_t$/.test(token)) words.push(token);
      // A `_t` name counts only as a cast's type: between parentheses.
      else if (/_t$/.test(token) && !(before === '(' && /^\s*\)/.test(body.slice(at + token.length))))
        words.push(token);
    } else if (token === '=' && !/^[=<>!]$/.test(before) && body[at + 1] !== '=') return undefined;
    before = token;
  }
  return words;
}

/**
 * Adds to `found` the file-scope `const` objects of `text` declared without a pointer, and to `other`
 * those the text assigns, increments or takes the address of.
 */
function constObjects(text: string, found: Set<string>, other: Set<string>): void {
  const declared = new Map<string, number>();
  for (const m of lineMatches(text, 'const', CONST_OBJECT)) {
    const head = m[0];
    if (!/\bconst\b/.test(head) || /\bvolatile\b/.test(head)) continue;
    // The declaration's own `=` is its initializer, the one change the text may spell.
    declared.set(m[1]!, (declared.get(m[1]!) ?? 0) + (head.endsWith('=') ? 1 : 0));
  }
  if (declared.size === 0) return;
  const changes = new Map<string, number>();
  for (const m of text.matchAll(CHANGE)) {
    const name = m[1] ?? m[2] ?? m[3]!;
    if (declared.has(name)) changes.set(name, (changes.get(name) ?? 0) + 1);
  }
  for (const [name, initialized] of declared)
    if ((changes.get(name) ?? 0) > initialized) other.add(name);
    else found.add(name);
}

/**
 * Where a name is changed or its address taken: `&name` (not `a & name`, `a && name`), `++name`,
 * `name = `, `name[i] += `, `name--`. A member's name (`p->name =`) is no change of the object.
 */
const CHANGE =
  /(?:(?<![\w)\]&]\s*)&|\+\+|--)\s*([A-Za-z_]\w*)|(?<![\w.>])([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\]\s*)?(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?<![\w.>])([A-Za-z_]\w*)\s*(?:\+\+|--)/g;
