// Command-line arguments of writev-lint: one table of options (what node:util's parseArgs needs plus the
// help text), parsed by parseArgs, then checked and turned into CliOptions.
import { parseArgs as parseNodeArgs } from 'node:util';
import { UsageError } from '@writev/runtime/dist/usageError';
import { RULE_CODES } from '../analyzer/model';

/** Output formats. */
export type Format =
  'text' | 'concise' | 'full' | 'json' | 'sarif' | 'github' | 'rdjson' | 'junit' | 'gitlab' | 'checkstyle';

const FORMATS: readonly Format[] = [
  'text',
  'concise',
  'full',
  'json',
  'sarif',
  'github',
  'rdjson',
  'junit',
  'gitlab',
  'checkstyle',
];

/** Every code a finding can have, for --select and --ignore. */
export const CODES = [...RULE_CODES, 'unused-directive', 'measured-writes'] as const;

/** A finding's code. */
export type Code = (typeof CODES)[number];

/** One option: its parseArgs type, a short letter if any, the value's name in the help, the help line. */
interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly value?: string;
  readonly help: string;
}

/**
 * Every option of writev-lint, in the order the help lists them. Adding an option is one entry here, a
 * field in {@link CliOptions} and one line in {@link parseArgs}.
 */
export const OPTIONS = {
  format: {
    type: 'string',
    value: 'name',
    help: 'text (the default: full), concise (one line a finding), full (with the source line and a caret), json, sarif (SARIF 2.1.0), github (workflow annotations), rdjson (reviewdog), junit, gitlab (Code Quality), checkstyle',
  },
  select: {
    type: 'string',
    value: 'codes',
    help: `report only these codes (comma-separated: ${CODES.join(', ')})`,
  },
  ignore: { type: 'string', value: 'codes', help: 'do not report these codes (comma-separated)' },
  'output-file': {
    type: 'string',
    value: 'file',
    help: 'write the report to this file instead of standard output (replaced whole, never partly)',
  },
  statistics: { type: 'boolean', help: 'print the number of findings per code instead of the findings' },
  fix: {
    type: 'boolean',
    help: 'apply every safe fix in place, then report what remains ([*] marks a finding --fix fixes)',
  },
  'unsafe-fixes': {
    type: 'boolean',
    help: 'with --fix or --diff, apply the unsafe fixes too (they move a statement or change a failure path)',
  },
  diff: {
    type: 'boolean',
    help: 'print what --fix would change as a unified diff (git apply, patch -p1), change nothing; exit 1 when there is a diff',
  },
  config: {
    type: 'string',
    value: 'file',
    help: 'settings of the "writev" section (or {"writev": {...}}) for every file; without it, each file takes the nearest .writev-lint.json above it',
  },
  'no-config-lookup': {
    type: 'boolean',
    help: 'do not look for .writev-lint.json files (defaults, or --config)',
  },
  'no-respect-gitignore': {
    type: 'boolean',
    help: 'read what git and .gitignore files ignore too (exclude settings still apply)',
  },
  'report-unused-directives': {
    type: 'boolean',
    help: 'report writev-lint-disable comments that suppress nothing',
  },
  quiet: { type: 'boolean', short: 'q', help: 'report errors and warnings only (no information or hints)' },
  'max-warnings': {
    type: 'string',
    value: 'n',
    help: 'exit 1 only for errors or more than n other findings',
  },
  'exit-zero': { type: 'boolean', help: 'exit 0 even when there are findings' },
  'exit-non-zero-on-fix': {
    type: 'boolean',
    help: 'with --fix, exit 1 when a file was fixed, even if no finding remains',
  },
  'diff-base': {
    type: 'string',
    value: 'rev',
    help: 'report only findings with a write on a line added or changed since rev (git diff)',
  },
  baseline: {
    type: 'string',
    value: 'file',
    help: 'report only findings not recorded in this baseline file',
  },
  'update-baseline': { type: 'boolean', help: 'record every current finding in the --baseline file' },
  stdin: { type: 'boolean', help: 'lint the text on standard input (--fix prints the fixed text)' },
  'stdin-filename': { type: 'string', value: 'name', help: 'the name (and language) of the --stdin text' },
  trace: {
    type: 'string',
    value: 'file',
    help: 'a writev-trace.json: findings carry the calls and bytes measured at their writes, ordered by them; hot traced lines no rule flagged are reported (measured-writes)',
  },
  cache: {
    type: 'boolean',
    help: 'keep results between runs and analyse again only files whose content, settings or facts from other files changed',
  },
  'cache-location': {
    type: 'string',
    value: 'path',
    help: 'the cache file, or a folder to keep it in (default: .writev-lint-cache in the working folder)',
  },
  watch: { type: 'boolean', help: 'lint again whenever a file is saved, until Ctrl-C' },
  jobs: {
    type: 'string',
    value: 'n',
    help: 'threads (default: one per core for large trees; on two cores, only while one is idle)',
  },
  'max-file-size': {
    type: 'string',
    value: 'size',
    help: 'skip (and report) files larger than this: bytes, or with K, M, G (default 4M)',
  },
  explain: {
    type: 'string',
    value: 'code',
    help: 'print what a code finds, an example and a link to its documentation, then exit',
  },
  version: { type: 'boolean', help: 'print the version' },
  help: { type: 'boolean', short: 'h', help: 'print this help' },
} as const satisfies Record<string, OptionSpec>;

/** What the command line asked for. */
export interface CliOptions {
  readonly paths: readonly string[];
  readonly format: Format;
  /** Apply fixes (--fix, or --diff, which computes them without writing). */
  readonly fix: boolean;
  /** Apply unsafe fixes too (--unsafe-fixes), and mark their findings fixable. */
  readonly unsafeFixes: boolean;
  /** Print the fixes as a unified diff instead of applying them (--diff). */
  readonly diff: boolean;
  readonly config?: string;
  /** Files larger than this many bytes are skipped and reported (default: the analyzer's limit). */
  readonly maxFileSize?: number;
  /** Do not look for `.writev-lint.json` files (--no-config-lookup). */
  readonly noConfigLookup: boolean;
  /** Walk folders without git's ignore rules (--no-respect-gitignore). */
  readonly noRespectGitignore: boolean;
  /** Report suppression comments that suppress nothing (--report-unused-directives). */
  readonly reportUnusedDirectives: boolean;
  /** Worker threads; undefined: as many as the machine has cores, for large inputs. */
  readonly jobs?: number;
  /** Exit 0 even with findings (for demos and reports); usage and I/O errors still exit 2. */
  readonly exitZero: boolean;
  /** With --fix: exit 1 when a file was fixed, though no finding remains (--exit-non-zero-on-fix). */
  readonly exitNonZeroOnFix: boolean;
  /** Drop findings of severity information and hint. */
  readonly quiet: boolean;
  /** With a number: findings that are not errors make the exit status 1 only when there are more. */
  readonly maxWarnings?: number;
  /** A git revision: only findings with a write on a line changed since it are reported. */
  readonly diffBase?: string;
  readonly baseline?: string;
  readonly updateBaseline: boolean;
  /** Lint standard input, reported as `stdinFilename`. */
  readonly stdin: boolean;
  readonly stdinFilename?: string;
  readonly version: boolean;
  readonly help: boolean;
  /** Print this code's documentation instead of linting (--explain). */
  readonly explain?: Code;
  /** A writev-trace file whose measurements join the findings. */
  readonly trace?: string;
  /** Only these codes are reported (--select); undefined: every code. */
  readonly select?: readonly Code[];
  /** These codes are not reported (--ignore). */
  readonly ignore: readonly Code[];
  /** The report goes to this file, not standard output (--output-file). */
  readonly outputFile?: string;
  /** Counts per code instead of the findings (--statistics). */
  readonly statistics: boolean;
  /** Keep results between runs (--cache), in `cacheLocation` (a file, or a folder to hold it). */
  readonly cache: boolean;
  readonly cacheLocation?: string;
  /** Lint again on every save until interrupted (--watch). */
  readonly watch: boolean;
}

// The one UsageError of every writev bin; writev-lint exits with status 2 on it.
export { UsageError };

function helpLines(): string {
  const rows = Object.entries(OPTIONS).map(([name, spec]: [string, OptionSpec]): [string, string] => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` <${spec.value}>` : ''}`;
    return [flag, spec.help];
  });
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`).join('\n');
}

/** The help text. */
export const USAGE = `usage: writev-lint [options] [paths...]
       writev-lint --stdin --stdin-filename <name> [options]

Finds write sequences that one gathered write (writev) could replace, in C and TS/JS files.
Paths are files or folders (default: .); folders are walked, skipping what git ignores (never a tracked file).

${helpLines()}

Exit status: 0 no findings, 1 findings, 2 usage or I/O error.`;

/** The node:util parseArgs options of the table. */
function nodeOptions(): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  return Object.fromEntries(
    Object.entries(OPTIONS).map(([name, spec]: [string, OptionSpec]) => [
      name,
      spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
    ]),
  );
}

/** parseArgs' own errors, reworded to name the option as the user typed it. */
function usageErrorOf(error: Error & { code?: string }): UsageError {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${option ?? error.message}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        /argument missing/.test(error.message) ? `${option} needs a value` : `${option} takes no value`,
      );
    default:
      return new UsageError(error.message);
  }
}

function wholeNumber(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min)
    throw new UsageError(`${flag} must be a whole number of ${min} or more, not "${text}"`);
  return n;
}

function nonEmpty(flag: string, text: string | undefined): string | undefined {
  if (text === '') throw new UsageError(`${flag} needs a value`);
  return text;
}

/** A size in bytes, optionally with K, M or G (binary multiples). Throws {@link UsageError} naming `flag`. */
export function parseSize(flag: string, text: string): number {
  const match = /^(\d+)([KMG]?)$/i.exec(text);
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(match?.[2] ?? '').toUpperCase()] ?? 1;
  const bytes = match ? Number(match[1]) * scale : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(
      `${flag} must be a size in bytes (a whole number, optionally with K, M or G), not "${text}"`,
    );
  return bytes;
}

/** A comma-separated list of codes; throws {@link UsageError} naming an unknown one and the known ones. */
function codesOf(flag: string, text: string | undefined): Code[] | undefined {
  if (text === undefined) return undefined;
  const codes = text.split(',').map((c) => c.trim());
  for (const code of codes) {
    if (!(CODES as readonly string[]).includes(code))
      throw new UsageError(`${flag}: unknown code "${code}" (the codes are ${CODES.join(', ')})`);
  }
  return codes as Code[];
}

/** One code, for --explain; throws {@link UsageError} for an unknown one or a list. */
function oneCode(flag: string, text: string | undefined): Code | undefined {
  const codes = codesOf(flag, text);
  if (codes !== undefined && codes.length > 1)
    throw new UsageError(`${flag} takes one code, not ${codes.length}`);
  return codes?.[0];
}

function sizeOf(flag: string, text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseSize(flag, text);
}

/** Parses `argv` (without node and the script). Throws {@link UsageError} naming the bad argument. */
export function parseArgs(argv: readonly string[]): CliOptions {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({ args: [...argv], options: nodeOptions(), allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorOf(error as Error);
  }
  const v = parsed.values;
  const text = (name: keyof typeof OPTIONS) => nonEmpty(`--${name}`, v[name] as string | undefined);
  const flag = (name: keyof typeof OPTIONS) => v[name] === true;

  const format = (text('format') ?? 'text') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  const options: CliOptions = {
    paths: parsed.positionals.length > 0 ? parsed.positionals : ['.'],
    format,
    // --diff fixes in memory only, as ruff's --diff implies --fix-only.
    fix: flag('fix') || flag('diff'),
    unsafeFixes: flag('unsafe-fixes'),
    diff: flag('diff'),
    config: text('config'),
    noConfigLookup: flag('no-config-lookup'),
    noRespectGitignore: flag('no-respect-gitignore'),
    reportUnusedDirectives: flag('report-unused-directives'),
    jobs: wholeNumber('--jobs', text('jobs'), 1),
    maxFileSize: sizeOf('--max-file-size', text('max-file-size')),
    exitZero: flag('exit-zero'),
    exitNonZeroOnFix: flag('exit-non-zero-on-fix'),
    quiet: flag('quiet'),
    maxWarnings: wholeNumber('--max-warnings', text('max-warnings'), 0),
    diffBase: text('diff-base'),
    baseline: text('baseline'),
    updateBaseline: flag('update-baseline'),
    stdin: flag('stdin'),
    stdinFilename: text('stdin-filename'),
    version: flag('version'),
    help: flag('help'),
    explain: oneCode('--explain', text('explain')),
    trace: text('trace'),
    select: codesOf('--select', text('select')),
    ignore: codesOf('--ignore', text('ignore')) ?? [],
    outputFile: text('output-file'),
    statistics: flag('statistics'),
    cache: flag('cache'),
    cacheLocation: text('cache-location'),
    watch: flag('watch'),
  };
  if (options.explain !== undefined && parsed.positionals.length > 0)
    throw new UsageError(
      `--explain prints a code's documentation: no paths (got ${parsed.positionals.join(' ')})`,
    );
  if (options.updateBaseline && !options.baseline)
    throw new UsageError('--update-baseline needs --baseline <file> to know where to write');
  if (options.fix && (options.diffBase || options.baseline))
    throw new UsageError(
      `${options.diff ? '--diff' : '--fix'} cannot be combined with --diff-base or --baseline: it fixes every finding`,
    );
  if (options.diff && (options.updateBaseline || options.statistics || options.outputFile !== undefined))
    throw new UsageError(
      '--diff prints a diff to standard output: no --update-baseline, --statistics or --output-file',
    );
  if (options.exitNonZeroOnFix && (!flag('fix') || options.diff))
    throw new UsageError(
      '--exit-non-zero-on-fix is for --fix (--diff exits 1 whenever there is a diff already)',
    );
  if (options.exitNonZeroOnFix && options.exitZero)
    throw new UsageError('--exit-non-zero-on-fix and --exit-zero ask for opposite exit statuses');
  if (options.stdin && !options.stdinFilename)
    throw new UsageError('--stdin needs --stdin-filename <name> (the name says the language)');
  if (!options.stdin && options.stdinFilename) throw new UsageError('--stdin-filename is only for --stdin');
  if (options.stdin && parsed.positionals.length > 0)
    throw new UsageError(`--stdin reads standard input: no paths (got ${parsed.positionals.join(' ')})`);
  if (options.stdin && options.updateBaseline)
    throw new UsageError('--update-baseline records a whole tree, not standard input');
  if (options.cacheLocation !== undefined && !options.cache)
    throw new UsageError('--cache-location says where --cache keeps its results: add --cache');
  if (options.stdin && (options.cache || options.watch))
    throw new UsageError(
      `--${options.cache ? 'cache' : 'watch'} is for files: --stdin has none to keep or watch`,
    );
  return options;
}
