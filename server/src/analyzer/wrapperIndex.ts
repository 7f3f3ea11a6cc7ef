// The workspace index of wrapper functions across files: which files define which wrappers.
// The language server keeps one per workspace folder; the CLI builds one in a first pass over the tree.
import type * as Crypto from 'node:crypto';
import { languageOf } from './languageOf';
import { moduleKey, type CWrapper, type TsWrapper } from './wrapper';

/** The wrappers one file defines. */
export interface FileWrappers {
  readonly c: readonly CWrapper[];
  readonly ts: readonly TsWrapper[];
}

/** Facts digests by the file set they were computed for, per state of an index (see factsDigest). */
const digestMemo = new WeakMap<ReadonlyMap<string, CWrapper>, Map<string, string>>();

/** Wrappers by defining file; lookups see only what other files export. */
export class WrapperIndex {
  private readonly files = new Map<string, FileWrappers>();
  private cByName: Map<string, CWrapper> | undefined;

  /** Records (or replaces) the wrappers of `path`. */
  set(path: string, wrappers: FileWrappers): void {
    if (wrappers.c.length === 0 && wrappers.ts.length === 0) {
      this.delete(path);
      return;
    }
    this.files.set(path, wrappers);
    this.cByName = undefined;
  }

  /** Forgets `path` (deleted, or no longer analysed). */
  delete(path: string): void {
    if (this.files.delete(path)) this.cByName = undefined;
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
    // Keys sorted at every level: the digest depends on the facts, not on how a record was built.
    const canonical = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(canonical)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
            )
          : value;
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
    } else {
      // In insertion order: when two files are one module (`out.ts` and `out.js`), the first one wins.
      facts = [];
      for (const [file, wrappers] of this.files)
        for (const w of wrappers.ts) if (w.exported) facts.push({ ...w, file, module: moduleKey(file) });
    }
    // Loaded here only: the language server and a lint without --cache never ask for a digest.
    const { createHash } = require('node:crypto') as typeof Crypto;
    const digest = createHash('sha256')
      .update(JSON.stringify(canonical(facts)))
      .digest('hex');
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
