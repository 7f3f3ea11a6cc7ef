// writev-lint: the code-review face of the analyzer. Finds the files, lints them in two passes (the
// second only where a wrapper from another file is called), optionally fixes, prints, exits 0/1/2.
import { DEFAULT_SETTINGS, SettingsError, type AnalyzerSettings, type FileWrappers } from '../index';
import { ConfigLookup } from '../config/configFile';
import { parseArgs, USAGE, UsageError, type CliOptions } from './args';
import { collect } from './collect';
import { formatGithub, formatJson, formatText } from './formats';
import type { FileResult, LintJob } from './lintFile';
import { LintPool } from './pool';
import { sarifLog } from './sarif';

/** Where the CLI writes; tests pass their own. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const processOutput: Output = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** How each file's settings are found: --config, the nearest .writev-lint.json, or the defaults. */
function configLookup(options: CliOptions, cwd: string): ConfigLookup | undefined {
  if (options.noConfigLookup && options.config === undefined && !options.reportUnusedDirectives)
    return undefined;
  return new ConfigLookup({
    explicit: options.config,
    lookup: !options.noConfigLookup,
    cwd,
    adjust: options.reportUnusedDirectives ? (s) => ({ ...s, reportUnusedDirectives: true }) : undefined,
  });
}

/**
 * Lints with the options given. Files take `settings`, or where `lookup` finds a config file for
 * them, its settings. Exposed for the benchmark.
 */
export async function lint(
  options: Pick<CliOptions, 'paths' | 'fix' | 'jobs'>,
  settings: AnalyzerSettings,
  lookup?: ConfigLookup,
): Promise<FileResult[]> {
  const { files, groups } = await collect(options.paths, settings, lookup);
  const pool = new LintPool(options.jobs);
  // Each pass runs once per group of files sharing settings (one group unless config files differ).
  const pass = async (job: Omit<LintJob, 'settings'>) => {
    const results: FileResult[] = [];
    for (const [groupSettings, group] of groups)
      results.push(...(await pool.run(group, { ...job, settings: groupSettings })));
    return results;
  };
  try {
    const first = await pass({ fix: false });
    const index: [string, FileWrappers][] = first
      .filter((r) => r.wrappers && (r.wrappers.c.length > 0 || r.wrappers.ts.length > 0))
      .map((r) => [r.path, r.wrappers as FileWrappers]);
    const names = [
      ...new Set(
        index.flatMap(([, w]) => [
          ...w.c.filter((x) => x.exported).map((x) => x.name),
          ...w.ts.filter((x) => x.exported).map((x) => x.name),
        ]),
      ),
    ];
    const byPath = new Map(first.map((r) => [r.path, r]));
    if (names.length > 0 || options.fix) {
      // Second pass: files that call a wrapper defined elsewhere (or all, to fix them) with the index.
      const second = await pass({
        fix: options.fix,
        index,
        names: options.fix ? undefined : names,
      });
      for (const r of second) byPath.set(r.path, r);
    }
    return files.map((f) => byPath.get(f) as FileResult);
  } finally {
    await pool.close();
  }
}

function version(): string {
  try {
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** Runs writev-lint with `argv`; resolves to the exit status (0 clean, 1 findings, 2 usage or I/O error). */
export async function main(
  argv: readonly string[],
  output: Output = processOutput,
  cwd = process.cwd(),
): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
    if (options.help) {
      output.out(`${USAGE}\n`);
      return 0;
    }
    const fallback = options.reportUnusedDirectives
      ? { ...DEFAULT_SETTINGS, reportUnusedDirectives: true }
      : DEFAULT_SETTINGS;
    const results = await lint(options, fallback, configLookup(options, cwd));
    const errors = results.filter((r) => r.error);
    for (const r of errors) output.err(`writev-lint: ${r.error}\n`);
    if (options.format === 'text') output.out(formatText(results, cwd));
    else if (options.format === 'json') output.out(formatJson(results, cwd));
    else if (options.format === 'github') output.out(formatGithub(results, cwd));
    else output.out(`${JSON.stringify(sarifLog(results, cwd, version()), null, 2)}\n`);
    const count = results.reduce((n, r) => n + r.findings.length, 0);
    const fixed = results.filter((r) => r.fixed).length;
    if (options.format === 'text') {
      output.err(
        `writev-lint: ${count} finding${count === 1 ? '' : 's'} in ${results.length} files${fixed ? `, ${fixed} files fixed` : ''}\n`,
      );
    }
    if (errors.length > 0) return 2;
    return count > 0 && !options.exitZero ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof SettingsError) {
      // One line per problem (a config file may have several), each led by the tool's name.
      const lines = error.message.split('\n').map((line) => `writev-lint: ${line}\n`);
      output.err(`${lines.join('')}${argv.length === 0 ? `${USAGE}\n` : ''}`);
      return 2;
    }
    output.err(`writev-lint: ${(error as Error).stack ?? String(error)}\n`);
    return 2;
  }
}
