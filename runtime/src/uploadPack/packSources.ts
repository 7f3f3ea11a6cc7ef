/**
 * Where the pack comes from: a cache entry, read through two buffers (one filled on the thread pool
 * while the other is written) and framed without copying, or a `git pack-objects` child whose output is relayed as it arrives (and kept in the
 * cache on the way). Either way the pack streams; it is never held whole in memory.
 */
import { closeSync, read, readSync } from 'node:fs';
import { writeOrDie } from '../orDie';
import { gitChildEnv, serveEnv } from './childEnv';
import { UploadPackError } from './errors';
import type { CachedPack, PackCache, PackFill } from './packCache';
import { looksLikePack, PackChecksum } from './packChecksum';
import { readSizeFor, type PackSender } from './packSender';

/**
 * The backpressure of an output that is not a descriptor (an HTTP response: writing to it never
 * blocks, it queues), and the serve's cancellation. Over a descriptor the write itself blocks and
 * no flow is needed.
 */
export interface OutputFlow {
  /** Whether the output holds more unsent bytes than it should before more are given to it. */
  readonly congested: boolean;
  /** Resolves once the output has room again, or is gone (the next write then fails). */
  drained(): Promise<void>;
  /** Aborted when nobody is left to read the answer: pack-objects is stopped at once. */
  readonly signal?: AbortSignal;
}

/**
 * Reads the whole entry and checks its header and trailer hash, before anything is sent: a client
 * that received part of a bad pack would fail in its own words, or hang up before our message.
 *
 * @returns what is wrong with it, or `undefined` when it is a whole pack.
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

/** `pread` on the thread pool: the main thread meanwhile writes the previous chunk. */
function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, length, position, (err, n) => (err ? reject(err) : resolve(n)));
  });
}

/**
 * Streams `size` bytes of `fd` to the client, reading ahead: while one buffer's packets are
 * written (one gathered write, blocking the main thread), the next chunk is read into the other
 * buffer on the thread pool, so reading and writing proceed on two cores as Git's
 * `uploadpack.packObjectsHook` process does beside upload-pack. Reads done between writes on one
 * thread were a large part of serving a cached pack into a drained pipe (the profile is in the
 * CHANGELOG).
 */
async function streamAhead(
  fd: number,
  size: number,
  sender: PackSender,
  path: string,
  flow: OutputFlow | undefined,
): Promise<void> {
  const chunk = readSizeFor(sender.framing);
  const buffers = [Buffer.allocUnsafe(Math.min(chunk, size)), Buffer.allocUnsafe(Math.min(chunk, size))];
  // The first chunk is read at once: nothing could overlap it.
  let ahead = Promise.resolve(readSync(fd, buffers[0]!, 0, Math.min(chunk, size), 0));
  for (let at = 0, which = 0; at < size; which ^= 1) {
    const n = await ahead;
    if (n === 0) throw new UploadPackError(`cached pack ${path} shrank while it was served`);
    const next = at + n;
    if (next < size) ahead = readAt(fd, buffers[which ^ 1]!, Math.min(chunk, size - next), next);
    try {
      sender.data(buffers[which]!.subarray(0, n));
      sender.flush(); // the other buffer is being filled; this one is reused after the next await
      // A sink that queues (a slow HTTP client) is let drain first: at most a chunk or two of the
      // pack waits in memory, never the whole of it.
      if (flow?.congested) await flow.drained();
    } catch (err) {
      // Let the read in flight finish before the descriptor is closed under it.
      await ahead.catch(() => undefined);
      throw err;
    }
    at = next;
  }
}

/**
 * Serves a cache entry. A trusted entry (its stamp matches) is sent as it is. Any other is first
 * read through and hashed; if the hash matches it is stamped and sent. A corrupt one is reported
 * through the cache's warnings and removed (when it is the cache's own), and nothing of it is sent:
 * the caller serves the request without the cache.
 *
 * @returns whether the entry was served.
 * @throws {@link UploadPackError} when the entry shrinks while it streams; the client's write
 *   errors pass through unchanged.
 */
export async function serveCachedPack(
  entry: CachedPack,
  cache: PackCache,
  sender: PackSender,
  objectFormat: 'sha1' | 'sha256',
  flow?: OutputFlow,
): Promise<boolean> {
  try {
    if (!entry.trusted) {
      const problem = verifyEntry(entry, Buffer.allocUnsafe(readSizeFor(sender.framing)), objectFormat);
      if (problem !== undefined) {
        const removed = cache.discard(entry);
        cache.report(`cached pack ${entry.path} is corrupt (${problem})${removed ? '; removed it' : ''}`);
        return false;
      }
      cache.trust(entry);
    } else {
      cache.touch(entry);
    }
    await streamAhead(entry.fd, entry.size, sender, entry.path, flow);
    return true;
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
  readonly thin?: boolean;
  readonly includeTag?: boolean;
  /** The object filter (`--filter=`), canonical as the cache key holds it. */
  readonly filter?: string;
  readonly progress: boolean;
  /**
   * The shallow boundary, when the client is or becomes shallow: pack-objects then ignores the
   * repository's own shallow file (`--shallow-file ''`), packs for a shallow client (`--shallow`)
   * and stops at these commits (a `--shallow <oid>` line each), as git's upload-pack runs it.
   */
  readonly shallows?: readonly string[];
  /** Commits the client has without their parents (unshallowed ones): uninteresting, after the haves. */
  readonly edges?: readonly string[];
  /**
   * A command run instead of `git`, with `git pack-objects ...` as its arguments, like Git's
   * `uploadpack.packObjectsHook` (run through the shell).
   */
  readonly hook?: string;
}

/** The arguments of the pack-objects call, as Git's upload-pack makes it for these capabilities. */
export function packObjectsArgs(spec: PackObjectsSpec): string[] {
  const args = spec.shallows ? ['--shallow-file', '', 'pack-objects', '--revs'] : ['pack-objects', '--revs'];
  if (spec.thin) args.push('--thin');
  args.push('--stdout');
  if (spec.shallows) args.push('--shallow');
  if (spec.progress) args.push('--progress');
  if (spec.ofsDelta) args.push('--delta-base-offset');
  if (spec.includeTag) args.push('--include-tag');
  if (spec.filter !== undefined) args.push(`--filter=${spec.filter}`);
  return args;
}

/**
 * What pack-objects reads, in git's upload-pack's order: the shallow commits, the wants, `--not`,
 * the common objects and the edges, and an empty line.
 */
export function packObjectsInput(spec: PackObjectsSpec): string {
  const shallows = (spec.shallows ?? []).map((oid) => `--shallow ${oid}`);
  return [...shallows, ...spec.wants, '--not', ...spec.common, ...(spec.edges ?? []), '', ''].join('\n');
}

/**
 * Runs pack-objects and relays its output: stdout as pack data (and into `fill`, when caching),
 * stderr as progress. Resolves when the pack is complete; the fill is committed only then. With a
 * `flow`, its output is not read while the client's output is congested (pack-objects then waits
 * on its pipe), and it is stopped as soon as the flow's signal aborts.
 *
 * @throws {@link UploadPackError} when pack-objects fails, dies of a signal or cannot start (the
 *   fill is dropped); the client's own write errors (a `BrokenPipeError`) pass through unchanged.
 */
export function runPackObjects(
  spec: PackObjectsSpec,
  sender: PackSender,
  fill: PackFill | undefined,
  flow?: OutputFlow,
): Promise<void> {
  const args = packObjectsArgs(spec);
  const [file, argv] = spec.hook
    ? ['sh', ['-c', `${spec.hook} "$@"`, spec.hook, 'git', ...args]]
    : ['git', args];
  // Loaded here, not at start: a fetch the cache answers never needs it.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(file, argv, {
    cwd: spec.gitDir,
    env: gitChildEnv(serveEnv(), { GIT_DIR: spec.gitDir }),
    stdio: ['pipe', 'pipe', 'pipe'],
    // Inside a long-running server, a group of its own: stopping it stops a hook's children too.
    detached: flow !== undefined,
  });
  let failure: Error | undefined;
  const guard =
    (relay: (chunk: Buffer) => void) =>
    (chunk: Buffer): void => {
      if (failure !== undefined) return;
      try {
        relay(chunk);
      } catch (err) {
        // The client went away or its descriptor failed: stop producing a pack nobody reads.
        stop(err instanceof Error ? err : new Error(String(err)));
      }
    };
  const stop = (err: Error): void => {
    failure ??= err;
    try {
      if (flow !== undefined && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      // already gone
    }
    // A paused output would hold the child's 'close' back for ever: read it to its end, unused.
    child.stdout.resume();
  };
  const abort = (): void => stop(new UploadPackError('the client went away; git pack-objects stopped'));
  if (flow?.signal?.aborted) abort();
  flow?.signal?.addEventListener('abort', abort, { once: true });
  child.stdout.on(
    'data',
    guard((chunk) => {
      sender.data(chunk);
      sender.flush();
      fill?.write(chunk);
      if (flow?.congested) {
        child.stdout.pause();
        void flow.drained().then(() => child.stdout.resume());
      }
    }),
  );
  // Without --progress (no-progress), pack-objects writes only errors here: they are relayed all
  // the same, so the client learns why its pack failed.
  child.stderr.on(
    'data',
    guard((chunk) => {
      if (sender.relay(chunk)) return sender.flush();
      try {
        writeOrDie(2, chunk);
      } catch {
        // our own stderr is gone; the serve itself is unaffected
      }
    }),
  );
  // pack-objects may exit before reading all of its input (it failed): that is reported by its
  // exit status, not by this EPIPE.
  child.stdin.on('error', () => undefined);
  child.stdin.end(packObjectsInput(spec));
  return new Promise((resolve, reject) => {
    const fail = (err: Error): void => {
      fill?.abandon();
      reject(err);
    };
    child.on('error', (err) =>
      fail(new UploadPackError(`cannot run ${file}: ${err.message}`, { cause: err })),
    );
    child.on('close', (code, signal) => {
      flow?.signal?.removeEventListener('abort', abort);
      if (failure !== undefined) return fail(failure);
      if (signal !== null) return fail(new UploadPackError(`git pack-objects died of signal ${signal}`));
      if (code !== 0) return fail(new UploadPackError(`git pack-objects failed with exit status ${code}`));
      fill?.commit();
      resolve();
    });
  });
}
