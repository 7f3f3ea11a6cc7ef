// A bare `{ }` block in a statement list (`{ int zero = 0; write(s, &zero, sizeof zero); }`, a block
// that only scopes a local) runs once, in order, where it stands: its statements are read as the
// list's own, so a run of writes goes into it and on after it. What the block declares dies at its
// closing brace: when it declares anything, that brace stays a barrier, so a run taking the block's
// writes ends inside it, where every buffer the run sends is still alive. A block is left whole (a
// block of its own, as before) when one of its names is spelled elsewhere in the function (an inner
// name hiding an outer one would be read as the outer one; another block's own variable of that name
// does not count, see apartScopes.ts), when a macro call before it takes it as
// its body (see governedStatements.ts), or when it holds `case` labels a switch may jump to.
import type { Node } from 'web-tree-sitter';
import { spelledApart } from './apartScopes';
import { governsNext } from './governedStatements';
import { declaredName, namedKids } from './syntax';

/** The names the declarations directly in `block` introduce. */
function declaredIn(block: Node): string[] {
  return namedKids(block)
    .filter((s) => s.type === 'declaration')
    .flatMap((d) => d.childrenForFieldName('declarator').map((x) => declaredName(x)))
    .filter((n): n is string => n !== undefined);
}

/** The function definition `node` is in, if any. */
function enclosingFunction(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) if (at.type === 'function_definition') return at;
  return undefined;
}

/** True when none of `names` is spelled in the function around `block` outside `block`. */
function ownNames(block: Node, names: readonly string[]): boolean {
  if (names.length === 0) return true;
  const fn = enclosingFunction(block);
  if (!fn) return false;
  const wanted = new Set(names);
  for (const id of fn.descendantsOfType('identifier')) {
    if (!id || !wanted.has(id.text)) continue;
    if (id.startIndex >= block.startIndex && id.endIndex <= block.endIndex) continue;
    // Another block's own variable of that name (apartScopes.ts).
    if (!spelledApart(id, id.text, block)) return false;
  }
  return true;
}

/** True when `block`, a bare block standing in a statement list, reads as part of that list. */
function transparent(block: Node, names: readonly string[]): boolean {
  if (block.hasError) return false;
  if (block.descendantsOfType('case_statement').some((c) => c !== null)) return false;
  return ownNames(block, names);
}

/**
 * `statements` with each bare block among them replaced by its own statements (recursively), and its
 * closing brace after them when it declares a name (a token the reader takes as a barrier).
 */
export function bareBlockStatements(statements: readonly Node[]): readonly Node[] {
  if (!statements.some((s) => s.type === 'compound_statement')) return statements;
  const out: Node[] = [];
  statements.forEach((stmt, i) => {
    const governed = i > 0 && governsNext(statements[i - 1]!);
    if (stmt.type !== 'compound_statement' || governed) {
      out.push(stmt);
      return;
    }
    const names = declaredIn(stmt);
    if (!transparent(stmt, names)) {
      out.push(stmt);
      return;
    }
    out.push(...bareBlockStatements(namedKids(stmt)));
    const brace = stmt.lastChild;
    if (names.length > 0 && brace?.type === '}') out.push(brace);
  });
  return out;
}
