// `overrides` in a `.writev-lint.json`: settings for some files only. Each entry names its files with
// gitignore-style patterns (the language of `exclude`), relative to the config file's folder; the entries
// that match a file change the settings they name, in order, so a later entry wins. Objects (`severity`,
// `languages`) merge key by key; lists replace. The CLI and the language server both get a file's
// settings through ConfigLookup, which applies them here.
import {
  parseSettings,
  SettingsError,
  type AnalyzerSettings,
  type SettingsIssue,
} from '../analyzer/settings';
import { excludeMatcher } from '../workspace/files';

/** One validated entry of `overrides`. */
export interface Override {
  /** Whether the entry applies to a file (by absolute path). */
  readonly matches: (path: string) => boolean;
  /** The settings it names, as written (no defaults filled in). */
  readonly settings: Readonly<Record<string, unknown>>;
}

/**
 * Why `pattern` would silently match nothing, or not what it says, or undefined when it is fine. The
 * `ignore` library drops such patterns without a word; a config file deserves one.
 */
export function patternProblem(pattern: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(pattern))
    return 'holds a control character (a line break would split it in two)';
  if (pattern.startsWith('#'))
    return 'starts with #, which makes a gitignore line a comment (write \\# for a name)';
  if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) return 'ends with a lone backslash, which escapes nothing';
  if (/(^|\/)\.\.(\/|$)/.test(pattern.replace(/^!/, '')))
    return 'has a .. segment; patterns are relative to the folder of the config file and cannot leave it';
  const classes = pattern.replace(/\\./g, '');
  const open = classes.indexOf('[');
  if (open !== -1 && classes.indexOf(']', open + 1) === -1) return 'has a [ without its closing ]';
  for (const m of classes.matchAll(/\[!?([^\]]*)\]/g)) {
    for (const r of m[1]!.matchAll(/(.)-(.)/g)) {
      if (r[1]! > r[2]!) return `has the range ${r[1]}-${r[2]}, which runs backwards and matches nothing`;
    }
  }
  return undefined;
}

/**
 * The `overrides` of a config file's raw settings (already checked against the schema), with matchers
 * relative to `base`. Throws a {@link SettingsError} naming `source` and each bad pattern's key path
 * (`overrides[1].files[0]`), or, when every pattern of an entry is negative, the entry's `files`.
 */
export function overridesOf(raw: unknown, base: string, source: string, prefix = ''): Override[] | undefined {
  const list = (raw as { overrides?: unknown } | undefined)?.overrides;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const at = (path: string) => (prefix ? `${prefix}.${path}` : path);
  const issues: SettingsIssue[] = [];
  const overrides = list.map((entry: Record<string, unknown>, i): Override => {
    const files = entry.files as string[];
    files.forEach((pattern, j) => {
      const problem = patternProblem(pattern);
      if (problem)
        issues.push({
          path: at(`overrides[${i}].files[${j}]`),
          message: `the pattern ${JSON.stringify(pattern)} ${problem}`,
        });
    });
    if (files.every((p) => p.startsWith('!')))
      issues.push({
        path: at(`overrides[${i}].files`),
        message: 'only negative patterns (!...): they match no file',
      });
    const { files: _files, ...settings } = entry;
    return { matches: excludeMatcher(base, files), settings };
  });
  if (issues.length > 0) throw new SettingsError(source, issues);
  return overrides;
}

/** `over` laid on `base`: objects merge key by key, anything else (lists, scalars) replaces. */
export function mergeSettings(
  base: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    const isObject = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v);
    merged[key] = isObject(below) && isObject(value) ? mergeSettings(below, value) : value;
  }
  return merged;
}

/**
 * The settings of a config file with its matching overrides applied, made once per set of matching
 * entries: files that match the same entries share one settings object (the CLI groups files by it).
 */
export class OverriddenSettings {
  private readonly made = new Map<string, AnalyzerSettings>();

  /**
   * `raw`: the config file's settings as written (its `overrides` are ignored here); `base`: its
   * settings without overrides; `adjust`: what the lookup does to every file's settings.
   */
  constructor(
    private readonly raw: Readonly<Record<string, unknown>>,
    private readonly overrides: readonly Override[],
    private readonly base: AnalyzerSettings,
    private readonly source: string,
    private readonly prefix: string,
    private readonly adjust: (settings: AnalyzerSettings) => AnalyzerSettings = (s) => s,
  ) {}

  /** The settings for the file at `path` (absolute): `base` when no entry matches it. */
  for(path: string): AnalyzerSettings {
    const matching = this.overrides.flatMap((o, i) => (o.matches(path) ? [i] : []));
    if (matching.length === 0) return this.base;
    const key = matching.join(',');
    let settings = this.made.get(key);
    if (!settings) {
      const { overrides: _overrides, ...own } = this.raw;
      const merged = matching.reduce((s, i) => mergeSettings(s, this.overrides[i]!.settings), own);
      settings = this.adjust(parseSettings(merged, { source: this.source, prefix: this.prefix }));
      this.made.set(key, settings);
    }
    return settings;
  }
}
