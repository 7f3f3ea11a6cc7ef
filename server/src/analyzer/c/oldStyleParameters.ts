/**
 * Parameters of a function defined in the old style, before prototypes (K&R C): the definition lists
 * the names alone, `put(fd, buf, n)`, and declares their types in declarations between the list and the
 * body (`int fd; char *buf; int n;`). The parser gives such a list plain identifiers instead of
 * parameter declarations. Old code still defines its lowest write helpers so (an embedded HTTP
 * server's socket writer, for one); reading no parameters there made every helper built on them a call
 * with no body the analyzer could use, silencing the project's whole reply layer.
 */
import type { Node } from 'web-tree-sitter';

/**
 * The names of an old-style parameter list, in order, or undefined when `list` (a function
 * declarator's `parameters`) is not one: every entry a bare identifier, at least one entry.
 */
export function oldStyleParameterNames(list: readonly Node[]): string[] | undefined {
  if (list.length === 0 || list.some((p) => p.type !== 'identifier')) return undefined;
  return list.map((p) => p.text);
}
