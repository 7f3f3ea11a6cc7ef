// A file-scope pointer that points into a file-scope buffer (`static char *outp = outbuf;`, or set in a
// body: `outp = &outbuf[2];`): a function that stores through it (`*outp++ = c;`, `outp[0] = '#';`)
// changes the buffer, though its body names only the pointer. What a call changes (assignedGlobals.ts)
// then holds the buffer too: `write(fd, outbuf, 4); put_mark(); write(fd, outbuf + 4, 4);` with
// `put_mark()` storing through such a pointer, in this file or called from another, sends bytes the
// call changed, and the call ends the run. Read from the text alone, as the other function facts are:
// the declarations and assignments of the file's own file-scope pointers, at file scope written at a
// line's start, the way C code lays out its file-scope declarations.
import type { CFunctionFact } from './functionFacts';

/** A file-scope pointer declared with its initial target: `static char *outp = outbuf;`, `= &buf[0]`. */
const DECLARED =
  /^(?:(?:static|const|volatile|unsigned|signed|struct|union|extern)\s+)*[A-Za-z_]\w*[\s*]*\*\s*([A-Za-z_]\w*)\s*=\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*([A-Za-z_]\w*)/gm;

/** A file-scope declaration's name at a line's start (`char outbuf[512];`, `static struct conf c = {`). */
const FILE_SCOPE =
  /^(?:(?:static|const|volatile|unsigned|signed|struct|union|extern)\s+)*[A-Za-z_]\w*[\s*]+([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\]\s*)*[;=,]/gm;

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
  if (!facts.some((f) => f.assigns !== undefined)) return [...facts];
  const targets = pointerTargets(clean);
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
/** The file's file-scope pointers that point into its file-scope objects, with those objects. */
function pointerTargets(clean: string): Map<string, Set<string>> {
  const objects = new Set<string>();
  for (const m of clean.matchAll(FILE_SCOPE)) objects.add(m[1]!);
  const targets = new Map<string, Set<string>>();
  const add = (pointer: string, object: string) => {
    if (pointer === object || !objects.has(object)) return;
    let set = targets.get(pointer);
    if (!set) targets.set(pointer, (set = new Set()));
    set.add(object);
  };
  const pointers = new Set<string>();
  for (const m of clean.matchAll(DECLARED)) {
    pointers.add(m[1]!);
    add(m[1]!, m[2]!);
  }
  for (const m of clean.matchAll(
    /^(?:(?:static|const|volatile|unsigned|signed|struct|union)\s+)*[A-Za-z_]\w*[\s*]*\*\s*([A-Za-z_]\w*)\s*[;=]/gm,
  ))
    pointers.add(m[1]!);
  if (pointers.size === 0) return targets;
  // Assignments of one in a body: `outp = outbuf;`, `outp = &outbuf[n];`, `outp = outbuf + n;`.
  const words = [...pointers].filter((p) => /^\w+$/.test(p)).join('|');
  const assigned = new RegExp(
    `\\b(${words})\\s*=(?!=)\\s*(?:\\(\\s*[\\w\\s*]+\\)\\s*)?&?\\s*([A-Za-z_]\\w*)`,
    'g',
  );
  for (const m of clean.matchAll(assigned)) add(m[1]!, m[2]!);
  return targets;
}
