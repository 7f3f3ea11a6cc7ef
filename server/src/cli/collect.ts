// The files writev-lint reads and the settings of each: folders walked (gitignore and `exclude`
// respected), each file under the nearest .writev-lint.json above it, or --config, or the defaults.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AnalyzerSettings } from '../analyzer/settings';
import type { ConfigFile, ConfigLookup } from '../config/configFile';
import { excludeMatcher, sourceFiles, type WalkOptions } from '../workspace/files';
import { UsageError } from './args';
import type { FileResult } from './lintFile';

/** The files to lint, grouped by the settings that apply to them (one group per config file). */
export interface Collected {
  readonly files: readonly string[];
  readonly groups: ReadonlyMap<AnalyzerSettings, readonly string[]>;
  /** What the walk had to leave out (unreadable folders, FIFOs), as results that say why. */
  readonly skipped: readonly FileResult[];
}

/**
 * Collects the files of `paths`: named files as they are, folders walked. Files without a config file
 * take `fallback` (its `exclude` relative to each walked folder). Throws a UsageError for a missing
 * path, and the lookup's SettingsError for a config file that cannot be used. `found` hears the
 * number of files found so far and the one just found, as the walk goes; `walk` says how git's
 * ignore rules apply, and who hears of ignored folders of sources.
 */
export async function collect(
  paths: readonly string[],
  fallback: AnalyzerSettings,
  lookup: ConfigLookup | undefined,
  found?: (files: number, path: string) => void,
  walk: WalkOptions = {},
): Promise<Collected> {
  const settingsOf = new Map<string, AnalyzerSettings>();
  const skipped: FileResult[] = [];
  const onSkip = (path: string, reason: string) =>
    skipped.push({ path, findings: [], lines: 0, skipped: reason });
  const matchers = new Map<ConfigFile, (path: string) => boolean>();
  const excludedBy = (config: ConfigFile, path: string) => {
    let match = matchers.get(config);
    if (!match) {
      match = excludeMatcher(config.base, config.settings.exclude);
      matchers.set(config, match);
    }
    return match(path);
  };
  for (const p of paths) {
    const abs = resolve(p);
    const info = await stat(abs).catch(() => undefined);
    if (!info) {
      // Node decodes the command line as UTF-8: the bytes of a Latin-1 name are lost before we see it.
      const hint = p.includes('\ufffd')
        ? ' (the name as given is not valid UTF-8, and writev-lint opens files by UTF-8 names: rename it to lint it)'
        : '';
      throw new UsageError(`no such file or folder: ${p}${hint}`);
    }
    if (!info.isDirectory()) {
      // A file named on the command line is linted even where `exclude` would skip it in a walk.
      settingsOf.set(abs, (await lookup?.forPath(abs))?.settings ?? fallback);
      found?.(settingsOf.size, abs);
      continue;
    }
    const root = await lookup?.forPath(abs, true);
    const exclude = root ? (path: string) => excludedBy(root, path) : fallback.exclude;
    for await (const file of sourceFiles(abs, exclude, undefined, onSkip, walk)) {
      const config = await lookup?.forPath(file);
      // A config file deeper in the tree has its own `exclude`, relative to its folder.
      if (config && config !== root && excludedBy(config, file)) continue;
      settingsOf.set(file, config?.settings ?? fallback);
      found?.(settingsOf.size, file);
    }
  }
  const groups = new Map<AnalyzerSettings, string[]>();
  for (const [file, settings] of settingsOf) {
    const group = groups.get(settings);
    if (group) group.push(file);
    else groups.set(settings, [file]);
  }
  return { files: [...settingsOf.keys()], groups, skipped };
}
