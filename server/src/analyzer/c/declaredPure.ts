// Functions their declaration says are pure: `const char *status_text(int code)
// __attribute__((const));` in a header. GCC's `const` and `pure` promise the compiler that a call has
// no effect but its value (`const`: reading nothing but its arguments), so a call of one between two
// writes, or in a write's arguments, changes nothing the run depends on, whatever its body calls and
// wherever that body is (often another file, sometimes one generated at build time that the tree does
// not hold). The promise is the code's own: the compiler already relies on it to drop or merge calls.
import { LITERALS_AND_COMMENTS } from './comments';

/** `__attribute__((` or `__attribute((`, where an attribute list opens. */
const ATTRIBUTE = /\b__attribute(?:__)?\s*\(\s*\(/g;

/** One attribute of a list that makes a function pure: `const`, `pure`, or their reserved spellings. */
const PURE_ATTRIBUTE = /^\s*(?:__)?(?:const|pure)(?:__)?\s*$/;

/** A declaration's name, the first word before a `(` (upper-case words are macros: `EXPORT(x)`). */
const NAME = /\b([A-Za-z_]\w*)\s*\(/g;

/**
 * What every pure attribute leaves in the raw text, a quick look before the text is cleaned of
 * literals and comments (a pass over all of it, for the many headers whose attributes are `format` or
 * `unused`): its word, then past blanks the `,` or `)` that ends its item, or a comment or literal that
 * cleaning makes blanks, or the one character the list's last item stops before (its `)`).
 */
const PURE_WORD = /(?:const|pure)(?:__)?\s*(?:[,)]|\/[*/]|["']|[\s\S]\))/;

/** Words that open a parenthesis without naming a function. */
const NOT_NAMES = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'typeof', '__typeof__']);

/** How far back from an attribute the start of its declaration is looked for. */
const REACH = 2000;

/** The index just past the `)` closing the `(` at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
    else if (c === ';' || c === '{' || c === '}') return -1;
  }
  return -1;
}

/**
 * The names of the functions `text` declares or defines with a `const` or `pure` attribute (see the
 * file comment), sorted. Reads declarations at any level; a name is taken from the declaration the
 * attribute stands in, before or after the name. `visible`: only those other files can call (not
 * `static`), for the workspace's facts.
 */
export function declaredPureFunctions(text: string, visible = false): string[] {
  if (!text.includes('__attribute') || !PURE_WORD.test(text)) return [];
  const clean = text.replace(LITERALS_AND_COMMENTS, (m) => ' '.repeat(m.length));
  const names = new Set<string>();
  for (const m of clean.matchAll(ATTRIBUTE)) {
    const open = m.index + m[0].length - 2;
    const end = closing(clean, open);
    if (end < 0) continue;
    const list = clean.slice(open + 2, end - 2);
    if (!list.split(',').some((a) => PURE_ATTRIBUTE.test(a))) continue;
    // The declaration around the attribute: from the previous `;`, brace or directive line to the next
    // `;` or `{`, its attributes blanked.
    let start = m.index;
    while (start > 0 && m.index - start < REACH && !';{}'.includes(clean[start - 1]!)) start--;
    let stop = end;
    while (stop < clean.length && clean[stop] !== ';' && clean[stop] !== '{' && clean[stop] !== '}') stop++;
    if (clean[stop] === '}') continue;
    // Directive lines before the declaration (`#include`, `#define`) are no part of it.
    let head = clean.slice(start, stop).replace(/^[ \t]*#.*$/gm, ' ');
    if (/\btypedef\b/.test(head) || (visible && /\bstatic\b/.test(head))) continue;
    for (let a = head.search(/\b__attribute/); a >= 0; a = head.search(/\b__attribute/)) {
      const paren = head.indexOf('(', a);
      const after = paren < 0 ? -1 : closing(head, paren);
      if (after < 0) break;
      head = head.slice(0, a) + ' '.repeat(after - a) + head.slice(after);
    }
    for (const n of head.matchAll(NAME)) {
      const name = n[1]!;
      if (NOT_NAMES.has(name) || !/[a-z]/.test(name)) continue;
      names.add(name);
      break;
    }
  }
  return [...names].sort();
}
