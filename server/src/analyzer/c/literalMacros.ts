// Formats named by object-like macros of the file: `#define HIDE_CURSOR "\033[?25l"`, then
// `term_say(t, HIDE_CURSOR)`. The format is as written out as `term_say(t, "\033[?25l")`, which a
// helper may hand to a printf-style writer (see literalFormats.ts and constantWriters.ts); spelled
// through the macro it was read as a format that may say anything. Read from the file's text: a macro
// each of whose definitions there is one string literal (a name defined as a literal under one `#if`
// arm and as something else under another is left out).
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/** `#define NAME "..."` (literals side by side allowed) on one line, nothing after it but a comment. */
const LITERAL_DEFINE =
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+((?:"(?:\\.|[^"\\\n])*"[ \t]*)+)(?:\/[*/].*)?$/gm;

/** Any object-like `#define NAME`. */
const ANY_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])/gm;

/** The text {@link literalMacros} read last, and what it found there. */
let last: { readonly text: string; readonly found: ReadonlySet<string> } | undefined;

/** The object-like macros `text` defines, each definition a string literal (see the file comment). */
export function literalMacros(text: string): ReadonlySet<string> {
  if (last?.text === text) return last.found;
  const found = new Set<string>();
  if (text.includes('#')) {
    const literal = new Map<string, number>();
    for (const m of text.matchAll(LITERAL_DEFINE)) literal.set(m[1]!, (literal.get(m[1]!) ?? 0) + 1);
    if (literal.size > 0) {
      const all = new Map<string, number>();
      for (const m of text.matchAll(ANY_DEFINE)) all.set(m[1]!, (all.get(m[1]!) ?? 0) + 1);
      for (const [name, n] of literal) if (all.get(name) === n) found.add(name);
    }
  }
  last = { text, found };
  return found;
}

/** True when `arg` is the name of one of `text`'s {@link literalMacros}. */
export function literalMacro(arg: Node | undefined, text: string): boolean {
  const t = arg && withoutCasts(arg);
  return t?.type === 'identifier' && literalMacros(text).has(t.text);
}
