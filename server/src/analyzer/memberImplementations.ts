// Which functions the tree stores in each struct member, read as the write helpers they are: the fact
// a call through a member in one file needs from the files that assign it (a connection's `send` set in
// the transport's file, called from the protocol's). See c/memberWriters.ts for the reading itself.
import type { Implementations, MemberFunction } from './c/memberWriters';
import type { CWrapper } from './wrapper';

/** What one file of the tree says about members: what it stores in them, and its wrappers. */
export interface MemberFile {
  readonly path: string;
  readonly functions: readonly MemberFunction[];
  /** The file's wrappers, static ones too. */
  readonly wrappers: readonly CWrapper[];
}

/** One function stored in a member, read: the writer it is, or null for one that does no output or writes several times. */
interface Stored {
  readonly file: string;
  readonly own: boolean;
  readonly writer: CWrapper | null;
}

/**
 * The implementations of the tree's members, by member: computed once per state of the tree's facts,
 * then asked per file (each file reads the functions it defines itself, with what its own reading
 * knows, so those are left out of its answer).
 */
export class MemberImplementations {
  private readonly byMember = new Map<string, Stored[]>();
  /** The answer for a file that defines none of the functions stored in these members. */
  private readonly shared: Map<string, readonly CWrapper[] | null>;
  /** The members each file stores its own functions in. */
  private readonly ownMembers = new Map<string, Set<string>>();

  /**
   * `exported`: the exported wrapper a name means to a file that does not define it; `quiet`: whether
   * the exported function of that name does no output.
   */
  constructor(
    files: Iterable<MemberFile>,
    exported: (name: string) => CWrapper | undefined,
    quiet: (name: string) => boolean,
  ) {
    for (const { path, functions, wrappers } of files) {
      if (functions.length === 0) continue;
      const own = new Map<string, CWrapper>();
      for (const w of wrappers) if (!w.name.startsWith('->')) own.set(w.name, w);
      for (const { member, fn, own: defined, quiet: none, several } of functions) {
        // A name the file does not define is another file's exported function, or one with no body in
        // view (declared only, a parameter handed to a setter, a variable). One whose effect is not
        // known tells nothing (see memberWriters.ts).
        const writer = defined
          ? (own.get(fn) ?? (none || several ? null : undefined))
          : (exported(fn) ?? (quiet(fn) ? null : undefined));
        if (writer === undefined) continue;
        let list = this.byMember.get(member);
        if (!list) this.byMember.set(member, (list = []));
        list.push({ file: path, own: !!defined, writer });
        if (defined) {
          let members = this.ownMembers.get(path);
          if (!members) this.ownMembers.set(path, (members = new Set()));
          members.add(member);
        }
      }
    }
    // Only members some writer is stored in can make a call a write.
    for (const [member, list] of this.byMember) if (!list.some((s) => s.writer)) this.byMember.delete(member);
    this.shared = new Map();
    for (const [member, list] of this.byMember) this.shared.set(member, answer(list));
  }

  /** What the files of the tree store in members, less the functions `path` defines. */
  forPath(path: string): Implementations {
    const members = this.ownMembers.get(path);
    if (!members || ![...members].some((m) => this.byMember.has(m))) return this.shared;
    const result = new Map(this.shared);
    for (const member of members) {
      const list = this.byMember.get(member)?.filter((s) => !(s.own && s.file === path));
      if (!list) continue;
      if (list.length === 0) result.delete(member);
      else result.set(member, answer(list));
    }
    return result;
  }

  /** The members some writer is stored in. */
  members(): string[] {
    return [...this.byMember.keys()];
  }
}

/** The writers of `list`, or null when one of them is none. */
function answer(list: readonly Stored[]): readonly CWrapper[] | null {
  const writers: CWrapper[] = [];
  for (const s of list) {
    if (!s.writer) return null;
    writers.push(s.writer);
  }
  return writers;
}
