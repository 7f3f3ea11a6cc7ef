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
 * Streams a cache entry to the client. A trusted entry (its stamp matches) is sent as it is; any
 * other is hashed on the way with its trailer held back, and sent only if the hash matches, after
 * which it is stamped. A corrupt entry is removed and reported.
 *
 * @throws {@link UploadPackError} for a corrupt entry (nothing of the trailer was sent, so the
 *   client cannot mistake the pack for complete).
 */
export function serveCachedPack(
  entry: CachedPack,
  cache: PackCache,
  sender: PackSender,
  objectFormat: 'sha1' | 'sha256',
): void {
  try {
    const trailerSize = objectFormat === 'sha256' ? 32 : 20;
    const checksum = entry.trusted ? undefined : new PackChecksum(objectFormat);
    const buffer = Buffer.allocUnsafe(readSizeFor(sender.framing));
    // An untrusted entry's trailer is held back until the hash of everything before it is known.
    const sendable = entry.trusted ? entry.size : Math.max(0, entry.size - trailerSize);
    let at = 0;
    let first = true;
    const corrupt = (why: string): UploadPackError => {
      cache.discard(entry);
      return new UploadPackError(`cached pack ${entry.path} is corrupt (${why}); removed it, fetch again`);
    };
    while (at < entry.size) {
      const limit = at < sendable ? sendable - at : entry.size - at;
      const n = readSync(entry.fd, buffer, 0, Math.min(buffer.length, limit), at);
      if (n === 0) throw corrupt(`it ends at byte ${at} of ${entry.size}`);
      const chunk = buffer.subarray(0, n);
      if (first && !looksLikePack(chunk)) throw corrupt('it does not start with a pack header');
      first = false;
      checksum?.update(chunk);
      if (at >= sendable && checksum && !checksum.matches()) {
        throw corrupt('its trailer does not match its contents');
      }
      sender.data(chunk);
      sender.flush(); // the buffer is reused by the next read
      at += n;
    }
    if (checksum) cache.trust(entry);
    else cache.touch(entry);
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
