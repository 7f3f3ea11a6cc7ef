/**
 * The client's half of a v0 fetch, read by the server: the wants with the capabilities the client
 * chose, then the haves, answered with the basic (not multi_ack) negotiation the server advertises:
 * - on the first have the server also has, `ACK <oid>`, once;
 * - on a flush, `NAK` while no common object has been found, silence after;
 * - on `done`, `NAK` if none was ever found, else nothing more: the pack follows.
 */
import { encodePktLine } from '../protocol/pktLine';
import type { PktReader } from '../protocol/pktReader';
import { SERVER_CAPABILITIES } from './advertisement';
import { notOurRef, UploadPackError } from './errors';

/** What the client asked for. */
export interface WantRequest {
  /** The objects wanted, in the order asked, without repeats. */
  readonly wants: readonly string[];
  /** The capabilities the client chose on its first want line (unknown ones included). */
  readonly capabilities: ReadonlySet<string>;
}

const OID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

function checkOid(text: string, line: string): string {
  if (!OID.test(text)) throw new UploadPackError(`protocol error: expected an object id, got '${line}'`);
  return text;
}

/** What decides which objects a client may want. */
export interface WantPolicy {
  /** The advertised objects (refs and peeled tags): always allowed. */
  readonly tips: ReadonlySet<string>;
  /** Which of the given objects the repository has (one git call for the whole list). */
  readonly present: (oids: readonly string[]) => Set<string>;
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
 *   with nothing to fetch) or hangs up right away: there is nothing to serve.
 * @throws {@link UploadPackError} for a want not advertised (git's `upload-pack: not our ref`), or
 *   a request this server does not implement (shallow, deepen, filter), with the reason.
 */
export function readWants(reader: PktReader, policy: WantPolicy): WantRequest | undefined {
  if (reader.atEnd()) return undefined;
  const wants: string[] = [];
  const seen = new Set<string>();
  let capabilities = new Set<string>();
  let malformed: UploadPackError | undefined;
  for (;;) {
    const line = reader.readLine();
    if (line === undefined) break;
    const [verb, arg = '', ...rest] = line.split(' ');
    if (verb !== 'want') {
      malformed =
        verb === 'shallow' || verb!.startsWith('deepen') || verb === 'filter'
          ? new UploadPackError(`'${verb}' requests are not supported by writev-upload-pack (not advertised)`)
          : new UploadPackError(`protocol error: expected a want line, got '${line}'`);
      break;
    }
    if (!OID.test(arg)) {
      malformed = new UploadPackError(`protocol error: expected an object id, got '${line}'`);
      break;
    }
    if (wants.length === 0) capabilities = new Set(rest);
    if (!seen.has(arg)) wants.push(arg);
    seen.add(arg);
  }
  const strangers = wants.filter((oid) => !policy.tips.has(oid));
  if (strangers.length > 0) {
    const present = policy.present(strangers);
    const missing = strangers.find((oid) => !present.has(oid));
    if (missing !== undefined) throw notOurRef(missing);
  }
  if (malformed) throw malformed;
  if (strangers.length > 0) throw notOurRef(strangers[0]!);
  return wants.length === 0 ? undefined : { wants, capabilities };
}

/** The capabilities of `request` that this server honours. */
export function honoured(request: WantRequest): Set<string> {
  return new Set(SERVER_CAPABILITIES.filter((cap) => request.capabilities.has(cap)));
}

/**
 * Reads haves up to `done` and answers them (see the module comment).
 *
 * @param send - writes one response line (already a pkt-line) to the client.
 * @param present - which of the given objects the repository has.
 * @returns the common objects, in the order the client named them, without repeats.
 * @throws {@link UploadPackError} for a line that is neither a have, a flush nor `done`, or when
 *   the client hangs up before `done`.
 */
export function negotiate(
  reader: PktReader,
  send: (packet: Uint8Array) => void,
  present: (oids: readonly string[]) => Set<string>,
): string[] {
  const common: string[] = [];
  const known = new Set<string>();
  let pending: string[] = [];
  // Presence is checked per batch (one git call), and answered before the flush or done that ends
  // the batch: the bytes on the wire are the same as answering have by have.
  const settle = (): void => {
    if (pending.length === 0) return;
    const found = present(pending);
    for (const oid of pending) {
      if (!found.has(oid) || known.has(oid)) continue;
      known.add(oid);
      common.push(oid);
      if (common.length === 1) send(encodePktLine(`ACK ${oid}\n`));
    }
    pending = [];
  };
  for (;;) {
    if (reader.atEnd()) throw new UploadPackError('the client hung up during negotiation, before done');
    const line = reader.readLine();
    if (line === undefined) {
      settle();
      if (common.length === 0) send(encodePktLine('NAK\n'));
      continue;
    }
    if (line === 'done') {
      settle();
      if (common.length === 0) send(encodePktLine('NAK\n'));
      return common;
    }
    const have = /^have (\S+)$/.exec(line);
    if (!have) throw new UploadPackError(`protocol error: expected have or done, got '${line}'`);
    pending.push(checkOid(have[1]!, line));
  }
}
