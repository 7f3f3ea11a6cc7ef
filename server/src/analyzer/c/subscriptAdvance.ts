// A write-in-full loop may advance its pointer by taking the address of the element the write reached:
// `buf = &((const char *)buf)[n];` or `p = &p[n];` moves the pointer exactly as `p += n` does. Only an
// advance by the result of a call (what the write sent) is read so: `p = &p[1]` or `p = &p[step]` moves
// by something else, and a loop that does so does not send each byte once.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/**
 * The name `value` advances `name` by when it is `&name[index]` (through casts and parentheses around
 * `name`), or undefined. The caller decides whether the index is the write's result.
 */
export function subscriptAdvance(name: string, value: Node): string | undefined {
  const b = withoutCasts(value);
  if (b.type !== 'pointer_expression' || b.child(0)?.type !== '&') return undefined;
  const sub = b.childForFieldName('argument');
  const at = sub ? withoutCasts(sub) : undefined;
  if (at?.type !== 'subscript_expression') return undefined;
  const base = at.childForFieldName('argument');
  const index = at.childForFieldName('index');
  if (!base || !index || withoutCasts(base).text !== name) return undefined;
  const by = withoutCasts(index);
  return by.type === 'identifier' ? by.text : undefined;
}

/** True when one of the values `name` is given is a call's result (`n = write(...)`). */
export function holdsResult(values: readonly Node[] | undefined): boolean {
  return (values ?? []).some((v) => withoutCasts(v).type === 'call_expression');
}
