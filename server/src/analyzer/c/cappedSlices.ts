// Capped slices: a loop that sends one buffer a fixed number of bytes per call and then moves its
// pointer past exactly those bytes (`write(fd, s, N); s += N; l -= N;`). Every call sends the next
// piece of one contiguous buffer, so the loop is one buffer written with a cap per call (often the
// socket's send buffer size), not one write per item: there is nothing for a gathered write to collect.
import type { Node } from 'web-tree-sitter';
import type { Step } from '../model';
import { withoutCasts } from './syntax';

/** An expression's text without spaces and parentheses: `sizeof (buf)` and `sizeof buf` compare equal. */
function flat(text: string): string {
  return text.replace(/[\s()]/g, '');
}

/** What each name is advanced by in `node` (`p += N` or `p = p + N`), flattened, by name. */
function advances(node: Node): Map<string, Set<string>> {
  const by = new Map<string, Set<string>>();
  for (const a of node.descendantsOfType('assignment_expression')) {
    const left = a.childForFieldName('left');
    const right = a.childForFieldName('right');
    const op = a.childForFieldName('operator')?.text;
    if (left?.type !== 'identifier' || !right) continue;
    let step: Node | undefined;
    if (op === '+=') step = right;
    else if (op === '=') {
      const sum = withoutCasts(right);
      const base = sum.childForFieldName('left');
      if (sum.type === 'binary_expression' && sum.childForFieldName('operator')?.text === '+' && base)
        if (withoutCasts(base).text === left.text) step = sum.childForFieldName('right') ?? undefined;
    }
    if (!step) continue;
    const set = by.get(left.text) ?? new Set<string>();
    set.add(flat(step.text));
    by.set(left.text, set);
  }
  return by;
}

/**
 * The buffers (as the writes' pieces spell them) that `loop` sends in capped slices: a write of its body
 * sends `(p, N)` and the loop advances `p` by that same `N`. Empty when no write of the body does.
 * Reads only `loop`'s syntax and the body's write steps; changes nothing.
 */
export function cappedSlices(loop: Node, body: readonly Step[]): string[] {
  const found: string[] = [];
  let moved: Map<string, Set<string>> | undefined;
  for (const step of body) {
    if (step.kind !== 'write') continue;
    for (const piece of step.pieces ?? []) {
      if (piece.len === undefined || !/^[A-Za-z_]\w*$/.test(piece.buf.trim())) continue;
      moved ??= advances(loop);
      if (moved.get(piece.buf.trim())?.has(flat(piece.len))) found.push(piece.buf);
    }
  }
  return found;
}
