// Buffers a function can only read through: its parameters and locals declared as a pointer to `const`
// bytes or numbers (`const char *val`, `uint8_t const *p`) or as an array of `const` ones. Handed to a
// call, such a name gives the callee a copy of the pointer and, by the type, no right to change what it
// points at, whatever the callee (a debug print given the buffer it is about to write: `debug("%s",
// val)`, with no body in reach). Only bytes and numbers: a `const struct` may still hold pointers
// through which the callee writes, and a pointer to a pointer may be redirected.
import type { Node } from 'web-tree-sitter';
import { declarationsOf, declaredName, namedKids } from './syntax';

/** Type specifiers whose values hold no pointer: numbers and characters (`uint8_t` is one too). */
const PLAIN_TYPES: ReadonlySet<string> = new Set(['primitive_type', 'sized_type_specifier']);

/** The name `d` declares when it is `*name` or `name[...]` (one level), under an initialiser or not. */
function singleLevelName(d: Node): string | undefined {
  const declarator = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
  if (declarator?.type !== 'pointer_declarator' && declarator?.type !== 'array_declarator') return undefined;
  const inner = declarator.childForFieldName('declarator');
  return inner?.type === 'identifier' ? inner.text : undefined;
}

/** True when the declaration's own qualifiers (not a pointer's) include `const`. */
function constPointee(decl: Node): boolean {
  return namedKids(decl).some((k) => k.type === 'type_qualifier' && k.text === 'const');
}

/**
 * The parameters and locals of `fn` through which no call can change the bytes they point at (see the
 * file comment). A name also declared any other way in the function (a shadowing block variable) is
 * left out. Does not modify `fn`.
 */
export function constPointeesOf(fn: Node): Set<string> {
  const readOnly = new Set<string>();
  const other = new Set<string>();
  for (const decl of declarationsOf(fn)) {
    const plain = PLAIN_TYPES.has(decl.childForFieldName('type')?.type ?? '') && constPointee(decl);
    for (const d of decl.childrenForFieldName('declarator')) {
      if (!d) continue;
      const name = singleLevelName(d);
      if (plain && name) readOnly.add(name);
      else {
        const declared = declaredName(d);
        if (declared) other.add(declared);
      }
    }
  }
  for (const name of other) readOnly.delete(name);
  return readOnly;
}
