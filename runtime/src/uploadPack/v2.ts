/**
 * Protocol v2 (gitprotocol-v2(5)), chosen when `GIT_PROTOCOL` holds `version=2`: a capability
 * advertisement, then commands, each `command=<name>`, capability lines, a delim, arguments and a
 * flush, until the client sends a lone flush or hangs up (part-way through a request's first
 * packet included, as git ends the session there). Implemented: `ls-refs` (`ref-prefix`,
 * `symrefs`, `peel`, `unborn`) and `fetch` (`want`, `have`, `done`, `thin-pack`, `no-progress`,
 * `include-tag`, `ofs-delta`, `wait-for-done`, and `shallow`'s `shallow`, `deepen`, `deepen-relative`,
 * `deepen-since`, `deepen-not`; `filter`, `want-ref` and `sideband-all` when the configuration offers
 * them), the acknowledgments, shallow-info, wanted-refs and packfile sections, and `object-info`
 * (`size`) when `transfer.advertiseObjectInfo` offers it. Not advertised (so clients never send
 * it): `packfile-uris`.
 */
import type { WriteOptions } from '../options';
import { writeOrDie, writevOrDie } from '../orDie';
import { delimPkt, encodePktLine, flushPkt } from '../protocol/pktLine';
import { PktReader } from '../protocol/pktReader';
import { readRequest } from './v2Request';
import { AGENT } from './advertisement';
import { objectInfo, offersObjectInfo } from './objectInfo';
import { GitOracle, type ObjectFacts } from './commitGraph';
import { planShallow, type ShallowPlan } from './shallow';
import { asksShallow } from './shallowArgs';
import { parsedAsk } from './shallowServe';
import { notOurRef, UploadPackError } from './errors';
import { isHidden } from './hideRefs';
import { filterPolicy, FilterRequest, packFilter } from './filter';
import { PackSender } from './packSender';
import type { RefScope } from './refView';
import { visibleRefs } from './refView';
import { gitAsync, listedObjects, presentObjectsAsync, type RawRefs } from './repository';
import { requestSource, sendPack, type PackContext, type ServeReport, type ServerIo } from './server';
import { serveModeOf } from './stateless';
import {
  fetchFeatureNames,
  resolveWantRef,
  sectionPacket,
  SidebandAllSender,
  v2Features,
  wantedRefsLines,
  type V2Features,
} from './wantRef';

/** Whether a `GIT_PROTOCOL` value asks for version 2 (colon-separated `key=value` items). */
export function isV2(protocol: string | undefined): boolean {
  return (protocol ?? '').split(':').includes('version=2');
}

const OID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The capability advertisement, in git's order (less what is not implemented); `fetchFeatures`
 * are the optional `fetch=` features the configuration turns on.
 */
export function v2Advertisement(
  objectFormat: string,
  fetchFeatures: readonly string[] = [],
  withObjectInfo = false,
): string[] {
  return [
    'version 2',
    `agent=${AGENT}`,
    'ls-refs=unborn',
    `fetch=${['shallow', 'wait-for-done', ...fetchFeatures].join(' ')}`,
    'server-option',
    `object-format=${objectFormat}`,
    ...(withObjectInfo ? ['object-info'] : []),
  ].map((line) => `${line}\n`);
}

/** The lines of an `ls-refs` answer. */
export function lsRefs(raw: RawRefs, gitDir: string, scope: RefScope, args: readonly string[]): string[] {
  let peel = false;
  let symrefs = false;
  let unborn = false;
  const prefixes: string[] = [];
  for (const arg of args) {
    if (arg === 'peel') peel = true;
    else if (arg === 'symrefs') symrefs = true;
    else if (arg === 'unborn') unborn = true;
    else if (arg.startsWith('ref-prefix ')) prefixes.push(arg.slice('ref-prefix '.length));
    else throw new UploadPackError(`unexpected line: '${arg}'`);
  }
  const wanted = (name: string): boolean => prefixes.length === 0 || prefixes.some((p) => name.startsWith(p));
  const { prefix, rules } = scope;
  const strip = (name: string): string => (name.startsWith(prefix) ? name.slice(prefix.length) : name);
  const lines: string[] = [];
  if (wanted('HEAD') && !isHidden(rules, 'HEAD', `${prefix}HEAD`)) {
    const view = visibleRefs(raw, gitDir, { prefix, rules: [] });
    const target = view.headTarget;
    if (view.head) {
      let line = `${view.head.oid} HEAD`;
      if (symrefs && target !== undefined) line += ` symref-target:${target}`;
      if (peel && view.head.peeled) line += ` peeled:${view.head.peeled}`;
      lines.push(line);
    } else if (unborn) {
      const headSymref = unbornTarget(raw, gitDir, prefix);
      if (headSymref !== undefined)
        lines.push(`unborn HEAD${symrefs ? ` symref-target:${strip(headSymref)}` : ''}`);
    }
  }
  // As git's ls-refs iterates everything under the namespace's prefix, a namespace's own HEAD is
  // listed again among its refs.
  for (const ref of raw.refs) {
    if (!ref.name.startsWith(prefix)) continue;
    const name = ref.name.slice(prefix.length);
    if (!wanted(name) || isHidden(rules, name, ref.name)) continue;
    let line = `${ref.oid} ${name}`;
    if (symrefs && ref.symref !== undefined) line += ` symref-target:${strip(ref.symref)}`;
    if (peel && ref.peeled) line += ` peeled:${ref.peeled}`;
    lines.push(line);
  }
  return lines;
}

/** The ref an unborn HEAD points at (full name), if HEAD is symbolic. */
function unbornTarget(raw: RawRefs, gitDir: string, prefix: string): string | undefined {
  if (prefix !== '') return raw.refs.find((r) => r.name === `${prefix}HEAD`)?.symref;
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const text = readFileSync(`${gitDir}/HEAD`, 'utf8').trim();
  return /^ref: (.+)$/.exec(text)?.[1];
}

/** The parsed arguments of a `fetch`. */
interface FetchArgs {
  wants: string[];
  haves: string[];
  done: boolean;
  thin: boolean;
  noProgress: boolean;
  includeTag: boolean;
  ofsDelta: boolean;
  waitForDone: boolean;
  filter: FilterRequest;
  /** The `want-ref` lines, resolved (their objects are in `wants` too). */
  wantRefs: { name: string; oid: string }[];
  sidebandAll: boolean;
  /**
   * The first argument refused. Git reads arguments in order and stops at the first it refuses,
   * so what follows is not parsed, and a missing want before it is reported first.
   */
  problem?: UploadPackError;
  /** The shallow and deepen lines, with their positions among the arguments. */
  shallowLines: { text: string; at: number }[];
  deepenRelative: boolean;
  /** The position of each want's first line. */
  wantAt: Map<string, number>;
}

/** The argument lines of the shallow capability (`deepen-relative` apart). */
const SHALLOW_ARG = /^(shallow|deepen|deepen-since|deepen-not) /;

/** What a fetch's arguments are read against. */
interface FetchContext {
  readonly features: V2Features;
  readonly filter: FilterRequest;
  readonly wantRef: (name: string) => string;
}

function parseFetch(args: readonly string[], context: FetchContext): FetchArgs {
  const fetch: FetchArgs = {
    wants: [],
    haves: [],
    done: false,
    thin: false,
    noProgress: false,
    includeTag: false,
    ofsDelta: false,
    waitForDone: false,
    filter: context.filter,
    wantRefs: [],
    sidebandAll: false,
    shallowLines: [],
    deepenRelative: false,
    wantAt: new Map(),
  };
  for (const [at, arg] of args.entries()) {
    try {
      parseFetchArg(arg, at, fetch, context);
    } catch (err) {
      if (!(err instanceof UploadPackError)) throw err;
      fetch.problem = err;
      break;
    }
  }
  return fetch;
}

/** Takes one argument of a fetch into `fetch`. */
function parseFetchArg(arg: string, at: number, fetch: FetchArgs, context: FetchContext): void {
  const { features } = context;
  const [verb, oid] = arg.split(' ');
  if (
    (verb === 'want' || verb === 'have') &&
    oid !== undefined &&
    OID.test(oid) &&
    arg === `${verb} ${oid}`
  ) {
    (verb === 'want' ? fetch.wants : fetch.haves).push(oid);
    if (verb === 'want' && !fetch.wantAt.has(oid)) fetch.wantAt.set(oid, at);
  } else if (SHALLOW_ARG.test(arg)) fetch.shallowLines.push({ text: arg, at });
  else if (arg === 'deepen-relative') fetch.deepenRelative = true;
  else if (arg === 'done') fetch.done = true;
  else if (arg === 'thin-pack') fetch.thin = true;
  else if (arg === 'no-progress') fetch.noProgress = true;
  else if (arg === 'include-tag') fetch.includeTag = true;
  else if (arg === 'ofs-delta') fetch.ofsDelta = true;
  else if (arg === 'wait-for-done') fetch.waitForDone = true;
  else if (features.filter && fetch.filter.take(arg, true)) return;
  else if (features.refInWant && arg.startsWith('want-ref ')) {
    const name = arg.slice('want-ref '.length);
    const wanted = context.wantRef(name);
    fetch.wants.push(wanted);
    fetch.wantRefs.push({ name, oid: wanted });
  } else if (features.sidebandAll && arg === 'sideband-all') fetch.sidebandAll = true;
  else throw new UploadPackError(`unexpected line: '${arg}'`);
}

/**
 * The haves the pack excludes, as git's upload-pack collects them: each present have in order,
 * but not a commit already known through a have it is a parent of (its parents become known all
 * the same).
 */
function theirCommon(haves: readonly string[], facts: ReadonlyMap<string, ObjectFacts>): string[] {
  const known = new Set<string>();
  const common: string[] = [];
  for (const oid of haves) {
    const object = facts.get(oid);
    if (object === undefined) continue;
    const knew = known.has(oid);
    if (object.type === 'commit') for (const parent of object.parents ?? []) known.add(parent);
    if (knew) continue;
    known.add(oid);
    common.push(oid);
  }
  return common;
}

/**
 * Serves a protocol v2 session. `onSender` learns the pack sender once the packfile section
 * starts (or, with `sideband-all`, once the fetch is read), so a failure after that is reported
 * on band 3, and learns `undefined` at each new request.
 *
 * @returns how the last pack of the session was produced (`'none'` without any).
 */
export async function serveV2(
  context: PackContext,
  io: ServerIo,
  writeOptions: WriteOptions,
  scope: RefScope,
  raw: RawRefs,
  onSender: (sender: PackSender | undefined) => void,
): Promise<ServeReport['pack']> {
  const { gitDir, options } = context;
  const mode = serveModeOf(options);
  const send = (lines: readonly Uint8Array[]): void => writevOrDie(io.output, [...lines], writeOptions);
  const features = v2Features(context.config);
  const withObjectInfo = offersObjectInfo(context.config);
  // As git, a command is served only when it is offered.
  const commands = new Set(['ls-refs', 'fetch', ...(withObjectInfo ? ['object-info'] : [])]);
  if (mode !== 'request') {
    send([
      ...v2Advertisement(context.objectFormat, fetchFeatureNames(features), withObjectInfo).map((line) =>
        encodePktLine(line),
      ),
      flushPkt(),
    ]);
    if (mode === 'advertise') return 'none';
  }
  const reader = new PktReader(requestSource(io.input));
  let served: ServeReport['pack'] = 'none';
  // A stateless serve answers one request; what follows it is not read, as git does not.
  for (let requests = 0; mode !== 'request' || requests < 1; requests++) {
    // A refusal of this request is not part of an earlier request's pack: no sender until one starts.
    onSender(undefined);
    const request = readRequest(reader, context.objectFormat, commands);
    if (request === undefined) return served;
    if (request.command === 'ls-refs') {
      const lines = lsRefs(raw, gitDir, scope, request.args);
      send([...lines.map((line) => encodePktLine(`${line}\n`)), flushPkt()]);
      continue;
    }
    if (request.command === 'object-info') {
      send(await objectInfo(gitDir, request.args, context.objectFormat));
      continue;
    }
    // As git does, the filter settings are read (and a bad one refused) by each fetch.
    const fetch = parseFetch(request.args, {
      features,
      filter: new FilterRequest(
        features.filter ? filterPolicy(context.config) : { enabled: false, check() {} },
      ),
      wantRef: (name) => resolveWantRef(name, raw, gitDir, scope),
    });
    let sideband: PackSender | undefined;
    if (fetch.sidebandAll) {
      sideband = new SidebandAllSender(io.output, options.writeMode, !fetch.noProgress, writeOptions);
      onSender(sideband);
    }
    const section = (line: string): Buffer => sectionPacket(line, fetch.sidebandAll);
    // Only wants no ref names are looked up (a clone's are all ref tips: it starts no git), and
    // without blocking: inside an HTTP server, other requests' packs stream meanwhile.
    const listed = listedObjects(raw);
    const strangers = [...new Set(fetch.wants)].filter((oid) => !listed.has(oid));
    const present = await presentObjectsAsync(gitDir, strangers);
    const missing = fetch.wants.find((oid) => !listed.has(oid) && !present.has(oid));
    // As git reads them: the first bad line, a missing want or a bad shallow line, is refused.
    const parsed = await context.shallow.parse(fetch.shallowLines, fetch.deepenRelative);
    if (!parsedAsk(parsed) && (missing === undefined || parsed.at < fetch.wantAt.get(missing)!))
      throw parsed.error;
    if (missing !== undefined) throw notOurRef(missing);
    if (fetch.problem) throw fetch.problem;
    // A fetch that wants nothing is answered with nothing, as git answers it, unless the client
    // waits for `done`: then its haves are acknowledged, and `done` brings an empty pack.
    if (fetch.wants.length === 0 && !fetch.waitForDone) continue;
    const oracle = new GitOracle(gitDir, fetch.wants);
    const facts = await oracle.lookup(fetch.haves);
    const acked = fetch.haves.filter((oid) => facts.has(oid));
    // Without haves there is nothing to acknowledge: the pack follows at once, as with `done`.
    if (!fetch.done && fetch.haves.length > 0) {
      const theyHave = new Set<string>();
      let oldest = 0;
      for (const oid of acked) {
        const object = facts.get(oid)!;
        if (object.type !== 'commit') continue;
        theyHave.add(oid);
        for (const parent of object.parents ?? []) theyHave.add(parent);
        if (oldest === 0 || (object.date ?? 0) < oldest) oldest = object.date ?? 0;
      }
      const lines = ['acknowledgments', ...(acked.length === 0 ? ['NAK'] : acked.map((oid) => `ACK ${oid}`))];
      const ready = !fetch.waitForDone && acked.length > 0 && (await oracle.allWantsReach(theyHave, oldest));
      if (ready) lines.push('ready');
      send([...lines.map(section), ready ? delimPkt() : flushPkt()]);
      if (!ready) continue;
    }
    const filter = fetch.filter.spec;
    const packFilterArg =
      filter &&
      (await packFilter(
        filter,
        (input) => gitAsync(gitDir, ['cat-file', '--batch-check'], input),
        context.objectFormat,
      ));
    const ask = parsedAsk(parsed) ? parsed.ask : undefined;
    let plan: ShallowPlan | undefined;
    if (ask && (asksShallow(ask) || context.shallow.serverShallows.size > 0)) {
      // git names the section before it computes it: a refusal follows the header.
      writeOrDie(io.output, section('shallow-info'), writeOptions);
      const wants = [...new Set(fetch.wants)];
      plan = await planShallow(context.shallow.context(), ask, wants, true, context.shallow.refOid);
      // git sends these lines without a newline, as in v0.
      send([...plan.lines.map((line) => sectionPacket(line, fetch.sidebandAll, false)), delimPkt()]);
    }
    if (fetch.wantRefs.length > 0) {
      send([section('wanted-refs'), ...wantedRefsLines(fetch.wantRefs).map(section), delimPkt()]);
    }
    writeOrDie(io.output, section('packfile'), writeOptions);
    const sender =
      sideband ??
      new PackSender(io.output, 'side-band-64k', options.writeMode, !fetch.noProgress, writeOptions);
    onSender(sender);
    served = await sendPack(context, sender, {
      wants: [...new Set(fetch.wants), ...(plan?.extraWants ?? [])],
      ...(plan ? { plan } : {}),
      common: theirCommon(fetch.haves, facts),
      ofsDelta: fetch.ofsDelta,
      thin: fetch.thin,
      includeTag: fetch.includeTag,
      progress: !fetch.noProgress,
      filter: packFilterArg,
    });
    sender.end();
  }
  return served;
}
