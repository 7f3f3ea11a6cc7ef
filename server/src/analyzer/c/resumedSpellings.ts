// A write-in-full loop spells the bytes it is sending from where it got to: `buf + done` for the buffer,
// `count - done` for the count (`(char *)buf + total`, `&buf[off]`, `len - off`). Where a helper sends the
// same bytes through a connection's session in one arm and through such a loop in the other (`if (tls)
// return gnutls_record_send(s, buf, count); else while (count > total) { n = write(fd, (char *)buf +
// total, count - total); ... }`), the loop's arguments are the session's, resumed at an offset: the
// buffer and count they start from are the ones to compare.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

const spelled = (n: Node | null | undefined) => n?.text.replace(/\s+/g, '');

/** The offset `node` adds to or indexes a base by: `base + off`, `off + base`, `&base[off]`. */
function resumed(node: Node): { base: Node; offset: Node } | undefined {
  const at = withoutCasts(node);
  if (at.type === 'binary_expression' && at.childForFieldName('operator')?.text === '+') {
    const left = at.childForFieldName('left');
    const right = at.childForFieldName('right');
    if (!left || !right) return undefined;
    // The offset is a plain name; the base is whatever the other side spells, casts left out.
    if (withoutCasts(right).type === 'identifier') return { base: withoutCasts(left), offset: right };
    if (withoutCasts(left).type === 'identifier') return { base: withoutCasts(right), offset: left };
    return undefined;
  }
  if (at.type === 'pointer_expression' && at.child(0)?.text === '&') {
    const element = at.childForFieldName('argument');
    if (element?.type !== 'subscript_expression') return undefined;
    const base = element.childForFieldName('argument');
    const index = element.childForFieldName('index');
    if (!base || index?.type !== 'identifier') return undefined;
    return { base: withoutCasts(base), offset: index };
  }
  return undefined;
}

/**
 * The buffer and count a loop's `write(fd, buf + off, count - off)` resumes, spelled without spaces and
 * casts (`buf`, `count`), when both are resumed at one offset; otherwise undefined.
 */
export function resumedFrom(buf: Node, len: Node | undefined): { buf: string; len?: string } | undefined {
  const start = resumed(buf);
  if (!start) return undefined;
  const offset = spelled(withoutCasts(start.offset));
  if (len === undefined) return { buf: spelled(start.base)! };
  const left = withoutCasts(len);
  if (left.type !== 'binary_expression' || left.childForFieldName('operator')?.text !== '-') return undefined;
  const whole = left.childForFieldName('left');
  const taken = left.childForFieldName('right');
  if (!whole || !taken || spelled(withoutCasts(taken)) !== offset) return undefined;
  return { buf: spelled(start.base)!, len: spelled(withoutCasts(whole)) };
}
