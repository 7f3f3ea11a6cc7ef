// A `.c` file another file includes (`#include "statefile_impl.c"`, a unity build or a file split in
// two) is part of its includer's translation unit: its `static` helpers, called in the includer, are
// the includer's own, as a header's `static inline` ones are. Read alone, each file knows nothing of
// the other; the fact base learns which sources are included from the includers' text and gives their
// definitions the standing of a header's (see WrapperIndex's shared files). Kept apart from the C front
// end, as headerIncludes.ts is, so the fact base can ask without loading the grammar.
import { lineMatches } from './c/lineMatches';
import { isHeader, resolveInclude } from './headerIncludes';

/** `#include "name.c"`: a quoted include of a C source file. Sticky: tried only at lines that say `include`. */
const SOURCE_INCLUDE = /^[ \t]*#[ \t]*include[ \t]*"([^"\n]+\.c)"/my;

/**
 * The C source files (not headers) `text` includes with quoted includes, as written, in order, each
 * once: `#include "dinoex_impl.c"` gives `dinoex_impl.c`.
 */
export function sourceIncludes(text: string): string[] {
  if (!text.includes('.c"')) return [];
  const found = new Set<string>();
  for (const m of lineMatches(text, 'include', SOURCE_INCLUDE)) found.add(m[1]!.trim());
  return [...found];
}

/**
 * The paths among `files` that some file of `files` includes (its `sources`, see {@link sourceIncludes}),
 * each resolved as a header's include is (beside the includer first, else the nearest path ending in
 * the name: {@link resolveInclude}). A file's includes of itself are left out.
 */
export function includedSources(
  files: Iterable<readonly [string, { readonly sources?: readonly string[] }]>,
): Set<string> {
  const list = [...files];
  const included = new Set<string>();
  if (!list.some(([, w]) => w.sources?.length)) return included;
  const sources = new Set(list.map(([path]) => path).filter((path) => !isHeader(path) && /\.c$/i.test(path)));
  for (const [path, w] of list)
    for (const name of w.sources ?? []) {
      const found = resolveInclude(path, name, sources);
      if (found !== undefined && found !== path) included.add(found);
    }
  return included;
}

/**
 * Whether the definitions of `path` are its includers' own: a header's, or a C source among `included`
 * (see {@link includedSources}).
 */
export function isShared(path: string, included: ReadonlySet<string>): boolean {
  return isHeader(path) || included.has(path);
}
