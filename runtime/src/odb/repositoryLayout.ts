import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RepositoryError } from './errors';
import { readRegularFile } from './regularFile';
import type { HashAlgorithm } from './objectId';

/** Where a repository keeps what the object reader needs, and how it names objects. */
export interface RepositoryLayout {
  /** The git directory (`.git` of a work tree, or the bare repository itself). */
  readonly gitDir: string;
  /** The `objects` directory (of the common directory, for a linked work tree). */
  readonly objectsDir: string;
  /** The hash that names objects (`extensions.objectFormat`, SHA-1 by default). */
  readonly algorithm: HashAlgorithm;
  /** `core.deltaBaseCacheLimit` in bytes, when the repository's config sets it. */
  readonly deltaBaseCacheLimit?: number;
}

/**
 * Finds the repository that `start` is in, as Git's discovery does: `start` or the nearest parent
 * that is a work tree (has `.git`, a directory or a `gitdir:` file) or is itself a git directory
 * (has `HEAD` and `objects`). Reads the repository format from its config.
 *
 * @throws {@link RepositoryError} `ENOTREPO` when there is none, `EUNSUPPORTED` for a format this
 * reader cannot read (repository format version above 1, an unknown object format).
 */
export function findRepository(start: string): RepositoryLayout {
  let dir = resolve(start);
  for (;;) {
    const gitDir = gitDirAt(dir);
    if (gitDir !== undefined) return layoutOf(gitDir);
    const parent = dirname(dir);
    if (parent === dir)
      throw new RepositoryError('ENOTREPO', resolve(start), 'not a git repository (or any parent)');
    dir = parent;
  }
}

/**
 * The largest `.git` link, `commondir` or config file read. Git's own config files are a few KiB;
 * the bound only stops a link to a device or a runaway file from being read without end.
 */
const MAX_SMALL_FILE_BYTES = 16 << 20;

/** The text of a small repository file (regular, bounded), or undefined when it does not exist. */
function readSmallFile(file: string): string | undefined {
  return readRegularFile(
    file,
    MAX_SMALL_FILE_BYTES,
    (problem) => new RepositoryError('ENOTREPO', file, problem),
  )?.toString('utf8');
}

/** The git directory `dir` is or holds, if any. */
function gitDirAt(dir: string): string | undefined {
  const dotGit = join(dir, '.git');
  const st = statSync(dotGit, { throwIfNoEntry: false });
  if (st?.isDirectory()) return dotGit;
  if (st !== undefined && !st.isDirectory()) {
    const text = readSmallFile(dotGit) ?? '';
    const match = /^gitdir: (.+?)\r?\n?$/.exec(text);
    if (!match) throw new RepositoryError('ENOTREPO', dotGit, 'is a file but not a "gitdir: <path>" link');
    return resolve(dir, match[1]!);
  }
  if (
    existsSync(join(dir, 'HEAD')) &&
    statSync(join(dir, 'objects'), { throwIfNoEntry: false })?.isDirectory()
  ) {
    return dir;
  }
  return undefined;
}

function layoutOf(gitDir: string): RepositoryLayout {
  // A linked work tree's git directory names the shared one in `commondir`.
  const commonFile = join(gitDir, 'commondir');
  const common = readSmallFile(commonFile);
  const commonDir = common === undefined ? gitDir : resolve(gitDir, common.trim());
  const configFile = join(commonDir, 'config');
  const configText = readSmallFile(configFile);
  const config = configText === undefined ? new Map<string, string>() : readConfig(configText);
  const version = Number(config.get('core.repositoryformatversion') ?? '0');
  if (version !== 0 && version !== 1) {
    throw new RepositoryError(
      'EUNSUPPORTED',
      configFile,
      `repository format version ${version} is not supported`,
    );
  }
  const format = version === 1 ? (config.get('extensions.objectformat') ?? 'sha1').toLowerCase() : 'sha1';
  if (format !== 'sha1' && format !== 'sha256') {
    throw new RepositoryError('EUNSUPPORTED', configFile, `object format ${format} is not supported`);
  }
  const limit = config.get('core.deltabasecachelimit');
  const layout: RepositoryLayout = { gitDir, objectsDir: join(commonDir, 'objects'), algorithm: format };
  return limit === undefined ? layout : { ...layout, deltaBaseCacheLimit: parseSize(limit, configFile) };
}

/** A git config size: an integer with an optional k, m or g suffix (powers of 1024). */
function parseSize(text: string, configFile: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(text.trim());
  if (!match)
    throw new RepositoryError(
      'EUNSUPPORTED',
      configFile,
      `bad size ${JSON.stringify(text)} for core.deltaBaseCacheLimit`,
    );
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[
    match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'
  ];
  return Number(match[1]) * scale;
}

/**
 * The `section.key` values of a git config file that the reader needs, lowercased keys, last one
 * wins. Subsections, includes and quoting beyond plain values are not needed for the two keys read.
 */
function readConfig(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (entry)
      values.set(`${section}.${entry[1]!.toLowerCase()}`, (entry[2] ?? 'true').replace(/\s*[#;].*$/, ''));
  }
  return values;
}
