// The workspace folders of a multi-root workspace, each with its wrapper index, kept up to date as
// folders come and go and files change.
import { sep } from 'node:path';
import {
  MAX_TEXT_LENGTH,
  WrapperIndex,
  type Analyzer,
  type AnalyzerSettings,
  type FileWrappers,
} from '../index';
import { canonicalJson } from '../analyzer/canonicalJson';
import { definedName, isHeader } from '../analyzer/headerIncludes';
import { cWriteFunctions } from '../analyzer/catalogue';
import {
  excludeMatcher,
  ignoredSourcesNote,
  sourceFiles,
  walkIgnores,
  type IgnoredSources,
} from '../workspace/files';
import { readSourceFile } from '../workspace/sourceFile';

/** Gives the event loop a turn, so indexing a large tree never holds up requests. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Re-readings of callers at most after one change: each follows a chain of helpers one file deeper. */
const MAX_CHAIN_ROUNDS = 8;

/** The exported C wrappers `before` and `after` (one file's entries) do not define alike. */
function changedWrappers(
  index: WrapperIndex,
  path: string,
  before: FileWrappers | undefined,
  after: FileWrappers | undefined,
): string[] {
  // A header's static helpers are its includers' own (an included source's too): a change to one
  // changes them.
  const shared = index.cShared(path);
  const exported = (w: FileWrappers | undefined) =>
    new Map((w?.c ?? []).filter((x) => x.exported || shared).map((x) => [x.name, canonicalJson(x)]));
  const a = exported(before);
  const b = exported(after);
  // A function that came to take the writer it is handed (see handedWriters.ts): its callers tell the
  // index what they hand it only when read knowing it.
  const takers = (w: FileWrappers | undefined) => new Set((w?.writerTakers ?? []).map(([name]) => name));
  const was = takers(before);
  const taking = [...takers(after)].filter((name) => !was.has(name));
  return [...new Set([...a.keys(), ...b.keys(), ...taking])].filter(
    (name) => a.get(name) !== b.get(name) || taking.includes(name),
  );
}

/** A workspace folder: its root path and the wrappers its files define. */
export interface Folder {
  readonly path: string;
  readonly index: WrapperIndex;
  /** The files `index` holds facts of, so a walk can drop those it no longer reaches. */
  readonly files: Set<string>;
  /** Set while a (re)index runs; cleared when it ends. */
  indexing?: { cancelled: boolean };
  /** The latest (re)index run; settled once its index is complete or it was cancelled by a newer run. */
  indexed?: Promise<void>;
}

/** The workspace folders, longest path first so lookups find the innermost folder. */
export class Folders {
  private folders: Folder[] = [];

  constructor(
    private readonly analyzer: Analyzer,
    private readonly settingsFor: (path: string) => Promise<AnalyzerSettings>,
    /** The settings of the `.writev-lint.json` that applies to a file, if one does. */
    private readonly configFor: (path: string) => Promise<AnalyzerSettings | undefined>,
    private readonly log: (message: string) => void,
  ) {}

  /** All folders. */
  all(): readonly Folder[] {
    return this.folders;
  }

  /** The folder holding `path`, if any. */
  of(path: string): Folder | undefined {
    return this.folders.find(
      (f) => path === f.path || path.startsWith(f.path.endsWith(sep) ? f.path : f.path + sep),
    );
  }

  /** Adds a folder (and indexes it in the background); `done` runs when its index is complete. */
  add(path: string, done: () => void): void {
    if (this.folders.some((f) => f.path === path)) return;
    const folder: Folder = { path, index: new WrapperIndex(), files: new Set() };
    this.folders.push(folder);
    this.folders.sort((a, b) => b.path.length - a.path.length);
    void this.reindex(folder).then(done);
  }

  /** Removes a folder, stopping its indexing. */
  remove(path: string): void {
    const folder = this.folders.find((f) => f.path === path);
    if (folder?.indexing) folder.indexing.cancelled = true;
    this.folders = this.folders.filter((f) => f.path !== path);
  }

  /**
   * Whether the `exclude` setting leaves `path` out: patterns relative to `base` (the folder of the
   * config file they come from), or else to the workspace folder.
   */
  excluded(path: string, settings: AnalyzerSettings, base?: string): boolean {
    const root = base ?? this.of(path)?.path;
    return root ? excludeMatcher(root, settings.exclude)(path) : false;
  }

  /**
   * Resolves once `folder`'s wrapper index is complete, so that analysing a file that calls a wrapper
   * defined elsewhere in the folder finds it (a run cancelled by a newer one waits for the newer one).
   */
  async whenIndexed(folder: Folder): Promise<void> {
    let run: Promise<void> | undefined;
    do {
      run = folder.indexed;
      await run;
    } while (run !== folder.indexed);
  }

  /** Rebuilds the wrapper index of `folder` (cancelling a run in progress). */
  reindex(folder: Folder): Promise<void> {
    const run = this.index(folder);
    folder.indexed = run;
    return run;
  }

  private async index(folder: Folder): Promise<void> {
    if (folder.indexing) folder.indexing.cancelled = true;
    const run = { cancelled: false };
    folder.indexing = run;
    const settings = await this.settingsFor(folder.path);
    const walked = new Set<string>();
    const skipped = (path: string, reason: string) => this.log(`writev: skipped ${path}: ${reason}`);
    // The editor has no option to read them: the note names the line to change.
    const ignored = (found: IgnoredSources) =>
      this.log(`writev: note: ${ignoredSourcesNote(found, folder.path)}`);
    const walk = { onIgnoredSources: ignored };
    for await (const file of sourceFiles(folder.path, settings.exclude, () => run.cancelled, skipped, walk)) {
      walked.add(file);
      // The file's own settings, as a save reads it with and as writev-lint indexes it: a config file's
      // overrides may turn its language off or name other write functions.
      const own = (await this.configFor(file)) ?? settings;
      await this.read(folder, file, own, undefined, run);
      await yieldToEventLoop();
    }
    if (!run.cancelled) {
      // A file the walk no longer reaches (excluded since the last walk, or gone without a word from
      // the client) must not lend its wrappers to the others: a fresh index would not hold it.
      for (const file of folder.files) if (!walked.has(file)) this.forget(folder, file);
    }
    if (!run.cancelled) {
      // Read alone, a file knows no helper of another file: read again those that call one.
      const exported = [...folder.index.entries()].flatMap(([path, w]) =>
        w.c.filter((x) => x.exported || folder.index.cShared(path)).map((x) => x.name),
      );
      // So does a header's macro that writes (`#define sock_send(s, b, n) send(...)`): a loop over it
      // in another file is a helper only when that file is read with the header's definitions.
      const writes = new RegExp(`\\b(?:${[...cWriteFunctions(settings).keys()].join('|')})\\s*\\(`);
      const writingMacros = [...folder.index.entries()].flatMap(([path, w]) =>
        isHeader(path)
          ? (w.defines ?? []).filter((d) => writes.test(d.slice(d.indexOf(')') + 1))).map(definedName)
          : [],
      );
      // And the callers of a function taking the writer it is handed: they tell what they hand it only
      // when read knowing it (see handedWriters.ts).
      const takers = [...folder.index.cWriterTakersFor('').keys()];
      await this.chain(folder, [...exported, ...writingMacros, ...takers], run);
    }
    if (folder.indexing === run) folder.indexing = undefined;
    this.log(
      `writev: indexed wrappers of ${walked.size} files in ${folder.path} (${folder.index.size} define wrappers)`,
    );
  }

  /**
   * Re-reads the wrappers of one file (saved, created or changed on disk); `text` if already known. A
   * file the folder's `exclude` leaves out, or one the walk has not met that git (or a .gitignore)
   * ignores, is dropped from the index instead, as a walk would skip it.
   */
  async update(folder: Folder, path: string, settings: AnalyzerSettings, text?: string): Promise<void> {
    const own = await this.settingsFor(folder.path);
    const before = folder.index.get(path);
    if (
      excludeMatcher(folder.path, own.exclude)(path) ||
      (!folder.files.has(path) && (await walkIgnores(folder.path, path)))
    )
      this.forget(folder, path);
    else await this.read(folder, path, settings, text, undefined, true);
    await this.chain(folder, changedWrappers(folder.index, path, before, folder.index.get(path)));
  }

  /** Drops what the index knows of `path` (no longer indexed; see {@link removed}). */
  forget(folder: Folder, path: string): void {
    folder.index.delete(path);
    folder.files.delete(path);
  }

  /** `path` was deleted: drops it, and reads again the files that called its helpers. */
  async removed(folder: Folder, path: string): Promise<void> {
    const before = folder.index.get(path);
    this.forget(folder, path);
    await this.chain(folder, changedWrappers(folder.index, path, before, undefined));
  }

  /**
   * Reads again, with the index, the files that call one of `names` (C wrappers whose definition
   * changed or came or went): a helper built on another file's helper is one only when read so. Their
   * own changes go round again, as far as a chain of helpers reaches.
   */
  private async chain(folder: Folder, names: readonly string[], run?: { cancelled: boolean }): Promise<void> {
    let changed = new Set(names);
    for (let round = 0; changed.size > 0 && round < MAX_CHAIN_ROUNDS; round++) {
      // A header's macro whose body calls one (`SEND(fd, b, n)` for `send_traced(...)`): a file calling
      // only the macro calls the helper all the same, as a batch run's second pass reads it.
      const called = new Set([...changed, ...folder.index.cHeaderMacrosCalling(changed)]);
      const callers = [...folder.index.entries()]
        .filter(([, w]) => w.functions?.some((f) => f.calls.some((c) => called.has(c))))
        .map(([path]) => path);
      const next = new Set<string>();
      for (const path of callers) {
        if (run?.cancelled) return;
        const before = folder.index.get(path);
        const settings = (await this.configFor(path)) ?? (await this.settingsFor(folder.path));
        await this.read(folder, path, settings, undefined, run, true);
        for (const name of changedWrappers(folder.index, path, before, folder.index.get(path)))
          next.add(name);
        await yieldToEventLoop();
      }
      changed = next;
    }
  }

  /**
   * Reads the wrappers of `path` into the index, unless `run` was cancelled meanwhile: a newer run
   * may have read the file already, with other settings.
   */
  private async read(
    folder: Folder,
    path: string,
    settings: AnalyzerSettings,
    text?: string,
    run?: { cancelled: boolean },
    chained = false,
  ): Promise<void> {
    try {
      // Regular files of bounded size only: a FIFO named x.c would never answer.
      const content = text ?? (await readSourceFile(path)).text;
      if (run?.cancelled) return;
      if (content.length > MAX_TEXT_LENGTH) {
        this.forget(folder, path);
        return;
      }
      const wrappers = chained
        ? this.analyzer.inspect(path, content, settings, { index: folder.index }).wrappers
        : this.analyzer.wrappers(path, content, settings);
      // Function facts as read alone: the index is what they tell the others, not what they ask.
      folder.index.set(
        path,
        chained ? { ...wrappers, loud: undefined, helperLoud: undefined, inferred: undefined } : wrappers,
      );
      folder.files.add(path);
    } catch (error) {
      if (run?.cancelled) return;
      this.forget(folder, path);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log(`writev: indexing ${path} failed: ${String(error)}`);
    }
  }
}
