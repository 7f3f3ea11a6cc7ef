// A value writer that converts first: `uint16_t tmp = htons(v); return write_all(fd, &tmp, sizeof tmp);`.
// Serialisers put a value into network (or file) byte order in a local and write the local's bytes;
// each call is still one write of the value its caller passes, exactly as `write(fd, &v, sizeof v)` is,
// only of other bytes. The local must hold nothing but that conversion when it is written, and nothing
// else may see its address before the write (a call given `&tmp` could change it between).
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, declaredName, withoutCasts } from './syntax';
import { pureTest } from './writes';

/** What the rule needs to know of the helper's body (see helperBodies.ts's BodyFacts). */
export interface ConvertedLocalFacts {
  /** Locals declared with an initial value, and the value. */
  readonly initial: ReadonlyMap<string, Node>;
  /** True when the body changes `name` after its declaration (assigned, grown, shrunk). */
  readonly changed: (name: string) => boolean;
}

/**
 * The parameter `value` converts, or -1: the parameter itself (through casts), or a pure call of one
 * argument that converts it (`htonl(v)`, `htobe64(v)`, the file's own `hton64(v)`, nested). A call of
 * more arguments computes something else from the value (`mix(v, salt)`), which is no longer the value.
 */
export function convertedFrom(
  value: Node,
  params: readonly (string | undefined)[],
  pure: ReadonlySet<string>,
): number {
  const b = withoutCasts(value);
  if (b.type === 'identifier') return params.indexOf(b.text);
  if (b.type !== 'call_expression') return -1;
  const args = callArgs(b);
  if (args.length !== 1 || !pureTest(calleeName(b), pure)) return -1;
  return convertedFrom(args[0]!, params, pure);
}

/**
 * The parameter whose converted value the local `name` holds when `write` sends `&name`, or -1. Every
 * other use of the local in `body` must be its declaration or a `sizeof` (`assert(sizeof(tmp) == 8)`
 * reads no byte of it).
 */
export function convertedParam(
  name: string,
  write: Node,
  body: Node,
  params: readonly (string | undefined)[],
  facts: ConvertedLocalFacts,
  pure: ReadonlySet<string>,
): number {
  const init = facts.initial.get(name);
  if (!init || facts.changed(name) || params.includes(name)) return -1;
  const param = convertedFrom(init, params, pure);
  if (param < 0) return -1;
  const once = !LOOPS.some((type) => inside(write, type, body));
  for (const use of body.descendantsOfType('identifier')) {
    if (!use || use.text !== name) continue;
    if (use.startIndex >= write.startIndex && use.endIndex <= write.endIndex) continue;
    if (inside(use, 'sizeof_expression', body)) continue;
    // Read once the bytes are out (a running checksum over what was sent: `sum = crc32(sum, &b, 1)`),
    // the local can no longer change what the one write sent.
    if (once && use.startIndex >= write.endIndex) continue;
    const declarator = enclosing(use, 'init_declarator', body);
    if (declarator && declaredName(declarator.childForFieldName('declarator')) === name) {
      // The declaration itself, not a use of the name in another local's initial value.
      const value = declarator.childForFieldName('value');
      if (!value || use.startIndex < value.startIndex) continue;
    }
    return -1;
  }
  // Declared twice (two scopes): which one the write sends is not read here.
  const declarations = body
    .descendantsOfType('init_declarator')
    .filter((d) => d && declaredName(d.childForFieldName('declarator')) === name);
  return declarations.length === 1 ? param : -1;
}

/** Statements that may run the write again after a later use of the local. */
const LOOPS = ['for_statement', 'while_statement', 'do_statement'];

function enclosing(node: Node, type: string, stop: Node): Node | undefined {
  for (let at = node.parent; at && at.id !== stop.id; at = at.parent) if (at.type === type) return at;
  return undefined;
}

function inside(node: Node, type: string, stop: Node): boolean {
  return enclosing(node, type, stop) !== undefined;
}
