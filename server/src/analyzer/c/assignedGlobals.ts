// What a call changes beyond its arguments: the file-scope variables its body assigns. `refill();
// write(fd, gbuf, glen); refill(); write(fd, gbuf, glen);` with `refill()` rewriting the global buffer
// and length (in the same file or another one) sends two different contents from one place: the first
// write's bytes are gone before a gathered writev could send them, so the call ends the run, as a
// call handed the buffer does (steps.ts reads a call's arguments only; this says what else it may
// change). Read from the text alone, as the other function facts are (functionFacts.ts): the names a
// body assigns (`glen = n;`, `gbuf[i] = c;`, `conf.len++`, `memset(gbuf, ...)`, `read(fd, gbuf, n)`)
// that are neither its parameters nor declared in it; then to a least fixed point over calls, in the
// file and across files (a helper calling another file's refiller changes what that one changes).

/** Library calls that fill their first argument's object (see catalogue's C_FIRST_ARGUMENT_FILLERS). */
const FIRST_FILLED =
  /\b(?:memset|memcpy|memmove|bzero|strcpy|strncpy|stpcpy|stpncpy|strcat|strncat|strlcpy|strlcat|v?sn?printf|fgets|fread)\s*\(\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*([A-Za-z_]\w*)/g;

/** Library calls that fill their second argument's object (`read(fd, buf, n)`). */
const SECOND_FILLED =
  /\b(?:read|pread|pread64|recv|recvfrom)\s*\([^,;()]*,\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*([A-Za-z_]\w*)/g;

/**
 * A name assigned, incremented or changed through a subscript or member: `n = `, `n += `, `buf[i] = `,
 * `conf.len = `, `p->x = `, `n++`, `++n`. The name's root only.
 */
const ASSIGNED =
  /(?<![\w.>])([A-Za-z_]\w*)\s*(?:\[[^\]\n;]*\]\s*|(?:\.|->)\s*[A-Za-z_]\w*\s*)*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)/g;

/** Words before a name that make no declaration of it (`return n;`, `case N:`). */
const NOT_TYPES = new Set(['return', 'case', 'else', 'goto', 'sizeof', 'do', 'typedef']);

/**
 * The names the body `body` (comments and literals blanked) assigns or fills that it does not declare
 * and that are not among `params`: the file-scope variables (or another file's) a call of it changes,
 * its own name's callers may send. Sorted, each once.
 */
export function assignedNames(body: string, params: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const m of body.matchAll(ASSIGNED)) {
    const name = m[1] ?? m[2];
    if (name) found.add(name);
  }
  if (body.includes('('))
    for (const pattern of [FIRST_FILLED, SECOND_FILLED])
      for (const m of body.matchAll(pattern)) found.add(m[1]!);
  if (found.size === 0) return [];
  const declared = new Set<string>();
  for (const m of body.matchAll(DECLARED)) if (!NOT_TYPES.has(m[1]!)) declared.add(m[2]!);
  const names = [...found].filter((n) => !params.has(n) && !NOT_TYPES.has(n) && !declared.has(n));
  return names.sort();
}

/**
 * A declaration of a name: a type word (or `*`) before it and `=`, `;`, `,`, `[` or `)` after (`int
 * n;`, `static char buf[64];`, `char *p = ...`); the word before must be no statement keyword.
 */
const DECLARED = /\b([A-Za-z_]\w*)[\s*]+([A-Za-z_]\w*)\s*(?=[=;,[)])/g;

/** What {@link closedAssignments} reads of one function: its name, what it calls, what it assigns. */
export interface AssigningFunction {
  readonly name: string;
  /** Other files can call it (not `static`). */
  readonly exported?: boolean;
  readonly calls: readonly string[];
  readonly assigns?: readonly string[];
}

/**
 * The names each function of `facts` changes, its callees' included, to a least fixed point:
 * `elsewhere` answers for the names `facts` does not define (other files' functions). A function
 * defined twice (under `#if` alternatives) changes what either definition does. Only functions that
 * change something are in the answer. Does not modify `facts`.
 */
export function closedAssignments(
  facts: readonly AssigningFunction[],
  elsewhere: (name: string) => readonly string[] | undefined = () => undefined,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const own = new Set(facts.map((f) => f.name));
  const add = (name: string, names: Iterable<string>) => {
    let set = found.get(name);
    let grew = false;
    for (const n of names) {
      if (!set) found.set(name, (set = new Set()));
      if (!set.has(n)) {
        set.add(n);
        grew = true;
      }
    }
    return grew;
  };
  for (const f of facts) add(f.name, f.assigns ?? []);
  for (const f of facts)
    for (const c of f.calls) if (!own.has(c) && c !== f.name) add(f.name, elsewhere(c) ?? []);
  for (let grew = true; grew;) {
    grew = false;
    for (const f of facts)
      for (const c of f.calls) {
        const theirs = c !== f.name && found.get(c);
        if (theirs && add(f.name, theirs)) grew = true;
      }
  }
  return found;
}

/**
 * The names each function other files can call (a header's, or another file's exported one) changes,
 * its callees' in any file included (see {@link closedAssignments}), to a least fixed point over the
 * tree. `files`: each file's function facts, and whether its definitions are its includers' own. A
 * name two files define changes what either does. Does not modify `files`.
 */
export function treeAssignments(
  files: readonly (readonly [readonly AssigningFunction[], boolean])[],
): Map<string, Set<string>> {
  const visible = new Map<string, Set<string>>();
  // Only files with a function that changes something, or calls what another file's does, are read.
  const reading = files.filter(([facts]) => facts.some((f) => f.assigns?.length));
  for (let grew = true; grew;) {
    grew = false;
    for (const [facts, shared] of visible.size > 0 ? files : reading) {
      const closed = closedAssignments(facts, (name) => {
        const set = visible.get(name);
        return set && [...set];
      });
      for (const f of facts) {
        if (!shared && !f.exported) continue;
        const names = closed.get(f.name);
        if (!names) continue;
        let set = visible.get(f.name);
        if (!set) visible.set(f.name, (set = new Set()));
        for (const n of names)
          if (!set.has(n)) {
            set.add(n);
            grew = true;
          }
      }
    }
  }
  return visible;
}
