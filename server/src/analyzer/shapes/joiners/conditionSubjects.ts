// What the test of an `if` is about, for deciding whether two tests may both hold. A test reads
// objects spelled as access paths (`c->state`, `slots[i].owner`); the index inside a subscript is part
// of the path, not a thing tested of its own, so `slots[i].owner` and `slots[i].state` are tests of two
// members of one element, which may both hold. A test of one bit (`c->state & DONE`) is about that bit:
// tests of two bits of one word may both hold, where a test of the whole word (`!c->state`) may
// exclude either.

/** One thing a test reads: an access path, and the constant mask it is tested with, if any. */
export interface Subject {
  /** The access path, whitespace removed (`c->state`, `slots[i].owner`). */
  readonly path: string;
  /** The constant (upper-case name or integer) the path is and-ed with (`state & DONE`), if any. */
  readonly mask?: string;
}

// An identifier followed by subscripts and member accesses, then an optional `& CONSTANT` (not `&&`).
// Nested subscripts (`a[b[i]]`) stop the path at `a`; the lookahead then skips it and `b[i]` is read.
const PATH =
  /([A-Za-z_]\w*(?:\s*(?:\[[^\][]*\]|(?:\.|->)\s*[A-Za-z_]\w*))*)(?!\w|\s*\(|\s*\[|\s*\.|\s*->)(?:\s*&(?!&)\s*([A-Z][A-Z0-9_]*|0[xX][0-9a-fA-F]+|\d+)\b)?/g;

/**
 * The access paths a condition reads, with their masks: constants (upper-case names), the words of
 * string literals and the names of called functions left out. `(c->state & DONE) && c->user` reads
 * `c->state` under the mask `DONE`, and `c->user`.
 */
export function conditionSubjects(condition: string): Subject[] {
  const code = condition.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '');
  const subjects: Subject[] = [];
  for (const m of code.matchAll(PATH)) {
    const path = (m[1] ?? '').replace(/\s+/g, '');
    if (/^[A-Z][A-Z0-9_]*$/.test(path)) continue;
    subjects.push(m[2] ? { path, mask: m[2] } : { path });
  }
  return subjects;
}

/** True when `outer` is `inner` or an object `inner` is reached through (`c` of `c->state`). */
function within(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  if (!inner.startsWith(outer)) return false;
  const rest = inner.slice(outer.length);
  return rest.startsWith('.') || rest.startsWith('->') || rest.startsWith('[');
}

/**
 * True when tests of `a` and of `b` may exclude each other: the same path (unless each is a test of
 * a different bit of it), or one path reached through the other (`!c` and `c->user`).
 */
export function overlaps(a: Subject, b: Subject): boolean {
  if (a.path === b.path) return !(a.mask && b.mask && a.mask !== b.mask);
  return within(a.path, b.path) || within(b.path, a.path);
}
