// Settings per resource. A `.writev-lint.json` above the file wins (the same lookup as writev-lint's,
// so the editor shows what CI reports); otherwise the client's `writev` section, read with
// `workspace/configuration` and cached until the client says it changed.
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, parseSettings, SettingsError, type AnalyzerSettings } from '../index';
import { ConfigLookup, type ConfigFile } from '../config/configFile';
import { URI } from './uri';

/** The settings of a resource, and the config file they came from, if any. */
export interface ResolvedSettings {
  readonly settings: AnalyzerSettings;
  /** The `.writev-lint.json` that applied; undefined: the editor's settings. */
  readonly file?: string;
  /** The folder `exclude` is relative to when a config file applied. */
  readonly base?: string;
}

/** Caches the settings per document URI (and per folder). */
export class SettingsCache {
  private readonly cache = new Map<string, Promise<ResolvedSettings>>();
  private readonly lookup: ConfigLookup;
  /** Config files already named in the log (or their error shown) since the last reset. */
  private readonly announced = new Set<string>();

  /**
   * `pull` is false when the client cannot answer `workspace/configuration`: then every document gets
   * the last pushed settings (or the defaults).
   */
  constructor(
    private readonly connection: Connection,
    private pull: boolean,
    workspaceRoot: (dir: string) => string | undefined,
    private global: AnalyzerSettings = DEFAULT_SETTINGS,
  ) {
    // The lookup stops at the repository root, or at the workspace folder outside a repository; a
    // file outside both takes only a config file beside it.
    this.lookup = new ConfigLookup({ lookup: true, workspaceRoot });
  }

  /** The settings for `uri` (a document, or a folder when `folder`); see {@link SettingsCache.resolve}. */
  async get(uri: string, folder = false): Promise<AnalyzerSettings> {
    return (await this.resolve(uri, folder)).settings;
  }

  /**
   * The settings for `uri`: from the nearest `.writev-lint.json` when there is one (a file that
   * cannot be used is reported once, and the editor's settings apply meanwhile), else the client's
   * (asked once, then cached; invalid ones are reported and the defaults used).
   */
  resolve(uri: string, folder = false): Promise<ResolvedSettings> {
    const key = folder ? `${uri}#folder` : uri;
    let found = this.cache.get(key);
    if (!found) {
      found = this.fromConfigFile(uri, folder).then(async (config) =>
        config
          ? { settings: config.settings, file: config.path, base: config.base }
          : { settings: await this.fromClient(uri) },
      );
      this.cache.set(key, found);
    }
    return found;
  }

  /** The config file that applies to the file at `path`, if any (for files not open in the editor). */
  configFor(path: string): Promise<ConfigFile | undefined> {
    return this.fromConfigFile(URI.fromPath(path), false);
  }

  private async fromConfigFile(uri: string, folder: boolean): Promise<ConfigFile | undefined> {
    const file = URI.parse(uri);
    if (!file) return undefined;
    // A name whose bytes are not UTF-8 is looked up from the folder holding it, when that decodes.
    const from = file.exact ? file.path : folder ? undefined : file.folder;
    if (from === undefined) return undefined;
    try {
      const config = await this.lookup.forPath(from, folder || !file.exact);
      if (config && !this.announced.has(config.path)) {
        this.announced.add(config.path);
        this.connection.console.log(
          `writev: settings from ${config.path} for the files under ${config.base} (a .writev-lint.json wins over the editor's writev settings)`,
        );
      }
      return config;
    } catch (caught) {
      // Anything else that goes wrong is reported the same way, for the file being resolved: the
      // settings cache must never reject, or every request for the document would fail.
      const error =
        caught instanceof SettingsError
          ? caught
          : new SettingsError(from, [
              { path: '', message: `cannot look up its settings: ${String(caught)}` },
            ]);
      if (!this.announced.has(error.source)) {
        this.announced.add(error.source);
        this.connection.console.warn(`writev: ${error.message}`);
        this.warn(
          `writev: ${error.message.split('\n').join('; ')} (using the editor's settings until it is fixed)`,
        );
      }
      return undefined;
    }
  }

  private fromClient(uri: string): Promise<AnalyzerSettings> {
    if (!this.pull) return Promise.resolve(this.global);
    return this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'writev' }).then(
      (raw: unknown) => this.parse(raw, uri),
      (error: unknown) => {
        this.connection.console.warn(`writev: could not read settings for ${uri}: ${String(error)}`);
        return DEFAULT_SETTINGS;
      },
    );
  }

  private parse(raw: unknown, where: string): AnalyzerSettings {
    try {
      return parseSettings(raw, {
        source: `the editor settings for ${where}`,
        prefix: 'writev',
        editor: true,
      });
    } catch (error) {
      this.warn(`writev: ${(error as Error).message.split('\n').join('; ')}; using the defaults.`);
      return DEFAULT_SETTINGS;
    }
  }

  /** Shows a warning (a notification: it needs no answer, and a client that cannot show it loses nothing). */
  private warn(message: string): void {
    void this.connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Warning,
      message,
    });
  }

  /** Forgets everything cached (configuration changed); `pushed` is the new global section, if sent. */
  reset(pushed?: unknown): void {
    this.cache.clear();
    this.lookup.clear();
    this.announced.clear();
    if (!this.pull && pushed !== undefined) this.global = this.parse(pushed, 'the workspace');
  }

  /** Forgets one document's settings (closed). */
  drop(uri: string): void {
    this.cache.delete(uri);
  }
}
