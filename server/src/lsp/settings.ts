// Settings per resource, read from the client with `workspace/configuration` (section `writev`) and
// cached until the client says they changed.
import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, parseSettings, type AnalyzerSettings } from '../index';

/** Caches the `writev` settings per document URI. */
export class SettingsCache {
  private readonly cache = new Map<string, Promise<AnalyzerSettings>>();

  /**
   * `pull` is false when the client cannot answer `workspace/configuration`: then every document gets
   * the last pushed settings (or the defaults).
   */
  constructor(
    private readonly connection: Connection,
    private pull: boolean,
    private global: AnalyzerSettings = DEFAULT_SETTINGS,
  ) {}

  /** The settings for `uri` (asked once, then cached). Invalid settings are reported and the defaults used. */
  get(uri: string): Promise<AnalyzerSettings> {
    if (!this.pull) return Promise.resolve(this.global);
    let found = this.cache.get(uri);
    if (!found) {
      found = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'writev' }).then(
        (raw: unknown) => this.parse(raw, uri),
        (error: unknown) => {
          this.connection.console.warn(`writev: could not read settings for ${uri}: ${String(error)}`);
          return DEFAULT_SETTINGS;
        },
      );
      this.cache.set(uri, found);
    }
    return found;
  }

  private parse(raw: unknown, where: string): AnalyzerSettings {
    try {
      return parseSettings(raw);
    } catch (error) {
      this.connection.window.showWarningMessage(
        `writev: ${(error as Error).message} (settings for ${where}); using the defaults.`,
      );
      return DEFAULT_SETTINGS;
    }
  }

  /** Forgets everything cached (configuration changed); `pushed` is the new global section, if sent. */
  reset(pushed?: unknown): void {
    this.cache.clear();
    if (!this.pull && pushed !== undefined) this.global = this.parse(pushed, 'the workspace');
  }

  /** Forgets one document's settings (closed). */
  drop(uri: string): void {
    this.cache.delete(uri);
  }
}
