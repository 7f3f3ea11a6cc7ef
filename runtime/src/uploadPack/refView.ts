/**
 * What one serve shows of a repository's refs: those of its namespace, with the namespace stripped,
 * minus the hidden ones, and HEAD (the namespace's own HEAD in a namespace). Applied to the
 * unfiltered ref list on every serve, so that the list's memo never decides what a client sees.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHidden, type HideRule } from './hideRefs';
import { stripNamespace } from './namespace';
import type { RawRef, RawRefs } from './repository';

/** One advertised ref: its name, the object it points at, and for an annotated tag what it peels to. */
export interface Ref {
  readonly name: string;
  readonly oid: string;
  readonly peeled?: string;
}

/** The refs to advertise. */
export interface RefList {
  /** HEAD's object (and what it peels to); absent when HEAD is unborn or hidden. */
  readonly head?: { readonly oid: string; readonly peeled?: string };
  /**
   * The ref HEAD points at, namespace stripped, for the `symref=HEAD:` capability. Given even when
   * HEAD itself is hidden, as git does; absent when HEAD is detached, unborn, or points outside the
   * namespace.
   */
  readonly headTarget?: string;
  /** The advertised refs (names stripped of the namespace), sorted by name as git sorts them. */
  readonly refs: readonly Ref[];
  /** The repository's hash: `sha1` or `sha256`. */
  readonly objectFormat: 'sha1' | 'sha256';
  /** The objects of the refs that were hidden (not what they peel to). */
  readonly hiddenTips?: ReadonlySet<string>;
}

/** What a serve sees: the namespace's ref prefix (`''` for none) and the hide rules. */
export interface RefScope {
  readonly prefix: string;
  readonly rules: readonly HideRule[];
}

/** Symbolic refs are followed at most this deep, as git bounds them. */
const MAX_SYMREF_DEPTH = 5;

/** Resolves a symbolic ref chain from `name` to the ref that holds an object. */
function resolveChain(byName: ReadonlyMap<string, RawRef>, name: string): RawRef | undefined {
  let at = byName.get(name);
  for (let depth = 0; at?.symref !== undefined && depth < MAX_SYMREF_DEPTH; depth++) {
    at = byName.get(at.symref);
  }
  return at;
}

/** HEAD of the served repository or namespace: its object and, if symbolic, its final target. */
function findHead(
  raw: RawRefs,
  byName: ReadonlyMap<string, RawRef>,
  gitDir: string,
  prefix: string,
): { oid: string; peeled?: string; target?: string } | undefined {
  let symref: string | undefined;
  let oid: string | undefined;
  if (prefix === '') {
    const text = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const symbolic = /^ref: (.+)$/.exec(text);
    if (symbolic) symref = symbolic[1];
    else if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text)) oid = text;
  } else {
    const entry = byName.get(`${prefix}HEAD`);
    if (entry === undefined) return undefined;
    if (entry.symref !== undefined) symref = entry.symref;
    else oid = entry.oid;
  }
  if (symref !== undefined) {
    let name = symref;
    for (let depth = 0; depth < MAX_SYMREF_DEPTH; depth++) {
      const next = byName.get(name)?.symref;
      if (next === undefined) break;
      name = next;
    }
    const target = resolveChain(byName, symref);
    if (target === undefined) return undefined;
    return { oid: target.oid, ...(target.peeled ? { peeled: target.peeled } : {}), target: name };
  }
  if (oid === undefined) return undefined;
  // A detached HEAD at an annotated tag peels like a ref at it: borrow a ref's peeled object.
  const peeled = raw.refs.find((r) => r.oid === oid && r.peeled !== undefined)?.peeled;
  return peeled ? { oid, peeled } : { oid };
}

/**
 * The refs a serve advertises: HEAD first unless hidden, then the refs under `<prefix>refs/`
 * with the prefix stripped, minus the hidden ones (see `hideRefs.ts`).
 *
 * @param gitDir - where the repository's own HEAD file is (a linked worktree's folder for one).
 */
export function visibleRefs(raw: RawRefs, gitDir: string, scope: RefScope): RefList {
  const { prefix, rules } = scope;
  const byName = new Map(raw.refs.map((ref) => [ref.name, ref]));
  const hiddenTips = new Set<string>();
  const hide = (ref: { oid: string }): void => {
    hiddenTips.add(ref.oid);
  };
  const found = findHead(raw, byName, gitDir, prefix);
  let head: RefList['head'];
  let headTarget: string | undefined;
  if (found) {
    if (found.target !== undefined) headTarget = stripNamespace(prefix, found.target);
    const value = found.peeled ? { oid: found.oid, peeled: found.peeled } : { oid: found.oid };
    if (isHidden(rules, 'HEAD', `${prefix}HEAD`)) hide(value);
    else head = value;
  }
  const refs: Ref[] = [];
  const under = `${prefix}refs/`;
  for (const ref of raw.refs) {
    if (!ref.name.startsWith(under)) continue;
    const name = ref.name.slice(prefix.length);
    const shown = ref.peeled ? { name, oid: ref.oid, peeled: ref.peeled } : { name, oid: ref.oid };
    if (isHidden(rules, name, ref.name)) hide(ref);
    else refs.push(shown);
  }
  return {
    ...(head ? { head } : {}),
    ...(headTarget !== undefined ? { headTarget } : {}),
    refs,
    objectFormat: raw.objectFormat,
    hiddenTips,
  };
}
