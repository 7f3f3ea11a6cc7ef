// A descriptor under a second name: `int out = conn->fd;` or `int fd = STDOUT_FILENO;` and then writes
// through either spelling. When neither the local nor what it copies changes in the function, both
// name one descriptor, and the writes through them are one sequence.
import type { Node } from 'web-tree-sitter';
import { declaredName, rootName } from './syntax';

/** A descriptor expression a local may copy: a name, a member path, a standard descriptor's number. */
function copyable(value: Node): boolean {
  if (value.type === 'identifier') return true;
  if (value.type === 'number_literal') return /^[012]$/.test(value.text);
  if (value.type !== 'field_expression') return false;
  for (let at: Node | null = value; at; at = at.childForFieldName('argument')) {
    if (at.type === 'identifier') return true;
    if (at.type !== 'field_expression') return false;
  }
  return false;
}

/**
 * The locals of a function that copy a descriptor expression and keep it (`changes` are the
 * function's assignments, increments, address-takings and declarations, in document order), by name,
 * with the text they copy. A local declared twice, assigned, incremented or whose address is taken is
 * none; nor is one whose source's root name is changed anywhere in the function.
 */
export function descriptorAliases(changes: readonly Node[]): Map<string, string> {
  const copies = new Map<string, string | null>();
  const changed = new Set<string>();
  for (const n of changes) {
    if (n.type === 'init_declarator') {
      const name = declaredName(n.childForFieldName('declarator'));
      const value = n.childForFieldName('value');
      if (!name) continue;
      copies.set(name, copies.has(name) || !value || !copyable(value) ? null : value.text);
      continue;
    }
    const target =
      n.type === 'assignment_expression'
        ? n.childForFieldName('left')
        : n.type === 'update_expression'
          ? n.childForFieldName('argument')
          : n.type === 'pointer_expression' && n.child(0)?.type === '&'
            ? n.childForFieldName('argument')
            : null;
    const root = target ? rootName(target) : undefined;
    if (root) changed.add(root);
  }
  const aliases = new Map<string, string>();
  for (const [name, text] of copies) {
    if (text === null || changed.has(name)) continue;
    const root = /^[A-Za-z_]\w*/.exec(text)?.[0];
    if (root && changed.has(root)) continue;
    aliases.set(name, text.replace(/\s+/g, ''));
  }
  return aliases;
}
