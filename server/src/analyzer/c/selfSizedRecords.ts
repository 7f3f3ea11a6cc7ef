// A record that says its own size: `write(fd, item, ntohl(hdr->length))` with `hdr` the item cast to
// its header type. A helper that writes the object its parameter points at, of the length the object's
// own header holds, writes that object whole, as one given `sizeof(*item)` or `item_size(item)` does
// (helperBodies.ts objectLength): each call is one write of its caller's object.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/**
 * True when `node` reads a member of the object `pointer` points at (`item->length`), directly or
 * through a local holding that pointer, cast (`struct hdr *hdr = (struct hdr *)item;`), that `held`
 * gives as the local's one value (undefined: the local changes, or holds something else).
 */
export function readsOwnHeader(
  node: Node,
  pointer: string,
  held: (local: string) => Node | undefined,
): boolean {
  if (node.type !== 'field_expression' || node.childForFieldName('operator')?.text !== '->') return false;
  const base = node.childForFieldName('argument');
  if (!base) return false;
  const root = withoutCasts(base);
  if (root.type !== 'identifier') return false;
  if (root.text === pointer) return true;
  const value = held(root.text);
  const alias = value && withoutCasts(value);
  return alias?.type === 'identifier' && alias.text === pointer;
}
