// A file-scope pointer that points into a file-scope buffer (`static char *outp = outbuf;`, or set in a
// body: `outp = &outbuf[2];`): a function that stores through it (`*outp++ = c;`, `outp[0] = '#';`)
// changes the buffer, though its body names only the pointer. What a call changes (assignedGlobals.ts)
// then holds the buffer too: `write(fd, outbuf, 4); put_mark(); write(fd, outbuf + 4, 4);` with
// `put_mark()` storing through such a pointer, in this file or called from another, sends bytes the
// call changed, and the call ends the run. Read from the text alone, as the other function facts are:
// the declarations and assignments of the file's own file-scope pointers, at file scope written at a
// line's start, the way C code lays out its file-scope declarations.
import type { CFunctionFact } from './functionFacts';

/** The words that may open a file-scope declaration before its type. */
const QUALIFIERS = '(?:(?:static|const|volatile|unsigned|signed|struct|union|extern)\\s+)*';

/**
 * `facts` (the file's definitions, the body of `facts[i]` between the offsets `bodies[i]` of `clean`,
 * its text with comments and literals blanked), each whose body stores through a file-scope pointer of
 * the file that points into a file-scope object of the file (see the file comment) given that object
 * among what it assigns. Setting the pointer itself (`outp = &outbuf[2];`) changes no object. Returns
 * a new list; the facts given are not modified.
 */
export function aliasedAssignments(
  clean: string,
  facts: readonly CFunctionFact[],
  bodies: readonly (readonly [number, number])[],
): CFunctionFact[] {
  // Only a name some function assigns can be such a pointer: most files assign none at file scope.
  const assigned = new Set<string>();
  for (const f of facts) for (const n of f.assigns ?? []) if (/^\w+$/.test(n)) assigned.add(n);
  if (assigned.size === 0) return [...facts];
  // A declaration read below names its pointer right after a `*`, before `=` or `;`: the others need
  // no search.
  const starred = starredNames(clean);
  for (const n of assigned) if (!starred.has(n)) assigned.delete(n);
  if (assigned.size === 0) return [...facts];
  const targets = pointerTargets(clean, [...assigned]);
  if (targets.size === 0) return [...facts];
  return facts.map((f, i) => {
    const through = f.assigns?.filter((n) => targets.has(n));
    const body = bodies[i];
    if (!through?.length || !body) return f;
    const text = clean.slice(body[0] + 1, body[1]);
    const assigns = new Set(f.assigns);
    for (const n of through) if (storesThrough(text, n)) for (const t of targets.get(n)!) assigns.add(t);
    return assigns.size === f.assigns!.length ? f : { ...f, assigns: [...assigns].sort() };
  });
}

/**
 * Whether `body` stores through the pointer `name`: `*p = `, `*p++ = `, `p[i] = `, `p->x = `, `p[i]++`,
 * or hands it to a library call filling its first argument (`memcpy(p, ...)`, `strcpy(p, ...)`).
 */
function storesThrough(body: string, name: string): boolean {
  const stored = new RegExp(
    `\\*\\s*\\(?\\s*${name}\\b\\s*(?:\\+\\+|--)?\\s*\\)?\\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|` +
      `\\b${name}\\s*(?:\\[[^\\]]*\\]|->\\s*\\w+)(?:\\s*(?:\\.|->)\\s*\\w+|\\s*\\[[^\\]]*\\])*\\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\\+\\+|--)|` +
      `\\b(?:mem(?:set|cpy|move)|str(?:n?cpy|n?cat|lcpy|lcat)|v?s?n?printf)\\s*\\(\\s*${name}\\b`,
  );
  return stored.test(body);
}
/**
 * The file's file-scope pointers among `names` that point into its file-scope objects, with those
 * objects: declared at a line's start with a pointer's `*` (`static char *outp = outbuf;`), given the
 * object there or in an assignment (`outp = &outbuf[n];`, `outp = outbuf + n;`).
 */
function pointerTargets(clean: string, names: readonly string[]): Map<string, Set<string>> {
  const words = names.join('|');
  const declared = new RegExp(
    `^${QUALIFIERS}[A-Za-z_]\\w*[\\s*]*\\*\\s*(${words})\\s*(?:=\\s*(?:\\(\\s*[\\w\\s*]+\\)\\s*)?&?\\s*([A-Za-z_]\\w*)|;)`,
    'gm',
  );
  const given: [string, string][] = [];
  const pointers = new Set<string>();
  for (const m of clean.matchAll(declared)) {
    pointers.add(m[1]!);
    if (m[2] !== undefined) given.push([m[1]!, m[2]]);
  }
  if (pointers.size === 0) return new Map();
  const set = new RegExp(
    `\\b(${[...pointers].join('|')})\\s*=(?!=)\\s*(?:\\(\\s*[\\w\\s*]+\\)\\s*)?&?\\s*([A-Za-z_]\\w*)`,
    'g',
  );
  for (const m of clean.matchAll(set)) given.push([m[1]!, m[2]!]);
  const targets = new Map<string, Set<string>>();
  // Asked once per object: a file sets its pointers to the same few names (`NULL`, a buffer) often.
  const objects = new Map<string, boolean>();
  const isObject = (name: string) => {
    let known = objects.get(name);
    if (known === undefined) objects.set(name, (known = fileScopeObject(clean, name)));
    return known;
  };
  for (const [pointer, object] of given) {
    if (pointer === object || !isObject(object)) continue;
    let objects = targets.get(pointer);
    if (!objects) targets.set(pointer, (objects = new Set()));
    objects.add(object);
  }
  return targets;
}

/** The word runs after a `*` and before `=` or `;` in `clean` (`*outp = `, `* p;`, `**pp;`'s `pp`). */
function starredNames(clean: string): Set<string> {
  const names = new Set<string>();
  for (let at = clean.indexOf('*'); at >= 0; at = clean.indexOf('*', at + 1)) {
    STARRED.lastIndex = at;
    const m = STARRED.exec(clean);
    if (m) names.add(m[1]!);
  }
  return names;
}

/** A `*`, the word run after it and a `=` or `;`, white space between, read where a `*` stands (sticky). */
const STARRED = /\*\s*(\w+)\s*[=;]/y;

/** Whether `clean` declares `name` at file scope: at a line's start (`char outbuf[512];`, `= {`). */
function fileScopeObject(clean: string, name: string): boolean {
  if (!declaratorSpelled(clean, name)) return false;
  const declaration = new RegExp(
    `^${QUALIFIERS}[A-Za-z_]\\w*[\\s*]+${name}\\s*(?:\\[[^\\]\\n]*\\]\\s*)*[;=,]`,
    'my',
  );
  // The pattern is tried only at the line starts it can match from, as its search from every line
  // would find it: a match runs from its line's start over words, white space and `*`s to an
  // occurrence of `name`, so each occurrence is walked back from over those characters, trying each
  // line start met, no further than the occurrence before (whose walk tried what lies beyond). A name
  // the test asks about stands in most lines of a file (`NULL`), and the search from every line start
  // cost a large file milliseconds each time.
  let before = -1;
  for (let at = clean.indexOf(name); at >= 0; before = at, at = clean.indexOf(name, at + 1)) {
    for (let p = at; ; p--) {
      if (p === 0 || isLineTerminator(clean.charCodeAt(p - 1))) {
        declaration.lastIndex = p;
        if (declaration.test(clean)) return true;
      }
      if (p - 1 <= before || !HEAD_CHARACTER.test(clean[p - 1]!)) break;
    }
  }
  return false;
}

/** A character between a file-scope declaration's line start and its name: a word's, white space, a `*`. */
const HEAD_CHARACTER = /[\w\s*]/;

/** Whether a character code ends a line for a multiline pattern's `^` (`\n`, `\r`, U+2028, U+2029). */
function isLineTerminator(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/**
 * Whether `name` stands somewhere in `clean` as the declaration below spells it: after a word and
 * white space or `*`s (`char outbuf`, `char *p`), before `[`, `;`, `=` or `,`. Most names a pointer is
 * set to (`NULL`, a call's result) stand so nowhere, and this asks each place the name stands rather
 * than every line of the file.
 */
function declaratorSpelled(clean: string, name: string): boolean {
  for (let at = clean.indexOf(name); at >= 0; at = clean.indexOf(name, at + 1)) {
    let after = at + name.length;
    while (after < clean.length && SPACE.test(clean[after]!)) after++;
    const next = clean[after];
    if (next !== '[' && next !== ';' && next !== '=' && next !== ',') continue;
    let before = at;
    while (before > 0 && SPACE_OR_STAR.test(clean[before - 1]!)) before--;
    if (before < at && before > 0 && WORD.test(clean[before - 1]!)) return true;
  }
  return false;
}

const SPACE = /\s/;
const SPACE_OR_STAR = /[\s*]/;
const WORD = /\w/;
