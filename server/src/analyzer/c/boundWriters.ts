// Function-pointer parameters bound by every call. A file's `static` function that takes the function
// it writes with (`put_field(out, fd, k, v)` calling `out(fd, k, strlen(k)); out(fd, ": ", 2); ...`)
// is called only in that file: where every call hands it the same write helper of the tree (read from
// its body, see passedWriters.ts), each call through the parameter is a call of that helper, and a
// run of them inside the function is a run of that helper's writes. A call handing it anything else
// (a logger, a parameter of the caller, an expression), or a use of its name other than a call (its
// address stored, so some other code may call it), leaves the parameter unknown.
import type { Node } from 'web-tree-sitter';
import { isStaticDefinition } from './origins';
import { functionName, parameterNames } from './syntax';
import { mayWriteThroughParameter } from './wrapperChains';
import type { CContext, CWrapper } from './writes';
import { NO_TREE_BOUND, type TreeBound } from './handedWriters';

/** What a bound parameter is: the helper every call hands it, named as the parameter. */
export interface BoundWriter {
  readonly param: string;
  readonly writer: CWrapper;
}

/**
 * The function-pointer parameters of `bodies` (the file's definitions) that every call in `text`
 * binds to one write helper of `wrappers`, by the definition's node id. Only `static` definitions
 * (no caller elsewhere) whose name `text` never mentions but to call it or declare it, with calls of
 * the parameter taking three arguments (`out(fd, buf, n)`, as a write helper's). Reads the text, not
 * the syntax tree: callers may lie in parts of the file a partial parse left out. A definition other
 * files see is bound where `tree` says every call in the tree binds it (see handedWriters.ts).
 */
export function boundWriters(
  bodies: readonly { readonly fn: Node; readonly text: string }[],
  text: string,
  wrappers: ReadonlyMap<string, CWrapper>,
  library: ReadonlyMap<string, unknown>,
  tree: TreeBound = NO_TREE_BOUND,
): Map<Node['id'], BoundWriter[]> {
  const bound = new Map<Node['id'], BoundWriter[]>();
  // No function of the file takes a function it calls with three arguments: nothing to bind.
  if (!mayWriteThroughParameter(text)) return bound;
  for (const { fn, text: inside } of bodies) {
    const name = functionName(fn);
    const body = fn.childForFieldName('body');
    if (!name || !body) continue;
    const own = isStaticDefinition(fn);
    const told = own ? undefined : tree.get(name);
    if (!own && !told) continue;
    const found: BoundWriter[] = [];
    parameterNames(fn).forEach((param, index) => {
      if (!param || wrappers.has(param) || library.has(param) || !calledThrice(param, inside)) return;
      const given = told ? told.get(index) : givenAt(name, index, text, fn.startIndex, body.startIndex);
      const writer = given && wrappers.get(given);
      if (writer && plainWriter(writer)) found.push({ param, writer: boundAs(param, name, writer) });
    });
    if (found.length > 0) bound.set(fn.id, found);
  }
  return bound;
}

/** True when `inside` calls `param` with three arguments, the count perhaps a call (`strlen(s)`). */
export function calledThrice(param: string, inside: string): boolean {
  if (!inside.includes(param)) return false;
  return new RegExp(`[(*\\s]${param}\\s*\\)?\\s*\\([^,()]+,[^,]+,(?:[^,()]|\\([^()]*\\))+\\)`).test(inside);
}

/** A helper taking `(fd, buf, len)` that writes its buffer once a call, as a plain write does. */
function plainWriter(w: CWrapper): boolean {
  return (
    w.arity === 3 &&
    w.buf === 1 &&
    w.len === 2 &&
    !w.formats &&
    !w.constant &&
    (w.syscalls ?? 1) === 1 &&
    w.mode === undefined &&
    w.pace === undefined &&
    !w.select &&
    w.flags === undefined &&
    'param' in w.fd &&
    w.fd.param === 0
  );
}

/** `writer` as the parameter `param` of `fn` stands for it: calls of `param` are its calls. */
function boundAs(param: string, fn: string, writer: CWrapper): CWrapper {
  return {
    ...writer,
    name: param,
    // What keeps the helper from a fix is said too: an assumption about it among others.
    noFix: `${param} is ${writer.name}() at every call of ${fn}(): ${writer.noFix ?? `the gathered call would bypass ${param}`}`,
  };
}

/**
 * The one name every call of `name` in `text` passes at argument `index`, or undefined when some call
 * passes another or something else, or the name is used otherwise than called (its address taken).
 * The definition's own head (`head` to `body`) and prototypes (a declaration at that argument) are no
 * calls.
 */
function givenAt(name: string, index: number, text: string, head: number, body: number): string | undefined {
  let given: string | undefined;
  let calls = 0;
  for (const m of text.matchAll(new RegExp(`\\b${name}\\b\\s*(\\()?`, 'g'))) {
    const at = m.index;
    if (at >= head && at < body) continue;
    if (m[1] === undefined) return undefined;
    const args = argumentTexts(text, at + m[0].length);
    if (!args) return undefined;
    const arg = args[index]?.trim();
    if (arg === undefined) return undefined;
    // A prototype: the argument declares a parameter (`pw_out_fn out`, `int (*out)(int, ...)`).
    if (/\(\s*\*|^[A-Za-z_][\w\s*]*[\s*][A-Za-z_]\w*$/.test(arg)) continue;
    if (!/^[A-Za-z_]\w*$/.test(arg) || (given !== undefined && given !== arg)) return undefined;
    given = arg;
    calls++;
  }
  return calls > 0 ? given : undefined;
}

/** The top-level argument texts of a call whose list opens just before `from`, or undefined if unclosed. */
export function argumentTexts(text: string, from: number): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < text.length && i < from + 4096; i++) {
    const c = text[i];
    // A string or character literal may hold any of the marks counted here.
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ')') {
      args.push(text.slice(start, i));
      return args;
    } else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** `ctx` for a function whose pointer parameters `bound` binds: their calls are the helpers'. */
export function boundContext(ctx: CContext, bound: readonly BoundWriter[] | undefined): CContext {
  if (!bound) return ctx;
  const wrappers = new Map(ctx.wrappers);
  for (const b of bound) wrappers.set(b.param, b.writer);
  return { ...ctx, wrappers };
}
