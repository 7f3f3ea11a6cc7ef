/**
 * The few facts about commits that negotiation needs, asked of git in batches: which objects the
 * repository has and of what type, each commit's parents and committer date, and whether every
 * want reaches a commit the client has (git's "ok to give up", which decides `ACK <oid> ready` in
 * `multi_ack_detailed` and `ACK <oid> continue` in `multi_ack`).
 */
import { gitAsync } from './repository';

/** What the repository knows of one object. */
export interface ObjectFacts {
  readonly type: string;
  /** For a commit: its parents. */
  readonly parents?: readonly string[];
  /** For a commit: its committer date, in seconds since the epoch. */
  readonly date?: number;
}

/**
 * What negotiation asks of the repository. Both questions are answered without blocking: a serve
 * inside an HTTP server shares its event loop with every other request's.
 */
export interface HaveOracle {
  /** The facts of each of `oids` the repository has; absent ones are missing. */
  lookup(oids: readonly string[]): Promise<Map<string, ObjectFacts>>;
  /**
   * Whether every want (a tag peeled to what it tags; anything but a commit counts as reached)
   * is, or has as an ancestor, a commit in `theyHave`, walking from the want only through commits
   * not older than `cutoff` (the client's oldest common commit): git's bound on the search.
   */
  allWantsReach(theyHave: ReadonlySet<string>, cutoff: number): Promise<boolean>;
}

/**
 * Parses `rev-list --timestamp --parents` lines into `facts`; commits in `shallow` get no parents.
 */
function readCommits(out: string, facts: Map<string, ObjectFacts>, shallow: ReadonlySet<string>): void {
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const [date, oid, ...parents] = line.split(' ');
    facts.set(oid!, { type: 'commit', parents: shallow.has(oid!) ? [] : parents, date: Number(date) });
  }
}

/** A {@link HaveOracle} backed by the installed git. */
export class GitOracle implements HaveOracle {
  private readonly known = new Map<string, ObjectFacts>();
  /** Commits from the wants not older than `walkedCutoff`, with parents and dates. */
  private walked: Map<string, ObjectFacts> | undefined;
  private walkedCutoff = Infinity;
  private wantCommits: string[] | undefined;

  /**
   * @param shallow - commits negotiation must see without parents: git's upload-pack registers the
   *   shallow boundary before it reads a v0 client's haves, and a commit registered shallow loses
   *   its parents (the client's shallow commits, the new boundary, the repository's own).
   */
  constructor(
    private readonly gitDir: string,
    private readonly wants: readonly string[],
    private readonly shallow: ReadonlySet<string> = new Set(),
  ) {}

  async lookup(oids: readonly string[]): Promise<Map<string, ObjectFacts>> {
    const ask = [...new Set(oids.filter((oid) => !this.known.has(oid)))];
    if (ask.length > 0) {
      const types = await gitAsync(
        this.gitDir,
        ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
        `${ask.join('\n')}\n`,
      );
      const commits: string[] = [];
      for (const line of types.split('\n')) {
        const [oid, type] = line.split(' ');
        if (!oid || !type || type === 'missing') continue;
        if (type === 'commit') commits.push(oid);
        else this.known.set(oid, { type });
      }
      if (commits.length > 0) {
        readCommits(
          await gitAsync(
            this.gitDir,
            ['rev-list', '--no-walk=unsorted', '--timestamp', '--parents', '--stdin'],
            `${commits.join('\n')}\n`,
          ),
          this.known,
          this.shallow,
        );
      }
    }
    const found = new Map<string, ObjectFacts>();
    for (const oid of oids) {
      const facts = this.known.get(oid);
      if (facts) found.set(oid, facts);
    }
    return found;
  }

  /** The wants peeled to commits (tags followed); non-commits are left out, as reached. */
  private async peeledWants(): Promise<string[]> {
    if (this.wantCommits === undefined) {
      const out = await gitAsync(this.gitDir, ['rev-parse', ...this.wants.map((oid) => `${oid}^{}`)]);
      const peeled = out.split('\n').filter((line) => line !== '');
      await this.lookup(peeled);
      this.wantCommits = peeled.filter((oid) => this.known.get(oid)?.type === 'commit');
    }
    return this.wantCommits;
  }

  async allWantsReach(theyHave: ReadonlySet<string>, cutoff: number): Promise<boolean> {
    const wants = await this.peeledWants();
    if (this.walked === undefined || cutoff < this.walkedCutoff) {
      this.walked = new Map();
      readCommits(
        await gitAsync(this.gitDir, [
          'rev-list',
          '--timestamp',
          '--parents',
          `--max-age=${cutoff}`,
          ...wants,
        ]),
        this.walked,
        this.shallow,
      );
      this.walkedCutoff = cutoff;
    }
    const walked = this.walked;
    // Breadth first, so a long history needs no deep recursion. Commits found not to reach are
    // remembered across wants: everything below them was searched.
    const dead = new Set<string>();
    const reach = (want: string): boolean => {
      if (theyHave.has(want)) return true;
      const seen = new Set([want]);
      const queue = [want];
      for (let i = 0; i < queue.length; i++) {
        const oid = queue[i]!;
        const facts = i === 0 ? (walked.get(oid) ?? this.known.get(oid)) : walked.get(oid);
        for (const parent of facts?.parents ?? []) {
          if (theyHave.has(parent)) return true;
          const next = walked.get(parent);
          // Parents older than the cutoff are not walked (rev-list left them out too).
          if (!next || (next.date ?? 0) < cutoff || seen.has(parent) || dead.has(parent)) continue;
          seen.add(parent);
          queue.push(parent);
        }
      }
      for (const oid of seen) dead.add(oid);
      return false;
    };
    return wants.every(reach);
  }
}
