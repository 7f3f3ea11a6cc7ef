/**
 * The protocol v0 ref advertisement: one pkt-line per visible ref (HEAD first, then every ref by
 * name, each annotated tag followed by its peeled `^{}` line), capabilities after a NUL on the first
 * line, and a flush. What is visible (namespace, hidden refs) is decided in `refView.ts`. Only what
 * this server implements is advertised.
 */
import type { WantAllowance } from './negotiation';
import type { RefList } from './refView';

/** The agent string the server sends, as `agent=<this>`. */
export const AGENT = 'writev-upload-pack/0.1.0';

/**
 * The capabilities this server always implements, in the order Git lists them. Not advertised (so
 * clients never ask): none; `filter` is offered when configured.
 */
export const SERVER_CAPABILITIES = [
  'multi_ack',
  'thin-pack',
  'side-band',
  'side-band-64k',
  'ofs-delta',
  'shallow',
  'deepen-since',
  'deepen-not',
  'deepen-relative',
  'no-progress',
  'include-tag',
  'multi_ack_detailed',
] as const;

/** The capabilities that depend on the repository's configuration or on the kind of serve. */
export interface OptionalCapabilities {
  /** `filter`: partial clones are served (`uploadpack.allowFilter`). */
  readonly filter?: boolean;
  /** `allow-tip-sha1-in-want` and `allow-reachable-sha1-in-want`, from the configuration. */
  readonly allow?: WantAllowance;
  /** `no-done`: offered to stateless (HTTP) clients, as git offers it. */
  readonly noDone?: boolean;
}

/** The capability list of the first line, including HEAD's symref, the hash and the agent. */
export function capabilityList(refs: RefList, optional: OptionalCapabilities = {}): string {
  const caps: string[] = [...SERVER_CAPABILITIES];
  if (optional.allow?.tip) caps.push('allow-tip-sha1-in-want');
  if (optional.allow?.reachable) caps.push('allow-reachable-sha1-in-want');
  if (optional.noDone) caps.push('no-done');
  if (refs.headTarget !== undefined) caps.push(`symref=HEAD:${refs.headTarget}`);
  if (optional.filter) caps.push('filter');
  caps.push(`object-format=${refs.objectFormat}`, `agent=${AGENT}`);
  return caps.join(' ');
}

/**
 * The advertisement's lines, each ending in a newline, without the closing flush. An empty
 * repository advertises the capabilities on a `capabilities^{}` line with the null object id, as
 * Git does, so clients can still read them.
 */
export function advertisementLines(refs: RefList, optional: OptionalCapabilities = {}): string[] {
  const entries: [string, string][] = [];
  if (refs.head) {
    entries.push([refs.head.oid, 'HEAD']);
    if (refs.head.peeled) entries.push([refs.head.peeled, 'HEAD^{}']);
  }
  for (const ref of refs.refs) {
    entries.push([ref.oid, ref.name]);
    if (ref.peeled) entries.push([ref.peeled, `${ref.name}^{}`]);
  }
  const caps = capabilityList(refs, optional);
  if (entries.length === 0) {
    const zero = '0'.repeat(refs.objectFormat === 'sha256' ? 64 : 40);
    return [`${zero} capabilities^{}\0${caps}\n`];
  }
  return entries.map(([oid, name], i) => (i === 0 ? `${oid} ${name}\0${caps}\n` : `${oid} ${name}\n`));
}

/**
 * The object ids a client may ask for: the objects of the advertised refs. Not the objects tags
 * peel to: git's upload-pack refuses those unless they are also a ref's (or reachable wants are
 * allowed), and so does this one.
 */
export function advertisedTips(refs: RefList): Set<string> {
  const tips = new Set<string>();
  if (refs.head) tips.add(refs.head.oid);
  for (const ref of refs.refs) tips.add(ref.oid);
  return tips;
}
