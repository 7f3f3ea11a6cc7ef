// The analyzer's settings: what users can change (section `writev` in VS Code, or a `.writev-lint.json`
// file), typed, and the one function that turns untrusted input into them. What is valid and the
// defaults come from the schema in config/schema.ts; this file only gives them types.
import { defaultsOf, EDITOR_SETTINGS_SCHEMA, SETTINGS_SCHEMA } from '../config/schema';
import { depthIssue, SettingsError, validate } from '../config/validate';
import type { RuleCode, Severity } from './model';
import type { PresetName } from './presets';

export { SettingsError, type SettingsIssue } from '../config/validate';

/** An extra write function (settings `writev.writeFunctions`). */
export interface WriteFunctionSetting {
  /** Function name (C), or callee as written (TS/JS). */
  readonly name: string;
  readonly language: 'c' | 'ts';
  /** Argument indexes. `len` absent: C string (strlen) or TS buffer. */
  readonly fd: number;
  readonly buf: number;
  readonly len?: number;
  /** The gathered function to use in fixes; absent: hints without a quick fix. */
  readonly gatheredName?: string;
}

/** An extra wrapper (settings `writev.wrappers`): calls to `name` write argument `buf` to `fd`. */
export interface WrapperSetting {
  readonly name: string;
  readonly language: 'c' | 'ts';
  /** The descriptor expression the wrapper writes to, e.g. `out_fd` or `1`. */
  readonly fd: string;
  readonly buf: number;
  readonly len?: number;
}

/** Every setting the analyzer reads, complete. */
export interface AnalyzerSettings {
  readonly writeFunctions: readonly WriteFunctionSetting[];
  readonly wrappers: readonly WrapperSetting[];
  /** Shortest run of writes that is reported (default 2). */
  readonly minSequenceLength: number;
  readonly severity: {
    readonly adjacentWrites: Severity;
    readonly adjacentWritesUnknownFd: Severity;
    readonly loopWrites: Severity;
  };
  /**
   * Plain `write`/`send` runs on a descriptor whose kind the code does not show (a parameter, a member
   * set in another file): `report` them under `adjacent-writes-unknown-fd`, on the assumption that it
   * is a byte stream, or stay `quiet`. Descriptors shown to keep message boundaries stay quiet always.
   */
  readonly unknownDescriptors: 'report' | 'quiet';
  /** Rules whose severity is set to `off`: their findings are not reported (absent: none). */
  readonly off?: readonly RuleCode[];
  readonly languages: { readonly c: boolean; readonly typescript: boolean; readonly javascript: boolean };
  /** Gitignore-style patterns of files never analysed. */
  readonly exclude: readonly string[];
  /** C attribute-like macros read as whitespace before parsing (`NORETURN`, `MAYBE_UNUSED`...). */
  readonly attributeMacros: readonly string[];
  /** Report suppression comments that suppress nothing, and unknown codes in them. */
  readonly reportUnusedDirectives: boolean;
  /** With a trace: a line with at least `minCalls` calls of at most `maxAverageBytes` bytes is a hint. */
  readonly measuredWrites: { readonly minCalls: number; readonly maxAverageBytes: number };
  /**
   * C functions whose result is a byte-stream descriptor (a file, pipe or stream socket): plain
   * `write`/`send` calls on what they return may be gathered.
   */
  readonly streamFunctions: readonly string[];
  /**
   * Projects whose own helpers the user's code uses (`openssh`, `busybox`...): their write functions,
   * and which of their functions only read or do no output (presets.ts). None by default.
   */
  readonly presets: readonly PresetName[];
}

/** The defaults (the schema's): every language on, runs of two or more, warnings for sequences. */
export const DEFAULT_SETTINGS: AnalyzerSettings = defaultsOf(SETTINGS_SCHEMA) as AnalyzerSettings;

/** Where settings come from, for the paths and the source named in errors. */
export interface SettingsOrigin {
  /** Named first in every error: a file path, or a description ("the editor settings"). */
  readonly source: string;
  /** Put before every key path (`writev` for an editor's settings: `writev.minSequenceLength`). */
  readonly prefix?: string;
  /** The input is an editor's whole `writev` section, with the editor-only settings beside. */
  readonly editor?: boolean;
}

/**
 * Turns raw settings (the `writev` section of a client's configuration, or a config file's settings)
 * into complete {@link AnalyzerSettings}: missing values take the schema's defaults; anything else
 * the schema refuses (an unknown key, a wrong type) throws a {@link SettingsError} listing each
 * problem with its key path (`writev.writeFunctions[1].fd: expected a whole number, got "1"`). Does
 * not modify `raw`.
 */
export function parseSettings(
  raw: unknown,
  origin: SettingsOrigin = { source: 'settings', prefix: 'writev', editor: true },
): AnalyzerSettings {
  // Checked first: copying a value nested 100,000 levels deep would exhaust the stack.
  const deep = depthIssue(raw, origin.prefix);
  if (deep) throw new SettingsError(origin.source, [deep]);
  const data = raw === undefined || raw === null ? {} : structuredClone(raw);
  const schema = origin.editor ? EDITOR_SETTINGS_SCHEMA : SETTINGS_SCHEMA;
  const valid = validate<AnalyzerSettings>(schema, data, origin.source, origin.prefix);
  // `off` is a setting, not a severity a finding can have: the rule's findings are dropped instead
  // (Analyzer.inspect), and the severity keeps its default for the type's sake.
  const given = valid.severity as Record<string, Severity | 'off'>;
  const defaults = DEFAULT_SETTINGS.severity as Record<string, Severity>;
  const off: RuleCode[] = [];
  const severity: Record<string, Severity> = {};
  for (const [key, value] of Object.entries(given)) {
    // The key names the rule: `adjacentWritesUnknownFd` is `adjacent-writes-unknown-fd`.
    if (value === 'off') off.push(key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) as RuleCode);
    severity[key] = value === 'off' ? (defaults[key] as Severity) : value;
  }
  return {
    ...(off.length > 0 ? { off } : {}),
    writeFunctions: valid.writeFunctions,
    // Descriptors are compared as written without whitespace (`out_fd`, `ctx->fd`).
    wrappers: valid.wrappers.map((w) => ({ ...w, fd: w.fd.replace(/\s+/g, '') })),
    minSequenceLength: valid.minSequenceLength,
    severity: severity as unknown as AnalyzerSettings['severity'],
    languages: valid.languages,
    exclude: valid.exclude,
    attributeMacros: valid.attributeMacros,
    reportUnusedDirectives: valid.reportUnusedDirectives,
    measuredWrites: valid.measuredWrites,
    streamFunctions: valid.streamFunctions,
    unknownDescriptors: valid.unknownDescriptors,
    // Each preset once, in the order first named.
    presets: [...new Set(valid.presets)],
  };
}
