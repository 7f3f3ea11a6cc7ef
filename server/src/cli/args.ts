// Command-line arguments of writev-lint.

/** Output formats. */
export type Format = 'text' | 'json' | 'sarif' | 'github';

/** What the command line asked for. */
export interface CliOptions {
  readonly paths: readonly string[];
  readonly format: Format;
  readonly fix: boolean;
  readonly config?: string;
  /** Worker threads; undefined: as many as the machine has cores, for large inputs. */
  readonly jobs?: number;
  /** Exit 0 even with findings (for demos and reports); usage and I/O errors still exit 2. */
  readonly exitZero: boolean;
  readonly help: boolean;
  /** A writev-trace file whose measurements join the findings. */
  readonly trace?: string;
}

/** A command line that cannot be run (exit status 2). */
export class UsageError extends Error {
  readonly code = 'EUSAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The help text. */
export const USAGE = `usage: writev-lint [paths...] [--format text|json|sarif|github] [--fix] [--config file] [--jobs n] [--exit-zero]

Finds write sequences that one gathered write (writev) could replace, in C and TS/JS files.
Paths are files or folders (default: .); folders are walked, skipping what .gitignore ignores.

  --format   text (default): file:line:col: warning: message [code]
             json, sarif (SARIF 2.1.0 for code scanning), github (workflow annotations)
  --fix      apply every safe fix in place, then report what remains
  --config   a JSON file with the settings of the "writev" section (or {"writev": {...}})
  --jobs     worker threads (default: one per core for large trees; 1 runs in this thread)
  --exit-zero  exit 0 even when there are findings
  --trace    a writev-trace.json: findings carry the calls and bytes measured at their writes, are
             ordered by them, and hot traced lines no rule flagged are reported (measured-writes)

Exit status: 0 no findings, 1 findings, 2 usage or I/O error.`;

const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'github'];

/** Parses `argv` (without node and the script). Throws {@link UsageError} naming the bad argument. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const paths: string[] = [];
  let format: Format = 'text';
  let fix = false;
  let config: string | undefined;
  let jobs: number | undefined;
  let help = false;
  let exitZero = false;
  let trace: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--format': {
        const f = value();
        if (!FORMATS.includes(f as Format))
          throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${f}"`);
        format = f as Format;
        break;
      }
      case '--fix':
        fix = true;
        break;
      case '--config':
        config = value();
        break;
      case '--jobs': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--jobs must be a whole number of 1 or more`);
        jobs = n;
        break;
      }
      case '--trace':
        trace = value();
        break;
      case '--exit-zero':
        exitZero = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
        paths.push(arg);
    }
  }
  return { paths: paths.length > 0 ? paths : ['.'], format, fix, config, jobs, exitZero, help, trace };
}
