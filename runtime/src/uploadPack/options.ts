/**
 * The server's command line and environment. Options win over the environment, which wins over
 * the defaults, so a deployment can set the environment once and a test can override per call.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CACHE_MAX_BYTES } from './packCache';
import type { WriteMode } from './packSender';
import { UsageError } from '../usageError';

/** Everything the server can be told. */
export interface UploadPackOptions {
  /** The repository to serve, as git passes it. */
  repository: string;
  /** Only the exact directory, no `.git` suffixes (`--strict`, as Git's upload-pack). */
  strict: boolean;
  /**
   * The pack cache folder: `'default'` (`<git dir>/writev-pack-cache`), a path, or `false` for none.
   */
  cacheDir: string | false;
  /** The cache's size bound in bytes. */
  cacheMaxBytes: number;
  /** How pkt-lines are written (see `WriteMode`). */
  writeMode: WriteMode;
  /** A command to run instead of `git pack-objects`, like `uploadpack.packObjectsHook`. */
  packObjectsHook?: string;
  /** A file to append a JSON line of timings to (start-up and streaming, for benchmarks). */
  timingFile?: string;
  /** The git namespace to serve (`GIT_NAMESPACE`; see gitnamespaces(7)); none when absent or empty. */
  namespace?: string;
  /** What the client asked for in `GIT_PROTOCOL` (`version=2` selects protocol v2). */
  protocol?: string;
  /** `--stateless-rpc`: one request, one answer, no advertisement (smart HTTP's POST). */
  statelessRpc: boolean;
  /** `--advertise-refs` (or `--http-backend-info-refs`): the advertisement alone (smart HTTP's GET). */
  advertiseRefs: boolean;
}

/** The command's synopsis, printed on a usage error. */
export const USAGE =
  'usage: writev-upload-pack [--strict] [--stateless-rpc] [--advertise-refs | --http-backend-info-refs]\n' +
  '                          [--no-cache | --cache-dir=<dir>] [--cache-max-bytes=<n>]\n' +
  '                          [--write-mode=batched|writev|writes] [--pack-objects-hook=<cmd>] <directory>\n' +
  'environment: WRITEV_UPLOAD_PACK_CACHE (a folder, or "off"), WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES,\n' +
  '             WRITEV_UPLOAD_PACK_WRITE_MODE, WRITEV_UPLOAD_PACK_HOOK, WRITEV_UPLOAD_PACK_TIMING;\n' +
  '             GIT_PROTOCOL (version=2 for protocol v2), GIT_NAMESPACE, GIT_CONFIG_* as git reads them\n';

const WRITE_MODES: readonly WriteMode[] = ['batched', 'writev', 'writes'];

function writeMode(value: string, from: string): WriteMode {
  if ((WRITE_MODES as readonly string[]).includes(value)) return value as WriteMode;
  throw new UsageError(`${from}: '${value}' is not one of ${WRITE_MODES.join(', ')}`);
}

function byteCount(value: string, from: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${from}: '${value}' is not a byte count`);
  return n;
}

function cacheSetting(value: string): string | false {
  return ['off', '0', 'false', 'no', ''].includes(value.toLowerCase()) ? false : value;
}

/** Rewords `node:util` parseArgs's complaints in the style of the other messages. */
function usageError(err: unknown): UsageError {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return new UsageError(`unknown option '${unknown[1]}'`);
  return new UsageError(message.split('. ')[0]!.replace(/^Option/, 'option'));
}

/**
 * Reads the command line (without `node` and the script) and the environment.
 * @throws {@link UsageError} for an unknown option, a bad value, or a missing directory.
 */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): UploadPackOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        strict: { type: 'boolean' },
        'stateless-rpc': { type: 'boolean' },
        'advertise-refs': { type: 'boolean' },
        'http-backend-info-refs': { type: 'boolean' },
        'no-cache': { type: 'boolean' },
        'cache-dir': { type: 'string' },
        'cache-max-bytes': { type: 'string' },
        'write-mode': { type: 'string' },
        'pack-objects-hook': { type: 'string' },
      },
    });
  } catch (err) {
    throw usageError(err);
  }
  const { values, positionals } = parsed;
  const options: UploadPackOptions = {
    repository: '',
    strict: values.strict ?? false,
    statelessRpc: values['stateless-rpc'] ?? false,
    advertiseRefs: (values['advertise-refs'] ?? false) || (values['http-backend-info-refs'] ?? false),
    cacheDir:
      env.WRITEV_UPLOAD_PACK_CACHE !== undefined ? cacheSetting(env.WRITEV_UPLOAD_PACK_CACHE) : 'default',
    cacheMaxBytes: env.WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES
      ? byteCount(env.WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES, 'WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES')
      : DEFAULT_CACHE_MAX_BYTES,
    writeMode: env.WRITEV_UPLOAD_PACK_WRITE_MODE
      ? writeMode(env.WRITEV_UPLOAD_PACK_WRITE_MODE, 'WRITEV_UPLOAD_PACK_WRITE_MODE')
      : 'batched',
  };
  const hook = values['pack-objects-hook'] ?? env.WRITEV_UPLOAD_PACK_HOOK;
  if (hook) options.packObjectsHook = hook;
  if (env.WRITEV_UPLOAD_PACK_TIMING) options.timingFile = env.WRITEV_UPLOAD_PACK_TIMING;
  if (env.GIT_NAMESPACE) options.namespace = env.GIT_NAMESPACE;
  if (env.GIT_PROTOCOL) options.protocol = env.GIT_PROTOCOL;
  if (values['cache-dir'] !== undefined) options.cacheDir = cacheSetting(values['cache-dir']);
  if (values['no-cache']) options.cacheDir = false;
  if (values['cache-max-bytes'] !== undefined) {
    options.cacheMaxBytes = byteCount(values['cache-max-bytes'], '--cache-max-bytes');
  }
  if (values['write-mode'] !== undefined) options.writeMode = writeMode(values['write-mode'], '--write-mode');
  if (positionals.length !== 1) throw new UsageError('exactly one <directory> is needed');
  options.repository = positionals[0]!;
  return options;
}

/**
 * The cache folder for a repository, or `undefined` when caching is off. The default is in the
 * common folder, so the linked worktrees of a repository share one cache.
 */
export function cacheDirFor(options: UploadPackOptions, commonDir: string): string | undefined {
  if (options.cacheDir === false) return undefined;
  return options.cacheDir === 'default' ? join(commonDir, 'writev-pack-cache') : options.cacheDir;
}
