// writev-lint's --cache: results kept between runs in one JSON file, as ESLint's .eslintcache does. A
// file's entry holds what its first pass found (findings and the wrappers it defines), keyed by its
// content and its settings; and what the second pass found with other files' wrappers, keyed also by
// the digest of those facts (WrapperIndex.factsDigest). A run analyses again only what a key no longer
// matches: a changed file, a file under changed settings, a caller of a changed helper in another file.
// The whole file is keyed by the tool's build and Node's version: another build's results are dropped.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { canonicalJson } from '../analyzer/canonicalJson';
import type { AnalyzerSettings } from '../analyzer/settings';
import { WrapperIndex, type FileWrappers } from '../analyzer/wrapperIndex';
import type { CWrapper } from '../analyzer/wrapper';
import { ReadBuffer, readRegularFileInto } from '../workspace/sourceFile';
import { contentHash, type FileResult, type ReportedFinding } from './lintFile';
import { writeAtomically } from './writeAtomically';

/** The cache file's name in the working folder, or in a folder given as `--cache-location`. */
export const DEFAULT_CACHE_NAME = '.writev-lint-cache';

/** The layout of the cache file; another number is another layout, dropped whole. */
const CACHE_FORMAT = 1;

/**
 * The cache file for `--cache-location <location>` (undefined: the default) run from `cwd`. As with
 * ESLint, a location that is a folder, or ends with a path separator, holds a file of the default name.
 */
export function cacheFilePath(location: string | undefined, cwd: string): string {
  if (location === undefined) return join(cwd, DEFAULT_CACHE_NAME);
  const path = resolve(cwd, location);
  const folder = location.endsWith('/') || location.endsWith(sep) || isFolder(path);
  return folder ? join(path, DEFAULT_CACHE_NAME) : path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * What makes results of this build of writev-lint differ from another's: its version, Node's version
 * (the regular expressions and the parser's runtime), and the size and time of every compiled module
 * of the server, so that a rebuilt analyzer never serves the results of the one before.
 */
export function toolIdentity(version: string): string {
  const root = join(__dirname, '..');
  const stamps: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js') || entry.name.endsWith('.wasm')) {
        const info = statSync(path);
        stamps.push(`${path.slice(root.length)} ${info.size} ${info.mtimeMs}`);
      }
    }
  };
  walk(root);
  return `${version} node ${process.version} build ${sha256(stamps.join('\n')).slice(0, 16)}`;
}

/** A result as the cache keeps it: without the path (the entry's key) and the per-run fields. */
interface Kept {
  readonly findings: readonly ReportedFinding[];
  readonly lines: number;
}

/** One file's entry. */
interface Entry {
  /** {@link contentHash} of the bytes the results were computed from. */
  readonly content: string;
  /** {@link settingsKey} of the settings they were computed with. */
  readonly settings: string;
  /** The first pass: without other files' wrappers; with the wrappers this file defines. */
  readonly first: Kept;
  readonly wrappers: FileWrappers;
  /** The facts digest the final result was computed with. */
  readonly facts: string;
  /** The second pass's result, where it differs from the first's. */
  readonly final?: Kept;
  /**
   * The C wrappers the file defines as read with the other files' wrappers (see FileResult.chained),
   * where they differ from `wrappers.c`: valid for as long as `facts` is the file's digest.
   */
  readonly chained?: readonly CWrapper[];
}

/** The key of a file's settings: everything that can change what its analysis reports. */
export function settingsKey(settings: AnalyzerSettings, maxFileBytes: number | undefined): string {
  return sha256(canonicalJson({ settings, maxFileBytes: maxFileBytes ?? null }));
}

/** Why a cache file cannot be used, for the one warning that says it is ignored. */
function unusable(data: unknown, tool: string): string | undefined {
  if (data === null || typeof data !== 'object' || !('writevLintCache' in data))
    return 'it is not a writev-lint cache';
  const file = data as { writevLintCache: unknown; tool?: unknown; entries?: unknown };
  if (file.writevLintCache !== CACHE_FORMAT)
    return `it has layout ${String(file.writevLintCache)}, this writev-lint reads ${CACHE_FORMAT}`;
  if (file.tool !== tool) return `it was written by another build (${String(file.tool)})`;
  if (file.entries === null || typeof file.entries !== 'object') return 'it has no entries';
  for (const [path, entry] of Object.entries(file.entries as Record<string, unknown>))
    if (!isEntry(entry)) return `its entry for ${path} is malformed`;
  return undefined;
}

function isKept(value: unknown): value is Kept {
  const kept = value as Kept | null;
  return (
    typeof kept === 'object' &&
    kept !== null &&
    typeof kept.lines === 'number' &&
    Array.isArray(kept.findings) &&
    (kept.findings as readonly unknown[]).every(
      (f) => typeof f === 'object' && f !== null && typeof (f as { start?: unknown }).start === 'object',
    )
  );
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Entry | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.content === 'string' &&
    typeof entry.settings === 'string' &&
    typeof entry.facts === 'string' &&
    isKept(entry.first) &&
    (entry.final === undefined || isKept(entry.final)) &&
    (entry.chained === undefined || Array.isArray(entry.chained)) &&
    typeof entry.wrappers === 'object' &&
    entry.wrappers !== null &&
    Array.isArray(entry.wrappers.c) &&
    Array.isArray(entry.wrappers.ts)
  );
}

/** The results kept in one cache file, loaded at the start of a run and saved at its end. */
export class ResultCache {
  private constructor(
    /** The cache file; undefined: kept in memory only (the rounds of a --watch without --cache). */
    readonly file: string | undefined,
    private readonly tool: string,
    private readonly entries: Map<string, Entry>,
    private readonly warn: (line: string) => void,
  ) {}

  /**
   * The cache in `file` for a tool of identity `tool` (see {@link toolIdentity}). A missing file is an
   * empty cache; one that is corrupt, not a cache, or another build's is ignored with one `warn`ing
   * (it is replaced on save), never an error: the run only loses time.
   */
  static load(file: string, tool: string, warn: (line: string) => void): ResultCache {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      // None there yet (saving will say if one cannot be made there).
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        warn(`ignoring the cache ${file}: ${(error as Error).message}`);
      return new ResultCache(file, tool, new Map(), warn);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      warn(`ignoring the cache ${file}: it is corrupt (${(error as Error).message}); it will be rewritten`);
      return new ResultCache(file, tool, new Map(), warn);
    }
    const why = unusable(data, tool);
    if (why !== undefined) {
      warn(`ignoring the cache ${file}: ${why}; it will be rewritten`);
      return new ResultCache(file, tool, new Map(), warn);
    }
    const entries = (data as { entries: Record<string, Entry> }).entries;
    return new ResultCache(file, tool, new Map(Object.entries(entries)), warn);
  }

  /** A cache for this process only, never saved. */
  static inMemory(): ResultCache {
    return new ResultCache(undefined, '', new Map(), () => undefined);
  }

  /** Starts a run over `groups` (files by their settings): reads every file to find what is unchanged. */
  plan(groups: ReadonlyMap<AnalyzerSettings, readonly string[]>, maxFileBytes: number): CachedRun {
    return new CachedRun(this.entries, groups, maxFileBytes);
  }

  /**
   * Writes the cache file whole (through a temporary file and a rename: a run stopped halfway leaves
   * the old cache or the new one). Entries of files this run did not see are kept while they exist.
   * A cache that cannot be written costs the next run time, not this one its report: a warning.
   */
  async save(): Promise<void> {
    const file = this.file;
    if (file === undefined) return;
    const entries: Record<string, Entry> = {};
    for (const [path, entry] of this.entries) if (existsSync(path)) entries[path] = entry;
    const text = JSON.stringify({ writevLintCache: CACHE_FORMAT, tool: this.tool, entries });
    // The folder is made as ESLint makes its cache's (`--cache-location node_modules/.cache/x/`).
    await mkdir(dirname(file), { recursive: true })
      .then(() => writeAtomically(file, text))
      .catch((error: unknown) => this.warn(`cannot write the cache ${file}: ${(error as Error).message}`));
  }
}

/** What a lint run over a cache does: which files each pass needs, the results of the others. */
export class CachedRun {
  /** Unchanged files (content and settings) with their entries. */
  private readonly hits = new Map<string, Entry>();
  private readonly settingsOf = new Map<string, string>();
  /** Each file's facts digest in this run, once the index is known. */
  private readonly digests = new Map<string, string>();
  /** This run's wrappers, once known (see {@link CachedRun.wrappers}). */
  private index = new WrapperIndex();

  constructor(
    private readonly entries: Map<string, Entry>,
    groups: ReadonlyMap<AnalyzerSettings, readonly string[]>,
    maxFileBytes: number,
  ) {
    const buffer = new ReadBuffer();
    for (const [settings, files] of groups) {
      const key = settingsKey(settings, maxFileBytes);
      for (const file of files) {
        this.settingsOf.set(file, key);
        const entry = entries.get(file);
        if (!entry || entry.settings !== key) continue;
        let hash: string;
        try {
          hash = contentHash(readRegularFileInto(file, maxFileBytes, buffer));
        } catch {
          continue; // the lint says why it cannot be read
        }
        if (hash === entry.content) this.hits.set(file, entry);
      }
    }
  }

  /** Files taken from the cache without being analysed. */
  get unchanged(): number {
    return this.hits.size;
  }

  /** The first-pass results of the unchanged files, as the cache holds them. */
  hitResults(): FileResult[] {
    return [...this.hits].map(([path, entry]) => ({
      path,
      findings: entry.first.findings,
      lines: entry.first.lines,
    }));
  }

  /** Whether the first pass must analyse `file` (it is new or changed, or its settings are). */
  readonly missed = (file: string): boolean => !this.hits.has(file);

  /**
   * The wrappers of every file, in the order of `files`: from the cache or from `first`. They are also
   * the index by which each file's facts are known from here on.
   */
  wrappers(files: readonly string[], first: readonly FileResult[]): [string, FileWrappers][] {
    const found = new Map(first.map((r) => [r.path, r.wrappers]));
    // A file's chained wrappers hold while its facts are those they were read with; dropping one
    // changes what other files read, so until none is dropped.
    const chained = new Set([...this.hits].filter(([, e]) => e.chained).map(([file]) => file));
    for (;;) {
      const index: [string, FileWrappers][] = [];
      for (const file of files) {
        const hit = this.hits.get(file);
        const wrappers =
          hit && chained.has(file)
            ? { ...hit.wrappers, c: hit.chained ?? [] }
            : (hit?.wrappers ?? found.get(file));
        // Files that define no wrapper still tell the fact base which of their functions do no output,
        // and a header that only includes others where its includers' helpers are.
        if (
          wrappers &&
          (wrappers.c.length > 0 ||
            wrappers.ts.length > 0 ||
            wrappers.functions?.length ||
            wrappers.includes?.length ||
            wrappers.sources?.length ||
            wrappers.codes?.length ||
            wrappers.memberFunctions?.length)
        )
          index.push([file, wrappers]);
      }
      this.index = new WrapperIndex();
      this.known = new Map(index);
      this.digests.clear();
      for (const [path, defined] of index) this.index.set(path, defined);
      const dropped = [...chained].filter((file) => this.digestOf(file) !== this.hits.get(file)?.facts);
      if (dropped.length === 0) return index;
      for (const file of dropped) {
        chained.delete(file);
        this.stale.push(file);
      }
    }
  }

  /**
   * Unchanged files whose chained wrappers no longer hold: the second pass must read them again with
   * the index, whatever they call.
   */
  readonly stale: string[] = [];

  /** What the index holds for each file (see {@link chain}). */
  private known = new Map<string, FileWrappers>();

  /** A later pass read `path`'s wrappers anew with the index (see FileResult.chained). */
  chain(path: string, c: readonly CWrapper[]): void {
    const had = this.known.get(path) ?? { c: [], ts: [] };
    this.known.set(path, { ...had, c });
    this.index.set(path, { ...had, c });
    this.digests.clear();
  }

  private digestOf(file: string): string {
    let digest = this.digests.get(file);
    if (digest === undefined) this.digests.set(file, (digest = this.index.factsDigest(file)));
    return digest;
  }

  /**
   * Whether the second pass must see `file`, given the {@link wrappers} of this run: the first pass
   * analysed it, or the facts it reads from other files changed, or (`fix`) its findings include a
   * fix to apply.
   */
  again(fix: boolean): (file: string) => boolean {
    return (file) => {
      const digest = this.digestOf(file);
      const entry = this.hits.get(file);
      if (!entry || entry.facts !== digest) return true;
      return fix && (entry.final ?? entry.first).findings.some((f) => f.fix !== undefined);
    };
  }

  /**
   * The result of each of `files` (in their order) from this run's passes or the cache, and the cache
   * entries updated from them. A file is kept only when both passes report the findings of the same
   * bytes: a result without a content hash (see FileResult) reports a fixed text, and that file is
   * analysed afresh next time.
   */
  finish(
    files: readonly string[],
    first: readonly FileResult[],
    second: readonly FileResult[],
  ): FileResult[] {
    const firstOf = new Map(first.map((r) => [r.path, r]));
    const secondOf = new Map(second.map((r) => [r.path, r]));
    return files.map((path) => {
      const hit = this.hits.get(path);
      const one = firstOf.get(path);
      const two = secondOf.get(path);
      const facts = this.digestOf(path);
      if (hit && !two) {
        // Unchanged, and either its facts too, or the second pass found it calls none of them.
        const kept = hit.facts === facts ? (hit.final ?? hit.first) : hit.first;
        const same = hit.facts === facts;
        this.entries.set(path, {
          ...hit,
          facts,
          final: same ? hit.final : undefined,
          chained: same ? hit.chained : undefined,
        });
        return { path, findings: kept.findings, lines: kept.lines };
      }
      const result = (two ?? one) as FileResult;
      const content = hit?.content ?? one?.contentHash;
      const firstKept = hit?.first ?? (one && keep(one));
      const wrappers = hit?.wrappers ?? one?.wrappers ?? { c: [], ts: [] };
      const settings = this.settingsOf.get(path) as string;
      const usable =
        content !== undefined &&
        firstKept !== undefined &&
        (two === undefined || two.contentHash === content) &&
        !result.fixed &&
        !result.error &&
        !result.skipped;
      if (usable) {
        const final = two && keep(two);
        const chained = two ? two.chained : hit?.chained;
        this.entries.set(path, {
          content,
          settings,
          first: firstKept,
          wrappers,
          facts,
          ...(final && !sameKept(final, firstKept) ? { final } : {}),
          ...(chained && canonicalJson(chained) !== canonicalJson(wrappers.c) ? { chained } : {}),
        });
      } else this.entries.delete(path);
      return withoutHash(result);
    });
  }
}

function keep(result: FileResult): Kept | undefined {
  if (result.error !== undefined || result.skipped !== undefined || result.fixed) return undefined;
  return { findings: result.findings, lines: result.lines };
}

function sameKept(a: Kept, b: Kept): boolean {
  return a.lines === b.lines && canonicalJson(a.findings) === canonicalJson(b.findings);
}

/** A result as a run without --cache reports it: the hash is the cache's business. */
function withoutHash(result: FileResult): FileResult {
  if (result.contentHash === undefined) return result;
  const { contentHash: _hash, ...rest } = result;
  return rest;
}
