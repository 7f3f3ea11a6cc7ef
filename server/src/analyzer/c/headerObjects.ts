// The struct of a global object a header declares. Another file's member fact (`logsock` of `struct
// state` holds a datagram socket) applies to a write to `state.logsock` where `state`'s struct is that
// struct. A file that writes to a global declared only in a header (`extern struct state state;`, or
// a pointer to it) declares nothing of that name itself, so its own text cannot tell the struct, and
// it may not name the struct at all: read alone, the member fact was taken not to apply, and two
// datagrams written to the member read as one byte stream's run. The header's declarations tell the
// struct: they are carried to its includers as one-line declarations (`struct state *cur;`) with the
// header's typedefs of structs (`typedef struct state state_t;`), read as the includer's own file-scope
// declarations, after its own (a name the file declares itself is its own).

/** Comments, string and character literals: blanked before reading declarations. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/**
 * An `extern` declaration of one object at file scope: `extern struct state state;`, `extern const
 * struct state *cur;`, `extern state_t *cur;`, `extern struct conn conns[8];`. Group 1: the type
 * (`struct state` or a type name), group 2: the stars, group 3: the name.
 */
const EXTERN_OBJECT =
  /^[ \t]*extern[ \t]+(?:const[ \t]+)?((?:struct|union)[ \t]+\w+|[A-Za-z_]\w*)[ \t]*(\**)[ \t]*([A-Za-z_]\w*)[ \t]*(?:\[[^\]\n]*\][ \t]*)?;/gm;

/** A typedef of a struct by tag, its body aside: `typedef struct state {` or `typedef struct state state_t;`. */
const STRUCT_TYPEDEF = /\btypedef\s+(?:struct|union)\s+(\w+)\s*(\{)?/g;

/**
 * The object declarations a header (`text`) carries to its includers: each `extern` object at file
 * scope of a struct or a type name, as `type *name;`, and each typedef of a tagged struct as
 * `typedef struct tag name;`. Empty for most headers (no `extern` object, no typedef).
 */
export function headerObjects(text: string): string[] {
  if (!text.includes('extern') && !text.includes('typedef')) return [];
  const clean = text.replace(NOISE, ' ');
  const found: string[] = [];
  for (const m of clean.matchAll(EXTERN_OBJECT)) found.push(`${m[1]!.replace(/\s+/g, ' ')} ${m[2]}${m[3]};`);
  for (const m of clean.matchAll(STRUCT_TYPEDEF)) {
    let at = m.index + m[0].length;
    if (m[2])
      for (let depth = 1; at < clean.length && depth > 0; at++) {
        if (clean[at] === '{') depth++;
        else if (clean[at] === '}') depth--;
      }
    // The names the typedef gives (`} state_t, *state_p;`): the pointer's name stands for no struct.
    const names = /^\s*((?:\*?\s*\w+\s*,\s*)*\*?\s*\w+)\s*;/.exec(clean.slice(at, at + 200));
    for (const n of names?.[1]?.split(',') ?? [])
      if (!n.includes('*')) found.push(`typedef struct ${m[1]} ${n.trim()};`);
  }
  return found;
}
