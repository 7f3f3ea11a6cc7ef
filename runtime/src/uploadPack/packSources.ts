/**
 * Where the pack comes from: a cache entry, read through one reused buffer and framed without
 * copying, or a `git pack-objects` child whose output is relayed as it arrives (and kept in the
 * cache on the way). Either way the pack streams; it is never held whole in memory.
 */
import { spawn } from 'node:child_process';
import { closeSync, readSync } from 'node:fs';
import { UploadPackError } from './errors';
import type { CachedPack, PackCache, PackFill } from './packCache';
import { looksLikePack, PackChecksum } from './packChecksum';
import { readSizeFor, type PackSender } from './packSender';

/**
 * Reads the whole entry and checks its header and trailer hash, before anything is sent: a client
 * that received part of a bad pack would fail in its own words, or hang up before our message.
 */
function verifyEntry(entry: CachedPack, buffer: Buffer, objectFormat: 'sha1' | 'sha256'): string | undefined {
  const checksum = new PackChecksum(objectFormat);
  for (let at = 0; at < entry.size;) {
    const n = readSync(entry.fd, buffer, 0, Math.min(buffer.length, entry.size - at), at);
    if (n === 0) return `it ends at byte ${at} of ${entry.size}`;
    if (at === 0 && !looksLikePack(buffer.subarray(0, n))) return 'it does not start with a pack header';
    checksum.update(buffer.subarray(0, n));
    at += n;
  }
  return checksum.matches() ? undefined : 'its trailer does not match its contents';
}

/**
 * Streams a cache entry to the client through one reused buffer. A trusted entry (its stamp
 * matches) is sent as it is. Any other is first read through and hashed; if the hash matches it
 * is stamped and sent, otherwise it is removed and reported before a byte of it goes out.
 *
 * @throws {@link UploadPackError} for a corrupt entry.
 */
export function serveCachedPack(
  entry: CachedPack,
  cache: PackCache,
  sender: PackSender,
  objectFormat: 'sha1' | 'sha256',
): void {
  try {
    const buffer = Buffer.allocUnsafe(readSizeFor(sender.framing));
    if (!entry.trusted) {
      const problem = verifyEntry(entry, buffer, objectFormat);
      if (problem !== undefined) {
        cache.discard(entry);
        throw new UploadPackError(
          `cached pack ${entry.path} is corrupt (${problem}); removed it, fetch again`,
        );
      }
      cache.trust(entry);
    } else {
      cache.touch(entry);
    }
    for (let at = 0; at < entry.size;) {
      const n = readSync(entry.fd, buffer, 0, Math.min(buffer.length, entry.size - at), at);
      if (n === 0) throw new UploadPackError(`cached pack ${entry.path} shrank while it was served`);
      sender.data(buffer.subarray(0, n));
      sender.flush(); // the buffer is reused by the next read
      at += n;
    }
  } finally {
    closeSync(entry.fd);
  }
}

/** How to run pack-objects. */
export interface PackObjectsSpec {
  readonly gitDir: string;
  readonly wants: readonly string[];
  readonly common: readonly string[];
  readonly ofsDelta: boolean;
  readonly progress: boolean;
  /**
   * A command run instead of `git`, with `git pack-objects ...` as its arguments, like Git's
   * `uploadpack.packObjectsHook` (run through the shell).
   */
  readonly hook?: string;
}

/** The arguments of the pack-objects call, as Git's upload-pack makes it for these capabilities. */
export function packObjectsArgs(spec: PackObjectsSpec): string[] {
  const args = ['pack-objects', '--revs', '--stdout'];
  if (spec.progress) args.push('--progress');
  if (spec.ofsDelta) args.push('--delta-base-offset');
  return args;
}

/**
 * Runs pack-objects and relays its output: stdout as pack data (and into `fill`, when caching),
 * stderr as progress. Resolves when the pack is complete; the fill is committed only then.
 *
 * @throws {@link UploadPackError} when pack-objects fails, dies of a signal or cannot start (the
 *   fill is dropped); the client's own write errors (a `BrokenPipeError`) pass through unchanged.
 */
export function runPackObjects(
  spec: PackObjectsSpec,
  sender: PackSender,
  fill: PackFill | undefined,
): Promise<void> {
  const args = packObjectsArgs(spec);
  const [file, argv] = spec.hook
    ? ['sh', ['-c', `${spec.hook} "$@"`, spec.hook, 'git', ...args]]
    : ['git', args];
  const child = spawn(file, argv, {
    cwd: spec.gitDir,
    env: { ...process.env, GIT_DIR: spec.gitDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let failure: unknown;
  const guard =
    (relay: (chunk: Buffer) => void) =>
    (chunk: Buffer): void => {
      if (failure !== undefined) return;
      try {
        relay(chunk);
      } catch (err) {
        // The client went away or its descriptor failed: stop producing a pack nobody reads.
        failure = err;
        child.kill('SIGTERM');
      }
    };
  child.stdout.on(
    'data',
    guard((chunk) => {
      sender.data(chunk);
      sender.flush();
      fill?.write(chunk);
    }),
  );
  child.stderr.on(
    'data',
    guard((chunk) => {
      sender.progress(chunk);
      sender.flush();
    }),
  );
  // pack-objects may exit before reading all of its input (it failed): that is reported by its
  // exit status, not by this EPIPE.
  child.stdin.on('error', () => undefined);
  child.stdin.end([...spec.wants, '--not', ...spec.common, ''].join('\n'));
  return new Promise((resolve, reject) => {
    const fail = (err: unknown): void => {
      fill?.abandon();
      reject(err);
    };
    child.on('error', (err) =>
      fail(new UploadPackError(`cannot run ${file}: ${err.message}`, { cause: err })),
    );
    child.on('close', (code, signal) => {
      if (failure !== undefined) return fail(failure);
      if (signal !== null) return fail(new UploadPackError(`git pack-objects died of signal ${signal}`));
      if (code !== 0) return fail(new UploadPackError(`git pack-objects failed with exit status ${code}`));
      fill?.commit();
      resolve();
    });
  });
}
