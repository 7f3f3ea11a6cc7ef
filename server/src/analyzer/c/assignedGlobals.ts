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
const FIRST_FILLED = new Set([
  'memset',
  'memcpy',
  'memmove',
  'bzero',
  'strcpy',
  'strncpy',
  'stpcpy',
  'stpncpy',
  'strcat',
  'strncat',
  'strlcpy',
  'strlcat',
  'sprintf',
  'snprintf',
  'vsprintf',
  'vsnprintf',
  'fgets',
  'fread',
]);

/** Library calls that fill their second argument's object (`read(fd, buf, n)`). */
const SECOND_FILLED = new Set(['read', 'pread', 'pread64', 'recv', 'recvfrom']);

/** Words before a name that make no declaration of it (`return n;`, `case N:`). */
const NOT_TYPES = new Set(['return', 'case', 'else', 'goto', 'sizeof', 'do', 'typedef']);

/**
 * The names the body `body` (comments and literals blanked) assigns or fills that it does not declare
 * and that are not among `params`: the file-scope variables (or another file's) a call of it changes,
 * its own name's callers may send. A name is the root of what is changed: `n = `, `n += `, `buf[i] =
 * `, `conf.len = `, `p->x = `, `n++`, `++n`, and a filler's destination (`memset(&hdr, ...)`). Read
 * from the operators and calls' parentheses back to the names, not by a search from every word: every
 * file of a tree is read this way. `handed`: more names taken to be changed (what the body hands a
 * call that may assign it), kept under the same terms. Sorted, each once.
 */
export function assignedNames(
  body: string,
  params: ReadonlySet<string>,
  handed: readonly string[] = [],
): string[] {
  const found = new Set<string>(handed);
  for (let at = body.indexOf('='); at >= 0; at = body.indexOf('=', at + 1)) {
    const next = body.charCodeAt(at + 1);
    if (next === 61) {
      at++; // `==`
      continue;
    }
    let end = at;
    const before = body.charCodeAt(at - 1);
    if (before === 60 || before === 62) {
      // `<<=`, `>>=`; `<=` and `>=` compare.
      if (body.charCodeAt(at - 2) !== before) continue;
      end = at - 2;
    } else if (before === 33 || before === 61) continue;
    else if (COMPOUND_OPERATORS.includes(body[at - 1] ?? '=')) end = at - 1;
    const name = rootBefore(body, end);
    if (name) found.add(name);
  }
  for (const op of ['++', '--'])
    for (let at = body.indexOf(op); at >= 0; at = body.indexOf(op, at + 2)) {
      const name = rootBefore(body, at) ?? wordAfter(body, at + 2);
      if (name) found.add(name);
    }
  // The fillers' calls, found by their names: most parentheses of a body are no filler's.
  FILLER_CALL.lastIndex = 0;
  for (let m = FILLER_CALL.exec(body); m; m = FILLER_CALL.exec(body)) {
    let from = FILLER_CALL.lastIndex;
    if (!FIRST_FILLED.has(m[1]!)) {
      const comma = body.indexOf(',', from);
      const close = body.indexOf(')', from);
      if (comma < 0 || (close >= 0 && close < comma)) continue;
      from = comma + 1;
    }
    const name = destination(body, from);
    if (name) found.add(name);
  }
  const names = [...found].filter((n) => !params.has(n) && !NOT_TYPES.has(n) && !declares(body, n));
  return names.sort();
}

/** The operators `=` follows in a compound assignment (`n += 2`), but for the shifts. */
const COMPOUND_OPERATORS = '+-*/%&|^';

/**
 * A call of a filler ({@link FIRST_FILLED}, {@link SECOND_FILLED}): its name as a whole word, white
 * space, then the `(` its arguments follow.
 */
const FILLER_CALL = new RegExp(
  `\\b(${[...FIRST_FILLED, ...SECOND_FILLED].join('|')})[ \\t\\n\\v\\f\\r]*\\(`,
  'g',
);

/** Whether a character code may be part of a C name. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Whether a character code is white space in C source (blank, tab, line end, form feed). */
function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The index of the last character before `at` that is no white space (-1 if none). */
function skipBack(text: string, at: number): number {
  let k = at - 1;
  while (k >= 0 && isSpaceCode(text.charCodeAt(k))) k--;
  return k;
}

/** The word ending just before `at` (white space between allowed), if a name. */
function wordBefore(text: string, at: number): string | undefined {
  const end = skipBack(text, at) + 1;
  let k = end;
  while (k > 0 && isWordCode(text.charCodeAt(k - 1))) k--;
  const word = text.slice(k, end);
  return word !== '' && !(word.charCodeAt(0) >= 48 && word.charCodeAt(0) <= 57) ? word : undefined;
}

/** The name starting at `at` after white space, if any. */
function wordAfter(text: string, at: number): string | undefined {
  const m = /^\s*([A-Za-z_]\w*)/.exec(text.slice(at, at + 80));
  return m?.[1];
}

/**
 * The root name of what ends just before `end` (white space between allowed): `buf[i]`, `conf.len`,
 * `p->x` give `buf`, `conf`, `p`; anything else (a call's result, a parenthesised expression) none.
 */
function rootBefore(text: string, end: number): string | undefined {
  let k = skipBack(text, end);
  for (let steps = 0; steps < 16 && k >= 0; steps++) {
    if (text[k] === ']') {
      let depth = 0;
      for (; k >= 0; k--) {
        const c = text[k];
        if (c === ']') depth++;
        else if (c === '[' && --depth === 0) break;
        else if (c === ';' || c === '{' || c === '}') return undefined;
      }
      k = skipBack(text, k);
      continue;
    }
    if (!isWordCode(text.charCodeAt(k))) return undefined;
    let start = k;
    while (start > 0 && isWordCode(text.charCodeAt(start - 1))) start--;
    const word = text.slice(start, k + 1);
    if (word.charCodeAt(0) >= 48 && word.charCodeAt(0) <= 57) return undefined;
    const b = skipBack(text, start);
    if (b >= 0 && text[b] === '.') {
      k = skipBack(text, b);
      continue;
    }
    if (b >= 1 && text[b] === '>' && text[b - 1] === '-') {
      k = skipBack(text, b - 1);
      continue;
    }
    return word;
  }
  return undefined;
}

/** The name a filler's destination argument starting at `at` names: `buf`, `&hdr`, `(char *)buf`. */
function destination(text: string, at: number): string | undefined {
  const m = /^\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*([A-Za-z_]\w*)/.exec(text.slice(at, at + 120));
  return m?.[1];
}

/** A declaration's start: type words, then a name (`unsigned int n`, `struct tm *local`). */
const DECLARATION_START = /^\s*(?:[A-Za-z_]\w*[\s*]+)+[A-Za-z_]\w*(?:\s*\[[^\]]*\])*\s*(?:[,;]|=[^;(]*,)/;

/** Whether the statement holding the `,` at `comma` is a declaration of several names. */
function listDeclares(body: string, comma: number): boolean {
  let k = comma;
  while (k > 0 && !';{}'.includes(body[k - 1]!)) k--;
  const m = DECLARATION_START.exec(body.slice(k, comma + 1));
  return !!m && !NOT_TYPES.has(/\w+/.exec(m[0])![0]) && !/\b(?:for|while|if|switch)\b/.test(m[0]);
}

/**
 * Whether `body` declares `name`: a type word (or `*`) before it and `=`, `;`, `,`, `[` or `)` after
 * (`int n;`, `static char buf[64];`, `char *p = ...`), the word before being no statement keyword.
 */
function declares(body: string, name: string): boolean {
  for (let at = body.indexOf(name); at >= 0; at = body.indexOf(name, at + 1)) {
    const end = at + name.length;
    if (at > 0 && isWordCode(body.charCodeAt(at - 1))) continue;
    if (isWordCode(body.charCodeAt(end))) continue;
    let k = end;
    while (k < body.length && isSpaceCode(body.charCodeAt(k))) k++;
    if (!'=;,[)'.includes(body[k] ?? '') || body[k] === undefined) continue;
    if (body[k] === '=' && body[k + 1] === '=') continue;
    // Back over white space and stars (at least one) to the type's last word.
    let b = at - 1;
    let gap = 0;
    while (b >= 0 && (isSpaceCode(body.charCodeAt(b)) || body[b] === '*')) {
      b--;
      gap++;
    }
    // `int hours, mins;`: a later declarator of a declaration's list.
    if (body[b] === ',' && listDeclares(body, b)) return true;
    if (gap === 0) continue;
    const word = wordBefore(body, b + 1);
    if (word && !NOT_TYPES.has(word)) return true;
  }
  return false;
}

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
 * change something are in the answer; functions that change the same names through one callee may
 * share one set (see {@link propagate}), which nobody may modify. Does not modify `facts`, nor the
 * sets `elsewhere` gives (some may be in the answer).
 */
export function closedAssignments(
  facts: readonly AssigningFunction[],
  elsewhere: (name: string) => ReadonlySet<string> | undefined = () => undefined,
): Map<string, ReadonlySet<string>> {
  const sets: Set<string>[] = [];
  const ids = numbered(facts, sets);
  const callees: number[][] = sets.map(() => []);
  const outside: ReadonlySet<string>[][] = sets.map(() => []);
  linkCalls(facts, ids, callees, (id, c) => {
    const names = elsewhere(c);
    if (names !== undefined && names.size > 0) outside[id]!.push(names);
  });
  const closed = propagate(sets, callees, outside);
  const found = new Map<string, ReadonlySet<string>>();
  for (const [name, id] of ids) if (closed[id]!.size > 0) found.set(name, closed[id]!);
  return found;
}

/**
 * Numbers the names `facts` defines (a name defined twice is one) with the next free places of `sets`,
 * each holding what the function itself assigns; `each` sees every definition with its number.
 */
function numbered(
  facts: readonly AssigningFunction[],
  sets: Set<string>[],
  each?: (f: AssigningFunction, id: number) => void,
): Map<string, number> {
  const ids = new Map<string, number>();
  for (const f of facts) {
    let id = ids.get(f.name);
    if (id === undefined) ids.set(f.name, (id = sets.push(new Set()) - 1));
    for (const n of f.assigns ?? []) sets[id]!.add(n);
    each?.(f, id);
  }
  return ids;
}

/** Adds each call of a function `ids` numbers to `callees`; hands the other calls (not recursive) to `other`. */
function linkCalls(
  facts: readonly AssigningFunction[],
  ids: ReadonlyMap<string, number>,
  callees: number[][],
  other: (id: number, name: string) => void,
): void {
  for (const f of facts) {
    const id = ids.get(f.name)!;
    for (const c of f.calls) {
      if (c === f.name) continue;
      const own = ids.get(c);
      if (own !== undefined) callees[id]!.push(own);
      else other(id, c);
    }
  }
}

/**
 * What each function changes: its own names (`own`), those of the sets `outside` gives it (other
 * files' functions it calls), and those of the functions it calls, to a fixed point. The call graph's
 * strongly connected components (Tarjan's, iterative: call chains can be deep) come out callees
 * first, so each component's union is made once from finished callees and shared by its members; a
 * round-robin pass over every call copied every set again each round. A component whose names all
 * come from one set (most functions change only what one logging or exit helper they call changes)
 * shares that set instead of copying it: copies of a few large sets were most of a tree's work.
 * Each set's names are in the order a union of its parts in call order gives. Modifies none of the
 * sets it is given; every answer is one of them or a new one.
 */
function propagate(
  own: readonly Set<string>[],
  callees: readonly (readonly number[])[],
  outside?: readonly (readonly ReadonlySet<string>[])[],
): ReadonlySet<string>[] {
  const count = own.length;
  const closed: ReadonlySet<string>[] = own.slice();
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const work: [number, number][] = [];
  let next = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    work.push([root, 0]);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const v = top[0];
      if (index[v] === -1) {
        index[v] = low[v] = next++;
        stack.push(v);
        onStack[v] = 1;
      }
      const edges = callees[v]!;
      if (top[1] < edges.length) {
        const w = edges[top[1]++]!;
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]]!, low[v]!);
      if (low[v] !== index[v]) continue;
      const members: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        members.push(w);
      } while (w !== v);
      // The component's names, in the order they are added: each member's own names and the other
      // files' sets it calls, then its callees' (one in the component: its own and other files').
      const union = new Union();
      const ownParts = (m: number) => {
        union.add(own[m]!);
        for (const set of outside?.[m] ?? []) union.add(set);
      };
      for (const m of members) {
        ownParts(m);
        // A callee whose set is still its own is in the component, or changes nothing at all.
        for (const c of callees[m]!)
          if (closed[c] === own[c]) ownParts(c);
          else union.add(closed[c]!);
      }
      const names = union.names;
      if (names !== undefined) for (const m of members) closed[m] = names;
    }
  }
  return closed;
}

/**
 * The union of the sets {@link Union.add} is given, its names in the order they were given: the one
 * set that holds any name while only one does (shared, not copied), then a set of its own.
 */
class Union {
  private only: ReadonlySet<string> | undefined;
  private union: Set<string> | undefined;
  /**
   * The sets copied into {@link union} so far: the callees of a component often share one large set
   * (what an exit or logging helper changes), and each was copied again, adding no name.
   */
  private copied: Set<ReadonlySet<string>> | undefined;

  add(part: ReadonlySet<string>): void {
    if (part.size === 0 || part === this.only) return;
    if (this.only === undefined) this.only = part;
    else {
      // A set given again adds no name, nor changes the order of those there.
      if (this.copied?.has(part)) return;
      (this.copied ??= new Set()).add(part);
      this.union ??= new Set(this.only);
      for (const n of part) this.union.add(n);
    }
  }

  /** The union; undefined when no set given holds a name. */
  get names(): ReadonlySet<string> | undefined {
    return this.union ?? this.only;
  }
}

/**
 * The names each function other files can call (a header's, or another file's exported one) changes,
 * its callees' in any file included (see {@link closedAssignments}), to a least fixed point over the
 * tree. `files`: each file's function facts, and whether its definitions are its includers' own. A
 * name two files define changes what either does. Functions may share a set, which nobody may modify.
 * Does not modify `files`.
 */
export function treeAssignments(
  files: readonly (readonly [readonly AssigningFunction[], boolean])[],
): Map<string, ReadonlySet<string>> {
  // One set per name a file defines; other files see those defined exported or in a shared file.
  const sets: Set<string>[] = [];
  const seen = new Map<string, number[]>();
  const fileIds = files.map(([facts, shared]) =>
    numbered(facts, sets, (f, id) => {
      if (!shared && !f.exported) return;
      const list = seen.get(f.name);
      if (!list) seen.set(f.name, [id]);
      else if (!list.includes(id)) list.push(id);
    }),
  );
  const callees: number[][] = sets.map(() => []);
  files.forEach(([facts], i) =>
    linkCalls(facts, fileIds[i]!, callees, (id, c) => {
      for (const other of seen.get(c) ?? []) callees[id]!.push(other);
    }),
  );
  const closed = propagate(sets, callees);
  const visible = new Map<string, ReadonlySet<string>>();
  for (const [name, list] of seen) {
    const union = new Union();
    for (const id of list) union.add(closed[id]!);
    if (union.names !== undefined) visible.set(name, union.names);
  }
  return visible;
}

/**
 * The names of `names`, sorted (a key of what a call changes), sorted once for each set: functions
 * share sets (see {@link closedAssignments}), and every file that calls an exit or logging helper
 * asks for that helper's. The answer is shared: not to be modified.
 */
export function sortedNames(names: ReadonlySet<string>): readonly string[] {
  let sorted = sortedSets.get(names);
  if (sorted === undefined) sortedSets.set(names, (sorted = [...names].sort()));
  return sorted;
}

const sortedSets = new WeakMap<ReadonlySet<string>, readonly string[]>();
