// writev-lint --watch: lints, then lints again each time a source file, a .writev-lint.json or a
// .gitignore under the paths is saved, until Ctrl-C. Each round is a whole run of the command line (the
// same report, formats and exit rules) sharing a session with the rounds before it: the threads keep
// their analyzers, and the cache (in memory, or --cache's file) leaves unchanged files unread by the
// analyzer, so a save is reported again in well under a second.
//
// Folders are watched one by one (fs.watch on each, inotify on Linux) rather than with fs.watch's
// `recursive`: on Linux, Node 20 builds that option in JavaScript from a watch on every file, found by
// a walk that races with the watch being set up, and it reports every existing file as created when it
// starts. A folder created later is watched as soon as its creation is seen.
import { watch as watchFolder, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { languageOf } from '../analyzer/languageOf';
import type { CliOptions } from './args';
import { cacheFilePath } from './cache';
import type { Output } from './main';
import type { LintSession } from './session';

/**
 * How long a round waits after the last change it heard: an editor's save is often several events
 * (write, rename over the file, a change of mode) that must make one round, not three.
 */
const SETTLE_MS = 50;

/** Folders never watched (nor linted: the walk skips them too). */
const UNWATCHED = new Set(['.git', 'node_modules']);

/** Files whose change can change a report, besides source files. */
const SETTINGS_FILES = new Set(['.writev-lint.json', '.gitignore']);

/** The folders of a watch, each with its own fs.watch; `changed` hears every change worth a round. */
class FolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly changed: () => void,
    private readonly ignored: ReadonlySet<string>,
  ) {}

  /** Folders watched. */
  get size(): number {
    return this.watchers.size;
  }

  /** Watches `folder` and every folder under it; with `only`, just that file of `folder`, no deeper. */
  add(folder: string, only?: string): void {
    if (this.watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watchFolder(folder, { persistent: true }, (_event, name) => this.heard(folder, name, only));
    } catch {
      return; // gone or unreadable since it was listed: nothing in it to lint either
    }
    // A folder removed or made unreadable ends its watch; its parent's watch hears the removal.
    watcher.on('error', () => this.remove(folder));
    this.watchers.set(folder, watcher);
    if (only !== undefined) return;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries)
      if (entry.isDirectory() && !UNWATCHED.has(entry.name)) this.add(join(folder, entry.name));
  }

  private remove(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
  }

  private heard(folder: string, name: string | Buffer | null, only: string | undefined): void {
    // No name: the system could not say which entry changed, so any may have.
    if (name === null) return this.changed();
    const entry = name.toString();
    if (only !== undefined && entry !== only) return;
    const path = join(folder, entry);
    if (this.ignored.has(path)) return;
    if (only === undefined && !UNWATCHED.has(entry)) {
      let folderNow = false;
      try {
        folderNow = statSync(path).isDirectory();
      } catch {
        // removed: if it was a watched folder, its files went with it
        if (this.watchers.has(path)) {
          this.remove(path);
          return this.changed();
        }
      }
      if (folderNow) {
        if (!this.watchers.has(path)) {
          this.add(path);
          this.changed(); // files may have been moved in with it
        }
        return;
      }
    }
    if (languageOf(entry) !== undefined || SETTINGS_FILES.has(entry)) this.changed();
  }

  close(): void {
    for (const folder of [...this.watchers.keys()]) this.remove(folder);
  }
}

/** The local time of day, `HH:MM:SS`, that leads each round's summary. */
function timeOfDay(date = new Date()): string {
  return date.toTimeString().slice(0, 8);
}

/** `1 file`, `2 files`. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Runs `round` (one run of the command line) now and after every save under `options.paths`, until
 * `stop` aborts (by default on SIGINT or SIGTERM); then resolves to 0. A round that fails prints why
 * and the watch goes on: the next save may fix it. Paths that do not exist end the watch after the
 * first round, which names them (exit 2).
 */
export async function watch(
  options: CliOptions,
  output: Output,
  cwd: string,
  round: (session: LintSession) => Promise<number>,
  session: LintSession,
  stop?: AbortSignal,
): Promise<number> {
  const ignored = new Set<string>();
  if (options.cache) ignored.add(cacheFilePath(options.cacheLocation, cwd));
  if (options.outputFile !== undefined) ignored.add(resolve(cwd, options.outputFile));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let rounds = 0;
  const folders = new FolderWatch(() => schedule(), ignored);

  const run = async (): Promise<number> => {
    // Clear the screen between rounds, as ruff's watch does, only where it is a screen.
    if (rounds > 0 && output.isTTY) output.out('\x1b[2J\x1b[3J\x1b[H');
    rounds++;
    const status = await round(session);
    const last = session.last;
    const summary = last
      ? `${counted(last.findings ?? 0, 'finding')} in ${counted(last.files, 'file')} (${last.fromCache} unchanged)`
      : `exit status ${status}`;
    output.err(
      `writev-lint: [${timeOfDay()}] ${summary}; watching ${counted(folders.size, 'folder')} for changes (Ctrl-C to stop)\n`,
    );
    return status;
  };
  const fire = (): void => {
    timer = undefined;
    if (stopped.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) => {
        output.err(`writev-lint: ${(error as Error).stack ?? String(error)}\n`);
      })
      .then(() => {
        running = undefined;
        if (again) {
          again = false;
          fire();
        }
      });
  };
  function schedule(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, SETTLE_MS);
  }

  const roots = options.paths.map((p) => resolve(cwd, p));
  const missing = roots.some((p) => {
    try {
      statSync(p);
      return false;
    } catch {
      return true;
    }
  });
  if (missing) return finish(session, await round(session));
  // The signals are heard from here on only: a watch that ended early leaves no listener behind.
  const stopped = stop ?? interrupted().signal;
  // Watching starts before the first round, so a save during it is not missed.
  for (const root of roots) {
    if (statSync(root).isDirectory()) folders.add(root);
    else folders.add(dirname(root), basename(root));
  }
  fire();
  await new Promise<void>((done) => {
    if (stopped.aborted) done();
    else stopped.addEventListener('abort', () => done(), { once: true });
  });
  if (timer !== undefined) clearTimeout(timer);
  folders.close();
  await running;
  return finish(session, 0);
}

/** Ends the session's threads, then gives `status`. */
async function finish(session: LintSession, status: number): Promise<number> {
  await session.pool?.close();
  return status;
}

/**
 * A controller that aborts on the first SIGINT (Ctrl-C) or SIGTERM, after which a second one ends the
 * process as usual.
 */
function interrupted(): AbortController {
  const controller = new AbortController();
  const onSignal = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller;
}
