// A helper that formats one status line on each path: `if (!timer) say("%d %s\n", code, s); else
// say("%d %s [%s]\n", code, s, elapsed(timer));`, `say` a printf-style writer of the project. Each arm
// spells its own format, so the two calls are no alternative spellings of one write (their texts
// differ), yet every call of the helper makes exactly one of them: one write of the text the taken arm
// formats. What an arm formats may come from the program's state (a global counter, a static of the
// helper, a quiet function's result) as well as from the helper's parameters: the text is formatted
// when the helper is called, so whatever the caller does between two calls cannot change bytes already
// written.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, namedKids, withoutCasts } from './syntax';
import { fixedFormat } from './literalFormats';

/** A writer call inside a helper and where it takes its descriptor. */
interface ArmWrite {
  readonly call: Node;
  readonly slots: { readonly fd?: number; readonly object?: true };
}

/**
 * True when `a` and `b` are calls of one printf-style writer (`formatter` says which callees are: a
 * helper formatting its own text) whose formats both spell their text out, given the same descriptor,
 * each the plain statement of one arm of an `if`/`else` of `body` that runs on every path (see
 * {@link everyPathArms}): a helper makes exactly one of them per call.
 */
export function formattedAlternative(
  a: ArmWrite,
  b: ArmWrite,
  formatter: (callee: string) => number | undefined,
  body: Node,
): boolean {
  const callee = calleeName(a.call);
  if (!callee || callee !== calleeName(b.call) || !a.slots.object || !b.slots.object) return false;
  const format = formatter(callee);
  if (format === undefined) return false;
  const [fa, fb] = [callArgs(a.call), callArgs(b.call)];
  if (!fixedFormat(fa[format]) || !fixedFormat(fb[format])) return false;
  if (a.slots.fd !== undefined) {
    const text = (args: Node[]) => (args[a.slots.fd!] ? withoutCasts(args[a.slots.fd!]!).text : undefined);
    if (text(fa) === undefined || text(fa) !== text(fb)) return false;
  }
  return everyPathArms(a.call, b.call, body);
}

/**
 * True when `a` and `b` lie in the two arms of one `if`/`else` that nothing in `body` runs only under a
 * test, a loop or a `switch`, and neither sits under another test within its arm: every call of the
 * helper runs exactly one of them. A write under a test of its own (`if (node->flags & RW) put(...)`)
 * may be left out on some path, and one in a loop repeated.
 */
function everyPathArms(a: Node, b: Node, body: Node): boolean {
  const armOf = (call: Node): { branch: Node; arm: Node } | undefined => {
    for (let at = call.parent, child: Node = call; at && !at.equals(body); child = at, at = at.parent) {
      if (at.type === 'if_statement') {
        const then = at.childForFieldName('consequence');
        const other = at.childForFieldName('alternative');
        if (!other || at.childForFieldName('condition')?.equals(child)) return undefined;
        return then?.equals(child) || other.equals(child) ? { branch: at, arm: child } : undefined;
      }
      if (!PLAIN.has(at.type)) return undefined;
    }
    return undefined;
  };
  const [x, y] = [armOf(a), armOf(b)];
  if (!x || !y || !x.branch.equals(y.branch) || x.arm.equals(y.arm)) return false;
  // The branch itself runs on every path: only blocks stand between it and the body (an `else if` is
  // another branch's arm, under that branch's test).
  for (let at = x.branch.parent; at && !at.equals(body); at = at.parent)
    if (!PLAIN.has(at.type)) return false;
  return true;
}

/** What may stand between a call and its arm, or a branch and the body, without testing or looping. */
const PLAIN = new Set(['expression_statement', 'compound_statement', 'else_clause']);

/**
 * True when `arg`, an argument a formatting call of a helper's body gives, reads only the program's
 * state or its parameters: names the body does not declare (globals, `params` it leaves unchanged), or
 * declares `static` (what earlier calls left),
 * their members, constants and literals, operators over those, and calls `quiet` says do no output (as
 * a write's own arguments may make), given such arguments. A local the body computes, or anything
 * that may do output, is not.
 */
export function stateArgument(
  arg: Node,
  body: Node,
  params: readonly (string | undefined)[],
  changed: (name: string) => boolean,
  quiet: (call: Node) => boolean,
): boolean {
  const locals = bodyLocals(body);
  const ok = (n: Node): boolean => {
    const b = withoutCasts(n);
    switch (b.type) {
      case 'identifier':
        // A parameter the body changes stands for nothing its caller gave.
        return !locals.has(b.text) && !(params.includes(b.text) && changed(b.text));
      case 'number_literal':
      case 'string_literal':
      case 'concatenated_string':
      case 'char_literal':
      case 'true':
      case 'false':
      case 'null':
      case 'sizeof_expression':
        return true;
      case 'field_expression':
        return ok(b.childForFieldName('argument')!);
      case 'call_expression':
        return quiet(b) && callArgs(b).every(ok);
      case 'parenthesized_expression':
      case 'binary_expression':
      case 'unary_expression':
      case 'conditional_expression':
        return namedKids(b).every(ok);
      default:
        return false;
    }
  };
  return ok(arg);
}

/** The names `body` declares without `static` (its locals of one call). */
function bodyLocals(body: Node): Set<string> {
  const names = new Set<string>();
  for (const d of body.descendantsOfType('declaration')) {
    if (!d) continue;
    const fixed = namedKids(d).some((k) => k.type === 'storage_class_specifier' && k.text === 'static');
    if (fixed) continue;
    for (const k of namedKids(d)) {
      let at: Node | null = k.type === 'init_declarator' ? k.childForFieldName('declarator') : k;
      while (at && at.type !== 'identifier' && at.childForFieldName('declarator'))
        at = at.childForFieldName('declarator');
      if (at?.type === 'identifier') names.add(at.text);
    }
  }
  return names;
}
