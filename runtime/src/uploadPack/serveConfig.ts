/**
 * The configuration a serve depends on (hide rules, the `uploadpack.*` switches, the settings that
 * shape packs), as the installed git reads it: system, global, repository and worktree files and
 * the command-line settings in the environment (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`...).
 *
 * Git's answer is kept in a memo in the pack cache folder, so a fetch the cache answers still
 * starts no git process. The memo's key is everything the answer is made of: the environment that
 * chooses and adds configuration, and the bytes of every file git may read (present or not). An
 * answer that came from anywhere else (an `include.path` or `includeIf`, whose targets and
 * conditions are not in the key, or a file outside the known places) is not memoized: such a
 * repository asks git on every serve.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { UploadPackError } from './errors';
import { parseHideRules, type HideRule } from './hideRefs';
import { memoPath, readMemo, writeMemo } from './memoFile';
import type { WantAllowance } from './negotiation';

/** The memo's first line, with the format's version. */
const MEMO_MAGIC = 'writev-upload-pack config memo v1';

/** The environment variables that choose or add configuration (besides the numbered pairs). */
const CONFIG_VARIABLES = [
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_GLOBAL',
  'HOME',
  'XDG_CONFIG_HOME',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'PATH',
];

/** One setting as git lists it: the key with section and name in lower case. */
export interface ConfigEntry {
  readonly key: string;
  /** `null` for a key written without `=` (which git reads as true for a boolean). */
  readonly value: string | null;
  /** Where git read it: `file:<path>`, `command line:`, ... */
  readonly origin: string;
}

/** The settings of one serve. */
export class ServeConfig {
  constructor(readonly entries: readonly ConfigEntry[]) {}

  /** Every value of `key` (lower case section and name), in the order git read them. */
  values(key: string): (string | null)[] {
    return this.entries.filter((e) => e.key === key).map((e) => e.value);
  }

  /**
   * The last value of a boolean `key` as git reads booleans, or `fallback` when it is not set.
   * @throws {@link UploadPackError} for a value that is not a boolean, as git refuses it.
   */
  bool(key: string, fallback: boolean): boolean {
    const entry = this.entries.filter((e) => e.key === key).at(-1);
    return entry === undefined ? fallback : this.parseBool(entry);
  }

  /**
   * One setting's value as git reads a boolean.
   * @throws {@link UploadPackError} for a value that is not a boolean, as git refuses it.
   */
  parseBool(entry: ConfigEntry): boolean {
    const { key, value } = entry;
    if (value === null) return true;
    const lower = value.toLowerCase();
    if (['true', 'yes', 'on'].includes(lower)) return true;
    if (['false', 'no', 'off', ''].includes(lower)) return false;
    if (/^-?\d+$/.test(value)) return Number(value) !== 0;
    throw new UploadPackError(`bad boolean config value '${value}' for '${key}'`);
  }

  /**
   * Which unadvertised objects clients may want: `uploadpack.allowTipSHA1InWant`,
   * `allowReachableSHA1InWant` and `allowAnySHA1InWant` (which sets or clears all three), applied
   * in the order git read them.
   * @throws {@link UploadPackError} for a value that is not a boolean.
   */
  wantAllowance(): WantAllowance {
    let tip = false;
    let reachable = false;
    let any = false;
    for (const entry of this.entries) {
      const key = entry.key;
      if (key === 'uploadpack.allowtipsha1inwant') tip = this.parseBool(entry);
      else if (key === 'uploadpack.allowreachablesha1inwant') reachable = this.parseBool(entry);
      else if (key === 'uploadpack.allowanysha1inwant') tip = reachable = any = this.parseBool(entry);
    }
    return { tip, reachable, any };
  }

  /**
   * The hide rules for upload-pack: `transfer.hideRefs` and `uploadpack.hideRefs` values in the
   * order read.
   * @throws {@link UploadPackError} for a value-less entry, as git refuses it.
   */
  hideRules(): HideRule[] {
    const values: string[] = [];
    for (const entry of this.entries) {
      if (entry.key !== 'transfer.hiderefs' && entry.key !== 'uploadpack.hiderefs') continue;
      if (entry.value === null) throw new UploadPackError(`missing value for '${entry.key}'`);
      values.push(entry.value);
    }
    return parseHideRules(values);
  }

  /**
   * A digest of the settings that change the bytes `git pack-objects` writes (`pack.*`, the
   * compression levels, the big-file threshold), for the pack cache's key.
   */
  packDigest(): string {
    const lines = this.entries
      .filter(
        (e) =>
          e.key.startsWith('pack.') ||
          e.key === 'core.compression' ||
          e.key === 'core.bigfilethreshold' ||
          e.key === 'core.deltabasecachelimit',
      )
      .map((e) => `${e.key}=${e.value ?? '<none>'}`);
    return createHash('sha256').update(lines.join('\n')).digest('hex');
  }
}

/** Parses `git config --list -z --show-origin`. */
export function parseConfigList(text: string): ConfigEntry[] {
  const fields = text.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!;
    const record = fields[i + 1]!;
    const newline = record.indexOf('\n');
    entries.push(
      newline < 0
        ? { key: record, value: null, origin }
        : { key: record.slice(0, newline), value: record.slice(newline + 1), origin },
    );
  }
  return entries;
}

/** The first `git` on `PATH`, resolved, or `undefined`. */
function gitOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      const path = realpathSync(join(dir, 'git'));
      if (statSync(path).isFile()) return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The files git may read configuration from for this repository, present or not. */
export function configFiles(gitDir: string, commonDir: string, env: NodeJS.ProcessEnv): string[] {
  const files = [join(commonDir, 'config'), join(gitDir, 'config.worktree')];
  if (env.GIT_CONFIG_SYSTEM) files.push(resolve(env.GIT_CONFIG_SYSTEM));
  else {
    files.push('/etc/gitconfig');
    // A git built with another prefix reads <prefix>/etc/gitconfig.
    const git = gitOnPath(env);
    if (git) files.push(join(dirname(dirname(git)), 'etc', 'gitconfig'));
  }
  if (env.GIT_CONFIG_GLOBAL) files.push(resolve(env.GIT_CONFIG_GLOBAL));
  else if (env.HOME) {
    files.push(join(env.HOME, '.gitconfig'));
    files.push(join(env.XDG_CONFIG_HOME || join(env.HOME, '.config'), 'git', 'config'));
  } else if (env.XDG_CONFIG_HOME) files.push(join(env.XDG_CONFIG_HOME, 'git', 'config'));
  return [...new Set(files)];
}

/**
 * A configuration file's bytes, following links as git does but never blocking on a FIFO:
 * `undefined` when absent, empty for `/dev/null` (`GIT_CONFIG_GLOBAL=/dev/null`), `false` when it
 * is something else or cannot be read (then no memo is kept).
 */
function readConfigFile(path: string): Buffer | undefined | false {
  if (path === '/dev/null') return Buffer.alloc(0);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT' || (err as { code?: string }).code === 'ENOTDIR'
      ? undefined
      : false;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : false;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The memo key of the configuration's current state, or `undefined` when it cannot be computed. */
export function configFingerprint(
  gitDir: string,
  commonDir: string,
  env: NodeJS.ProcessEnv,
): { key: string; files: string[] } | undefined {
  const hash = createHash('sha256').update(`${MEMO_MAGIC}\n${gitDir}\n${commonDir}\n`);
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  const names = [...CONFIG_VARIABLES];
  for (let i = 0; Number.isSafeInteger(count) && i < Math.min(count, 1000); i++) {
    names.push(`GIT_CONFIG_KEY_${i}`, `GIT_CONFIG_VALUE_${i}`);
  }
  for (const name of names) hash.update(`${name}=${JSON.stringify(env[name] ?? null)}\n`);
  const files = configFiles(gitDir, commonDir, env);
  for (const file of files) {
    const bytes = readConfigFile(file);
    if (bytes === false) return undefined;
    hash.update(`${file} ${bytes?.length ?? -1}\n`);
    if (bytes) hash.update(bytes);
  }
  return { key: hash.digest('hex'), files };
}

/** Whether an answer came only from the fingerprinted files and the environment. */
function memoizable(entries: readonly ConfigEntry[], files: readonly string[]): boolean {
  return entries.every((e) => {
    if (e.key.startsWith('include.') || e.key.startsWith('includeif.')) return false;
    if (e.origin === 'command line:') return true;
    if (!e.origin.startsWith('file:')) return false;
    const path = e.origin.slice('file:'.length);
    return files.includes(isAbsolute(path) ? path : resolve(path));
  });
}

/**
 * The configuration for a serve: from the memo in `cacheDir` when its key matches, else from
 * `ask` (which runs `git config --list -z --show-origin`), remembered when that is exact.
 */
export async function readServeConfig(
  gitDir: string,
  commonDir: string,
  cacheDir: string | undefined,
  ask: () => Promise<string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServeConfig> {
  const fingerprint = cacheDir === undefined ? undefined : configFingerprint(gitDir, commonDir, env);
  if (cacheDir === undefined || fingerprint === undefined)
    return new ServeConfig(parseConfigList(await ask()));
  const path = memoPath(cacheDir, 'config', gitDir);
  const head = `${MEMO_MAGIC}\n${fingerprint.key}\n`;
  const memo = readMemo(path, head);
  if (memo !== undefined) return new ServeConfig(parseConfigList(memo));
  const answer = await ask();
  const entries = parseConfigList(answer);
  // A file that changed while git read it: the answer may be of either state, so keep no memo.
  if (
    memoizable(entries, fingerprint.files) &&
    configFingerprint(gitDir, commonDir, env)?.key === fingerprint.key
  ) {
    writeMemo(cacheDir, path, head, answer);
  }
  return new ServeConfig(entries);
}
