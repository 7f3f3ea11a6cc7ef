// Function definitions whose header is written once per configuration: `#ifdef WITH_AUTH` / `int
// open_peer(int *sock, struct token *auth)` / `#else` / `int open_peer(int *sock)` / `#endif`, then
// one body. Old portable C does this for K&R and ANSI headers (`#ifdef __STDC__`) and for parameters
// that differ by platform. The grammar reads each header as a declaration missing its `;` and the body
// as a block of no function, so nothing in it would be read. The first group's header with the body
// after the `#endif` is the function as that configuration compiles it: parsed as one definition,
// the text between them left out.
import type { Node } from 'web-tree-sitter';
import { HOLDS_FUNCTIONS, namedKids } from './syntax';

/** The parts of one split definition: the first group's header, then the body. */
export type SplitDefinition = readonly [readonly [number, number], readonly [number, number]];

/**
 * The definitions under `root` whose headers are `#if` alternatives (see the file comment): for each,
 * the first group's header and the body that follows the conditional, as offsets of the text.
 */
export function splitDefinitions(root: Node): SplitDefinition[] {
  const found: SplitDefinition[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const kids = namedKids(node);
    kids.forEach((kid, i) => {
      if (kid.type !== 'ERROR' && HOLDS_FUNCTIONS.has(kid.type)) stack.push(kid);
      const before = kids[i - 1];
      if (kid.type !== 'compound_statement' || !before) return;
      const header = firstGroupHeader(before);
      if (header)
        found.push([
          [header.startIndex, header.endIndex],
          [kid.startIndex, kid.endIndex],
        ]);
    });
  }
  return found.sort((a, b) => a[0][0] - b[0][0]);
}

/**
 * The header the first group of an `#if`/`#ifdef` ends with: a declaration of a function whose `;`
 * the grammar had to supply (it is the header of the body after the conditional). Undefined when the
 * conditional ends otherwise, or has no other group (then it is no choice between headers).
 */
function firstGroupHeader(conditional: Node): Node | undefined {
  if (conditional.type !== 'preproc_if' && conditional.type !== 'preproc_ifdef') return undefined;
  const alternative = conditional.childForFieldName('alternative');
  if (!alternative) return undefined;
  const group = namedKids(conditional).filter((k) => !k.equals(alternative));
  const last = group[group.length - 1];
  // Its `;` is missing (which makes it `hasError`); anything else the grammar could not read is not.
  if (last?.type !== 'declaration' || last.descendantsOfType('ERROR').length > 0) return undefined;
  const end = last.child(last.childCount - 1);
  const declarator = last.childForFieldName('declarator');
  if (end?.type !== ';' || !end.isMissing || !declarator) return undefined;
  let at: Node | null = declarator;
  while (at?.type === 'pointer_declarator') at = at.childForFieldName('declarator');
  return at?.type === 'function_declarator' ? last : undefined;
}
