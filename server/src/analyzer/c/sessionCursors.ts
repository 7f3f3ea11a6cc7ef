// A session's write-in-full loop often walks a cursor of its own through the caller's bytes: `const
// uint8_t *p = data; size_t left = size; while (left > 0) { ret = gnutls_record_send(s, p, left); ...
// p += ret; left -= ret; }` in one arm, `return write(c->fd, data, size);` in the other. The cursor and
// the count left start at the buffer and count the plain arm sends, so the two arms send the same
// bytes: each local is spelled as the name it was set from.
import type { Node } from 'web-tree-sitter';
import { declaredName, withoutCasts } from './syntax';

const spelled = (n: Node | null | undefined) => n?.text.replace(/\s+/g, '');

/**
 * The name the local `name` was initialised from (spelled without spaces or casts), when the function
 * holding `at` declares `name` once with an initialiser that names a plain identifier, and no statement
 * gives it another value except by stepping it (`p += n`, `left -= n`, `p++`): a cursor through that
 * buffer, or the count of it left. Undefined otherwise. Does not modify the tree.
 */
export function cursorStart(name: string, at: Node): string | undefined {
  let fn: Node | null = at.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const body = fn?.childForFieldName('body');
  if (!body) return undefined;
  let start: string | undefined;
  let declared = 0;
  for (const d of body.descendantsOfType('init_declarator')) {
    if (!d || declaredName(d.childForFieldName('declarator')) !== name) continue;
    declared++;
    const value = d.childForFieldName('value');
    const source = value ? withoutCasts(value) : undefined;
    if (source?.type === 'identifier') start = spelled(source);
  }
  if (declared !== 1 || start === undefined) return undefined;
  // Any other change than a step would leave the cursor somewhere else than where the bytes are.
  for (const a of body.descendantsOfType('assignment_expression')) {
    if (!a || spelled(a.childForFieldName('left')) !== name) continue;
    const op = a.childForFieldName('operator')?.text;
    if (op !== '+=' && op !== '-=') return undefined;
  }
  // `p++`/`left--` only step; anything else changing the name (an address taken, say) is not read.
  for (const p of body.descendantsOfType('pointer_expression')) {
    if (p?.child(0)?.text === '&' && spelled(p.childForFieldName('argument')) === name) return undefined;
  }
  return start;
}
