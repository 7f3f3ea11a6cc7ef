// A name spelled in a scope of its own, apart from another block. `main()` often holds several
// blocks, each declaring its own `p` or `buf`:
//
//   case 1: { char *p; size_t len; ... p = q; ... }
//   case 2: put_short(fd, n); { char buf[n]; char *p = buf; for (...) p = stpcpy(p, argv[i]); put(fd, buf, n); }
//
// The `p` of the first block is another variable than the second block's: the first block declares it
// and does not hold the second. A reading that asks whether a block's names are spelled elsewhere in
// the function (bareBlocks.ts: an inner name hiding an outer one would be read as the outer one) can
// leave such spellings out: no statement outside the first block sees that `p`, and none inside it sees
// the second's.
import type { Node } from 'web-tree-sitter';
import { declaredName, namedKids } from './syntax';

/** True when the block `scope` declares `name` directly (its own declarations, not nested blocks'). */
function declares(scope: Node, name: string): boolean {
  return namedKids(scope).some(
    (s) =>
      s.type === 'declaration' && s.childrenForFieldName('declarator').some((d) => declaredName(d) === name),
  );
}

/**
 * True when `id`, an identifier spelling `name`, lies in a block that declares `name` itself and does
 * not hold `block`: the spelling names that block's own variable, not one `block` can see or hide.
 * Only blocks count as scopes here (a `for` header's declaration, a parameter: false).
 */
export function spelledApart(id: Node, name: string, block: Node): boolean {
  for (let at = id.parent; at && at.type !== 'function_definition'; at = at.parent) {
    if (at.type !== 'compound_statement' || !declares(at, name)) continue;
    return !(at.startIndex <= block.startIndex && block.endIndex <= at.endIndex);
  }
  return false;
}
