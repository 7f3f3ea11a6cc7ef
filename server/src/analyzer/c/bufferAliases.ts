// A buffer changed under another name: `char *p = (char *)val;` and then `p[0] = 'S';`, or `char *q =
// buf + off; memcpy(q, src, n);`. The bytes a write of `val` or `buf` sends are those the
// other name changed, so a change through the copy is a change of the buffer it points into: a run
// that sent the buffer before the change cannot take a write of it after. Read without regard to
// order (a copy made anywhere in the function, even one pointed elsewhere later, stands for its
// source everywhere), which can only end runs, never join them.
import type { Node } from 'web-tree-sitter';
import { declaredName } from './syntax';

/** The name a pointer expression points into: `buf`, `(char *)buf`, `buf + n`, `&buf[n]`. */
function pointsInto(value: Node | null): string | undefined {
  let at: Node | null = value;
  while (at) {
    switch (at.type) {
      case 'identifier':
        return at.text;
      case 'parenthesized_expression':
        at = at.namedChild(0);
        break;
      case 'cast_expression':
        at = at.childForFieldName('value');
        break;
      case 'binary_expression': {
        const op = at.childForFieldName('operator')?.text;
        if (op !== '+' && op !== '-') return undefined;
        at = at.childForFieldName('left');
        break;
      }
      case 'pointer_expression': {
        if (at.child(0)?.type !== '&') return undefined;
        const inner = at.childForFieldName('argument');
        at = inner?.type === 'subscript_expression' ? inner.childForFieldName('argument') : null;
        break;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/**
 * The locals and parameters of a function that may point into another name's bytes, each with the
 * names it may point into (copies of copies followed), read from `changes`: the function's
 * declarations and assignments. A name copied into itself (`p = p + n`) is no source of its own.
 */
export function bufferAliases(changes: readonly Node[]): Map<string, Set<string>> {
  const direct = new Map<string, Set<string>>();
  const note = (name: string | undefined, value: Node | null) => {
    const source = pointsInto(value);
    if (!name || !source || source === name) return;
    const set = direct.get(name) ?? new Set<string>();
    set.add(source);
    direct.set(name, set);
  };
  for (const n of changes) {
    if (n.type === 'init_declarator') {
      note(declaredName(n.childForFieldName('declarator')), n.childForFieldName('value'));
    } else if (n.type === 'assignment_expression' && n.childForFieldName('operator')?.text === '=') {
      const left = n.childForFieldName('left');
      if (left?.type === 'identifier') note(left.text, n.childForFieldName('right'));
    }
  }
  const closed = new Map<string, Set<string>>();
  for (const name of direct.keys()) {
    const seen = new Set<string>();
    const queue = [...(direct.get(name) ?? [])];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (next === name || seen.has(next)) continue;
      seen.add(next);
      queue.push(...(direct.get(next) ?? []));
    }
    if (seen.size > 0) closed.set(name, seen);
  }
  return closed;
}

/** The name whose object a pointer declared from a member reaches: `r` of `r->aux`, `(T *)r->a.b`. */
function memberRoot(value: Node | null): string | undefined {
  let at: Node | null = value;
  let member = false;
  while (at) {
    switch (at.type) {
      case 'identifier':
        return member ? at.text : undefined;
      case 'parenthesized_expression':
        at = at.namedChild(0);
        break;
      case 'cast_expression':
        at = at.childForFieldName('value');
        break;
      case 'field_expression':
        member = true;
        at = at.childForFieldName('argument');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/**
 * The pointers a function declares from a member of another name (`struct aux *ra = r->aux;`), each
 * with that name, read from `changes` (its declarations): such a pointer reaches what the name's
 * object reaches, the descriptor a write to `r` goes to included, so a call handed it (`&ra->sd->fd`)
 * may change that descriptor. A scalar copy (`int n = c->len;`) is a value of its own.
 */
export function objectPointers(changes: readonly Node[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const n of changes) {
    if (n.type !== 'init_declarator') continue;
    const declarator = n.childForFieldName('declarator');
    if (declarator?.type !== 'pointer_declarator') continue;
    const name = declaredName(declarator);
    const root = memberRoot(n.childForFieldName('value'));
    if (!name || !root || root === name) continue;
    const set = found.get(name) ?? new Set<string>();
    set.add(root);
    found.set(name, set);
  }
  return found;
}
