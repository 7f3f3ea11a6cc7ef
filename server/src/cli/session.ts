// What one writev-lint process keeps from one lint run to the next: the cache of results (--cache),
// the threads and their loaded analyzers (a --watch round reuses them), and what the last run did,
// which --watch summarizes and WRITEV_LINT_DEBUG=cache prints.
import type { CliOptions } from './args';
import { cacheFilePath, ResultCache, toolIdentity } from './cache';
import type { LintPool } from './pool';

/** What a lint run did with its files. */
export interface RunCounts {
  /** Files linted (found by the walk or named). */
  readonly files: number;
  /** Files whose results came from the cache, unread by the analyzer. */
  readonly fromCache: number;
  /** Analyses run: each parses one file (a file can be analysed in both passes). */
  readonly analysed: number;
  /** Findings reported, once the review (select, baseline, diff) kept its share. */
  findings?: number;
}

/** What one run, or the rounds of a watch, share. */
export interface LintSession {
  /** Results kept between runs (--cache) or, in a watch without it, between rounds in memory. */
  readonly cache?: ResultCache;
  /** Threads kept between rounds; a run without one starts its own and ends it. */
  readonly pool?: LintPool;
  /** Hears what each run did. */
  counted(counts: RunCounts): void;
  /** The counts of the last run. */
  readonly last?: RunCounts;
}

/** Whether `WRITEV_LINT_DEBUG` (a comma-separated list, like DEBUG) asks for `topic`. */
export function debugs(topic: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.WRITEV_LINT_DEBUG ?? '').split(',').some((t) => t.trim() === topic || t.trim() === '*');
}

/**
 * The session of a run with `options`: its cache loaded when --cache asks (warnings go to `warn`),
 * and with WRITEV_LINT_DEBUG=cache each run's counts written to `warn` too. `version` is the tool's.
 */
export function openSession(
  options: Pick<CliOptions, 'cache' | 'cacheLocation' | 'watch'>,
  cwd: string,
  warn: (line: string) => void,
  version: string,
  pool?: LintPool,
): LintSession {
  const cache = options.cache
    ? ResultCache.load(cacheFilePath(options.cacheLocation, cwd), toolIdentity(version), warn)
    : options.watch
      ? ResultCache.inMemory()
      : undefined;
  const debug = debugs('cache');
  const session: LintSession & { last?: RunCounts } = {
    cache,
    pool,
    counted(counts) {
      session.last = counts;
      if (debug)
        warn(
          `debug: ${counts.files} file${counts.files === 1 ? '' : 's'}: ${counts.fromCache} from the cache, ${counts.analysed} analysed`,
        );
    },
  };
  return session;
}
