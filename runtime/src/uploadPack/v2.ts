/**
 * Protocol v2 (gitprotocol-v2(5)), chosen when `GIT_PROTOCOL` holds `version=2`: a capability
 * advertisement, then commands, each `command=<name>`, capability lines, a delim, arguments and a
 * flush, until the client sends a lone flush or hangs up. Implemented: `ls-refs` (`ref-prefix`,
 * `symrefs`, `peel`, `unborn`) and `fetch` (`want`, `have`, `done`, `thin-pack`, `no-progress`,
 * `include-tag`, `ofs-delta`, `wait-for-done`, and `shallow`'s `shallow`, `deepen`,
 * `deepen-relative`, `deepen-since`, `deepen-not`), the acknowledgments, shallow-info and packfile
 * sections (side-band-64k). Not advertised (so clients never send them): `filter`, `ref-in-want`,
 * `sideband-all`, `packfile-uris`, `object-info`.
 */
import type { WriteOptions } from '../options';
import { writeOrDie, writevOrDie } from '../orDie';
import { FdSource } from '../protocol/byteSource';
import { delimPkt, encodePktLine, flushPkt, packetText } from '../protocol/pktLine';
import { PktReader } from '../protocol/pktReader';
import { AGENT } from './advertisement';
import { GitOracle, type ObjectFacts } from './commitGraph';
import { planShallow, type ShallowPlan } from './shallow';
import { asksShallow } from './shallowArgs';
import { parsedAsk } from './shallowServe';
import { notOurRef, UploadPackError } from './errors';
import { isHidden } from './hideRefs';
import { PackSender } from './packSender';
import type { RefScope } from './refView';
import { visibleRefs } from './refView';
import { presentObjects, type RawRefs } from './repository';
import type { PackContext, ServeReport, ServerIo } from './server';
import { sendPack } from './server';

/** Whether a `GIT_PROTOCOL` value asks for version 2 (colon-separated `key=value` items). */
export function isV2(protocol: string | undefined): boolean {
  return (protocol ?? '').split(':').includes('version=2');
}

const OID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The capability advertisement, in git's order (less what is not implemented). */
export function v2Advertisement(objectFormat: string): string[] {
  return [
    'version 2',
    `agent=${AGENT}`,
    'ls-refs=unborn',
    'fetch=shallow wait-for-done',
    'server-option',
    `object-format=${objectFormat}`,
  ].map((line) => `${line}\n`);
}

/** One request: its command, capability lines and arguments. */
interface Request {
  readonly command: string;
  readonly args: string[];
}

/** Reads one request; `undefined` at the end of the session (a lone flush, or the client gone). */
function readRequest(reader: PktReader): Request | undefined {
  if (reader.atEnd()) return undefined;
  let packet = reader.next();
  if (packet === undefined || packet.kind === 'flush') return undefined;
  if (packet.kind !== 'data')
    throw new UploadPackError(`protocol error: expected a command, got a ${packet.kind} packet`);
  const first = packetText(packet.payload);
  if (!first.startsWith('command='))
    throw new UploadPackError(`protocol error: expected a command, got '${first}'`);
  const command = first.slice('command='.length);
  if (command !== 'ls-refs' && command !== 'fetch') throw new UploadPackError(`invalid command '${command}'`);
  for (;;) {
    packet = reader.next();
    if (packet === undefined) throw new UploadPackError('the client hung up inside a request');
    if (packet.kind !== 'data') break;
    const line = packetText(packet.payload);
    if (!/^(agent|object-format|server-option)=/.test(line))
      throw new UploadPackError(`unknown capability '${line}'`);
  }
  const args: string[] = [];
  if (packet.kind === 'delim') {
    for (;;) {
      packet = reader.next();
      if (packet === undefined) throw new UploadPackError('the client hung up inside a request');
      if (packet.kind === 'flush') break;
      if (packet.kind !== 'data')
        throw new UploadPackError(`protocol error: unexpected ${packet.kind} packet in arguments`);
      args.push(packetText(packet.payload));
    }
  } else if (packet.kind !== 'flush') {
    throw new UploadPackError(`protocol error: expected a delim or flush, got a ${packet.kind} packet`);
  }
  return { command, args };
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
  /** The shallow and deepen lines, with their positions among the arguments. */
  shallowLines: { text: string; at: number }[];
  deepenRelative: boolean;
  /** The position of each want's first line. */
  wantAt: Map<string, number>;
}

/** The argument lines of the shallow capability (`deepen-relative` apart). */
const SHALLOW_ARG = /^(shallow|deepen|deepen-since|deepen-not) /;

function parseFetch(args: readonly string[]): FetchArgs {
  const fetch: FetchArgs = {
    wants: [],
    haves: [],
    done: false,
    thin: false,
    noProgress: false,
    includeTag: false,
    ofsDelta: false,
    waitForDone: false,
    shallowLines: [],
    deepenRelative: false,
    wantAt: new Map(),
  };
  for (const [at, arg] of args.entries()) {
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
    else throw new UploadPackError(`unexpected line: '${arg}'`);
  }
  return fetch;
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
 * starts, so a failure after that is reported on band 3.
 *
 * @returns how the last pack of the session was produced (`'none'` without any).
 */
export async function serveV2(
  context: PackContext,
  io: ServerIo,
  writeOptions: WriteOptions,
  scope: RefScope,
  raw: RawRefs,
  onSender: (sender: PackSender) => void,
): Promise<ServeReport['pack']> {
  const { gitDir, options } = context;
  const send = (lines: readonly Uint8Array[]): void => writevOrDie(io.output, [...lines], writeOptions);
  send([...v2Advertisement(context.objectFormat).map((line) => encodePktLine(line)), flushPkt()]);
  const reader = new PktReader(new FdSource(io.input));
  let served: ServeReport['pack'] = 'none';
  for (;;) {
    const request = readRequest(reader);
    if (request === undefined) return served;
    if (request.command === 'ls-refs') {
      const lines = lsRefs(raw, gitDir, scope, request.args);
      send([...lines.map((line) => encodePktLine(`${line}\n`)), flushPkt()]);
      continue;
    }
    const fetch = parseFetch(request.args);
    const strangers = [...new Set(fetch.wants)];
    const present = presentObjects(gitDir, strangers);
    const missing = fetch.wants.find((oid) => !present.has(oid));
    // As git reads them: the first bad line, a missing want or a bad shallow line, is refused.
    const parsed = context.shallow.parse(fetch.shallowLines, fetch.deepenRelative);
    if (!parsedAsk(parsed) && (missing === undefined || parsed.at < fetch.wantAt.get(missing)!))
      throw parsed.error;
    if (missing !== undefined) throw notOurRef(missing);
    const oracle = new GitOracle(gitDir, fetch.wants);
    const facts = oracle.lookup(fetch.haves);
    const acked = fetch.haves.filter((oid) => facts.has(oid));
    if (!fetch.done) {
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
      const ready = !fetch.waitForDone && acked.length > 0 && oracle.allWantsReach(theyHave, oldest);
      if (ready) lines.push('ready');
      send([...lines.map((line) => encodePktLine(`${line}\n`)), ready ? delimPkt() : flushPkt()]);
      if (!ready) continue;
    }
    if (fetch.wants.length === 0) throw new UploadPackError('protocol error: a fetch without wants');
    const ask = parsedAsk(parsed) ? parsed.ask : undefined;
    let plan: ShallowPlan | undefined;
    if (ask && (asksShallow(ask) || context.shallow.serverShallows.size > 0)) {
      // git names the section before it computes it: a refusal follows the header.
      writeOrDie(io.output, encodePktLine('shallow-info\n'), writeOptions);
      const wants = [...new Set(fetch.wants)];
      plan = planShallow(context.shallow.context(), ask, wants, true, context.shallow.refOid);
      send([...plan.lines.map((line) => encodePktLine(`${line}\n`)), delimPkt()]);
    }
    writeOrDie(io.output, encodePktLine('packfile\n'), writeOptions);
    const sender = new PackSender(
      io.output,
      'side-band-64k',
      options.writeMode,
      !fetch.noProgress,
      writeOptions,
    );
    onSender(sender);
    served = await sendPack(context, sender, {
      wants: [...new Set(fetch.wants), ...(plan?.extraWants ?? [])],
      ...(plan ? { plan } : {}),
      common: theirCommon(fetch.haves, facts),
      ofsDelta: fetch.ofsDelta,
      thin: fetch.thin,
      includeTag: fetch.includeTag,
      progress: !fetch.noProgress,
    });
    sender.end();
  }
}
