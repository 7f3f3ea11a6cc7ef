// What a run's writes sent, as memory: a statement between writes that changes the contents of an
// earlier write's buffer changes what a gathered call would send for it. Names alone say too much:
// `ddf->phys->crc = crc(ddf->phys, n)` after `write(fd, &ddf->controller, 512)` shares the root `ddf`
// but not one byte of what was sent. So each buffer is kept as the member path it names when it names
// one (`&ddf->controller` is `ddf->controller`), and as its whole root otherwise; a statement whose
// front end lists the member paths it changes is compared path by path.
import type { OtherStep, WriteStep } from '../model';

/** `a->b.c`, canonical (no whitespace): a root name and members. */
const PATH = /^[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)+$/;
const NAME = /^[A-Za-z_]\w*$/;

/** The memory a buffer expression points at: a name (`buf`, `&len`), a member path, or undefined. */
export function bufferPath(buf: string): string | undefined {
  let t = buf.replace(/\s+/g, '');
  for (;;) {
    const before = t;
    // A cast in front (`(char *)`, `(struct hdr *)`) points at the same memory; so does `&(x)`.
    t = t.replace(/^\([A-Za-z_]\w*\**\)(?=[&A-Za-z_(])/, '');
    if (t.startsWith('&')) t = t.slice(1);
    if (t.startsWith('(') && t.endsWith(')') && balancedInside(t)) t = t.slice(1, -1);
    if (t === before) break;
  }
  return NAME.test(t) || PATH.test(t) ? t : undefined;
}

/** True when `(...)` is one parenthesised expression, not `(a)+(b)`. */
function balancedInside(t: string): boolean {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '(') depth++;
    else if (t[i] === ')' && --depth === 0 && i < t.length - 1) return false;
  }
  return depth === 0;
}

/** True when one member path lies within the other (`a->b` and `a->b.c`), or they are the same. */
export function pathsOverlap(a: string, b: string): boolean {
  const within = (inner: string, outer: string) =>
    inner === outer || ['.', '->', '['].some((sep) => inner.startsWith(outer + sep));
  return within(a, b) || within(b, a);
}

function rootOf(path: string): string {
  return /^\w+/.exec(path)?.[0] ?? path;
}

/**
 * True when a piece starts at a member's address and its count is computed (`f(fd, &h->version, end -
 * (char *)&h->version)`): it sends that member and what follows it in the object, as far as the count
 * says, so a change of any other member may change its bytes. A count that is a constant or a `sizeof`
 * sends the member alone.
 */
function spansMembers(buf: string, len: string | undefined): boolean {
  if (len === undefined || !/^\s*(?:\([^()]*\)\s*)?&/.test(buf)) return false;
  // Spaces stay until the test: `sizeof h->version` without them would read `sizeofh`.
  return !/^\(?\s*(?:\d+[uUlL]*\s*\)?$|sizeof\b)/.test(len.trim());
}

/**
 * The names whose memory `write` sent, as a later statement could change them: those it reads, or
 * none for a write that formats its arguments into text of its own when it runs.
 */
export function sentNames(write: WriteStep): readonly string[] {
  return write.formatted ? [] : write.reads;
}

/** The buffers a run's writes sent so far. */
export class SentBuffers {
  /** Roots sent whole (a buffer named by its root, or one the analyzer cannot reduce to a path). */
  private readonly whole = new Set<string>();
  /** Member paths sent, by root. */
  private readonly paths = new Map<string, string[]>();

  /** Adds what `write` sends: its pieces' buffers, or every name it reads when they are unknown. */
  add(write: WriteStep): void {
    if (write.formatted) return;
    if (!write.pieces) {
      for (const n of write.reads) this.whole.add(n);
      return;
    }
    for (const piece of write.pieces) {
      const path = bufferPath(piece.buf);
      if (path === undefined) {
        // The words of a string literal name nothing (`"ip: "` is no buffer `ip`): a literal is constant.
        const code = piece.buf.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '');
        for (const n of code.match(/[A-Za-z_]\w*/g) ?? []) this.whole.add(n);
      } else if (NAME.test(path) || spansMembers(piece.buf, piece.len)) {
        this.whole.add(rootOf(path));
      } else {
        const root = rootOf(path);
        const list = this.paths.get(root);
        if (list) list.push(path);
        else this.paths.set(root, [path]);
      }
    }
  }

  /** True when `step` may change the contents of a buffer sent so far. */
  changedBy(step: OtherStep): boolean {
    for (const n of step.mutated ?? step.writes) {
      if (this.whole.has(n)) return true;
      const sent = this.paths.get(n);
      if (!sent) continue;
      const changed = (step.mutatedPaths ?? []).filter((p) => rootOf(p) === n);
      // No paths listed for the root: the statement may change any part of it.
      if (changed.length === 0) return true;
      if (changed.some((c) => sent.some((s) => pathsOverlap(c, s)))) return true;
    }
    return false;
  }
}
