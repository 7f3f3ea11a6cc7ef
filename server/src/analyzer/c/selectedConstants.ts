// A helper that sends one of a few fixed commands, chosen by its arguments: a display driver's
// `cursor(dev, on)` is `if (on) write(p->fd, "\E[S", 3); else write(p->fd, "\E[s", 3);`, a
// protocol's `reply(fd, ok)` sends "OK\r\n" or "ERR\r\n". Every path through its body makes exactly one
// write of constant bytes to one descriptor (its parameter, or a member reached from one), so each call
// is one write to that descriptor and takes its place in the caller's run. The bytes are the helper's own
// constants, picked by a test the caller's arguments decide: no iovec at the call site can list them
// without that test, so such a run has no automatic fix.
import type { Node } from 'web-tree-sitter';
import { ioName } from '../catalogue';
import { callArgs, calleeName, calls, declaredName, namedKids, parameterNames, unwrap } from './syntax';
import type { CContext, CWrapper } from './writes';

/** One arm's write: the catalogue function it calls and the descriptor it writes to, as written. */
interface ArmWrite {
  readonly callee: string;
  readonly fd: string;
}

/** A string literal (adjacent ones joined too): the same bytes every call. */
function literal(node: Node): boolean {
  const bare = unwrap(node);
  return bare.type === 'string_literal' || bare.type === 'concatenated_string';
}

/** A count that is the same every call: no names in it (a number, `sizeof` a literal or a type, sums of them). */
function constantCount(node: Node | undefined): boolean {
  if (!node) return false;
  return (
    node.descendantsOfType('identifier').length === 0 &&
    node.descendantsOfType('call_expression').length === 0
  );
}

/**
 * The one write `statements` (an arm's) make, or undefined when they make none, more than one, or
 * anything else that may write: a catalogue write besides it, a call of a helper or through a pointer.
 * Calls that may do other I/O (a debug trace) are added to `others`: harmless unless they are given the
 * descriptor (see {@link selectedConstantOf}).
 */
function armWrite(statements: readonly Node[], ctx: CContext, others: Node[]): ArmWrite | undefined {
  let found: ArmWrite | undefined;
  for (const stmt of statements) {
    if (stmt.type === 'comment') continue;
    if (stmt.type !== 'expression_statement') return undefined;
    const expr = stmt.namedChild(0);
    const call = expr && unwrap(expr).type === 'call_expression' ? unwrap(expr) : undefined;
    const inner = calls(stmt);
    if (!call || inner.length === 0) return undefined;
    const callee = calleeName(call);
    const fn = callee === undefined ? undefined : ctx.functions.get(callee);
    if (fn && callee) {
      if (found || inner.length > 1 || fn.gathered) return undefined;
      // `send(fd, "x", 1, 0)`: only the fixed argument's own value keeps it a plain write.
      if (fn.fixed && callArgs(call)[fn.fixed.index]?.text.trim() !== fn.fixed.text) return undefined;
      const args = callArgs(call);
      const fd = args[fn.fd];
      const buf = args[fn.buf];
      if (!fd || !buf || !literal(buf)) return undefined;
      if (fn.len !== undefined && !constantCount(args[fn.len])) return undefined;
      found = { callee, fd: fd.text.replace(/\s+/g, '') };
      continue;
    }
    for (const c of inner) {
      const name = calleeName(c);
      if (!name || ctx.functions.has(name) || ctx.wrappers.has(name) || ctx.macros?.has(name))
        return undefined;
      if (ioName(name) && !ctx.quiet(name)) others.push(c);
    }
  }
  return found;
}

/** The statements of an arm: a block's, or the one statement. */
function armStatements(arm: Node): Node[] {
  return arm.type === 'compound_statement' ? namedKids(arm) : [arm];
}

/**
 * The writes of an if/else chain, one per arm, when every arm (a final `else` included) makes exactly
 * one (see {@link armWrite}) and the tests call nothing; else undefined.
 */
function chainWrites(stmt: Node, ctx: CContext, others: Node[]): ArmWrite[] | undefined {
  const writes: ArmWrite[] = [];
  for (let at: Node | null = stmt; at;) {
    const condition = at.childForFieldName('condition');
    const consequence = at.childForFieldName('consequence');
    const alternative: Node | null = at.childForFieldName('alternative');
    if (!condition || !consequence || !alternative || calls(condition).length > 0) return undefined;
    const first = armWrite(armStatements(consequence), ctx, others);
    if (!first) return undefined;
    writes.push(first);
    // tree-sitter-c wraps the else arm in an else_clause.
    const next: Node | null = alternative.type === 'else_clause' ? alternative.namedChild(0) : alternative;
    if (!next) return undefined;
    if (next.type === 'if_statement') {
      at = next;
      continue;
    }
    const last = armWrite(armStatements(next), ctx, others);
    if (!last) return undefined;
    writes.push(last);
    at = null;
  }
  return writes;
}

/** `root` with the member path after it (`p` and `->fd` of `p->fd`), or undefined for another shape. */
function splitPath(text: string): { root: string; path: string } | undefined {
  const m = /^([A-Za-z_]\w*)((?:->|\.)[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*)?$/.exec(text);
  return m ? { root: m[1]!, path: m[2] ?? '' } : undefined;
}

/** Whether `name` is assigned, incremented or has its address taken anywhere in `body`. */
function changed(name: string, body: Node): boolean {
  for (const n of body.descendantsOfType([
    'assignment_expression',
    'update_expression',
    'pointer_expression',
  ])) {
    if (n.type === 'pointer_expression' && n.child(0)?.type !== '&') continue;
    const target =
      n.type === 'assignment_expression'
        ? n.childForFieldName('left')
        : n.type === 'update_expression'
          ? n.childForFieldName('argument')
          : n.childForFieldName('argument');
    if (target && splitPath(target.text.replace(/\s+/g, ''))?.root === name) return true;
  }
  return false;
}

/**
 * Reads `fn` as a helper of one write of constant bytes chosen by a test: its body is declarations
 * (a local may copy a member path of a parameter, `struct state *p = dev->priv;`) and then
 * one if/else chain every arm of which writes once (see {@link chainWrites}), all to the same
 * descriptor, a parameter or a member path from one (through such a local or directly), which nothing
 * in the body changes. Undefined for any other body. Does not modify `fn`.
 */
export function selectedConstantOf(
  fn: Node,
  name: string,
  exported: boolean,
  ctx: CContext,
): CWrapper | undefined {
  const body = fn.childForFieldName('body');
  const params = parameterNames(fn);
  if (!body || params.length === 0 || params.includes(undefined)) return undefined;
  const copies = new Map<string, string>();
  const others: Node[] = [];
  let chain: ArmWrite[] | undefined;
  for (const stmt of namedKids(body)) {
    if (stmt.type === 'comment') continue;
    if (chain) {
      // Only a bare return may follow the choice.
      if (stmt.type === 'return_statement' && stmt.namedChildCount === 0) continue;
      return undefined;
    }
    if (stmt.type === 'declaration') {
      if (calls(stmt).length > 0) return undefined;
      for (const d of stmt.childrenForFieldName('declarator')) {
        const value = d.type === 'init_declarator' ? d.childForFieldName('value') : null;
        const local = declaredName(d);
        const copied = value && splitPath(unwrap(value).text.replace(/\s+/g, ''));
        if (local && copied && copied.path !== '' && params.includes(copied.root))
          copies.set(local, unwrap(value).text.replace(/\s+/g, ''));
      }
      continue;
    }
    if (stmt.type !== 'if_statement') return undefined;
    chain = chainWrites(stmt, ctx, others);
    if (!chain) return undefined;
  }
  if (!chain || chain.length < 2) return undefined;
  const first = chain[0]!;
  if (chain.some((w) => w.fd !== first.fd || w.callee !== first.callee)) return undefined;
  const target = splitPath(first.fd);
  if (!target) return undefined;
  const copy = copies.get(target.root);
  const spelled = copy ? splitPath(copy) : target;
  if (!spelled || changed(target.root, body) || changed(spelled.root, body)) return undefined;
  const param = params.indexOf(spelled.root);
  if (param < 0) return undefined;
  // A trace given the descriptor, or the object that holds it, may write to it too.
  const holders = new Set([first.fd, target.root, spelled.root, ...(copy ? [copy] : [])]);
  const given = (arg: Node) => {
    const text = arg.text.replace(/\s+/g, '');
    return holders.has(text) || holders.has(text.replace(/^&/, '')) || text.includes(first.fd);
  };
  if (others.some((c) => callArgs(c).some(given))) return undefined;
  const member = copy ? `${spelled.path}${target.path}` : target.path;
  const writer = ctx.functions.get(first.callee)!;
  return {
    name,
    exported,
    fd: member ? { param, member } : { param },
    buf: -1,
    family: writer.gatheredName ?? writer.name,
    arity: params.length,
    formats: true,
    noFix: `${name}() writes one of ${chain.length} fixed byte strings, chosen by its arguments, which no iovec can list without that choice`,
    // A plain write per call: whether calls join is the caller's descriptor's question.
    ...(writer.messages && { messages: true }),
  };
}
