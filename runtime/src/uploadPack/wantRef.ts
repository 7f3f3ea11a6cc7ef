/**
 * Protocol v2's `ref-in-want` (`want-ref <ref>`, offered when `uploadpack.allowRefInWant` is set)
 * and `sideband-all` (offered when `uploadpack.allowSidebandAll` is set), as gitprotocol-v2(5)
 * describes them and git's upload-pack answers them:
 * - a `want-ref` names a ref by its full name (or `HEAD`) as the client sees it: inside the
 *   served namespace, not hidden. Its object is wanted, and the `wanted-refs` section lists
 *   `<oid> <ref>` for each `want-ref` line, in the order sent (repeats included);
 * - with `sideband-all`, every line of every section travels on band 1 (delim and flush packets
 *   stay bare), and a refusal before the pack travels on band 3 in place of an `ERR` line.
 */
import type { WriteOptions } from '../options';
import { LARGE_PACKET_MAX } from '../constants';
import { Band, encodePktLine } from '../protocol/pktLine';
import { sendSideband } from '../protocol/sideband';
import { UploadPackError } from './errors';
import { isHidden } from './hideRefs';
import { PackSender, type WriteMode } from './packSender';
import { visibleRefs, type RefScope } from './refView';
import type { RawRefs } from './repository';
import type { ServeConfig } from './serveConfig';

/** The v2 fetch features the configuration turns on. */
export interface V2Features {
  readonly filter: boolean;
  readonly refInWant: boolean;
  readonly sidebandAll: boolean;
}

/**
 * The v2 fetch features of a repository's configuration (`uploadpack.allowFilter`,
 * `allowRefInWant`, `allowSidebandAll`).
 * @throws {@link UploadPackError} for a value that is not a boolean, as git refuses it.
 */
export function v2Features(config: ServeConfig): V2Features {
  return {
    filter: config.bool('uploadpack.allowfilter', false),
    refInWant: config.bool('uploadpack.allowrefinwant', false),
    sidebandAll: config.bool('uploadpack.allowsidebandall', false),
  };
}

/** The `fetch=` capability value's optional features, in git's order. */
export function fetchFeatureNames(features: V2Features): string[] {
  return [
    ...(features.filter ? ['filter'] : []),
    ...(features.refInWant ? ['ref-in-want'] : []),
    ...(features.sidebandAll ? ['sideband-all'] : []),
  ];
}

/**
 * The object a `want-ref` names, as the client may see it.
 *
 * @throws {@link UploadPackError} `unknown ref <ref>` (git's ERR) for a ref that does not exist
 *   in the namespace, or is hidden.
 */
export function resolveWantRef(name: string, raw: RawRefs, gitDir: string, scope: RefScope): string {
  const unknown = new UploadPackError(`unknown ref ${name}`, { wire: `unknown ref ${name}` });
  const full = `${scope.prefix}${name}`;
  if (isHidden(scope.rules, name, full)) throw unknown;
  const oid =
    name === 'HEAD'
      ? visibleRefs(raw, gitDir, { prefix: scope.prefix, rules: [] }).head?.oid
      : raw.refs.find((ref) => ref.name === full)?.oid;
  if (oid === undefined) throw unknown;
  return oid;
}

/** The `wanted-refs` section's lines (without the header), one per `want-ref`, in order. */
export function wantedRefsLines(wanted: readonly { name: string; oid: string }[]): string[] {
  return wanted.map(({ name, oid }) => `${oid} ${name}`);
}

/**
 * One section line as a pkt-line, on band 1 under `sideband-all`; with a newline unless `newline`
 * is false (git sends its `shallow` and `unshallow` lines bare).
 */
export function sectionPacket(line: string, sidebandAll: boolean, newline = true): Buffer {
  const text = Buffer.from(newline ? `${line}\n` : line, 'utf8');
  return encodePktLine(sidebandAll ? Buffer.concat([Buffer.of(Band.data), text]) : text);
}

/**
 * The pack sender of a `sideband-all` fetch, made as soon as the client asks for it, so that a
 * refusal before the pack goes on band 3 as git sends it there: the message as it is (git's
 * `ERR` text without the `ERR `), no newline added.
 */
export class SidebandAllSender extends PackSender {
  constructor(
    private readonly out: number,
    mode: WriteMode,
    progress: boolean,
    private readonly writeOptions: WriteOptions = {},
  ) {
    super(out, 'side-band-64k', mode, progress, writeOptions);
  }

  override fail(message: string): void {
    if (this.packBytesSent > 0) return super.fail(message);
    this.flush();
    sendSideband(this.out, Band.error, Buffer.from(message, 'utf8'), LARGE_PACKET_MAX, this.writeOptions);
  }
}
