// Macros a file defines only under a preprocessor condition. Portable C spells another platform's
// system calls over the POSIX names (`#ifdef _WIN32 #define write(f, b, n) _write(f, b, (unsigned)(n))
// #endif`, or a port's own asynchronous write): where the condition is false, which is every POSIX
// build, the name is still the C library's. Read as an unconditional redefinition, such a macro would
// make every write of the file the project's own function and hide all of them, as it would for a
// helper that has another platform's spelling in an `#else` (the analyzer reads the configuration the
// writes are compiled in). An include guard (`#ifndef NAME_H` then `#define NAME_H`) is no condition:
// everything under it is compiled whenever the file is.

import { blankedKeepingLines, LITERALS_AND_COMMENTS } from './comments';
import { lineMatches } from './lineMatches';

/**
 * A directive's keyword and the rest of its line (text with comments and literals blanked; sticky:
 * see lineMatches).
 */
const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b[ \t]*([^\n]*)/my;

/**
 * The offsets in `clean` (a file's text, comments blanked) of `#define` lines that sit inside a
 * conditional group other than an include guard. An unbalanced `#endif` (a group opened in a header)
 * is passed over.
 */
export function conditionalDefines(clean: string): ReadonlySet<number> {
  const found = new Set<number>();
  if (!clean.includes('#')) return found;
  // One entry per open group: whether it is an include guard (which makes nothing conditional).
  const open: boolean[] = [];
  let guardOpened: string | undefined;
  let first = true;
  for (const m of lineMatches(clean, '#', DIRECTIVE)) {
    const [, keyword, rest = ''] = m;
    const name = /^[A-Za-z_]\w*/.exec(rest)?.[0];
    // The first directive of a file may open its include guard; the next one then defines its name.
    const guarded = guardOpened !== undefined && keyword === 'define' && name === guardOpened;
    guardOpened = undefined;
    if (keyword === 'ifndef' || keyword === 'if' || keyword === 'ifdef') {
      open.push(false);
      if (first && keyword === 'ifndef' && name) guardOpened = name;
    } else if (keyword === 'endif') open.pop();
    else if (keyword === 'define') {
      if (guarded) open[open.length - 1] = true;
      else if (open.some((isGuard) => !isGuard)) found.add(m.index);
    }
    first = false;
  }
  return found;
}

/** A function-like `#define` of a name: the name. */
const FUNCTION_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(/gm;

/**
 * The names of `candidates` that `text` (a file) defines as function-like macros only under a condition
 * (once, inside a conditional group: see {@link conditionalDefines}). Two definitions (`#ifdef A` and
 * its `#else`) may leave no build with the plain name: such a name is not returned.
 */
export function respelledNames(text: string, candidates: ReadonlySet<string>): ReadonlySet<string> {
  const found = new Set<string>();
  if (!text.includes('#') || !definesAny(text, candidates)) return found;
  const clean = text.replace(LITERALS_AND_COMMENTS, (m) => (m.startsWith('/') ? blankedKeepingLines(m) : m));
  const definitions = new Map<string, number[]>();
  for (const m of clean.matchAll(FUNCTION_DEFINE)) {
    const name = m[1]!;
    if (candidates.has(name)) definitions.set(name, [...(definitions.get(name) ?? []), m.index]);
  }
  if (definitions.size === 0) return found;
  const conditional = conditionalDefines(clean);
  for (const [name, at] of definitions) if (at.length === 1 && conditional.has(at[0]!)) found.add(name);
  return found;
}

/** Patterns finding `#define NAME(` for one set of names, by the names. */
const definePatterns = new Map<string, RegExp>();

/**
 * True when `text` may define one of `names` as a function-like macro: a quick look at the raw text
 * (a definition in a comment passes too) before the file is cleaned of comments, which costs a pass
 * over the whole text for every analysis of it.
 */
function definesAny(text: string, names: ReadonlySet<string>): boolean {
  const key = [...names].join(' ');
  let pattern = definePatterns.get(key);
  if (!pattern) {
    if (definePatterns.size >= 16) definePatterns.clear();
    const words = [...names].map((n) => n.replace(/[^\w]/g, '')).filter((n) => n.length > 0);
    pattern = new RegExp(`#\\s*define\\s+(?:${words.join('|') || '(?!)'})\\s*\\(`);
    definePatterns.set(key, pattern);
  }
  return pattern.test(text);
}
