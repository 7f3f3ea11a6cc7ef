import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { RepositoryError } from './errors';
import { readRegularFile } from './regularFile';

/** How deep alternates may refer to further alternates, as in Git. */
const MAX_DEPTH = 5;

/**
 * The largest alternates file read: a line per borrowed directory, so 1 MiB is thousands of
 * paths; beyond it the file is not one Git wrote.
 */
const MAX_ALTERNATES_BYTES = 1 << 20;

/**
 * The object directories `objectsDir` borrows from through `info/alternates`, recursively and in
 * order, each once (`objectsDir` itself excluded). A line is a path, absolute or relative to the
 * object directory that lists it, optionally C-quoted; blank lines and `#` comments are skipped.
 *
 * @throws {@link RepositoryError} `ENOTREPO` naming the alternates file for a listed directory that
 * does not exist (objects would otherwise look missing), for a chain deeper than Git allows, or
 * for an alternates file that is not a regular file or is larger than 1 MiB.
 */
export function readAlternates(objectsDir: string): string[] {
  const seen = new Set<string>([realpathSync(objectsDir)]);
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    const file = join(dir, 'info', 'alternates');
    const content = readRegularFile(
      file,
      MAX_ALTERNATES_BYTES,
      (problem) => new RepositoryError('ENOTREPO', file, problem),
    );
    if (content === undefined) return;
    if (depth >= MAX_DEPTH)
      throw new RepositoryError('ENOTREPO', file, `alternates nested deeper than ${MAX_DEPTH}`);
    for (const raw of content.toString('utf8').split('\n')) {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#')) continue;
      const path = line.startsWith('"') ? unquote(line, file) : line;
      const target = isAbsolute(path) ? path : resolve(dir, path);
      if (!statSync(target, { throwIfNoEntry: false })?.isDirectory()) {
        throw new RepositoryError('ENOTREPO', file, `alternate object directory ${target} does not exist`);
      }
      const real = realpathSync(target);
      if (seen.has(real)) continue;
      seen.add(real);
      found.push(target);
      visit(target, depth + 1);
    }
  };
  visit(objectsDir, 0);
  return found;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Undoes Git's C-style quoting of a path ("...", with backslash escapes and octal bytes). */
function unquote(line: string, file: string): string {
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(line);
  if (!match) throw new RepositoryError('ENOTREPO', file, `badly quoted alternate ${line}`);
  const bytes: number[] = [];
  const body = Buffer.from(match[1]!, 'utf8');
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== 0x5c) {
      bytes.push(body[i]!);
      continue;
    }
    // The pattern lets no backslash end the text: a byte always follows it.
    const next = String.fromCharCode(body[++i]!);
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.toString('latin1', i, i + 3), 8));
      i += 2;
    } else {
      bytes.push((ESCAPES[next] ?? next).charCodeAt(0));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
