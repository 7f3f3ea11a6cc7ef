// Which struct a member expression belongs to, read from the text alone. A member fact (`fd` holds a
// datagram socket, `fd` holds a file) is a fact about one struct's member, not about every member of
// that name: a tree of drivers or plugins gives each its own private struct with its own `fd`, and what
// one program puts in `af->fd` says nothing of another's `p->fd`. So member facts are keyed by the struct:
// its tag (`struct aftype`) where the text shows it, else the typedef name it is declared with
// (`PrivateData *p`), with the tag that typedef stands for where the file defines it.
//
// The resolution is deliberately shallow: the object must be a plain name (`p->fd`, `conn.fd`,
// `conns[i].fd`) declared in the text before the use (a parameter, a local or a global). A chain
// (`a->b->fd`) or a name declared elsewhere stays unresolved, and unresolved facts keep the old,
// quiet reading by member name.

/** The struct a member belongs to: its tag and the typedef names that stand for it, as far as known. */
export interface StructKey {
  /** `aftype` of `struct aftype`; empty when only a typedef name is known. */
  readonly tag: string;
  /** Typedef names of the struct (`PrivateData`), those the text shows. */
  readonly typedefs: readonly string[];
}

/** Words that can stand before a name without being its type. */
const NOT_TYPES = new Set([
  'return',
  'else',
  'case',
  'goto',
  'sizeof',
  'do',
  'typedef',
  'extern',
  'static',
  'const',
  'volatile',
  'register',
  'auto',
  'inline',
  'restrict',
  'signed',
  'unsigned',
  'struct',
  'union',
  'enum',
]);

/** Typedef names mapped to the struct tag they stand for, per text (one map per file read). */
const typedefMemo = new Map<string, ReadonlyMap<string, string>>();

/**
 * `typedef struct T { ... } N;` and `typedef struct T N;` in `text`: N mapped to T. Anonymous structs
 * (`typedef struct { ... } N;`) have no tag and are left out (N is then their only name).
 */
export function typedefTags(text: string): ReadonlyMap<string, string> {
  const known = typedefMemo.get(text);
  if (known) return known;
  const found = new Map<string, string>();
  if (text.includes('typedef')) {
    for (const m of text.matchAll(/\btypedef\s+(?:struct|union)\s+(\w+)\s*(\{)?/g)) {
      const tag = m[1]!;
      let at = m.index + m[0].length;
      if (m[2]) {
        // Skip the body to its closing brace.
        for (let depth = 1; at < text.length && depth > 0; at++) {
          if (text[at] === '{') depth++;
          else if (text[at] === '}') depth--;
        }
      }
      const rest = /^\s*((?:\*?\s*\w+\s*,\s*)*\*?\s*\w+)\s*;/.exec(text.slice(at, at + 200));
      for (const n of rest?.[1]?.split(',') ?? []) {
        const name = n.replace(/[\s*]/g, '');
        if (name) found.set(name, tag);
      }
    }
  }
  if (typedefMemo.size >= 32) typedefMemo.clear();
  typedefMemo.set(text, found);
  return found;
}

/**
 * What may stand before a declared name on its line: a struct's tag (group 1) or a type name (group
 * 2), `const` and pointer stars.
 */
const TYPE_BEFORE =
  '(?:\\b(?:struct|union)[ \\t]+(\\w+)|\\b([A-Za-z_]\\w*))(?:[ \\t]*\\bconst\\b)?[ \\t*]*(?:\\bconst\\b[ \\t*]*)?';

/**
 * The struct of the object `root` as declared last in `scope` (`struct aftype *af`, `PrivateData *p`,
 * `struct conn conns[8]`), with typedef names resolved through `typedefs`. Undefined when `scope` holds
 * no declaration of `root` or declares it with a type that is no struct name.
 */
export function declaredStruct(
  root: string,
  scope: string,
  typedefs: ReadonlyMap<string, string>,
): StructKey | undefined {
  // The type and the name on one line: a comment's last word above a statement (`... private data`,
  // then `p = calloc(...)`) is no type. The name's uses are found first and the type looked for only
  // on their lines, before them: one search for the type and the name together tried a type at every
  // word of the scope, scopes that run to the whole file, for every member expression resolved.
  const uses = new RegExp(`\\b${root}[ \\t]*(?=[;,)=[])`, 'g');
  const typed = new RegExp(`${TYPE_BEFORE}\\b${root}$`);
  let last: StructKey | undefined;
  let found = false;
  // Where the last declaration found ends: as a global search's, declarations do not overlap.
  let from = 0;
  for (const use of scope.matchAll(uses)) {
    const start = Math.max(from, scope.lastIndexOf('\n', use.index - 1) + 1);
    const m = typed.exec(scope.slice(start, use.index + root.length));
    if (!m) continue;
    from = use.index + use[0].length;
    if (m[1]) {
      last = { tag: m[1], typedefs: [] };
      found = true;
    } else if (m[2] && !NOT_TYPES.has(m[2])) {
      const tag = typedefs.get(m[2]) ?? '';
      last = { tag, typedefs: [m[2]] };
      found = true;
    }
  }
  return found ? last : undefined;
}

/**
 * The struct of the member expression `target` (canonical text: `p->fd`, `c.fd`, `cs[i].fd`) in the
 * text `scope` (what precedes its use: the function's text, or the file up to the use), with `file`'s
 * typedefs; undefined for chains and undeclared objects. `headers`: the declarations the file's
 * headers carry (see headerObjects.ts), read for an object neither `scope` nor `file` declares.
 */
export function structOfTarget(
  target: string,
  scope: string,
  file: string,
  headers?: string,
): StructKey | undefined {
  const m = /^([A-Za-z_]\w*)(?:\[[^\]]*\])?(?:->|\.)\w+$/.exec(target);
  if (!m) return undefined;
  const typedefs = typedefTags(file);
  const own =
    declaredStruct(m[1]!, scope, typedefs) ??
    (scope === file ? undefined : declaredStruct(m[1]!, file, typedefs));
  if (own || !headers) return own;
  return declaredStruct(m[1]!, headers, new Map([...typedefTags(headers), ...typedefs]));
}

/**
 * A member fact's key for the fact base: `member` alone where its struct is unknown, else
 * `member@tag/typedef...` (`fd@aftype`, `fd@/PrivateData`).
 */
export function memberFactKey(member: string, struct: StructKey | undefined): string {
  if (!struct) return member;
  return `${member}@${[struct.tag, ...struct.typedefs].join('/')}`;
}

/** The member name and struct (undefined: unknown) of a key made by {@link memberFactKey}. */
export function parseMemberFact(key: string): { member: string; struct?: StructKey } {
  const at = key.indexOf('@');
  if (at < 0) return { member: key };
  const [tag = '', ...typedefs] = key.slice(at + 1).split('/');
  return { member: key.slice(0, at), struct: { tag, typedefs } };
}

/**
 * Whether two struct keys name the same struct: by tag where both know theirs (two drivers' private
 * structs can share a typedef name and still differ), else by a shared name.
 */
export function sameStruct(a: StructKey, b: StructKey): boolean {
  if (a.tag && b.tag) return a.tag === b.tag;
  const names = new Set([a.tag, ...a.typedefs].filter(Boolean));
  return [b.tag, ...b.typedefs].some((n) => n && names.has(n));
}

/** Whether `text` can see the struct: it names its tag or a typedef of it (as a word). */
export function seesStruct(text: string, struct: StructKey): boolean {
  return [struct.tag, ...struct.typedefs].some((n) => n && new RegExp(`\\b${n}\\b`).test(text));
}

/**
 * The member expressions of `text` ending in one of `members` (canonical text, no whitespace): `p->fd`,
 * `conns[i].fd`, `a->b->fd`.
 */
export function memberExpressions(text: string, members: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (members.size === 0) return found;
  const alt = [...members].join('|');
  const re = new RegExp(
    `(?<![\\w.>])((?:[A-Za-z_]\\w*(?:\\s*\\[[^\\][;]*\\])?\\s*(?:->|\\.)\\s*)+)(${alt})\\b(?!\\s*\\()`,
    'g',
  );
  for (const m of text.matchAll(re)) found.add((m[1]! + m[2]!).replace(/\s+/g, ''));
  return found;
}
