// A token or value writer that builds its message in a local array from its arguments and sends it:
// `char buf[12]; memcpy(buf, token, 4); for (...) *p = hex[(v >> shift) & 0xf]; return
// write_all(fd, buf, 12);`. Each call is one write of bytes its caller's arguments decide, as a
// converted-scalar value writer's is (see convertedValues.ts), only of an array: the bytes exist only
// once computed, so no iovec can list them and no fix is offered. The body must read nothing but its
// parameters, its own (non-static) locals and constants, and call nothing that does output but a trace
// given only constants before its format: a byte taken from a global (a counter, a sequence number
// another call changes) would make two calls send what the code between them changed, and a `static`
// local keeps state from call to call. The write's own failure path is no part of what a call sends:
// there the helper may report the failure as it likes (`fprintf(stderr, "write: %s", strerror(errno));
// exit(1);`), as a plain write's caller does.
import type { Node } from 'web-tree-sitter';
import { callArgs, declaredName, identifiers, withoutCasts } from './syntax';
import { formatText } from './translatedText';

/** What the rule needs of the helper around the write (see helperBodies.ts). */
export interface ComputedBufferFacts {
  readonly body: Node;
  readonly write: Node;
  readonly params: readonly (string | undefined)[];
  /** The write's length argument (for a loop over the object, what its count starts at). */
  readonly lenArg: Node | undefined;
  /** The write sends the local by its address (`&h`), so it may be an object rather than an array. */
  readonly addressed?: boolean;
  /** The descriptor's parameter, if the helper takes it. */
  readonly fdParam: number | undefined;
  /** Whether a called function does no output and changes only what it is given (memcpy, strlen). */
  readonly quietCall: (name: string) => boolean;
  /** Whether a node runs only where the write failed (see failurePaths.ts); absent: nothing does. */
  readonly failing?: (node: Node) => boolean;
}

/** An upper-case name: a macro or enumeration constant. */
const CONSTANT = /^[A-Z][A-Z0-9_]*$/;

/**
 * The first parameter (other than the descriptor) whose value the local array `local` is computed
 * from when the write sends it, or -1 when the body does not show that every byte comes from the
 * parameters and constants (see the file comment).
 */
export function computedFromParams(local: string, facts: ComputedBufferFacts): number {
  const { body, write, params, lenArg } = facts;
  if (!lenArg) return -1;
  const locals = new Set<string>();
  let array = 0;
  let type: string | undefined;
  for (const d of body.descendantsOfType('declaration')) {
    if (!d) continue;
    // A static local keeps what one call left for the next.
    if (d.children.some((k) => k?.type === 'storage_class_specifier' && k.text !== 'register')) return -1;
    for (const declarator of d.childrenForFieldName('declarator')) {
      const name = declaredName(declarator);
      if (!name) continue;
      if (name === local) {
        const inner =
          declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') : declarator;
        // An array, or an object sent by its address (`struct hdr h; ... send(fd, (char *)&h + off, ...)`).
        if (inner?.type !== 'array_declarator' && !(facts.addressed && inner?.type === 'identifier'))
          return -1;
        type = d.childForFieldName('type')?.text;
        array++;
      }
      locals.add(name);
    }
  }
  if (array !== 1 || params.includes(local)) return -1;
  if (!fixedLength(lenArg, local, type) && !ownLength(lenArg, local, body)) return -1;
  for (const call of body.descendantsOfType('call_expression')) {
    if (!call || call.equals(write) || facts.failing?.(call)) continue;
    const callee = call.childForFieldName('function');
    if (callee?.type !== 'identifier') return -1;
    if (facts.quietCall(callee.text)) continue;
    // A trace or an error message is harmless when it is given nothing but constants before its
    // format string (`trace("send %s", buf)`): it reads what it prints and changes none of it.
    const args = callArgs(call);
    const format = args.findIndex(formatText);
    if (format < 0) return -1;
    for (const arg of args.slice(0, format))
      if ([...identifiers(arg)].some((n) => !CONSTANT.test(n))) return -1;
  }
  // Every name read: a parameter, a local, or a constant. Nothing from outside the call.
  let from = -1;
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || facts.failing?.(id)) continue;
    const parent = id.parent;
    if (parent?.type === 'call_expression' && parent.childForFieldName('function')?.equals(id)) continue;
    const name = id.text;
    const param = params.indexOf(name);
    if (param >= 0) {
      const outside = id.startIndex < write.startIndex || id.endIndex > write.endIndex;
      if (from < 0 && param !== facts.fdParam && outside) from = param;
      continue;
    }
    // `errno`, read by the write's own failure handling (`if (errno == EINTR) goto retry;`), is no byte.
    if (!locals.has(name) && !CONSTANT.test(name) && name !== 'errno') return -1;
  }
  return from;
}

/** True when `len` is a number or the size of the array itself (`sizeof buf`) or of its type. */
function fixedLength(len: Node, local: string, type: string | undefined): boolean {
  const b = withoutCasts(len);
  if (b.type === 'number_literal') return true;
  const measured = b.type === 'sizeof_expression' ? b.text.replace(/[\s()]/g, '') : undefined;
  return measured === `sizeof${local}` || (!!type && measured === `sizeof${type.replace(/\s/g, '')}`);
}

/** `strlen(buf)`, or `sprintf`/`snprintf` into it: the text the array holds says how long it is. */
function measures(value: Node, local: string): boolean {
  const v = withoutCasts(value);
  if (v.type !== 'call_expression') return false;
  const name = v.childForFieldName('function')?.text;
  const first = callArgs(v)[0];
  return (
    /^(?:strlen|s?n?printf|sprintf|snprintf)$/.test(name ?? '') &&
    name !== 'printf' &&
    first !== undefined &&
    withoutCasts(first).text === local
  );
}

/**
 * True when `len` is the length of the text in the array (`strlen(buf)`), directly or through a local
 * every assignment of which measures it (`n = snprintf(buf, ...)`, `len = strlen(buf)`): a formatted
 * message, whatever its length, is still all computed from what the helper is given.
 */
function ownLength(len: Node, local: string, body: Node): boolean {
  const b = withoutCasts(len);
  if (measures(b, local)) return true;
  if (b.type !== 'identifier') return false;
  let assigned = 0;
  for (const a of body.descendantsOfType(['assignment_expression', 'init_declarator', 'update_expression'])) {
    if (!a) continue;
    const target =
      a.type === 'init_declarator'
        ? declaredName(a)
        : withoutCasts(a.childForFieldName(a.type === 'update_expression' ? 'argument' : 'left') ?? a).text;
    if (target !== b.text) continue;
    const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
    if (a.type === 'update_expression' || !value || !measures(value, local)) return false;
    assigned++;
  }
  return assigned > 0;
}
