// `.writev-lint.json` files: found by walking up from each linted file (the nearest wins), read safely
// (regular files only, bounded, never blocking on a FIFO), and validated against the schema. The CLI
// and the language server both resolve settings here, so the editor shows what CI reports.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseSettings, SettingsError, type AnalyzerSettings } from '../analyzer/settings';

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
}

function problem(path: string, message: string): SettingsError {
  return new SettingsError(path, [{ path: '', message }]);
}

/** `position 42` in a JSON.parse message as `line 3, column 5`. */
function jsonPlace(text: string, message: string): string {
  const at = /position (\d+)/.exec(message);
  if (!at) return '';
  const offset = Number(at[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return ` (line ${line}, column ${offset - before.lastIndexOf('\n')})`;
}

/** The bytes of a regular file of at most {@link MAX_CONFIG_BYTES}, without ever blocking on a FIFO. */
async function readRegularFile(path: string): Promise<string> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
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
 * Reads and validates the config file at `path`: the settings of the `writev` section, plain or as
 * `{"writev": {...}}`. Throws a {@link SettingsError} naming the file and each bad key path.
 */
export async function readConfigFile(path: string, base = dirname(path)): Promise<ConfigFile> {
  const text = await readRegularFile(path);
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    throw problem(path, `not valid JSON${jsonPlace(text, message)}: ${message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw problem(path, `expected an object holding the writev settings, got ${JSON.stringify(raw)}`);
  }
  const record = raw as Record<string, unknown>;
  if (!('writev' in record)) return { path, base, settings: parseSettings(record, { source: path }) };
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
  return { path, base, settings: parseSettings(record.writev, { source: path, prefix: 'writev' }) };
}

/** The nearest `.writev-lint.json` in `dir` or a folder above it, or undefined. */
export async function findConfigFile(dir: string): Promise<string | undefined> {
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
    if (dirname(at) === at) return undefined;
  }
}

/** How settings are found for a file. */
export interface LookupOptions {
  /** A config file for every file (--config): no lookup; `exclude` relative to `cwd`. */
  readonly explicit?: string;
  /** Walk up from each file for `.writev-lint.json` (default true; --no-config-lookup turns it off). */
  readonly lookup?: boolean;
  /** The working folder (relative paths, and the base of --config's `exclude`). */
  readonly cwd?: string;
  /** Applied once to each file's settings (a command-line override such as --report-unused-directives). */
  readonly adjust?: (settings: AnalyzerSettings) => AnalyzerSettings;
}

/**
 * Finds the config file for each path, caching per folder and per file, so a tree of thousands of
 * files costs a few `stat` calls per folder. The same settings object is returned for every file a
 * config applies to (callers may group files by it).
 */
export class ConfigLookup {
  private readonly folders = new Map<string, Promise<string | undefined>>();
  private readonly files = new Map<string, Promise<ConfigFile>>();

  constructor(private readonly options: LookupOptions = {}) {}

  /**
   * The config file that applies to `path` (a file, or a folder when `isFolder`), or undefined when
   * none does. Throws a {@link SettingsError} for a config file that exists but cannot be used.
   */
  async forPath(path: string, isFolder = false): Promise<ConfigFile | undefined> {
    const cwd = this.options.cwd ?? process.cwd();
    if (this.options.explicit !== undefined) return this.load(resolve(cwd, this.options.explicit), cwd);
    if (this.options.lookup === false) return undefined;
    const dir = isFolder ? resolve(cwd, path) : dirname(resolve(cwd, path));
    let found = this.folders.get(dir);
    if (!found) {
      found = findConfigFile(dir);
      this.folders.set(dir, found);
    }
    const file = await found;
    return file === undefined ? undefined : this.load(file, dirname(file));
  }

  private load(path: string, base: string): Promise<ConfigFile> {
    let loaded = this.files.get(path);
    if (!loaded) {
      const adjust = this.options.adjust;
      loaded = readConfigFile(path, base).then((c) => (adjust ? { ...c, settings: adjust(c.settings) } : c));
      this.files.set(path, loaded);
    }
    return loaded;
  }

  /** Forgets every folder's answer and every file read (a config file was created, changed or removed). */
  clear(): void {
    this.folders.clear();
    this.files.clear();
  }
}
