// A value writer that declares its local first and converts into it later: `uint16_t nv; int rv; nv =
// htons(v); rv = write(fd, &nv, sizeof(nv));`. C89 style puts every declaration at the top of the block,
// so the conversion that convertedValues.ts reads in an initial value comes as the block's one
// assignment instead. Each call is still one write of the value its caller passes, converted, when the
// local holds nothing but that conversion at the write: it is assigned once, in the block that leads to
// the write and before it, and nothing else reads, changes or takes the address of it.
import type { Node } from 'web-tree-sitter';
import { declaredName } from './syntax';
import { convertedFrom } from './convertedValues';

/** Statements that may run the write again after a later use of the local. */
const LOOPS = new Set(['for_statement', 'while_statement', 'do_statement']);

/** True when `node` lies inside a node of `type` below `stop`. */
function within(node: Node, types: ReadonlySet<string>, stop: Node): boolean {
  for (let at = node.parent; at && at.id !== stop.id; at = at.parent) if (types.has(at.type)) return true;
  return false;
}

/** True when `node` lies between `outer`'s first and last byte. */
function spans(outer: Node, node: Node): boolean {
  return node.startIndex >= outer.startIndex && node.endIndex <= outer.endIndex;
}

/** The statement of `block` (a compound statement) that holds `node`, or undefined. */
function statementIn(block: Node, node: Node): Node | undefined {
  let at: Node | null = node;
  while (at && at.parent && at.parent.id !== block.id) at = at.parent;
  return at?.parent?.id === block.id ? at : undefined;
}

/**
 * The parameter whose converted value the local `name` holds when `write` sends `&name`, or -1: `name`
 * is declared once without a value (`uint16_t nv;`), assigned once by a statement of its own
 * (`nv = htons(v);`) in a block that holds the write after it, and every other use is in the write or a
 * `sizeof`, or (when no loop may run the write again) after the write: the bytes are already out.
 * `pure`: the calls known to compute without effects, as convertedValues.ts takes them.
 */
export function lateConvertedParam(
  name: string,
  write: Node,
  body: Node,
  params: readonly (string | undefined)[],
  pure: ReadonlySet<string>,
): number {
  if (params.includes(name)) return -1;
  const declarators = body
    .descendantsOfType(['init_declarator', 'declaration'])
    .flatMap((d) => {
      if (!d) return [];
      if (d.type === 'init_declarator') return [d];
      return d.childrenForFieldName('declarator').filter((k): k is Node => k?.type === 'identifier');
    })
    .filter(
      (d) => (d.type === 'identifier' ? d.text : declaredName(d.childForFieldName('declarator'))) === name,
    );
  // Declared once, without a value: an initial value is convertedValues.ts's reading.
  if (declarators.length !== 1 || declarators[0]!.type !== 'identifier') return -1;
  const declared = declarators[0]!;
  const assignments = body
    .descendantsOfType('assignment_expression')
    .filter((a): a is Node => !!a && a.childForFieldName('left')?.text === name);
  if (assignments.length !== 1) return -1;
  const assignment = assignments[0]!;
  const statement = assignment.parent;
  const value = assignment.childForFieldName('right');
  if (statement?.type !== 'expression_statement' || assignment.childForFieldName('operator')?.text !== '=')
    return -1;
  if (!value || assignment.endIndex > write.startIndex) return -1;
  // The block that holds the assignment holds the write after it: nothing skips the conversion.
  const block = statement.parent;
  if (block?.type !== 'compound_statement' || !statementIn(block, write)) return -1;
  const param = convertedFrom(value, params, pure);
  if (param < 0) return -1;
  const once = !within(write, LOOPS, body);
  for (const use of body.descendantsOfType('identifier')) {
    if (!use || use.text !== name || use.id === declared.id) continue;
    if (use.id === assignment.childForFieldName('left')?.id || spans(write, use)) continue;
    if (within(use, new Set(['sizeof_expression']), body)) continue;
    if (once && use.startIndex >= write.endIndex) continue;
    return -1;
  }
  return param;
}
