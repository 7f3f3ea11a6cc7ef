// A token or value writer that builds its message in a local array (or in memory it allocates for the
// call) from its arguments and sends it: `char buf[12]; memcpy(buf, token, 4); for (...) *p =
// hex[(v >> shift) & 0xf]; return write_all(fd, buf, 12);`, or a line copied with its CRLF into
// `malloc(len + 2)`. Each call is one write of bytes its caller's arguments decide, as a
// converted-scalar value writer's is (see convertedValues.ts), only of an array: the bytes exist only
// once computed, so no iovec can list them and no fix is offered. The body must read nothing but its
// parameters, its own (non-static) locals, constants and settings of the file nothing changes where it
// is called (settledGlobals.ts), and call nothing that does output but a trace given only constants
// before its format: a byte taken from another global (a counter, a sequence number another call
// changes) would make two calls send what the code between them changed, and a `static` local keeps
// state from call to call. The write's own failure path is no part of what a call sends:
// there the helper may report the failure as it likes (`fprintf(stderr, "write: %s", strerror(errno));
// exit(1);`), as a plain write's caller does.
import { releasesLocalAfter } from './releasedLocals';
import type { Node } from 'web-tree-sitter';
import { callArgs, declaredName, functionName, identifiers, withoutCasts } from './syntax';
import { settledVariable } from './settledGlobals';
import { formatText } from './translatedText';
import { countedLength } from './countedLengths';

/** What the rule needs of the helper around the write (see helperBodies.ts). */
export interface ComputedBufferFacts {
  readonly body: Node;
  readonly write: Node;
  readonly params: readonly (string | undefined)[];
  /**
   * The write's length argument (for a loop over the object, what its count starts at); absent for a
   * writer of a C string, whose own terminator says how long the text is.
   */
  readonly lenArg?: Node;
  /** The write sends the local by its address (`&h`), so it may be an object rather than an array. */
  readonly addressed?: boolean;
  /** The descriptor's parameter, if the helper takes it. */
  readonly fdParam: number | undefined;
  /** Whether a called function does no output and changes only what it is given (memcpy, strlen). */
  readonly quietCall: (name: string) => boolean;
  /**
   * The file's text: a `static` or `const` array of the file that nothing but writes reads (a padding
   * helper's `static char zeros[4096]`) holds the same bytes on every call.
   */
  readonly text?: string;
  /** Whether a node runs only where the write failed (see failurePaths.ts); absent: nothing does. */
  readonly failing?: (node: Node) => boolean;
  /**
   * Whether a call of this name never returns (see noReturnCalls.ts): a path that ends in one sends
   * nothing, so what it is given (`die(ctx, "out of memory")`) is no part of a call's bytes.
   */
  readonly leaves?: (name: string) => boolean;
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
  const locals = new Set<string>();
  // The allocations the local pointer is given (see {@link allocations}): calls that make its memory.
  const allocated = new Set<number>();
  let array = 0;
  let type: string | undefined;
  for (const d of body.descendantsOfType('declaration')) {
    if (!d) continue;
    // A static local keeps what one call left for the next; one that is `const` (a table of names)
    // holds the same bytes on every call.
    const constant = d.children.some((k) => k?.type === 'type_qualifier' && k.text === 'const');
    if (
      d.children.some(
        (k) =>
          k?.type === 'storage_class_specifier' &&
          k.text !== 'register' &&
          !(k.text === 'static' && constant),
      )
    )
      return -1;
    for (const declarator of d.childrenForFieldName('declarator')) {
      const name = declaredName(declarator);
      if (!name) continue;
      if (name === local) {
        const inner =
          declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') : declarator;
        // An array, an object sent by its address (`struct hdr h; ... send(fd, (char *)&h + off, ...)`),
        // or a pointer to memory allocated for the call (`tmp = malloc(n + 2); memcpy(tmp, line, n);`).
        const fresh = inner?.type === 'pointer_declarator' ? allocations(local, body) : undefined;
        if (fresh) for (const call of fresh) allocated.add(call.id);
        else if (inner?.type !== 'array_declarator' && !(facts.addressed && inner?.type === 'identifier'))
          return -1;
        type = d.childForFieldName('type')?.text;
        array++;
      }
      locals.add(name);
    }
  }
  // An array of the file whose bytes never change: any count of them the call computes is its own.
  const fixedBytes = array === 0 && facts.text !== undefined && unchangedArray(local, facts.text);
  if ((array !== 1 && !fixedBytes) || params.includes(local)) return -1;
  // The length says the message is what the body built: a fixed size, the text's own length, the
  // length of what the body copied in and constants (`len + 2` of a copied line and its CRLF), or a
  // count it kept of the bytes it stored (countedLengths.ts).
  if (
    !fixedBytes &&
    lenArg &&
    !fixedLength(lenArg, local, type) &&
    !ownLength(lenArg, local, body) &&
    !copiedLength(lenArg, local, body, params) &&
    !countedLength(lenArg, local, body)
  )
    return -1;
  // Calls that never return, and the arm that handles a failed allocation (`if (!tmp) { ... }`): what
  // runs there sends nothing (the memory to send is not there).
  const leaving: Node[] = allocated.size > 0 ? allocationFailures(local, body) : [];
  const skipped = (n: Node) => leaving.some((c) => n.startIndex >= c.startIndex && n.endIndex <= c.endIndex);
  for (const call of body.descendantsOfType('call_expression')) {
    if (!call || call.equals(write) || facts.failing?.(call) || allocated.has(call.id) || skipped(call))
      continue;
    // Its memory released once the bytes left (see releasedLocals.ts).
    if (allocated.size > 0 && releasesLocalAfter(call, local, write)) continue;
    const callee = call.childForFieldName('function');
    if (callee?.type !== 'identifier') return -1;
    if (facts.quietCall(callee.text)) continue;
    if (facts.leaves?.(callee.text)) {
      leaving.push(call);
      continue;
    }
    // A trace or an error message is harmless when it is given nothing but constants before its
    // format string (`trace("send %s", buf)`): it reads what it prints and changes none of it.
    const args = callArgs(call);
    const format = args.findIndex(formatText);
    if (format < 0) return -1;
    for (const arg of args.slice(0, format))
      if ([...identifiers(arg)].some((n) => !CONSTANT.test(n))) return -1;
  }
  // Every name read: a parameter, a local, a constant or a settled setting. Nothing else from outside.
  const helper = body.parent?.type === 'function_definition' ? functionName(body.parent) : undefined;
  let from = -1;
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || facts.failing?.(id)) continue;
    if (skipped(id)) continue;
    const parent = id.parent;
    if (parent?.type === 'call_expression' && parent.childForFieldName('function')?.equals(id)) continue;
    // `sizeof(item_t)` reads no byte of anything (the grammar cannot tell a type's name from a value's).
    if (insideSizeof(id, body)) continue;
    const name = id.text;
    const param = params.indexOf(name);
    if (param >= 0) {
      const outside = id.startIndex < write.startIndex || id.endIndex > write.endIndex;
      if (from < 0 && param !== facts.fdParam && outside) from = param;
      continue;
    }
    // `errno`, read by the write's own failure handling (`if (errno == EINTR) goto retry;`), is no byte.
    // A setting of the file that nothing changes where the helper is called is as fixed as a constant
    // (settledGlobals.ts).
    if (
      !locals.has(name) &&
      !CONSTANT.test(name) &&
      name !== 'errno' &&
      !(fixedBytes && name === local) &&
      !(helper !== undefined && facts.text !== undefined && settledVariable(name, helper, facts.text))
    )
      return -1;
  }
  return from;
}

/** True when `node` lies inside a `sizeof` of `body`: what it names is measured, never read. */
function insideSizeof(node: Node, body: Node): boolean {
  for (let at = node.parent; at && at.id !== body.id; at = at.parent)
    if (at.type === 'sizeof_expression') return true;
  return false;
}

/**
 * An allocator by the C library's name or the usual spelling of a project's (`xmalloc`, `str_alloc`),
 * or a function returning text it allocates (`xstrdup`, `str_vprintf`: a formatter that returns a
 * pointer returns new text).
 */
const ALLOCATOR = /^(?:alloca|\w*alloc|\w*printf|\w*strn?dup)$/;

/**
 * The calls that give the pointer `local` its memory, when its every value is a fresh allocation
 * (`char *tmp; tmp = malloc(n + 2);`, `char *tmp = xmalloc(n)`): the memory is the call's own, as a
 * local array is. Undefined when any value comes from elsewhere, or from `realloc` of older memory.
 */
function allocations(local: string, body: Node): Node[] | undefined {
  const calls: Node[] = [];
  for (const a of body.descendantsOfType(['assignment_expression', 'init_declarator', 'update_expression'])) {
    if (!a) continue;
    const target =
      a.type === 'init_declarator'
        ? declaredName(a)
        : withoutCasts(a.childForFieldName(a.type === 'update_expression' ? 'argument' : 'left') ?? a).text;
    if (target !== local) continue;
    if (a.type === 'update_expression' || (a.type === 'assignment_expression' && a.child(1)?.text !== '='))
      return undefined;
    const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
    const v = value ? withoutCasts(value) : undefined;
    const callee = v?.type === 'call_expression' ? v.childForFieldName('function')?.text : undefined;
    if (!v || !callee || !ALLOCATOR.test(callee) || /realloc$/.test(callee)) return undefined;
    calls.push(v);
  }
  return calls.length > 0 ? calls : undefined;
}

/** The arms of `if (!local)`, `if (local == NULL)` and the like: where an allocation of `local` failed. */
function allocationFailures(local: string, body: Node): Node[] {
  const arms: Node[] = [];
  for (const stmt of body.descendantsOfType('if_statement')) {
    const test = stmt?.childForFieldName('condition');
    const then = stmt?.childForFieldName('consequence');
    if (!test || !then) continue;
    const t = test.text.replace(/[\s()]/g, '');
    if (t === `!${local}` || t === `${local}==NULL` || t === `NULL==${local}` || t === `${local}==0`)
      arms.push(then);
  }
  return arms;
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

/** Calls that copy their second argument into their first (`memcpy(tmp, line, n)`). */
const COPIES = /^(?:memcpy|memmove|strcpy|strncpy|strlcpy|stpcpy)$/;

/**
 * True when `len` is the length of what the body copied into `local` from parameters, plus or minus
 * constants: `len + 2` where `len = strlen(line)` and `memcpy(tmp, line, len)`. Every byte it counts
 * is then one the body put there (a length measured from another parameter could count past them).
 */
function copiedLength(
  len: Node,
  local: string,
  body: Node,
  params: readonly (string | undefined)[],
): boolean {
  const copied = new Set<string>();
  for (const call of body.descendantsOfType('call_expression')) {
    const callee = call?.childForFieldName('function')?.text ?? '';
    if (!call || !COPIES.test(callee)) continue;
    const [into, from] = callArgs(call);
    const base = into ? [...identifiers(into)][0] : undefined;
    const source = from ? withoutCasts(from) : undefined;
    if (base === local && source?.type === 'identifier' && params.includes(source.text))
      copied.add(source.text);
  }
  if (copied.size === 0) return false;
  const measured = (v: Node) => {
    const call = withoutCasts(v);
    const name = call.type === 'call_expression' ? call.childForFieldName('function')?.text : undefined;
    const first = name && /^strn?len$/.test(name) ? callArgs(call)[0] : undefined;
    return !!first && copied.has(withoutCasts(first).text);
  };
  const counts = (n: Node): boolean => {
    const b = withoutCasts(n);
    if (b.type === 'number_literal' || (b.type === 'identifier' && CONSTANT.test(b.text))) return true;
    if (b.type === 'parenthesized_expression') return !!b.namedChild(0) && counts(b.namedChild(0)!);
    if (b.type === 'binary_expression' && ['+', '-'].includes(b.childForFieldName('operator')?.text ?? ''))
      return counts(b.childForFieldName('left')!) && counts(b.childForFieldName('right')!);
    if (measured(b)) return true;
    if (b.type !== 'identifier') return false;
    // A local every value of which measures a copied parameter (`size_t len = strlen(line);`).
    let values = 0;
    for (const a of body.descendantsOfType([
      'assignment_expression',
      'init_declarator',
      'update_expression',
    ])) {
      if (!a) continue;
      const target =
        a.type === 'init_declarator'
          ? declaredName(a)
          : withoutCasts(a.childForFieldName(a.type === 'update_expression' ? 'argument' : 'left') ?? a).text;
      if (target !== b.text) continue;
      const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
      if (a.type !== 'init_declarator' && a.child(1)?.text !== '=') return false;
      if (!value || !measured(value)) return false;
      values++;
    }
    return values > 0;
  };
  return counts(len);
}

/**
 * True when `text` declares `name` as a file-level `static` or `const` array, and uses it nowhere but
 * as the buffer of a write (`write(fd, zeros, count)`) or in `sizeof`: its bytes are then the same on
 * every call (zeros, or its initializer). Any other use (`memset(zeros, ...)`, an assignment, a
 * mention in a comment) may change it, or is not read.
 */
function unchangedArray(name: string, text: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const declaration = new RegExp(
    `^[ \\t]*(?:static|const)\\b[^;{}()=\\n]*\\b${name}[ \\t]*\\[[^\\]\\n]*\\][ \\t]*(?:=[^;]*)?;`,
    'm',
  ).exec(text);
  if (!declaration) return false;
  const end = declaration.index + declaration[0].length;
  for (const use of text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) {
    const at = use.index;
    if (at >= declaration.index && at < end) continue;
    const before = text.slice(Math.max(0, at - 160), at);
    const after = text.slice(at + name.length, at + name.length + 8);
    if (/\bsizeof\s*\(?\s*$/.test(before)) continue;
    const sent =
      /\b(?:write|send|pwrite)\s*\(\s*[^,;()]+,\s*(?:\(\s*(?:const\s+)?\w+(?:\s+\w+)?\s*\*\s*\)\s*)?$/;
    if (!sent.test(before) || !/^\s*[,)]/.test(after)) return false;
  }
  return true;
}
