// `.writev-lint.json` files: found by walking up from each linted file (the nearest wins), read safely
// (regular files only, bounded, never blocking on a FIFO), and validated against the schema. The CLI
// and the language server both resolve settings here, so the editor shows what CI reports.
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { parseSettings, SettingsError, type AnalyzerSettings } from '../analyzer/settings';
import { OverriddenSettings, overridesOf, type Override } from './overrides';
import { depthIssue } from './validate';

/** The name of the config file looked for in each folder. */
export const CONFIG_FILE_NAME = '.writev-lint.json';

/** Larger config files are refused: settings are a few kilobytes; anything bigger is a mistake. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** A config file, read and validated. */
export interface ConfigFile {
  /** Absolute path of the file. */
  readonly path: string;
  readonly settings: AnalyzerSettings;
  /** The folder `exclude` patterns are relative to: the file's own (or the working folder, for --config). */
  readonly base: string;
  /** Its `overrides`, when it has any: the settings as written, and each entry (see overrides.ts). */
  readonly overrides?: {
    readonly raw: Readonly<Record<string, unknown>>;
    readonly prefix: string;
    readonly entries: readonly Override[];
  };
}

function problem(path: string, message: string): SettingsError {
  return new SettingsError(path, [{ path: '', message }]);
}

/**
 * What is wrong with text JSON.parse refused, and where (`line 3, column 5`), without the text
 * itself: V8's message quotes the input around the fault, and a config file may be anything (a
 * link to a file of secrets), so only the parser's words and the place are kept.
 */
function jsonProblem(text: string, message: string): string {
  if (/^Unexpected end/i.test(message)) return 'not valid JSON: it ends too soon';
  const at = /position (\d+)/.exec(message);
  if (!at) return 'not valid JSON: it does not start like JSON';
  const offset = Number(at[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const what = message.replace(/ in JSON at position.*$/s, '').replace(/["'`].*$/s, '');
  return `not valid JSON (line ${line}, column ${offset - before.lastIndexOf('\n')}): ${what}`;
}

/** What kind of JSON value `value` is, for a message that must not repeat it. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : 'true or false';
}

/** The bytes of a regular file of at most {@link MAX_CONFIG_BYTES}, without ever blocking on a FIFO. */
async function readRegularFile(path: string, root?: string): Promise<string> {
  let handle;
  try {
    const real = root === undefined ? path : await inside(path, root);
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. O_NOFOLLOW on
    // the resolved path: a link put there since it was resolved is not followed out of the root.
    const follow = root === undefined ? 0 : constants.O_NOFOLLOW;
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | follow);
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    throw problem(
      path,
      `cannot read the config file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const kind = info.isDirectory() ? 'a folder' : info.isFIFO() ? 'a FIFO' : 'not a regular file';
      throw problem(path, `the config file is ${kind}; it must be a regular file`);
    }
    if (info.size > MAX_CONFIG_BYTES) {
      throw problem(path, `the config file is ${info.size} bytes, over the limit of ${MAX_CONFIG_BYTES}`);
    }
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    throw problem(
      path,
      `cannot read the config file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  } finally {
    await handle.close();
  }
}

/**
 * The real path of the config file at `path`, when it lies inside the folder `root`; a
 * {@link SettingsError} naming the file otherwise (a link out of the project is never read, so its
 * target's content can reach no message).
 */
async function inside(path: string, root: string): Promise<string> {
  const [real, top] = await Promise.all([realpath(path), realpath(root)]);
  if (within(real, top)) return real;
  throw problem(
    path,
    `a link to a file outside ${root}, the root of the project it is in; it is not read (copy the settings into the project instead)`,
  );
}

/**
 * Reads and validates the config file at `path`: the settings of the `writev` section, plain or as
 * `{"writev": {...}}`. Throws a {@link SettingsError} naming the file and each bad key path; messages
 * name the key path and at most a short value there, never more of the file. With `root`, a file
 * that resolves (through links) outside that folder is refused unread.
 */
export async function readConfigFile(path: string, base = dirname(path), root?: string): Promise<ConfigFile> {
  const text = await readRegularFile(path, root);
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw problem(path, jsonProblem(text, (error as Error).message));
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const shown = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : kindOf(raw);
    throw problem(path, `expected an object holding the writev settings, got ${shown}`);
  }
  const deep = depthIssue(raw);
  if (deep) throw new SettingsError(path, [deep]);
  const record = raw as Record<string, unknown>;
  if (!('writev' in record)) return withOverrides(path, base, record, '');
  const beside = Object.keys(record).filter((k) => k !== 'writev');
  if (beside.length > 0) {
    throw new SettingsError(
      path,
      beside.map((key) => ({
        path: key,
        message: 'unknown key beside "writev" (the file holds either the settings or {"writev": {...}})',
      })),
    );
  }
  return withOverrides(path, base, record.writev, 'writev');
}

/** The config file whose settings are `section` (under `prefix`), its `overrides` checked and kept. */
function withOverrides(path: string, base: string, section: unknown, prefix: string): ConfigFile {
  const settings = parseSettings(section, { source: path, prefix });
  const entries = overridesOf(section, base, path, prefix);
  if (!entries) return { path, base, settings };
  return { path, base, settings, overrides: { raw: section as Record<string, unknown>, prefix, entries } };
}

/**
 * The nearest `.writev-lint.json` in `dir` or a folder above it, up to and including `root` (every
 * folder up to the file system's root when `root` is not given), or undefined.
 */
export async function findConfigFile(dir: string, root?: string): Promise<string | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, CONFIG_FILE_NAME);
    const found = await stat(candidate).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return false;
        throw problem(candidate, `cannot check for a config file: ${error.code ?? String(error)}`);
      },
    );
    if (found) return candidate;
    if (at === root || dirname(at) === at) return undefined;
  }
}

/** Whether `dir` holds a `.git`: a folder, or the file of a linked worktree or a submodule. */
async function holdsGit(dir: string): Promise<boolean> {
  return stat(join(dir, '.git')).then(
    () => true,
    () => false,
  );
}

/** Whether `path` is `folder` or lies under it. */
function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** How settings are found for a file. */
export interface LookupOptions {
  /** A config file for every file (--config): no lookup; `exclude` relative to `cwd`. */
  readonly explicit?: string;
  /** Walk up from each file for `.writev-lint.json` (default true; --no-config-lookup turns it off). */
  readonly lookup?: boolean;
  /** The working folder (relative paths, and the base of --config's `exclude`). */
  readonly cwd?: string;
  /**
   * Where the lookup from folder `dir` stops when no git repository holds it: the editor's workspace
   * folder holding it. Undefined: the lookup stays in `dir`. Default: `cwd` when it holds `dir`.
   */
  readonly workspaceRoot?: (dir: string) => string | undefined;
  /** Applied once to each file's settings (a command-line override such as --report-unused-directives). */
  readonly adjust?: (settings: AnalyzerSettings) => AnalyzerSettings;
}

/**
 * Finds the config file for each path, caching per folder and per file, so a tree of thousands of
 * files costs a few `stat` calls per folder. The same settings object is returned for every file a
 * config applies to (callers may group files by it).
 *
 * The lookup stays in the project, as ESLint's `root` and ruff's project root do: it stops at the
 * root of the git repository holding the file (a folder with a `.git`), or when there is none at the
 * workspace root ({@link LookupOptions.workspaceRoot}). A `.writev-lint.json` in a shared folder
 * above the project (a home folder, /tmp) never applies, and a config file that is a link out of the
 * project is refused unread.
 */
export class ConfigLookup {
  private readonly folders = new Map<string, Promise<string | undefined>>();
  private readonly files = new Map<string, Promise<ConfigFile>>();
  private readonly repositories = new Map<string, Promise<string | undefined>>();
  /** Per config file with overrides: the settings per set of matching entries, and a ConfigFile for each. */
  private readonly overridden = new Map<ConfigFile, OverriddenSettings>();
  private readonly variants = new Map<AnalyzerSettings, ConfigFile>();

  constructor(private readonly options: LookupOptions = {}) {}

  /**
   * The config file that applies to `path` (a file, or a folder when `isFolder`), or undefined when
   * none does, with the settings for that file: its `overrides` that match a file are applied (a
   * folder gets the file's own settings). Throws a {@link SettingsError} for a config file that
   * exists but cannot be used.
   */
  async forPath(path: string, isFolder = false): Promise<ConfigFile | undefined> {
    const config = await this.configFor(path, isFolder);
    return config && !isFolder && config.overrides
      ? this.overriddenFor(config, resolve(this.options.cwd ?? process.cwd(), path))
      : config;
  }

  /** `config` with the settings its overrides give the file at `path`; one object per set of settings. */
  private overriddenFor(config: ConfigFile, path: string): ConfigFile {
    const o = config.overrides!;
    let made = this.overridden.get(config);
    if (!made) {
      made = new OverriddenSettings(
        o.raw,
        o.entries,
        config.settings,
        config.path,
        o.prefix,
        this.options.adjust,
      );
      this.overridden.set(config, made);
    }
    const settings = made.for(path);
    if (settings === config.settings) return config;
    let variant = this.variants.get(settings);
    if (!variant) {
      variant = { ...config, settings };
      this.variants.set(settings, variant);
    }
    return variant;
  }

  private async configFor(path: string, isFolder: boolean): Promise<ConfigFile | undefined> {
    const cwd = this.options.cwd ?? process.cwd();
    if (this.options.explicit !== undefined) return this.load(resolve(cwd, this.options.explicit), cwd);
    if (this.options.lookup === false) return undefined;
    const dir = isFolder ? resolve(cwd, path) : dirname(resolve(cwd, path));
    const root = await this.rootOf(dir, cwd);
    let found = this.folders.get(dir);
    if (!found) {
      found = findConfigFile(dir, root);
      this.folders.set(dir, found);
    }
    const file = await found;
    return file === undefined ? undefined : this.load(file, dirname(file), root);
  }

  /** The project root of folder `dir`: its repository's, else its workspace's, else `dir` itself. */
  private async rootOf(dir: string, cwd: string): Promise<string> {
    const workspace = this.options.workspaceRoot ?? ((d: string) => (within(d, cwd) ? cwd : undefined));
    return (await this.repository(dir)) ?? workspace(dir) ?? dir;
  }

  /** The nearest folder at or above `dir` holding a `.git`, cached per folder. */
  private repository(dir: string): Promise<string | undefined> {
    let found = this.repositories.get(dir);
    if (!found) {
      const parent = dirname(dir);
      found = holdsGit(dir).then((git) => (git ? dir : parent === dir ? undefined : this.repository(parent)));
      this.repositories.set(dir, found);
    }
    return found;
  }

  private load(path: string, base: string, root?: string): Promise<ConfigFile> {
    let loaded = this.files.get(path);
    if (!loaded) {
      const adjust = this.options.adjust;
      loaded = readConfigFile(path, base, root).then((c) =>
        adjust ? { ...c, settings: adjust(c.settings) } : c,
      );
      this.files.set(path, loaded);
    }
    return loaded;
  }

  /** Forgets every folder's answer and every file read (a config file was created, changed or removed). */
  clear(): void {
    this.folders.clear();
    this.files.clear();
    this.repositories.clear();
    this.overridden.clear();
    this.variants.clear();
  }
}
