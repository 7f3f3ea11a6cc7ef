/**
 * The server's command line and environment. Options win over the environment, which wins over
 * the defaults, so a deployment can set the environment once and a test can override per call.
 */
import { join } from 'node:path';
import { DEFAULT_CACHE_MAX_BYTES } from './packCache';
import type { WriteMode } from './packSender';

/** Everything the server can be told. */
export interface UploadPackOptions {
  /** The repository to serve, as git passes it. */
  repository: string;
  /** Only the exact directory, no `.git` suffixes (`--strict`, as Git's upload-pack). */
  strict: boolean;
  /**
   * The pack cache folder: `'default'` (`<git dir>/writev-pack-cache`), a path, or `false` for none.
   */
  cacheDir: string | false | 'default';
  /** The cache's size bound in bytes. */
  cacheMaxBytes: number;
  /** How pkt-lines are written (see `WriteMode`). */
  writeMode: WriteMode;
  /** A command to run instead of `git pack-objects`, like `uploadpack.packObjectsHook`. */
  packObjectsHook?: string;
  /** A file to append a JSON line of timings to (start-up and streaming, for benchmarks). */
  timingFile?: string;
}

/** The command's synopsis, printed on a usage error. */
export const USAGE =
  'usage: writev-upload-pack [--strict] [--no-cache | --cache-dir=<dir>] [--cache-max-bytes=<n>]\n' +
  '                          [--write-mode=batched|writev|write] [--pack-objects-hook=<cmd>] <directory>\n' +
  'environment: WRITEV_UPLOAD_PACK_CACHE (a folder, or "off"), WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES,\n' +
  '             WRITEV_UPLOAD_PACK_WRITE_MODE, WRITEV_UPLOAD_PACK_HOOK, WRITEV_UPLOAD_PACK_TIMING\n';

/** A command line that cannot be used; the message says what is wrong. */
export class UsageError extends Error {
  /** Always `'ERR_USAGE'`. */
  readonly code = 'ERR_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const WRITE_MODES: readonly WriteMode[] = ['batched', 'writev', 'write'];

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

/**
 * Reads the command line (without `node` and the script) and the environment.
 * @throws {@link UsageError} for an unknown option, a bad value, or a missing directory.
 */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): UploadPackOptions {
  const options: UploadPackOptions = {
    repository: '',
    strict: false,
    cacheDir:
      env.WRITEV_UPLOAD_PACK_CACHE !== undefined ? cacheSetting(env.WRITEV_UPLOAD_PACK_CACHE) : 'default',
    cacheMaxBytes: env.WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES
      ? byteCount(env.WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES, 'WRITEV_UPLOAD_PACK_CACHE_MAX_BYTES')
      : DEFAULT_CACHE_MAX_BYTES,
    writeMode: env.WRITEV_UPLOAD_PACK_WRITE_MODE
      ? writeMode(env.WRITEV_UPLOAD_PACK_WRITE_MODE, 'WRITEV_UPLOAD_PACK_WRITE_MODE')
      : 'batched',
  };
  if (env.WRITEV_UPLOAD_PACK_HOOK) options.packObjectsHook = env.WRITEV_UPLOAD_PACK_HOOK;
  if (env.WRITEV_UPLOAD_PACK_TIMING) options.timingFile = env.WRITEV_UPLOAD_PACK_TIMING;
  const positional: string[] = [];
  for (const arg of argv) {
    const [name, value] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (name === '--strict') options.strict = true;
    else if (name === '--no-cache') options.cacheDir = false;
    else if (name === '--cache-dir' && value !== undefined) options.cacheDir = cacheSetting(value);
    else if (name === '--cache-max-bytes' && value !== undefined)
      options.cacheMaxBytes = byteCount(value, name);
    else if (name === '--write-mode' && value !== undefined) options.writeMode = writeMode(value, name);
    else if (name === '--pack-objects-hook' && value !== undefined) options.packObjectsHook = value;
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError('exactly one <directory> is needed');
  options.repository = positional[0]!;
  return options;
}

/** The cache folder for a repository, or `undefined` when caching is off. */
export function cacheDirFor(options: UploadPackOptions, gitDir: string): string | undefined {
  if (options.cacheDir === false) return undefined;
  return options.cacheDir === 'default' ? join(gitDir, 'writev-pack-cache') : options.cacheDir;
}
