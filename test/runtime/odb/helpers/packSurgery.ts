import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PackFile, type EntryHeader } from '@writev/runtime/dist/odb/packFile';
import { PackIndex } from '@writev/runtime/dist/odb/packIndex';

/** One entry of a pack as the tests see it. */
export interface EntryInfo {
  oid: string;
  position: number;
  offset: number;
  end: number;
  header: EntryHeader;
}

/** The single pack of a (SHA-1) repository, its index and every entry sorted by offset. */
export interface PackLayout {
  packPath: string;
  idxPath: string;
  entries: EntryInfo[];
}

/** Reads the layout of the one pack in `repoDir` (a bare repository). */
export function packLayout(repoDir: string): PackLayout {
  const packDir = join(repoDir, 'objects', 'pack');
  const idxName = readdirSync(packDir).find((n) => n.endsWith('.idx'));
  if (idxName === undefined) throw new Error(`no pack in ${packDir}`);
  const idxPath = join(packDir, idxName);
  const packPath = idxPath.replace(/\.idx$/, '.pack');
  const index = PackIndex.open(idxPath, 'sha1');
  const pack = PackFile.open(packPath, index, 'sha1');
  const entries: EntryInfo[] = [];
  for (let position = 0; position < index.count; position++) {
    const offset = index.offsetAt(position);
    entries.push({
      oid: index.idAt(position).toString('hex'),
      position,
      offset,
      end: 0,
      header: pack.readHeader(offset),
    });
  }
  pack.close();
  entries.sort((a, b) => a.offset - b.offset);
  const packSize = readFileSync(packPath).length;
  entries.forEach((e, i) => (e.end = i + 1 < entries.length ? entries[i + 1]!.offset : packSize - 20));
  return { packPath, idxPath, entries };
}

/** Offsets of the tables in a version 2 SHA-1 index of `count` objects. */
function tables(count: number): { crcs: number; offsets: number } {
  const crcs = 8 + 1024 + count * 20;
  return { crcs, offsets: crcs + count * 4 };
}

/** Rewrites the index so its checksum matches again after `change` edited it in memory. */
export function editIndex(idxPath: string, change: (idx: Buffer, count: number) => void): void {
  const idx = readFileSync(idxPath);
  change(idx, idx.readUInt32BE(8 + 255 * 4));
  createHash('sha1')
    .update(idx.subarray(0, idx.length - 20))
    .digest()
    .copy(idx, idx.length - 20);
  writeFileSync(idxPath, idx);
}

/** Sets the offset the index records for the object at `position`, keeping the index's checksum valid. */
export function setIndexedOffset(idxPath: string, position: number, offset: number): void {
  editIndex(idxPath, (idx, count) => idx.writeUInt32BE(offset, tables(count).offsets + position * 4));
}

/**
 * Changes the bytes of one pack entry in place and makes the index's CRC-32 of it (and the index's
 * checksum) agree again, so the damage gets past the CRC check to the deeper checks.
 */
export function damageEntry(layout: PackLayout, entry: EntryInfo, change: (bytes: Buffer) => void): void {
  const pack = readFileSync(layout.packPath);
  const bytes = pack.subarray(entry.offset, entry.end);
  change(bytes);
  writeFileSync(layout.packPath, pack);
  editIndex(layout.idxPath, (idx, count) =>
    idx.writeUInt32BE(crc32(bytes), tables(count).crcs + entry.position * 4),
  );
}

/** Flips every bit of the byte at `offset` of `file`. */
export function flipByte(file: string, offset: number): void {
  const bytes = readFileSync(file);
  if (offset >= bytes.length) throw new RangeError(`${file} has no byte at offset ${offset}`);
  bytes[offset]! ^= 0xff;
  writeFileSync(file, bytes);
}

/** Cuts `file` to its first `length` bytes. */
export function truncateFile(file: string, length: number): void {
  writeFileSync(file, readFileSync(file).subarray(0, length));
}
