// The analyzer's settings: what users can change (section `writev` in VS Code), with defaults, and the
// one function that turns untrusted input (a client's configuration, a --config file) into them.
import type { Severity } from './model';

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
  readonly severity: { readonly adjacentWrites: Severity; readonly loopWrites: Severity };
  readonly languages: { readonly c: boolean; readonly typescript: boolean; readonly javascript: boolean };
  /** Gitignore-style patterns of files never analysed. */
  readonly exclude: readonly string[];
  /** C attribute-like macros read as whitespace before parsing (`NORETURN`, `MAYBE_UNUSED`...). */
  readonly attributeMacros: readonly string[];
  /**
   * C functions whose result is a byte-stream descriptor (a file, pipe or stream socket): plain
   * `write`/`send` calls on what they return may be gathered.
   */
  readonly streamFunctions: readonly string[];
}

/** The defaults: every language on, runs of two or more, warnings for sequences, information for loops. */
export const DEFAULT_SETTINGS: AnalyzerSettings = {
  writeFunctions: [],
  wrappers: [],
  minSequenceLength: 2,
  severity: { adjacentWrites: 'warning', loopWrites: 'information' },
  languages: { c: true, typescript: true, javascript: true },
  exclude: [],
  attributeMacros: [
    'NORETURN',
    'MAYBE_UNUSED',
    'UNUSED',
    '__maybe_unused',
    '__always_unused',
    '__cold',
    '__init',
    '__exit',
    '__must_check',
    '__always_inline',
    'noinline',
    '__noreturn',
  ],
  streamFunctions: [],
};

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

/** Thrown by {@link parseSettings} for input that is present but wrong, naming the setting. */
export class SettingsError extends Error {
  readonly code = 'EWRITEVSETTINGS';
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function index(value: unknown, where: string): number {
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new SettingsError(`${where}: expected an argument index (0, 1, ...), got ${JSON.stringify(value)}`);
  }
  return value as number;
}

function name(value: unknown, where: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z_$][\w$.]*$/.test(value)) {
    throw new SettingsError(`${where}: expected a function name, got ${JSON.stringify(value)}`);
  }
  return value;
}

function language(value: unknown, where: string): 'c' | 'ts' {
  if (value === undefined || value === 'c') return 'c';
  if (value === 'ts' || value === 'typescript' || value === 'javascript') return 'ts';
  throw new SettingsError(`${where}: language must be "c" or "ts", got ${JSON.stringify(value)}`);
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SettingsError(`${where}: expected a list`);
  return value;
}

function severity(value: unknown, fallback: Severity, where: string): Severity {
  if (value === undefined || value === null) return fallback;
  if (SEVERITIES.includes(value as Severity)) return value as Severity;
  throw new SettingsError(`${where}: expected one of ${SEVERITIES.join(', ')}, got ${JSON.stringify(value)}`);
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function strings(value: unknown, where: string): string[] {
  return list(value, where).map((item, i) => {
    if (typeof item !== 'string') throw new SettingsError(`${where}[${i}]: expected a string`);
    return item;
  });
}

/**
 * Turns raw settings (the `writev` section of a client's configuration, or a parsed --config file) into
 * complete {@link AnalyzerSettings}. Missing values take their defaults; wrong values throw a
 * {@link SettingsError} that names the setting (`writev.writeFunctions[1].fd: ...`).
 */
export function parseSettings(raw: unknown): AnalyzerSettings {
  const input = record(raw);
  const writeFunctions = list(input.writeFunctions, 'writev.writeFunctions').map((item, i) => {
    const where = `writev.writeFunctions[${i}]`;
    const entry = record(item);
    return {
      name: name(entry.name, `${where}.name`),
      language: language(entry.language, `${where}.language`),
      fd: index(entry.fd ?? 0, `${where}.fd`),
      buf: index(entry.buf ?? 1, `${where}.buf`),
      len: entry.len === undefined || entry.len === null ? undefined : index(entry.len, `${where}.len`),
      gatheredName:
        entry.gatheredName === undefined ? undefined : name(entry.gatheredName, `${where}.gatheredName`),
    };
  });
  const wrappers = list(input.wrappers, 'writev.wrappers').map((item, i) => {
    const where = `writev.wrappers[${i}]`;
    const entry = record(item);
    if (typeof entry.fd !== 'string' || entry.fd.trim() === '') {
      throw new SettingsError(`${where}.fd: expected the descriptor expression, e.g. "out_fd"`);
    }
    return {
      name: name(entry.name, `${where}.name`),
      language: language(entry.language, `${where}.language`),
      fd: entry.fd.replace(/\s+/g, ''),
      buf: index(entry.buf ?? 0, `${where}.buf`),
      len: entry.len === undefined || entry.len === null ? undefined : index(entry.len, `${where}.len`),
    };
  });
  const min = input.minSequenceLength;
  if (min !== undefined && min !== null && (!Number.isInteger(min) || (min as number) < 2)) {
    throw new SettingsError(
      `writev.minSequenceLength: expected an integer of 2 or more, got ${JSON.stringify(min)}`,
    );
  }
  const sev = record(input.severity);
  const langs = record(input.languages);
  return {
    writeFunctions,
    wrappers,
    minSequenceLength: (min as number | undefined) ?? DEFAULT_SETTINGS.minSequenceLength,
    severity: {
      adjacentWrites: severity(sev.adjacentWrites, 'warning', 'writev.severity.adjacentWrites'),
      loopWrites: severity(sev.loopWrites, 'information', 'writev.severity.loopWrites'),
    },
    languages: {
      c: flag(langs.c, true),
      typescript: flag(langs.typescript, true),
      javascript: flag(langs.javascript, true),
    },
    exclude: strings(input.exclude, 'writev.exclude'),
    attributeMacros:
      input.attributeMacros === undefined
        ? DEFAULT_SETTINGS.attributeMacros
        : strings(input.attributeMacros, 'writev.attributeMacros'),
    streamFunctions: strings(input.streamFunctions, 'writev.streamFunctions').map((n, i) =>
      name(n, `writev.streamFunctions[${i}]`),
    ),
  };
}
