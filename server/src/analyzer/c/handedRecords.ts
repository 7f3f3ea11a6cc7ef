// A record a helper fills from its arguments and hands by its address to a helper that writes the object
// it is given whole: `statefile_item_t item; create_item(&item, tag, val); put_item(out, &item);`. Each
// call writes one record computed from its arguments, as a helper building an array from them does (see
// computedBuffers.ts, which decides whether every byte does come from the arguments and constants).
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/**
 * The local `arg` hands on by its address (`&item`), when it is not one of the helper's `params`;
 * otherwise undefined.
 */
export function handedRecord(arg: Node, params: readonly (string | undefined)[]): string | undefined {
  const a = withoutCasts(arg);
  if (a.type !== 'pointer_expression' || a.child(0)?.type !== '&') return undefined;
  const inner = a.childForFieldName('argument');
  const name = inner ? withoutCasts(inner) : undefined;
  if (name?.type !== 'identifier' || params.includes(name.text)) return undefined;
  return name.text;
}
