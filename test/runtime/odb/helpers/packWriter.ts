import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/** An entry of a hand-made pack: a whole object, or a reference delta claiming to produce `oid`. */
export type HandEntry =
  | { kind: 'whole'; type: 'blob' | 'tree' | 'commit' | 'tag'; data: Buffer }
  | { kind: 'ref-delta'; oid: string; base: string; delta: Buffer };

const TYPE_NUMBERS = { commit: 1, tree: 2, blob: 3, tag: 4 } as const;

/** The SHA-1 id Git gives a whole object. */
export function objectId(type: string, data: Buffer): string {
  return createHash('sha1').update(`${type} ${data.length}\0`).update(data).digest('hex');
}

/** A delta's header: base size and result size, base-128 little-endian. */
export function deltaHeader(baseSize: number, resultSize: number): Buffer {
  const out: number[] = [];
  for (let n of [baseSize, resultSize]) {
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
  }
  return Buffer.from(out);
}

function entryBytes(entry: HandEntry): Buffer {
  const typeNumber = entry.kind === 'whole' ? TYPE_NUMBERS[entry.type] : 7;
  const payload = entry.kind === 'whole' ? entry.data : entry.delta;
  const header: number[] = [];
  let size = payload.length;
  let byte = (typeNumber << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    header.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  header.push(byte);
  const base = entry.kind === 'ref-delta' ? Buffer.from(entry.base, 'hex') : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(header), base, deflateSync(payload)]);
}

/**
 * Makes a bare-enough repository (HEAD, objects/pack) holding one pack of `entries` with a version 2
 * index, written from the format description: the way to build damage git itself refuses to make,
 * such as a loop of reference deltas. Returns the repository and the id of each entry, in order.
 */
export function writeHandPack(dir: string, entries: HandEntry[]): { ids: string[]; packPath: string } {
  const packDir = join(dir, 'objects', 'pack');
  mkdirSync(packDir, { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  const header = Buffer.alloc(12);
  header.write('PACK', 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const parts: Buffer[] = [header];
  let offset = 12;
  const rows = entries.map((entry) => {
    const bytes = entryBytes(entry);
    const id = entry.kind === 'whole' ? objectId(entry.type, entry.data) : entry.oid;
    const row = { id, offset, crc: crc32(bytes) };
    parts.push(bytes);
    offset += bytes.length;
    return row;
  });
  const body = Buffer.concat(parts);
  const packChecksum = createHash('sha1').update(body).digest();
  const name = packChecksum.toString('hex');
  const packPath = join(packDir, `pack-${name}.pack`);
  writeFileSync(packPath, Buffer.concat([body, packChecksum]));

  const sorted = [...rows].sort((a, b) => a.id.localeCompare(b.id));
  const fanout = Buffer.alloc(1024);
  for (let i = 0; i < 256; i++) {
    fanout.writeUInt32BE(sorted.filter((r) => parseInt(r.id.slice(0, 2), 16) <= i).length, i * 4);
  }
  const table = (width: number, write: (buf: Buffer, r: (typeof rows)[number]) => void): Buffer =>
    Buffer.concat(
      sorted.map((r) => {
        const buf = Buffer.alloc(width);
        write(buf, r);
        return buf;
      }),
    );
  const idxBody = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    fanout,
    Buffer.concat(sorted.map((r) => Buffer.from(r.id, 'hex'))),
    table(4, (b, r) => b.writeUInt32BE(r.crc)),
    table(4, (b, r) => b.writeUInt32BE(r.offset)),
    packChecksum,
  ]);
  const idx = Buffer.concat([idxBody, createHash('sha1').update(idxBody).digest()]);
  writeFileSync(join(packDir, `pack-${name}.idx`), idx);
  return { ids: rows.map((r) => r.id), packPath };
}
