/**
 * `writev-upload-pack`: the server side of `git clone` and `git fetch` over protocols v0 and v2, speaking
 * on two descriptors (stdin and stdout when git runs it through `--upload-pack`). It advertises
 * the refs, reads the wants, negotiates, then streams the pack from the cache or from
 * `git pack-objects`, through the runtime's fd-based writers (never `process.stdout`, which would
 * make a shared pipe non-blocking).
 *
 * A client asking for protocol v2 (`GIT_PROTOCOL=version=2`) is served by `v2.ts`, through the same
 * ref view, writers and pack cache.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Sys } from '../syscall';
import { WriteError } from '../errors';
import { writeOrDie, writevOrDie } from '../orDie';
import { FdSource, type ByteSource } from '../protocol/byteSource';
import { encodePktLine, errPktLine, flushPkt } from '../protocol/pktLine';
import { PktReader } from '../protocol/pktReader';
import { advertisedTips, advertisementLines } from './advertisement';
import { UploadPackError } from './errors';
import { namespacePrefix } from './namespace';
import { GitOracle } from './commitGraph';
import { filterPolicy, FilterRequest, packFilter, type PackFilter } from './filter';
import { ackModeOf, honoured, negotiate, readWants } from './negotiation';
import { cacheDirFor, type UploadPackOptions } from './options';
import { isWithin } from './cacheFiles';
import { serveEnv } from './childEnv';
import { cacheKey, PackCache } from './packCache';
import { PackSender, type Framing } from './packSender';
import { runPackObjects, serveCachedPack, type OutputFlow } from './packSources';
import { visibleRefs } from './refView';
import {
  findRepository,
  gitAsync,
  listRawRefs,
  presentObjectsAsync,
  type GitLayout,
  type RawRefs,
} from './repository';
import { readServeConfig, type ServeConfig } from './serveConfig';
import { requireRequest, serveModeOf } from './stateless';
import { isV2, serveV2 } from './v2';
import { planShallow, readServerShallows, type ShallowPlan } from './shallow';
import { isShallowVerb, type ShallowAsk } from './shallowArgs';
import { parsedAsk, ShallowSupport } from './shallowServe';

/**
 * The descriptors and seam the server talks through (stdin, stdout, a counting Sys). A serve run
 * inside another program (an HTTP server's handler) gives its request as a {@link ByteSource}, its
 * answer's sink as `sys` (the `output` descriptor is then only the name `sys` is called with), and
 * `flow` so that the pack waits for a slow client instead of piling up in memory.
 */
export interface ServerIo {
  /** The descriptor the client's requests are read from, or their bytes. */
  readonly input: number | ByteSource;
  readonly output: number;
  readonly sys?: Sys;
  /** Where warnings for whoever runs the server go (default 2, stderr). */
  readonly errors?: number;
  /** Takes those warnings instead of `errors`, one line each, without its newline. */
  readonly log?: (line: string) => void;
  /** The output's backpressure and the serve's cancellation, for a sink that is not a descriptor. */
  readonly flow?: OutputFlow;
}

/** The reader of a serve's input. */
export function requestSource(input: number | ByteSource): ByteSource {
  return typeof input === 'number' ? new FdSource(input) : input;
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
 * Milliseconds since the process started, as `performance.now()` counts them without loading
 * `perf_hooks` (its first use costs ~50 page faults, a millisecond of a cached serve's start-up).
 */
function sinceStart(): number {
  return process.uptime() * 1000;
}

/**
 * The object folders of a repository: its own and those it borrows through `info/alternates`
 * (relative entries are relative to the objects folder).
 */
function objectFolders(gitDir: string): string[] {
  const objects = join(gitDir, 'objects');
  const folders = [objects];
  try {
    for (const line of readFileSync(join(objects, 'info', 'alternates'), 'utf8').split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      folders.push(isAbsolute(line) ? line : join(objects, line));
    }
  } catch {
    // no alternates
  }
  return folders;
}

/**
 * The pack cache folder for this serve, or why there is none. A folder inside an object folder is
 * refused: packs there are the repository's own, and the cache must never sit where its files
 * could be taken for them (or its eviction reach them).
 */
function cacheFolder(options: UploadPackOptions, layout: GitLayout): { dir?: string; refusal?: string } {
  const dir = cacheDirFor(options, layout.commonDir);
  if (dir === undefined) return {};
  const objects = objectFolders(layout.commonDir).find((folder) => isWithin(dir, folder));
  if (objects === undefined) return { dir };
  return { refusal: `pack cache folder ${dir} is inside the object folder ${objects}: not used` };
}

/**
 * Whether some of `wants` are not reachable from `from`, as git's upload-pack decides it: a
 * `rev-list` of the wants less everything `from` reaches prints something. (Like git's, this looks
 * at commits only: a tree or blob want passes.) A rev-list that fails counts as unreachable.
 */
async function someUnreachable(
  gitDir: string,
  wants: readonly string[],
  from: readonly string[],
): Promise<boolean> {
  const input = `${[...from.map((oid) => `^${oid}`), ...wants].join('\n')}\n`;
  try {
    return (await gitAsync(gitDir, ['rev-list', '--stdin'], input)).trim() !== '';
  } catch {
    return true;
  }
}

/**
 * A digest of the repository's tags (every ref under `refs/tags/`, namespaces aside, as
 * `pack-objects --include-tag` looks at them): an `include-tag` pack depends on them.
 */
function tagsDigest(refs: RawRefs['refs']): string {
  const hash = createHash('sha256');
  for (const ref of refs) if (ref.name.startsWith('refs/tags/')) hash.update(`${ref.oid} ${ref.name}\n`);
  return hash.digest('hex');
}

/** Everything pack production needs to know about the serve. */
export interface PackContext {
  readonly options: UploadPackOptions;
  readonly gitDir: string;
  readonly folder: { dir?: string; refusal?: string };
  readonly config: ServeConfig;
  readonly rawRefs: RawRefs['refs'];
  readonly objectFormat: 'sha1' | 'sha256';
  readonly warn: (message: string) => void;
  /** Shallow requests' lookups, and the repository's own shallow commits. */
  readonly shallow: ShallowSupport;
  /** The output's backpressure and the serve's cancellation, when the output is not a descriptor. */
  readonly flow?: OutputFlow;
}

/** What the client asked of the pack. */
export interface PackAsk {
  readonly wants: readonly string[];
  readonly common: readonly string[];
  readonly ofsDelta: boolean;
  readonly thin: boolean;
  readonly includeTag: boolean;
  readonly progress: boolean;
  /** The object filter of a partial clone, as pack-objects gets it. */
  readonly filter?: PackFilter;
  /** The shallow boundary, when there is one (the wants already hold its extra wants). */
  readonly plan?: ShallowPlan;
}

/**
 * Sends the pack through `sender`, from the cache when it holds the same pack, else from
 * pack-objects (filling the cache on the way). The caller ends the sender.
 */
export async function sendPack(
  context: PackContext,
  sender: PackSender,
  ask: PackAsk,
): Promise<ServeReport['pack']> {
  const { options, gitDir, folder, config, objectFormat, warn } = context;
  const packRequest = {
    wants: ask.wants,
    common: ask.common,
    ofsDelta: ask.ofsDelta,
    thin: ask.thin,
    includeTag: ask.includeTag,
    objectFormat,
    filter: ask.filter?.arg,
    settings: [
      config.packDigest(),
      options.packObjectsHook ?? '',
      ask.includeTag ? tagsDigest(context.rawRefs) : '',
      // Without --shallow lines, pack-objects stops at the repository's own shallow commits.
      ...(context.shallow.serverShallows.size > 0
        ? [`shallow ${[...context.shallow.serverShallows].sort().join(',')}`]
        : []),
    ].join(' '),
    ...(ask.plan?.packShallows ? { shallows: ask.plan.packShallows } : {}),
    ...(ask.plan && ask.plan.edges.length > 0 ? { edges: ask.plan.edges } : {}),
  };
  if (folder.refusal !== undefined) warn(folder.refusal);
  const cache =
    folder.dir === undefined || ask.filter?.cacheable === false
      ? undefined
      : new PackCache(folder.dir, { maxBytes: options.cacheMaxBytes, warn });
  const key = cacheKey(packRequest);
  const entry = cache?.open(key);
  if (cache && entry && (await serveCachedPack(entry, cache, sender, objectFormat, context.flow))) {
    return 'cache-hit';
  }
  const fill = cache?.startFill(key, objectFormat);
  await runPackObjects(
    { gitDir, ...packRequest, progress: ask.progress, hook: options.packObjectsHook },
    sender,
    fill,
    context.flow,
  );
  return cache ? 'cache-miss' : 'uncached';
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
  // The cache is an optimisation: its problems are warnings, to the operator and, on band 2, to
  // the client, and the serve goes on without it.
  const warn = (message: string): void => {
    const text = `warning: writev-upload-pack: ${message}`;
    try {
      if (io.log) io.log(text);
      else writeOrDie(io.errors ?? 2, Buffer.from(`${text}\n`, 'utf8'));
    } catch {
      // no one to tell on stderr; the client still hears it
    }
    sender?.warning(text);
  };
  try {
    // A bad namespace is refused before anything is read, as git refuses it at start.
    const prefix = namespacePrefix(options.namespace);
    const layout = findRepository(options.repository, options.strict);
    const { gitDir, commonDir } = layout;
    const folder = cacheFolder(options, layout);
    const config = await readServeConfig(
      gitDir,
      commonDir,
      folder.dir,
      () => gitAsync(gitDir, ['config', '--list', '-z', '--show-origin']),
      serveEnv(),
    );
    const raw = await listRawRefs(layout, folder.dir);
    const refs = visibleRefs(raw, gitDir, { prefix, rules: config.hideRules() });
    const allow = config.wantAllowance();
    // git's deepen-relative starts from the client's shallow commits that these reach.
    const ourTips = (): string[] => [
      ...advertisedTips(refs),
      ...(allow.tip || allow.reachable ? (refs.hiddenTips ?? []) : []),
    ];
    const shallow = new ShallowSupport(gitDir, raw, readServerShallows(commonDir), ourTips);
    const context: PackContext = {
      options,
      gitDir,
      folder,
      config,
      rawRefs: raw.refs,
      objectFormat: refs.objectFormat,
      warn,
      shallow,
      ...(io.flow ? { flow: io.flow } : {}),
    };
    const mode = serveModeOf(options);
    if (isV2(options.protocol)) {
      // Taken before v2's advertisement (one writev) rather than at its first read: close enough.
      const requestAt = sinceStart();
      const pack = await serveV2(
        context,
        io,
        writeOptions,
        { prefix, rules: config.hideRules() },
        raw,
        (s) => (sender = s),
      );
      return report({ pack, requestAt, endAt: sinceStart() });
    }
    // Like git, v0 reads (and refuses bad) filter settings before it advertises anything.
    const filters = filterPolicy(config);
    const filter = new FilterRequest(filters);
    if (mode !== 'request') {
      // The advertisement goes out in one writev: a handful of lines, one system call.
      const lines = advertisementLines(refs, {
        allow,
        noDone: mode === 'advertise',
        filter: filters.enabled,
      });
      writevOrDie(
        io.output,
        [...lines.map((line) => encodePktLine(line)), ...shallow.advertisement(), flushPkt()],
        writeOptions,
      );
      if (mode === 'advertise') return report({ pack: 'none', endAt: sinceStart() });
    }

    const reader = new PktReader(requestSource(io.input));
    const requestAt = sinceStart();
    if (mode === 'request') requireRequest(reader);
    const request = await readWants(
      reader,
      {
        tips: advertisedTips(refs),
        present: (oids) => presentObjectsAsync(gitDir, oids),
        hiddenTips: refs.hiddenTips ?? new Set(),
        allow,
        someUnreachable: (wants, from) => someUnreachable(gitDir, wants, from),
        stateless: mode === 'request',
        other: (line, capabilities) => filter.take(line, filters.enabled && capabilities.has('filter')),
      },
      {
        accepts: isShallowVerb,
        parse: async (lines, caps) => {
          const parsed = await shallow.parse(lines, caps.has('deepen-relative'));
          return parsedAsk(parsed) ? { value: parsed.ask } : parsed;
        },
      },
    );
    if (request === undefined) return report({ pack: 'none', requestAt, endAt: sinceStart() });
    const plan = await v0ShallowPlan(shallow, request.extra, request.wants);
    if (plan?.section) {
      writevOrDie(
        io.output,
        // Without a newline, byte for byte as git sends them.
        [...plan.lines.map((line) => encodePktLine(line)), flushPkt()],
        writeOptions,
      );
    }
    // As git's, the wants now hold the parents of unshallowed commits, for negotiation and the pack.
    const wants = [...request.wants, ...(plan?.extraWants ?? [])];
    const oracle = new GitOracle(gitDir, wants, new Set(plan?.packShallows));
    const common = await negotiate(reader, sendLine, oracle, {
      ackMode: ackModeOf(request.capabilities),
      noDone: request.capabilities.has('no-done'),
      stateless: mode === 'request',
    });
    // A stateless request that ended at a flush: answered, and the client comes back.
    if (common === undefined) return report({ pack: 'none', requestAt, endAt: sinceStart() });

    const caps = honoured(request);
    const framing: Framing = caps.has('side-band-64k')
      ? 'side-band-64k'
      : caps.has('side-band')
        ? 'side-band'
        : 'none';
    sender = new PackSender(io.output, framing, options.writeMode, !caps.has('no-progress'), writeOptions);
    const pack = await sendPack(context, sender, {
      wants,
      ...(plan ? { plan } : {}),
      common,
      ofsDelta: caps.has('ofs-delta'),
      thin: caps.has('thin-pack'),
      includeTag: caps.has('include-tag'),
      progress: !caps.has('no-progress'),
      filter:
        filter.spec &&
        (await packFilter(
          filter.spec,
          (input) => gitAsync(gitDir, ['cat-file', '--batch-check'], input),
          refs.objectFormat,
        )),
    });
    sender.end();
    return report({ pack, requestAt, endAt: sinceStart() });
  } catch (err) {
    // Every failure but the client's own descriptor failing is told to the client, whatever it
    // asked for: once the pack phase has begun, on band 3 (or, bare, as ERR before any pack byte).
    if (!(err instanceof WriteError)) {
      const wire = err instanceof UploadPackError ? err.wire : undefined;
      const message = wire ?? `writev-upload-pack: ${err instanceof Error ? err.message : String(err)}`;
      try {
        if (sender) sender.fail(message);
        else sendLine(errPktLine(wire ?? `${message}\n`));
      } catch {
        // the client is gone too; the caller still reports the first error
      }
    }
    throw err;
  }
}

/** The v0 shallow boundary of a request that is shallow in any way; see {@link planShallow}. */
async function v0ShallowPlan(
  shallow: ShallowSupport,
  ask: ShallowAsk | undefined,
  wants: readonly string[],
): Promise<ShallowPlan | undefined> {
  if (ask === undefined || (ask.depth === 0 && !ask.byRevList && ask.shallows.length === 0)) return undefined;
  return planShallow(shallow.context(), ask, wants, false, shallow.refOid);
}

/** Appends one JSON line of timings (milliseconds since the process started) to `file`. */
export function recordTiming(file: string, report: ServeReport): void {
  appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...report })}\n`);
}
