// A local or parameter of a global's name hides the global in its own scope, and only there:
//
//     extern int log_fd;                      /* a datagram socket another file opens */
//     void copy(void) { int log_fd = open(path, O_WRONLY); ... }
//     void say(const char *m) { write(log_fd, "<13>", 4); write(log_fd, m, strlen(m)); }
//
// The file's globals are found from its text (origins.ts streamGlobals: every `name = ...` of the
// file), where `int log_fd = open(...)` in copy() read as an assignment of the global made it a byte
// stream in say() too. Which declaration an assignment names is the scope's question, asked as
// shadowedGlobals.ts asks it for a helper's call: a declaration of the name in a block around the
// assignment, before it (the assignment's own declarator included), or a parameter of its function.
import type { Node } from 'web-tree-sitter';
import { shadowsOf, type Shadows } from './shadowedGlobals';

/**
 * For a file's function definitions `fns` (any order): whether the name assigned at `offset` of the
 * file's text is a local or parameter there rather than the file's global of that name. An offset
 * outside every function (an initialiser of the file) names the global. Does not modify `fns`.
 */
export function localShadows(fns: readonly Node[]): (name: string, offset: number) => boolean {
  const sorted = [...fns].sort((a, b) => a.startIndex - b.startIndex);
  const scopes = new Map<Node, Shadows>();
  return (name, offset) => {
    // The last definition starting at or before the offset, if the offset lies within it.
    let lo = 0;
    let hi = sorted.length - 1;
    let found: Node | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const fn = sorted[mid]!;
      if (fn.startIndex <= offset) {
        found = fn;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (!found || offset >= found.endIndex) return false;
    let shadows = scopes.get(found);
    if (!shadows) scopes.set(found, (shadows = shadowsOf(found)));
    const at = found.descendantForIndex(offset);
    return !!at && shadows(name, at);
  };
}
