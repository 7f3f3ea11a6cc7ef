// Function definitions whose header is written once per configuration: `#ifdef WITH_AUTH` / `int
// open_peer(int *sock, struct token *auth)` / `#else` / `int open_peer(int *sock)` / `#endif`, then
// one body. Old portable C does this for K&R and ANSI headers (`#ifdef __STDC__`) and for parameters
// that differ by platform. The grammar reads each header as a declaration missing its `;` and the body
// as a block of no function, so nothing in it would be read. The first group's header with the body
// after the `#endif` is the function as that configuration compiles it: parsed as one definition,
// the text between them left out.
import type { Node } from 'web-tree-sitter';
import { lineMatches } from './lineMatches';
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

/**
 * A definition whose declarator alone is written once per configuration, the type before the
 * conditional and the body after it: `static void` / `#if WITH_V6` / `open_sock(struct addr *a)` /
 * `#else` / `open_sock(void)` / `#endif` / `{`; or whose first group is a K&R header (its parameters
 * declared after it) the grammar cannot read. The grammar reads none of it as a definition (the
 * conditional cuts the declaration in two, or the first group is an error), so
 * {@link splitDefinitions} cannot find it in the tree; it is found in the text instead.
 */
export interface ConditionalHeader {
  /** The lines before the conditional that begin the declaration (its type), if any. */
  readonly prefix?: readonly [number, number];
  /** Each group's lines, without the directives, in the order written. */
  readonly groups: readonly (readonly [number, number])[];
  /** Where the body's `{` is. */
  readonly body: number;
}

/** `#endif`, then blank lines, then a line opening with `{` (sticky: see lineMatches.ts). */
const ENDIF_THEN_BODY = /^[ \t]*#[ \t]*endif\b[^\n]*\n(?:[ \t]*\r?\n)*\{/my;
const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b/;

/**
 * Every `#if` ... `#endif` of two or more groups followed by a line opening with `{`, with its groups
 * that end with `)` (a function declarator): the candidates for {@link ConditionalHeader}. Nested
 * conditionals inside a group are skipped over; the caller parses each candidate and keeps those
 * that are definitions.
 */
export function conditionalHeaders(text: string): ConditionalHeader[] {
  const found: ConditionalHeader[] = [];
  for (const m of lineMatches(text, 'endif', ENDIF_THEN_BODY)) {
    const endifLine = m.index;
    const body = m.index + m[0].length - 1;
    // Walk back over the lines to the matching `#if`, noting the `#else`/`#elif` of this level.
    const bounds: number[] = [endifLine];
    let depth = 1;
    let at = endifLine;
    let start = -1;
    while (at > 0 && depth > 0) {
      const lineStart = text.lastIndexOf('\n', at - 2) + 1;
      const directive = DIRECTIVE.exec(text.slice(lineStart, at))?.[1];
      if (directive === 'endif') depth++;
      else if (directive?.startsWith('if')) depth--;
      else if (directive && depth === 1) bounds.push(lineStart);
      if (depth === 0) start = lineStart;
      at = lineStart;
    }
    if (start < 0) continue;
    bounds.push(start);
    bounds.reverse();
    if (bounds.length < 3) continue; // one group: no choice between headers
    const groups: [number, number][] = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const from = text.indexOf('\n', bounds[i]) + 1;
      // A group of another form (a K&R header, its parameters declared after it) is not tried.
      if (/\)\s*$/.test(text.slice(from, bounds[i + 1]))) groups.push([from, bounds[i + 1]!]);
    }
    if (groups.length === 0) continue;
    found.push({ prefix: typePrefix(text, start), groups, body });
  }
  return found;
}

/**
 * The lines just above `at` that can only be the start of a declaration (`static void`, `struct
 * buffer *`): none blank, none a directive, none ending a statement, a block or a comment.
 */
function typePrefix(text: string, at: number): [number, number] | undefined {
  let from = at;
  while (from > 0) {
    const lineStart = text.lastIndexOf('\n', from - 2) + 1;
    const line = text.slice(lineStart, from).trim();
    if (line === '' || line.startsWith('#') || /[;}{]$|\*\/$|^\/\//.test(line)) break;
    from = lineStart;
  }
  return from < at ? [from, at] : undefined;
}
