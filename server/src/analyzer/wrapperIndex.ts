// The workspace index of wrapper functions across files: which files define which wrappers.
// The language server keeps one per workspace folder; the CLI builds one in a first pass over the tree.
import type * as Crypto from 'node:crypto';
import { canonicalJson } from './canonicalJson';
import { libraryQuiet } from './c/functionFacts';
import { C_PURE_FUNCTIONS } from './catalogue';
import type { CFunctionFact } from './c/functionFacts';
import { languageOf } from './languageOf';
import { moduleKey, type CWrapper, type TsWrapper } from './wrapper';

/** What one file contributes to the fact base: the wrappers it defines, and what its C functions call. */
export interface FileWrappers {
  readonly c: readonly CWrapper[];
  readonly ts: readonly TsWrapper[];
  /** C: each function definition and the names it calls (for which functions do no output). */
  readonly functions?: readonly CFunctionFact[];
  /**
   * C, from an analysis for findings: the names whose quietness its rules asked and were told "may do
   * output" (a function of the file, another file's or the library's). Its findings depend on the
   * fact base through those answers alone, so a fact base that says none of them is quiet leaves them
   * as they are. Absent: unknown (from an index, or a cache of an older version).
   */
  readonly loud?: readonly string[];
  /**
   * C, from an analysis for findings: the helpers it read as writers from their calls alone (no body
   * in the file; see callSiteWriters), and the functions a later write's arguments call that it took to
   * do no output (no body read; see CContext.unread). A body of one in another file overrules that
   * reading.
   */
  readonly inferred?: readonly string[];
  /** C: the member names the file assigns a datagram, raw or device descriptor (see messageMembers). */
  readonly messageMembers?: readonly string[];
}

/** Facts digests by the file set they were computed for, per state of an index (see factsDigest). */
const digestMemo = new WeakMap<ReadonlyMap<string, CWrapper>, Map<string, string>>();

/**
 * The workspace's fact base: wrappers and C function facts by defining file; lookups see only what
 * other files export.
 */
export class WrapperIndex {
  private readonly files = new Map<string, FileWrappers>();
  private cByName: Map<string, CWrapper> | undefined;
  private quiet: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetQuiet}: the answer worked out elsewhere (the CLI's main thread). */
  private preset: ReadonlySet<string> | undefined;
  private defined: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetDefined}. */
  private presetDefinedNames: ReadonlySet<string> | undefined;
  private pure: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetPure}. */
  private presetPureNames: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetMessageMembers}. */
  private presetMembers: ReadonlySet<string> | undefined;
  private members: ReadonlySet<string> | undefined;

  /** Records (or replaces) the wrappers and function facts of `path`. */
  set(path: string, wrappers: FileWrappers): void {
    if (wrappers.c.length === 0 && wrappers.ts.length === 0 && !wrappers.functions?.length) {
      this.delete(path);
      return;
    }
    this.files.set(path, wrappers);
    this.cByName = undefined;
    this.quiet = undefined;
    this.defined = undefined;
    this.pure = undefined;
    this.members = undefined;
  }

  /** Forgets `path` (deleted, or no longer analysed). */
  delete(path: string): void {
    if (this.files.delete(path)) {
      this.cByName = undefined;
      this.quiet = undefined;
      this.defined = undefined;
      this.pure = undefined;
      this.members = undefined;
    }
  }

  /** Uses `names` as the C functions defined in the tree, instead of reading the files' facts. */
  presetDefined(names: readonly string[]): void {
    this.presetDefinedNames = new Set(names);
  }

  /**
   * The C functions some file of the workspace defines (with a body): a helper read as a writer from
   * its calls alone is not, where its body is there to say what it does. `_path` reads its own
   * definitions itself.
   */
  cDefinedFor(_path: string): ReadonlySet<string> {
    if (this.presetDefinedNames) return this.presetDefinedNames;
    if (!this.defined) {
      const defined = new Set<string>();
      for (const wrappers of this.files.values())
        for (const f of wrappers.functions ?? []) defined.add(f.name);
      this.defined = defined;
    }
    return this.defined;
  }

  /** Uses `names` as the message members of the tree, instead of reading the files' facts. */
  presetMessageMembers(names: readonly string[]): void {
    this.presetMembers = new Set(names);
  }

  /**
   * The member names the files of the workspace assign a message descriptor: a write to such a member
   * is one message, whichever file opened it (members cannot be told apart by their struct). The file
   * `path` is not left out: its own are in its own reading anyway, and one answer for every file keeps
   * {@link factsDigest} the same for all.
   */
  cMessageMembersFor(_path: string): ReadonlySet<string> {
    if (this.presetMembers) return this.presetMembers;
    if (!this.members) {
      const found = new Set<string>();
      for (const wrappers of this.files.values()) for (const m of wrappers.messageMembers ?? []) found.add(m);
      this.members = found;
    }
    return this.members;
  }

  /** Uses `names` as the exported pure functions, instead of working them out. */
  presetPure(names: readonly string[]): void {
    this.presetPureNames = new Set(names);
  }

  /**
   * The exported C functions of the workspace that are pure (see pureFunctions): each reads only and
   * calls only pure functions, of its own file, exported by another, or the library's. A name two
   * files export is left out.
   */
  cPureFor(_path: string): ReadonlySet<string> {
    if (this.presetPureNames) return this.presetPureNames;
    this.pure ??= this.workOutPure();
    return this.pure;
  }

  private workOutPure(): ReadonlySet<string> {
    interface Node {
      readonly fact: CFunctionFact;
      readonly own: ReadonlyMap<string, Node>;
      pure: boolean;
    }
    const nodes: Node[] = [];
    const exported = new Map<string, Node | null>();
    for (const wrappers of this.files.values()) {
      const own = new Map<string, Node>();
      for (const fact of wrappers.functions ?? []) {
        const before = own.get(fact.name);
        const node: Node = { fact, own, pure: !!fact.readsOnly && (!before || before.pure) };
        if (before) before.pure = node.pure;
        own.set(fact.name, node);
        if (node.pure) nodes.push(node);
        if (fact.exported)
          exported.set(
            fact.name,
            exported.has(fact.name) && exported.get(fact.name) !== before ? null : node,
          );
      }
    }
    // Few functions are candidates (short bodies that assign nothing): rounds over them are cheap.
    for (let changed = true; changed;) {
      changed = false;
      for (const node of nodes) {
        if (!node.pure) continue;
        const impure = node.fact.calls.some((c) => {
          const callee = node.own.get(c) ?? exported.get(c);
          return callee === undefined ? !C_PURE_FUNCTIONS.has(c) : callee === null || !callee.pure;
        });
        if (impure) {
          node.pure = false;
          changed = true;
        }
      }
    }
    const pure = new Set<string>();
    for (const [name, node] of exported) if (node?.pure) pure.add(name);
    return pure;
  }

  /** Uses `names` as the exported functions that do no output, instead of working them out. */
  presetQuiet(names: readonly string[]): void {
    this.preset = new Set(names);
  }

  /**
   * The exported C functions of the workspace that do no output: everything they call, in their own
   * file or through other files' exported functions, does none, down to the library table. Worked out
   * once to a fixed point (a greatest one: recursion alone keeps a function quiet), again after a
   * change. A name two files export is left out, as a call could mean either. The file `path` itself
   * reads its own definitions first (a `static` one hides an exported one of the same name).
   */
  cQuietFor(_path: string): ReadonlySet<string> {
    if (this.preset) return this.preset;
    this.quiet ??= this.workOutQuiet();
    return this.quiet;
  }

  private workOutQuiet(): ReadonlySet<string> {
    interface Node {
      readonly fact: CFunctionFact;
      readonly file: string;
      quiet: boolean;
    }
    const byFile = new Map<string, Map<string, Node>>();
    const exported = new Map<string, Node | null>();
    for (const [file, wrappers] of this.files) {
      const own = new Map<string, Node>();
      for (const fact of wrappers.functions ?? []) {
        const node: Node = { fact, file, quiet: !fact.opaque && !own.get(fact.name)?.fact.opaque };
        const before = own.get(fact.name);
        if (before) node.quiet &&= before.quiet;
        own.set(fact.name, node);
        if (fact.exported)
          exported.set(
            fact.name,
            exported.has(fact.name) && exported.get(fact.name)?.file !== file ? null : node,
          );
      }
      byFile.set(file, own);
    }
    // Each function's callers, so that a function found to print makes its callers print, once each:
    // the work is the number of calls, not rounds times functions.
    const callers = new Map<Node, Node[]>();
    const loud: Node[] = [];
    for (const own of byFile.values()) {
      for (const node of own.values()) {
        if (!node.quiet) loud.push(node);
        for (const c of node.fact.calls) {
          const callee = own.get(c) ?? exported.get(c);
          if (callee) {
            const list = callers.get(callee);
            if (list) list.push(node);
            else callers.set(callee, [node]);
          } else if (node.quiet && (callee === null || !libraryQuiet(c))) {
            node.quiet = false;
            loud.push(node);
          }
        }
      }
    }
    while (loud.length > 0) {
      for (const caller of callers.get(loud.pop()!) ?? []) {
        if (!caller.quiet) continue;
        caller.quiet = false;
        loud.push(caller);
      }
    }
    const quiet = new Set<string>();
    for (const [name, node] of exported) if (node?.quiet) quiet.add(name);
    return quiet;
  }

  /** What `path` contributes (undefined: nothing). */
  get(path: string): FileWrappers | undefined {
    return this.files.get(path);
  }

  /** The files that contribute something, with what each does. */
  entries(): IterableIterator<[string, FileWrappers]> {
    return this.files.entries();
  }

  /** Number of files with wrappers. */
  get size(): number {
    return this.files.size;
  }

  /**
   * Exported (non-static) C wrappers of files other than `path`, by name. A name that two files define
   * differently is left out: the call could mean either.
   */
  cWrappersFor(path: string): Map<string, CWrapper> {
    if (!this.cByName) {
      const byName = new Map<string, CWrapper>();
      const clash = new Set<string>();
      for (const [file, wrappers] of this.files) {
        for (const w of wrappers.c) {
          if (!w.exported) continue;
          if (byName.has(w.name)) clash.add(w.name);
          byName.set(w.name, { ...w, file });
        }
      }
      for (const name of clash) byName.delete(name);
      this.cByName = byName;
    }
    const result = new Map(this.cByName);
    for (const [name, w] of result) if (w.file === path) result.delete(name);
    return result;
  }

  /**
   * A digest of everything the analysis of `path` can read from this index: for a C file, every
   * wrapper {@link cWrappersFor} gives it; for a TS/JS file, every exported TS/JS wrapper
   * {@link tsWrapper} could find for one of its imports, in the order that lookup sees them. Two
   * indexes that give a file the same digest give its analysis the same facts, so a result computed
   * with one holds for the other (the CLI's `--cache` keys a file's findings on it). Whatever this
   * index starts to tell an analysis must be added here, or cached results outlive the facts they
   * were computed from.
   */
  factsDigest(path: string): string {
    const external = this.cWrappersFor(path);
    const c = languageOf(path) === 'c';
    // Most files get the same facts (all of them, or all but their own wrappers): one digest per such
    // set, for as long as the index is unchanged (any change makes a new cByName).
    const byName = this.cByName as Map<string, CWrapper>;
    let memo = digestMemo.get(byName);
    if (!memo) digestMemo.set(byName, (memo = new Map<string, string>()));
    const own = c ? [...byName.values()].filter((w) => w.file === path).map((w) => w.name) : [];
    const key = c ? `c ${own.join(' ')}` : 'ts';
    const known = memo.get(key);
    if (known !== undefined) return known;
    let facts: unknown[];
    if (c) {
      facts = [...external.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // And which functions of the tree do no output (the fact base), and which it defines.
      facts.push({ quiet: [...this.cQuietFor(path)].sort() });
      facts.push({ defined: [...this.cDefinedFor(path)].sort() });
      facts.push({ pure: [...this.cPureFor(path)].sort() });
      facts.push({ messageMembers: [...this.cMessageMembersFor(path)].sort() });
    } else {
      // In insertion order: when two files are one module (`out.ts` and `out.js`), the first one wins.
      facts = [];
      for (const [file, wrappers] of this.files)
        for (const w of wrappers.ts) if (w.exported) facts.push({ ...w, file, module: moduleKey(file) });
    }
    // Loaded here only: the language server and a lint without --cache never ask for a digest.
    const { createHash } = require('node:crypto') as typeof Crypto;
    const digest = createHash('sha256').update(canonicalJson(facts)).digest('hex');
    memo.set(key, digest);
    return digest;
  }

  /** The exported TS/JS wrapper `exportName` of the module at `modulePath` (no extension). */
  tsWrapper(modulePath: string, exportName: string): TsWrapper | undefined {
    for (const [file, wrappers] of this.files) {
      if (moduleKey(file) !== modulePath) continue;
      const found = wrappers.ts.find((w) => w.exported && w.name === exportName);
      if (found) return { ...found, file };
    }
    return undefined;
  }
}
