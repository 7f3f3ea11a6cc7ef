// A value writer that copies its parameter into a local declared bare, C89 style, and writes the local's
// bytes: `unsigned char val; val = c; return write(fd, &val, 1);`. The copy is the local's initial
// value written apart from its declaration: each call is one write of the value its caller passes, as
// `unsigned char val = c;` makes it (see convertedValues.ts). The copy must be the local's only change,
// a statement of the body itself before any loop (helperBodies.ts `copied`), and come before the write;
// the local must be declared once, without a value.
import type { Node } from 'web-tree-sitter';
import { declaredName } from './syntax';

/** A bare local's one value, the name it is assigned to (the assignment's left side), its declarator. */
export interface CopiedValue {
  readonly value: Node;
  readonly target: Node;
  readonly declarator: Node;
}

/**
 * The value the bare local `name` is given by its only change (`copied`: helperBodies.ts's names
 * declared without a value and assigned once before any loop), or undefined: the local must be
 * declared once in `body`, without a value, and assigned before `write`.
 */
export function copiedValue(
  name: string,
  body: Node,
  write: Node,
  copied: ReadonlyMap<string, Node> | undefined,
): CopiedValue | undefined {
  const value = copied?.get(name);
  const assignment = value?.parent;
  const target = assignment?.type === 'assignment_expression' ? assignment.childForFieldName('left') : null;
  if (!value || !target || target.endIndex > write.startIndex) return undefined;
  const declarators = body
    .descendantsOfType('declaration')
    .flatMap((d) => (d ? d.childrenForFieldName('declarator') : []))
    .filter((k) => declaredName(k) === name);
  const declarator = declarators.length === 1 ? declarators[0] : undefined;
  return declarator?.type === 'identifier' ? { value, target, declarator } : undefined;
}
