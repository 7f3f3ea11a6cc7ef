// Which headers a C file includes, and where they are in the tree: a header's function definitions
// (`static inline ssize_t write_all(...)` in a project's `common.h`) are the includer's as much as its
// own, but a batch run or the language server reads each file alone. The workspace fact base keeps
// each header's wrappers under the header's path, and each includer takes those of the headers it
// names. Kept apart from the C front end so the fact base can ask without loading the grammar.
import { dirname, join, normalize, sep } from 'node:path';
import { lineMatches } from './c/lineMatches';
import { isSystemHeader } from './systemHeaders';

/** Whether `path` is a C header: its static definitions are meant for its includers. */
export function isHeader(path: string): boolean {
  return /\.h$/i.test(path);
}

/** `#include "name.h"`. Sticky, as the next: tried only at the lines that say `include` (lineMatches.ts). */
const QUOTED_INCLUDE = /^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"/my;

/** `#include <name.h>`: a header the build's include path finds, the system's or the project's. */
const ANGLE_INCLUDE = /^[ \t]*#[ \t]*include[ \t]*<([^<>"\n]+)>/my;

/**
 * The names in `text`'s includes that may be the project's own headers, in order, each once: its quoted
 * includes (`#include "common.h"` gives `common.h`), and its angle-bracket includes other than the
 * system's bare names (`<helper/log.h>` or `<log.h>`, a project header found through the build's
 * include path; `<stdio.h>` and `<sys/types.h>` stay the system's when the tree has no such path).
 * An angle-bracket one is the project's only when the tree has a header at that path (see
 * {@link resolveInclude}).
 */
export function projectIncludes(text: string): string[] {
  if (!text.includes('include')) return [];
  const found = new Set<string>();
  for (const m of lineMatches(text, 'include', QUOTED_INCLUDE)) found.add(m[1]!.trim());
  for (const m of lineMatches(text, 'include', ANGLE_INCLUDE)) {
    const name = m[1]!.trim();
    if (!isSystemHeader(name)) found.add(name);
  }
  return [...found];
}

/**
 * The header `name` (as written in an include of the file `from`) among `headers` (paths of the tree's
 * headers the fact base holds): the one beside `from` as the preprocessor looks first, else the one
 * whose path ends with `name` and shares the longest folder prefix with `from` (an include path of the
 * build, which the analyzer does not know); undefined when none, or when two are equally near.
 */
export function resolveInclude(from: string, name: string, headers: ReadonlySet<string>): string | undefined {
  const beside = normalize(join(dirname(from), name));
  if (headers.has(beside)) return beside;
  const tail = sep + normalize(name).replace(/^(\.\.?[\\/])+/, '');
  let best: string | undefined;
  let bestShared = -1;
  let tie = false;
  for (const header of headers) {
    if (!header.endsWith(tail)) continue;
    const shared = sharedPrefix(from, header);
    if (shared > bestShared) {
      best = header;
      bestShared = shared;
      tie = false;
    } else if (shared === bestShared) tie = true;
  }
  return tie ? undefined : best;
}

/** Length of the folder prefix two paths share, in characters (up to a separator). */
function sharedPrefix(a: string, b: string): number {
  let i = 0;
  let lastSep = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) {
    if (a[i] === sep) lastSep = i;
    i++;
  }
  return lastSep;
}

/**
 * `#define name(params) body` at the start of a line, the body running on over `\`-continued lines;
 * read where a line holding `define` starts (sticky: see lineMatches).
 */
const FUNCTION_LIKE_DEFINE = /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*\([^)\n]*\)(?:[^\n\\]|\\[\s\S])*/my;

/**
 * The function-like macro definitions of a header, each as written (one `#define` with its continued
 * lines), in order; every definition of a name under `#if` alternatives, as its includers may get any
 * one of them. An includer reads a statement of one of these names as it reads its own macros'.
 */
export function functionLikeDefines(text: string): string[] {
  // Only the lines holding `define` are tried: a search from every line of every file was a visible
  // part of reading a tree's headers (and of each file's analysis).
  if (!text.includes('define')) return [];
  return lineMatches(text, 'define', FUNCTION_LIKE_DEFINE).map((m) => m[0].trim());
}

/** The name a definition of {@link functionLikeDefines} defines. */
export function definedName(define: string): string {
  return /define[ \t]+([A-Za-z_]\w*)/.exec(define)?.[1] ?? '';
}

/** A call in a macro's body: the name before a `(`. */
const BODY_CALL = /\b([A-Za-z_]\w*)\s*\(/g;

/** The names the body of a definition of {@link functionLikeDefines} calls, each once. */
export function definedCalls(define: string): string[] {
  const head = /define[ \t]+[A-Za-z_]\w*\([^)]*\)/.exec(define);
  const body = head ? define.slice(head.index + head[0].length) : '';
  return [...new Set([...body.matchAll(BODY_CALL)].map((m) => m[1]!))];
}
