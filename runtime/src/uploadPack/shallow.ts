/**
 * The shallow boundary of a fetch, computed as git's upload-pack computes it (gitprotocol-pack(5)
 * "shallow-update", gitprotocol-v2(5) "shallow-info"):
 * - `deepen <n>`: walking from each want (a tag counts as what it tags), depth first, the commits
 *   first reached at depth n are shallow (a want is at depth 1); with `deepen-relative` the walk
 *   starts at the client's shallow commits that the refs reach, one deeper; `--unshallow` (the
 *   infinite depth) makes every client shallow commit whole;
 * - `deepen-since`/`deepen-not`: the commits `git rev-list --max-age=<t> <wants> --not <refs>` lists
 *   are kept, and those with a parent outside the list are the boundary, in the list's order;
 * - the client's shallow commits that the new boundary passes are `unshallow`ed: their parents become
 *   wants, and they become edges the pack may delta against.
 * Then pack-objects is given the boundary the way git's upload-pack gives it (`--shallow-file ''`,
 * `--shallow`, a `--shallow <oid>` line per shallow commit, sorted), so the pack is git's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UploadPackError } from './errors';
import { gitAsync } from './repository';
import { INFINITE_DEPTH, type ShallowAsk } from './shallowArgs';

/** What the boundary computation needs of the serve. */
export interface ShallowContext {
  readonly gitDir: string;
  /** The repository's own shallow commits (its `shallow` file; empty for a whole repository). */
  readonly serverShallows: ReadonlySet<string>;
  /** The objects of the refs the client may start from (for `deepen-relative`). */
  readonly ourTips: () => readonly string[];
  /**
   * What objects peel to, where the ref listing already tells (see `listedPeels`): the commit, or
   * `null` for none. Objects it leaves out are asked of git.
   */
  readonly peels?: ReadonlyMap<string, string | null>;
}

/** The outcome: what to tell the client and how to make the pack. */
export interface ShallowPlan {
  /** Whether a shallow section is sent (v0: a deepen was asked; v2: anything shallow at all). */
  readonly section: boolean;
  /** `shallow <oid>` then `unshallow <oid>` lines, in git's order (no newline). */
  readonly lines: readonly string[];
  /** Wants added to the client's: the parents of the commits it unshallows. */
  readonly extraWants: readonly string[];
  /** The commits unshallowed: the client has them but not their parents. */
  readonly edges: readonly string[];
  /**
   * Every shallow commit pack-objects must stop at, sorted, when it must be told them (`--shallow`
   * lines, the repository's own shallow file ignored); absent when pack-objects runs as for a
   * whole clone.
   */
  readonly packShallows?: readonly string[];
}

/** Reads the repository's `shallow` file (one object id a line); empty when there is none. */
export function readServerShallows(commonDir: string): Set<string> {
  try {
    return new Set(
      readFileSync(join(commonDir, 'shallow'), 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
  } catch {
    return new Set();
  }
}

/** Parses `rev-list --parents` lines into `parents` and returns the commits in the list's order. */
function readParents(out: string, parents: Map<string, string[]>): string[] {
  const order: string[] = [];
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const [oid, ...rest] = line.split(' ');
    parents.set(oid!, rest);
    order.push(oid!);
  }
  return order;
}

/** Walks deeper than this load the whole history at once rather than one git call per level. */
const LEVEL_WALK_LIMIT = 16;

/**
 * The parents of every commit within `depth - 1` of `heads` (those the walk looks through), as the
 * repository sees them (its own shallow commits have none).
 */
async function loadParents(
  gitDir: string,
  heads: readonly string[],
  depth: number,
): Promise<Map<string, string[]>> {
  const parents = new Map<string, string[]>();
  if (heads.length === 0) return parents;
  if (depth > LEVEL_WALK_LIMIT) {
    readParents(
      await gitAsync(gitDir, ['rev-list', '--parents', '--stdin'], `${heads.join('\n')}\n`),
      parents,
    );
    return parents;
  }
  let frontier = [...new Set(heads)];
  for (let level = 1; level < depth && frontier.length > 0; level++) {
    const input = `${frontier.join('\n')}\n`;
    readParents(
      await gitAsync(gitDir, ['rev-list', '--no-walk=unsorted', '--parents', '--stdin'], input),
      parents,
    );
    const next = new Set<string>();
    for (const oid of frontier) for (const p of parents.get(oid) ?? []) if (!parents.has(p)) next.add(p);
    frontier = [...next];
  }
  return parents;
}

/**
 * git's depth walk: depth first from each head (the last parent continued, the others stacked), a
 * commit walked again when reached by a shorter path. Commits reached at `depth` (or the
 * repository's own shallow commits) are the result, in git's order; commits walked through are
 * `through`.
 */
function walkDepth(
  heads: readonly string[],
  depth: number,
  parents: ReadonlyMap<string, readonly string[]>,
  serverShallows: ReadonlySet<string>,
): { result: string[]; through: Set<string> } {
  const depthOf = new Map<string, number>();
  const inserted: string[] = [];
  const through = new Set<string>();
  const stack: string[] = [];
  let next = 0;
  let commit: string | undefined;
  let current = 0;
  while (commit !== undefined || next < heads.length || stack.length > 0) {
    if (commit === undefined) {
      if (next < heads.length) {
        commit = heads[next++]!;
        depthOf.set(commit, 0);
        current = 0;
      } else {
        commit = stack.pop()!;
        current = depthOf.get(commit)!;
      }
    }
    current++;
    const mine = parents.get(commit) ?? [];
    if ((depth !== INFINITE_DEPTH && current >= depth) || (serverShallows.has(commit) && mine.length === 0)) {
      inserted.push(commit);
      commit = undefined;
      continue;
    }
    through.add(commit);
    if (!parents.has(commit))
      throw new UploadPackError(`shallow walk: the parents of ${commit} were not loaded`);
    commit = undefined;
    for (const [i, parent] of mine.entries()) {
      const known = depthOf.get(parent);
      if (known !== undefined && current >= known) continue;
      depthOf.set(parent, current);
      if (i < mine.length - 1) stack.push(parent);
      else commit = parent;
    }
  }
  // git builds its list by prepending: the last found is sent first.
  return { result: inserted.reverse(), through };
}

/**
 * The commit each of `oids` is or tags (tags followed), in order; `null` for other objects and
 * missing ones. Those `known` does not tell are asked of git, in one call.
 */
async function peelToCommits(
  gitDir: string,
  oids: readonly string[],
  known: ReadonlyMap<string, string | null> = new Map(),
): Promise<(string | null)[]> {
  const unknown = oids.filter((oid) => !known.has(oid));
  const asked = new Map<string, string | null>();
  if (unknown.length > 0) {
    const out = await gitAsync(
      gitDir,
      ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
      unknown.map((o) => `${o}^{}\n`).join(''),
    );
    // One answer line per input line, in order (a missing object's says so).
    const lines = out.split('\n');
    for (const [i, oid] of unknown.entries()) {
      const [peeled, type] = (lines[i] ?? '').split(' ');
      asked.set(oid, type === 'commit' ? peeled! : null);
    }
  }
  return oids.map((oid) => (known.has(oid) ? known.get(oid)! : asked.get(oid)!));
}

/** The client's shallow commits that some ref reaches (or is), in the client's order. */
async function reachableShallows(
  gitDir: string,
  shallows: readonly string[],
  tips: readonly string[],
): Promise<string[]> {
  const tipSet = new Set(tips);
  const others = shallows.filter((oid) => !tipSet.has(oid));
  let unreachable = new Set<string>();
  if (others.length > 0) {
    const input = [...tips.map((oid) => `^${oid}`), ...others, ''].join('\n');
    unreachable = new Set((await gitAsync(gitDir, ['rev-list', '--stdin'], input)).split('\n'));
  }
  return shallows.filter((oid) => !unreachable.has(oid));
}

/** The boundary by `deepen <depth>` (relative or not). */
async function byDepth(
  context: ShallowContext,
  ask: ShallowAsk,
  wants: readonly string[],
  depth: number,
): Promise<{ sent: string[]; through: Set<string> }> {
  const { gitDir, serverShallows } = context;
  if (depth === INFINITE_DEPTH && serverShallows.size === 0)
    return { sent: [], through: new Set(ask.shallows) };
  let heads: string[];
  let limit = depth;
  if (ask.relative) {
    heads = await reachableShallows(gitDir, ask.shallows, context.ourTips());
    // git adds one in a C int: the infinite depth wraps to the smallest int, where every head stops.
    limit = (depth + 1) | 0;
  } else {
    heads = (await peelToCommits(gitDir, wants, context.peels)).filter((oid) => oid !== null);
  }
  const walkLimit = limit < 0 ? 1 : limit;
  const { result, through } = walkDepth(
    heads,
    walkLimit,
    await loadParents(gitDir, heads, walkLimit),
    serverShallows,
  );
  return { sent: result, through };
}

/** The boundary by `deepen-since` and `deepen-not`, from one rev-list. */
async function byRevList(
  context: ShallowContext,
  ask: ShallowAsk,
  wants: readonly string[],
  refOid: (ref: string) => string,
): Promise<{ sent: string[]; through: Set<string> }> {
  const args = ['rev-list', '--parents'];
  if (ask.since !== '0') args.push(`--max-age=${ask.since}`);
  args.push('--stdin');
  const input = [...ask.notRefs.map((ref) => `^${refOid(ref)}`), ...wants, ''].join('\n');
  const parents = new Map<string, string[]>();
  const listed = readParents(await gitAsync(context.gitDir, args, input), parents);
  if (listed.length === 0) throw new UploadPackError('no commits selected for shallow requests');
  const kept = new Set(listed);
  const sent = listed.filter((oid) => parents.get(oid)!.some((p) => !kept.has(p)));
  for (const oid of sent) kept.delete(oid);
  return { sent, through: kept };
}

/**
 * Computes what git's upload-pack sends for `ask` and how it then makes the pack.
 *
 * @param wants - the client's wants, in order, without repeats.
 * @param v2 - protocol v2: a shallow-info section whenever anything is shallow (the client, the
 *   repository or the request), and a shallow repository's boundary applied even without a deepen.
 * @param refOid - the object of a full ref name that `deepen-not` named.
 * @throws {@link UploadPackError} for a deepen together with deepen-since/deepen-not, or a
 *   rev-list boundary that selects no commit, in git's words.
 */
export async function planShallow(
  context: ShallowContext,
  ask: ShallowAsk,
  wants: readonly string[],
  v2: boolean,
  refOid: (ref: string) => string,
): Promise<ShallowPlan> {
  const { gitDir, serverShallows } = context;
  if (ask.depth > 0 && ask.byRevList)
    throw new UploadPackError(
      'git upload-pack: deepen and deepen-since (or deepen-not) cannot be used together',
    );
  const section =
    ask.depth > 0 || ask.byRevList || (v2 && (ask.shallows.length > 0 || serverShallows.size > 0));
  let outcome: { sent: string[]; through: Set<string> } | undefined;
  if (ask.depth > 0) outcome = await byDepth(context, ask, wants, ask.depth);
  else if (ask.byRevList) outcome = await byRevList(context, ask, wants, refOid);
  else if (v2 && serverShallows.size > 0)
    outcome = await byDepth(context, { ...ask, relative: false }, wants, INFINITE_DEPTH);
  const client = new Set(ask.shallows);
  const through = outcome?.through ?? new Set<string>();
  const shallow = (outcome?.sent ?? []).filter((oid) => !client.has(oid) && !through.has(oid));
  const unshallow = outcome ? ask.shallows.filter((oid) => through.has(oid)) : [];
  const extraWants: string[] = [];
  if (unshallow.length > 0) {
    const parents = new Map<string, string[]>();
    readParents(
      await gitAsync(
        gitDir,
        ['rev-list', '--no-walk=unsorted', '--parents', '--stdin'],
        `${unshallow.join('\n')}\n`,
      ),
      parents,
    );
    for (const oid of unshallow) extraWants.push(...(parents.get(oid) ?? []));
  }
  const lines = [...shallow.map((oid) => `shallow ${oid}`), ...unshallow.map((oid) => `unshallow ${oid}`)];
  const plan = { section, lines, extraWants, edges: unshallow };
  if (shallow.length + ask.shallows.length === 0) return plan;
  const packShallows = [...new Set([...serverShallows, ...shallow, ...ask.shallows])].sort();
  return { ...plan, packShallows };
}
