/**
 * `writev-upload-pack`: the server side of `git clone` and `git fetch` over protocol v0, speaking
 * on two descriptors (stdin and stdout when git runs it through `--upload-pack`). It advertises
 * the refs, reads the wants, negotiates, then streams the pack from the cache or from
 * `git pack-objects`, through the runtime's fd-based writers (never `process.stdout`, which would
 * make a shared pipe non-blocking).
 *
 * A client asking for protocol v2 (`GIT_PROTOCOL=version=2`) gets the v0 advertisement, which git
 * clients accept as the server's answer: the fallback is the client's, and it is clean.
 */
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Sys } from '../syscall';
import { writeOrDie, writevOrDie } from '../orDie';
import { FdSource } from '../protocol/byteSource';
import { encodePktLine, flushPkt } from '../protocol/pktLine';
import { PktReader } from '../protocol/pktReader';
import { advertisedTips, advertisementLines } from './advertisement';
import { UploadPackError } from './errors';
import { honoured, negotiate, readWants } from './negotiation';
import { cacheDirFor, type UploadPackOptions } from './options';
import { cacheKey, PackCache } from './packCache';
import { PackSender, type Framing } from './packSender';
import { runPackObjects, serveCachedPack } from './packSources';
import { findGitDir, listRefs, presentObjects } from './repository';

/** The descriptors and seam the server talks through (stdin, stdout, a counting Sys). */
export interface ServerIo {
  readonly input: number;
  readonly output: number;
  readonly sys?: Sys;
}

/** What a serve did, for the caller's exit status and for benchmarks. */
export interface ServeReport {
  /** `'none'` when the client wanted nothing (ls-remote), else how the pack was produced. */
  readonly pack: 'none' | 'cache-hit' | 'cache-miss' | 'uncached';
  /** Milliseconds since the process started, when the request's first byte was awaited. */
  readonly requestAt?: number;
  /** Milliseconds since the process started, when the last byte was written. */
  readonly endAt: number;
  /** The calls made through `io.sys`, when one was given: what the serve cost in syscalls. */
  readonly syscalls?: { readonly write: number; readonly writev: number; readonly EAGAIN: number };
}

/**
 * Serves one fetch. Errors the client should see are sent to it (an `ERR` line before the pack,
 * band 3 during it) and then thrown, so the caller exits non-zero.
 *
 * @throws {@link UploadPackError} for a request it cannot serve; `BrokenPipeError` or `WriteError`
 *   when the client's descriptor fails; `ProtocolError` when the client's bytes are not pkt-lines.
 */
export async function serveUploadPack(options: UploadPackOptions, io: ServerIo): Promise<ServeReport> {
  const report = (fields: Omit<ServeReport, 'syscalls'>): ServeReport => {
    if (!io.sys) return fields;
    const { write, writev, errors } = io.sys.counts;
    return { ...fields, syscalls: { write, writev, EAGAIN: errors.EAGAIN ?? 0 } };
  };
  const writeOptions = io.sys ? { sys: io.sys } : {};
  const sendLine = (packet: Uint8Array): void => writeOrDie(io.output, packet, writeOptions);
  let sender: PackSender | undefined;
  try {
    const gitDir = findGitDir(options.repository, options.strict);
    const refs = listRefs(gitDir);
    // The advertisement goes out in one writev: a handful of lines, one system call.
    writevOrDie(
      io.output,
      [...advertisementLines(refs).map((line) => encodePktLine(line)), flushPkt()],
      writeOptions,
    );

    const reader = new PktReader(new FdSource(io.input));
    const requestAt = performance.now();
    const request = readWants(reader, advertisedTips(refs));
    if (request === undefined) return report({ pack: 'none', requestAt, endAt: performance.now() });
    const common = negotiate(reader, sendLine, (oids) => presentObjects(gitDir, oids));

    const caps = honoured(request);
    const framing: Framing = caps.has('side-band-64k')
      ? 'side-band-64k'
      : caps.has('side-band')
        ? 'side-band'
        : 'none';
    const progress = !caps.has('no-progress');
    sender = new PackSender(io.output, framing, options.writeMode, progress, writeOptions);
    const packRequest = {
      wants: request.wants,
      common,
      ofsDelta: caps.has('ofs-delta'),
      objectFormat: refs.objectFormat,
    };
    const dir = cacheDirFor(options, gitDir);
    const cache = dir === undefined ? undefined : new PackCache(dir, options.cacheMaxBytes);
    const key = cacheKey(packRequest);
    const entry = cache?.open(key);
    let pack: ServeReport['pack'];
    if (cache && entry) {
      serveCachedPack(entry, cache, sender, refs.objectFormat);
      pack = 'cache-hit';
    } else {
      const fill = cache?.startFill(key, refs.objectFormat);
      await runPackObjects({ gitDir, ...packRequest, progress, hook: options.packObjectsHook }, sender, fill);
      pack = cache ? 'cache-miss' : 'uncached';
    }
    sender.end();
    return report({ pack, requestAt, endAt: performance.now() });
  } catch (err) {
    if (err instanceof UploadPackError) {
      const message = `writev-upload-pack: ${err.message}`;
      // Once the pack phase has begun the client reads sideband packets: report there.
      if (sender) sender.fail(message);
      else sendLine(encodePktLine(`ERR ${message}\n`));
    }
    throw err;
  }
}

/** Appends one JSON line of timings (milliseconds since the process started) to `file`. */
export function recordTiming(file: string, report: ServeReport): void {
  appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...report })}\n`);
}
