/**
 * The client's half of a v0 fetch, read by the server: the wants with the capabilities the client
 * chose, checked against what it may want, then the haves, answered in the acknowledgment mode the
 * client chose (see {@link negotiate}).
 */
import { ProtocolError, RemoteError } from '../protocol/errors';
import { encodePktLine, packetText } from '../protocol/pktLine';
import type { PktReader } from '../protocol/pktReader';
import { SERVER_CAPABILITIES } from './advertisement';
import type { HaveOracle } from './commitGraph';
import { notOurRef, UploadPackError } from './errors';

/** What the client asked for. */
export interface WantRequest {
  /** The objects wanted, in the order asked, without repeats. */
  readonly wants: readonly string[];
  /** The capabilities the client chose on its first want line (unknown ones included). */
  readonly capabilities: ReadonlySet<string>;
}

const OID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The next line of a v0 request, or `undefined` where a list ends. Git's upload-pack ends the
 * wants, the shallow lines and each batch of haves at any packet that is not a line: a delim or a
 * response-end packet (meaningless in v0) counts as the flush, not as an error.
 *
 * @throws {@link RemoteError} for an `ERR` line; {@link ProtocolError} when the input ends.
 */
function requestLine(reader: PktReader): string | undefined {
  const packet = reader.next();
  if (packet === undefined) {
    throw new ProtocolError(reader.offset, 'stream ended where a pkt-line or flush was expected');
  }
  if (packet.kind !== 'data') return undefined;
  const text = packetText(packet.payload);
  if (text.startsWith('ERR ')) throw new RemoteError(text.slice(4));
  return text;
}

function checkOid(text: string, line: string): string {
  if (!OID.test(text)) throw new UploadPackError(`protocol error: expected an object id, got '${line}'`);
  return text;
}

/**
 * Which objects beyond the advertised ones a client may want, as the repository's
 * `uploadpack.allowTipSHA1InWant`, `allowReachableSHA1InWant` and `allowAnySHA1InWant` say.
 */
export interface WantAllowance {
  /** The objects of hidden refs. */
  readonly tip: boolean;
  /** Objects reachable from the advertised (and, with `tip` or this, hidden) refs. */
  readonly reachable: boolean;
  /** Any object the repository has (set only with the other two, as git's `allowAnySHA1InWant`). */
  readonly any: boolean;
}

/** What decides which objects a client may want. */
export interface WantPolicy {
  /** The objects of the advertised refs: always allowed. */
  readonly tips: ReadonlySet<string>;
  /** Which of the given objects the repository has (one git call for the whole list). */
  readonly present: (oids: readonly string[]) => Set<string> | Promise<Set<string>>;
  /** The objects of hidden refs. */
  readonly hiddenTips?: ReadonlySet<string>;
  /** What the configuration allows beyond the tips; nothing when absent. */
  readonly allow?: WantAllowance;
  /**
   * A stateless serve (smart HTTP): the refs may have moved since the client read them, so, as
   * git does, objects reachable from a ref are accepted even without `allow.reachable`.
   */
  readonly stateless?: boolean;
  /**
   * Whether some of `wants` are not reachable from `from` (git's `rev-list --stdin` check); needed
   * when reachable objects may be wanted.
   */
  readonly someUnreachable?: (
    wants: readonly string[],
    from: readonly string[],
  ) => boolean | Promise<boolean>;
  /**
   * Takes a line among the wants that is not a want (a `filter` line), given the capabilities
   * chosen so far; returns false when it does not know the line. What it throws is reported like
   * a malformed line.
   */
  readonly other?: (line: string, capabilities: ReadonlySet<string>) => boolean;
}

/**
 * Reads the want lines up to their flush.
 *
 * Git checks each want as it reads it: an object the repository does not have is refused at once,
 * one it has but did not advertise after the flush. Here the objects are looked up once for the
 * whole list, with the same outcome: the first missing object in the client's order is named if
 * there is one (else a malformed line that followed, else the first unadvertised object).
 *
 * @returns `undefined` when the client sends a flush without wants (`git ls-remote`, or a fetch
 *   with nothing to fetch): there is nothing to serve.
 * @throws {@link UploadPackError} when the client hangs up before its flush, right after the
 *   advertisement included (git dies there too, where a flush ends its run cleanly); for a want
 *   not advertised (git's `upload-pack: not our ref`), or a malformed line; what `policy.other` throws for a line it takes (a refused filter), and what
 *   `extra` throws for a shallow or deepen line it refuses.
 */
export async function readWants<T = never>(
  reader: PktReader,
  policy: WantPolicy,
  extra?: ExtraLines<T>,
): Promise<(WantRequest & { readonly extra?: T }) | undefined> {
  if (reader.atEnd()) throw new UploadPackError('the remote end hung up unexpectedly');
  const wants: string[] = [];
  const seen = new Set<string>();
  const wantAt = new Map<string, number>();
  const extraLines: { text: string; at: number }[] = [];
  let capabilities = new Set<string>();
  let malformed: UploadPackError | undefined;
  for (let at = 0; ; at++) {
    const line = requestLine(reader);
    if (line === undefined) break;
    const [verb, arg = '', ...rest] = line.split(' ');
    if (verb !== 'want' && extra?.accepts(verb!)) {
      extraLines.push({ text: line, at });
      continue;
    }
    if (verb !== 'want') {
      try {
        if (policy.other?.(line, capabilities)) continue;
      } catch (err) {
        if (!(err instanceof UploadPackError)) throw err;
        malformed = err;
        break;
      }
      malformed = new UploadPackError(`protocol error: expected a want line, got '${line}'`);
      break;
    }
    if (!OID.test(arg)) {
      malformed = new UploadPackError(`protocol error: expected an object id, got '${line}'`);
      break;
    }
    if (wants.length === 0) capabilities = new Set(rest);
    if (!seen.has(arg)) {
      wants.push(arg);
      wantAt.set(arg, at);
    }
    seen.add(arg);
  }
  const strangers = wants.filter((oid) => !policy.tips.has(oid));
  let missing: string | undefined;
  if (strangers.length > 0) {
    const present = await policy.present(strangers);
    missing = strangers.find((oid) => !present.has(oid));
  }
  // Git refuses the first bad line it reads: a missing want or a bad extra line, in their order.
  const parsed = extra && extraLines.length > 0 ? await extra.parse(extraLines, capabilities) : undefined;
  if (parsed && 'error' in parsed && (missing === undefined || parsed.at < wantAt.get(missing)!)) {
    throw parsed.error;
  }
  if (missing !== undefined) throw notOurRef(missing);
  if (malformed) throw malformed;
  await checkStrangers(policy, strangers);
  if (wants.length === 0) return undefined;
  return parsed && 'value' in parsed ? { wants, capabilities, extra: parsed.value } : { wants, capabilities };
}

/** Lines a fetch may send beside its wants that the caller parses (shallow and deepen lines). */
export interface ExtraLines<T> {
  /** Whether a line starting with `verb` is one of them. */
  accepts(verb: string): boolean;
  /**
   * Parses them (each with its position among all lines) once all lines are read; gives the
   * first refusal with its line's position, so it is told in git's order.
   */
  parse(
    lines: readonly { text: string; at: number }[],
    capabilities: ReadonlySet<string>,
  ): { value: T } | { at: number; error: Error } | Promise<{ value: T } | { at: number; error: Error }>;
}

/**
 * Refuses the wants that are neither advertised nor allowed, naming the first, as git's
 * upload-pack does once it has read them all.
 */
async function checkStrangers(policy: WantPolicy, strangers: readonly string[]): Promise<void> {
  const allow = policy.allow ?? { tip: false, reachable: false, any: false };
  if (strangers.length === 0 || (allow.any && allow.tip && allow.reachable)) return;
  const hidden = allow.tip || allow.reachable ? (policy.hiddenTips ?? new Set<string>()) : new Set<string>();
  const others = strangers.filter((oid) => !hidden.has(oid));
  if (others.length === 0) return;
  if (!(policy.stateless || allow.reachable) || policy.someUnreachable === undefined) {
    throw notOurRef(others[0]!);
  }
  if (await policy.someUnreachable(others, [...policy.tips, ...hidden])) throw notOurRef(others[0]!);
}

/** The capabilities of `request` that this server honours. */
export function honoured(request: WantRequest): Set<string> {
  return new Set(SERVER_CAPABILITIES.filter((cap) => request.capabilities.has(cap)));
}

/** Which of the given objects the repository has: all a basic negotiation needs to know. */
export type PresenceOracle = (oids: readonly string[]) => Set<string> | Promise<Set<string>>;

/** How acknowledgments are given: the client's choice among what was advertised. */
export type AckMode = 'basic' | 'multi_ack' | 'multi_ack_detailed';

/** The client's negotiation options. */
export interface NegotiationOptions {
  readonly ackMode: AckMode;
  /** The client asked for `no-done` (offered in stateless serves): the pack follows `ready`. */
  readonly noDone?: boolean;
  /**
   * A stateless request (`--stateless-rpc`): a flush without `done` ends the request once it is
   * answered, and the client comes back with a new one, as git's upload-pack serves smart HTTP.
   */
  readonly stateless?: boolean;
}

/** The ack mode of a request's capabilities. */
export function ackModeOf(capabilities: ReadonlySet<string>): AckMode {
  if (capabilities.has('multi_ack_detailed')) return 'multi_ack_detailed';
  return capabilities.has('multi_ack') ? 'multi_ack' : 'basic';
}

/**
 * Reads haves up to `done` and answers them as gitprotocol-pack(5) and git's upload-pack do:
 * - basic: `ACK <oid>` for the first common object only (and for a have that adds nothing while it
 *   is still the only one), `NAK` at each flush until one is found, and at `done` without one;
 * - `multi_ack`: `ACK <oid> continue` for each common object, and for an object the server lacks
 *   once every want reaches what the client has; `NAK` at every flush; `ACK <last>` at `done`;
 * - `multi_ack_detailed`: the same with `ACK <oid> common`, `ACK <oid> ready` in place of continue,
 *   and at a flush `ACK <last> ready` when the batch had only common objects and the server is
 *   ready; with `no-done`, the server then sends `ACK <last>` and the pack without waiting for done.
 * A common commit also counts its parents as the client's, as git counts them.
 *
 * @param send - writes one response line (already a pkt-line) to the client.
 * @param oracle - what the repository knows (or, for the basic mode, just which objects it has).
 * @returns the common objects, in the order the client named them; `undefined` when a stateless
 *   request ended at a flush without the pack (see {@link NegotiationOptions.stateless}).
 * @throws {@link UploadPackError} for a line that is neither a have, a flush nor `done`, or when
 *   the client hangs up before `done`.
 */
export function negotiate(
  reader: PktReader,
  send: (packet: Uint8Array) => void,
  oracle: HaveOracle | PresenceOracle,
  options?: NegotiationOptions & { readonly stateless?: false },
): Promise<string[]>;
export function negotiate(
  reader: PktReader,
  send: (packet: Uint8Array) => void,
  oracle: HaveOracle | PresenceOracle,
  options: NegotiationOptions,
): Promise<string[] | undefined>;
export async function negotiate(
  reader: PktReader,
  send: (packet: Uint8Array) => void,
  oracle: HaveOracle | PresenceOracle,
  options: NegotiationOptions = { ackMode: 'basic' },
): Promise<string[] | undefined> {
  const repo: HaveOracle =
    typeof oracle === 'function'
      ? {
          // Only presence is known: each object counts as a commit without parents.
          lookup: async (oids) =>
            new Map([...(await oracle(oids))].map((oid) => [oid, { type: 'commit', parents: [] }])),
          allWantsReach: () => Promise.resolve(false),
        }
      : oracle;
  const { ackMode } = options;
  const multi = ackMode !== 'basic';
  const ack = (text: string): void => send(encodePktLine(`${text}\n`));
  const common: string[] = [];
  const theyHave = new Set<string>();
  let oldest = 0;
  let last = '';
  let gotCommon = false;
  let gotOther = false;
  let sentReady = false;
  let pending: string[] = [];
  const okToGiveUp = async (): Promise<boolean> =>
    common.length > 0 && (await repo.allWantsReach(theyHave, oldest));
  // Objects are looked up per batch (one git call), then answered have by have in order: the
  // bytes on the wire are the same as answering each have as it arrives.
  const settle = async (): Promise<void> => {
    if (pending.length === 0) return;
    const facts = await repo.lookup(pending);
    for (const oid of pending) {
      const object = facts.get(oid);
      if (object === undefined) {
        gotOther = true;
        if (multi && (await okToGiveUp())) {
          if (ackMode === 'multi_ack_detailed') {
            sentReady = true;
            ack(`ACK ${oid} ready`);
          } else ack(`ACK ${oid} continue`);
        }
        continue;
      }
      let knew = false;
      if (object.type === 'commit') {
        knew = theyHave.has(oid);
        theyHave.add(oid);
        if (oldest === 0 || (object.date ?? 0) < oldest) oldest = object.date ?? 0;
        for (const parent of object.parents ?? []) theyHave.add(parent);
      }
      if (!knew) common.push(oid);
      gotCommon = true;
      last = oid;
      if (ackMode === 'multi_ack_detailed') ack(`ACK ${oid} common`);
      else if (multi) ack(`ACK ${oid} continue`);
      else if (common.length === 1) ack(`ACK ${oid}`);
    }
    pending = [];
  };
  for (let first = true; ; first = false) {
    // A stateless request may stop after its wants (git's client asks that way, and git's server
    // answers it with nothing); anywhere else the end of input is the client hanging up.
    if (reader.atEnd()) {
      if (options.stateless && first) return undefined;
      throw new UploadPackError('the client hung up during negotiation, before done');
    }
    const line = requestLine(reader);
    if (line === undefined) {
      await settle();
      if (ackMode === 'multi_ack_detailed' && gotCommon && !gotOther && (await okToGiveUp())) {
        sentReady = true;
        ack(`ACK ${last} ready`);
      }
      if (common.length === 0 || multi) ack('NAK');
      if (options.noDone && sentReady) {
        ack(`ACK ${last}`);
        return common;
      }
      if (options.stateless) return undefined;
      gotCommon = false;
      gotOther = false;
      continue;
    }
    if (line === 'done') {
      await settle();
      if (common.length > 0) {
        if (multi) ack(`ACK ${last}`);
      } else ack('NAK');
      return common;
    }
    const have = /^have (\S+)$/.exec(line);
    if (!have) throw new UploadPackError(`protocol error: expected have or done, got '${line}'`);
    pending.push(checkOid(have[1]!, line));
  }
}
