// A helper whose modes nest, each arm of the innermost tests one output call: `putstr(s) { if
// (!converting()) { if (over_ssh) fprintf(stdout, "%s", s); else write(sock, s, strlen(s)); } else {
// ...convert s into a copy...; write(sock, copy, n); } }` (a BBS writing to its telnet socket, to the
// terminal of an ssh session, or a converted copy to the socket). As in modeArms.ts, every test on the
// way to the arm is a mode of the program or of the object, never of the call: in the mode that takes
// that arm each call is one write of the caller's bytes, and the helper is read as that arm. Only arms
// that are one call statement (or one `return` of a call) are candidates, and nothing after the tests
// may call anything: code that runs in every mode is no arm's to leave out. The calls are reported
// without a fix: in the other modes they write another way (a converted copy, a buffered stream).
import type { Node } from 'web-tree-sitter';
import { modeTest, soleStatement } from './modeArms';
import { calls, namedKids, withoutCasts } from './syntax';

/** The statement of an `if`'s arm (tree-sitter-c wraps the else arm in an else_clause). */
function armOf(node: Node | null): Node | undefined {
  if (!node) return undefined;
  return node.type === 'else_clause' ? (node.namedChild(0) ?? undefined) : node;
}

/** True when `statement` is one call (`f(...);`, `return f(...);`). */
function callStatement(statement: Node): boolean {
  if (statement.type !== 'expression_statement' && statement.type !== 'return_statement') return false;
  const value = statement.namedChild(0);
  return !!value && withoutCasts(value).type === 'call_expression';
}

/**
 * The calls to leave out for each arm of `body`'s nested mode tests that is one call (see the file
 * comment), in source order: the caller reads the body as each in turn until one is a helper. Empty
 * when the body does not open with a mode test, calls something outside its tests, or has fewer than
 * two levels of tests (modeArms.ts reads one level). Does not modify `body`.
 */
export function nestedModeArmSkips(
  body: Node,
  params: readonly (string | undefined)[],
  sources: readonly (string | undefined)[],
  quiet: (name: string) => boolean,
): ReadonlySet<number>[] {
  const statements = namedKids(body).filter((k) => k.type !== 'comment');
  const opening = statements.find((s) => s.type !== 'declaration');
  if (!opening || opening.type !== 'if_statement') return [];
  const others = statements.filter((s) => s !== opening);
  if (others.some((s) => calls(s).length > 0)) return [];
  const arms: Node[] = [];
  let nested = false;
  const visit = (test: Node, depth: number): void => {
    const condition = test.childForFieldName('condition');
    if (!condition || !modeTest(condition, params, sources, quiet)) return;
    for (const arm of [
      armOf(test.childForFieldName('consequence')),
      armOf(test.childForFieldName('alternative')),
    ]) {
      const sole = arm && soleStatement(arm);
      if (!sole) continue;
      if (sole.type === 'if_statement') {
        nested = true;
        visit(sole, depth + 1);
      } else if (callStatement(sole)) arms.push(sole);
    }
  };
  visit(opening, 0);
  if (!nested) return [];
  return arms.map((arm) => {
    const kept = new Set(calls(arm).map((c) => c.id));
    return new Set(calls(body).flatMap((c) => (kept.has(c.id) ? [] : [c.id])));
  });
}
