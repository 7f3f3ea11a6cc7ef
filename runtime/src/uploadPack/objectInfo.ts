/**
 * Protocol v2's `object-info` command (gitprotocol-v2(5)): facts about objects by id without
 * fetching them. The one attribute defined is `size`; each `oid <id>` is answered with
 * `<id> <size>`, or `<id> ` for an object the repository lacks, after a `size` line naming the
 * attribute. Git offers it when `transfer.advertiseObjectInfo` is true, and so does this server.
 */
import { encodePktLine, flushPkt } from '../protocol/pktLine';
import { gitAsync } from './repository';

/** Whether the configuration offers `object-info`. */
export function offersObjectInfo(config: { bool(key: string, fallback: boolean): boolean }): boolean {
  return config.bool('transfer.advertiseobjectinfo', false);
}

/**
 * The packets of the answer to one `object-info` request: its lines (no newline, as git writes
 * them) and a flush. As git 2.39 answers: each line that is neither `size` nor `oid <id>` gets an
 * `ERR` line first, and the rest is answered all the same; without ids the answer is the flush
 * alone; an id that is not hexadecimal of the repository's length ends the answer with an `ERR`
 * line at its place. The session goes on after it either way.
 */
export async function objectInfo(
  gitDir: string,
  args: readonly string[],
  objectFormat: 'sha1' | 'sha256',
): Promise<Buffer[]> {
  let size = false;
  const oids: string[] = [];
  const packets: Buffer[] = [];
  for (const arg of args) {
    if (arg === 'size') size = true;
    else if (arg.startsWith('oid ')) oids.push(arg.slice('oid '.length));
    else packets.push(errLine(`object-info: unexpected line: '${arg}'`));
  }
  if (oids.length === 0) return [...packets, flushPkt()];
  const hex = objectFormat === 'sha256' ? 64 : 40;
  const valid = new RegExp(`^[0-9a-f]{${hex}}$`);
  const firstBad = oids.findIndex((oid) => !valid.test(oid));
  const good = firstBad === -1 ? oids : oids.slice(0, firstBad);
  const sizes = size && good.length > 0 ? await objectSizes(gitDir, good) : new Map<string, string>();
  if (size) packets.push(encodePktLine('size'));
  for (const oid of good) packets.push(encodePktLine(size ? `${oid} ${sizes.get(oid) ?? ''}` : oid));
  if (firstBad !== -1) {
    packets.push(errLine(`object-info: protocol error, expected to get oid, not '${oids[firstBad]}'`));
  }
  return [...packets, flushPkt()];
}

function errLine(message: string): Buffer {
  return encodePktLine(`ERR ${message}`);
}

/** The size of each of `oids` the repository has, from one `cat-file --batch-check`. */
async function objectSizes(gitDir: string, oids: readonly string[]): Promise<Map<string, string>> {
  const out = await gitAsync(
    gitDir,
    ['cat-file', '--batch-check=%(objectname) %(objectsize)'],
    `${oids.join('\n')}\n`,
  );
  const sizes = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [oid, size] = line.split(' ');
    if (oid && size && /^\d+$/.test(size)) sizes.set(oid, size);
  }
  return sizes;
}
