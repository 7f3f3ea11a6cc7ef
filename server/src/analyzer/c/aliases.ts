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
 * none; nor is one whose source's root name is changed anywhere in the function. `bare`: the locals
 * declared without a value (not parameters), whose first assignment may be the copy, unless a call
 * handed the object after it is followed by the member written out again (in `body`). With `pointers`,
 * a local whose members change is kept: it copies a pointer, and names the object it points at still.
 */
export function descriptorAliases(
  changes: readonly Node[],
  bare: ReadonlySet<string> = new Set(),
  body?: Node,
  pointers = false,
): Map<string, string> {
  const copies = new Map<string, string | null>();
  const changed = new Set<string>();
  const members = new Set<string>();
  // Locals of `bare` given their one value by an assignment (`int fd; ... fd = jr->output_fd;`).
  const assigned = new Set<string>();
  const handed = new Set<string>();
  // Per bare copy, where the first call handed its object after the copy is.
  const handedAt = new Map<string, number>();
  for (const n of changes) {
    if (n.type === 'init_declarator') {
      const name = declaredName(n.childForFieldName('declarator'));
      const value = n.childForFieldName('value');
      if (!name) continue;
      copies.set(name, copies.has(name) || !value || !copyable(value) ? null : value.text);
      continue;
    }
    if (n.type === 'assignment_expression' && n.childForFieldName('operator')?.text === '=') {
      // A local declared without a value holds nothing before its first assignment: that one is
      // its initialiser, read as a declaration's would be; a second is a change.
      const left = n.childForFieldName('left');
      const value = n.childForFieldName('right');
      const name = left?.type === 'identifier' ? left.text : undefined;
      if (name && bare.has(name) && !copies.has(name)) {
        copies.set(name, value && copyable(value) ? value.text : null);
        assigned.add(name);
        continue;
      }
      if (name && assigned.has(name)) copies.set(name, null);
    }
    if (n.type === 'call_expression') {
      // A call handed the object a bare copy reads (`reopen(jr)`, `&jr->fd`) may store another
      // descriptor in it after the copy: the copy then names what the member held, not what it holds.
      for (const arg of n.childForFieldName('arguments')?.namedChildren ?? []) {
        const text = arg?.text.replace(/\s+/g, '') ?? '';
        const root = /^&?\(?([A-Za-z_]\w*)/.exec(text)?.[1];
        if (root && (text === root || text.startsWith('&'))) handed.add(root);
      }
      for (const copy of assigned) {
        const root = rootOf(copies.get(copy) ?? '');
        if (root && handed.has(root) && !handedAt.has(copy)) handedAt.set(copy, n.startIndex);
      }
      handed.clear();
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
    if (!root) continue;
    // A member changed (`jr->mailto = ...`) is kept apart: it reaches only copies of that member.
    if (target?.type === 'field_expression') members.add(target.text.replace(/\s+/g, ''));
    else changed.add(root);
  }
  const aliases = new Map<string, string>();
  for (const [name, text] of copies) {
    // A pointer copy (`pointers`) still names the object when a member of it changes (`p->old = ...`).
    if (text === null || changed.has(name) || (!pointers && [...members].some((m) => rootOf(m) === name)))
      continue;
    const source = text.replace(/\s+/g, '');
    if (touches(source, changed, members)) continue;
    // Past such a call, the member written out again may be another descriptor than the copy.
    const at = handedAt.get(name);
    if (at !== undefined && (!body || spelledAfter(body, source, at))) continue;
    aliases.set(name, source);
  }
  return aliases;
}

/** Whether `body` spells the member path `source` (as written, spaces aside) after offset `at`. */
function spelledAfter(body: Node, source: string, at: number): boolean {
  const parts = source.split(/(->|\.)/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`\\b${parts.join('\\s*')}\\b`, 'g');
  pattern.lastIndex = Math.max(0, at - body.startIndex);
  return pattern.test(body.text);
}

/** The name a copied text or member path starts from. */
function rootOf(text: string): string | undefined {
  return /^[A-Za-z_]\w*/.exec(text)?.[0];
}

/**
 * Whether the function's changes reach the copied `source`: its root name changed other than through
 * a member (`conn = next`, `p++`, `&conn`, `conn[0] = c`: `changed`), or the member path it copies or
 * one it lies in (`conn->fd = -1`, `conn->io = io`, `&conn->fd`: `members`). A change to another
 * member of the same object (`jr->mailto = ...`) leaves `jr->output_fd` as it was.
 */
function touches(source: string, changed: ReadonlySet<string>, members: ReadonlySet<string>): boolean {
  const root = rootOf(source);
  if (!root) return false;
  if (changed.has(root)) return true;
  for (const m of members)
    if (m === source || source.startsWith(`${m}->`) || source.startsWith(`${m}.`) || m === root) return true;
  return false;
}
