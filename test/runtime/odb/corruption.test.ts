import { strict as assert } from 'node:assert';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { ObjectCorruptError, openRepository } from '@writev/runtime';
import { allObjects, GitFixtures } from './helpers/gitFixtures';
import {
  damageEntry,
  flipByte,
  packLayout,
  setIndexedOffset,
  truncateFile,
  type EntryInfo,
} from './helpers/packSurgery';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** Asserts that `read` throws an ObjectCorruptError whose message names `file` and matches `problem`. */
function assertCorrupt(read: () => unknown, file: string, problem: RegExp, offset?: number): void {
  assert.throws(read, (err: unknown) => {
    assert.ok(err instanceof ObjectCorruptError, `expected ObjectCorruptError, got ${String(err)}`);
    assert.equal(err.file, file);
    assert.ok(err.message.startsWith(file), err.message);
    assert.match(err.message, problem);
    if (offset !== undefined) assert.equal(err.offset, offset);
    return true;
  });
}

function loosePath(dir: string, oid: string): string {
  return `${dir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
}

function largestBlob(dir: string): string {
  return allObjects(dir)
    .filter((o) => o.type === 'blob')
    .sort((a, b) => b.data.length - a.data.length)[0]!.oid;
}

describe('corrupt loose objects', () => {
  it('a flipped byte is reported with the file', () => {
    const dir = fixtures.copy(fixtures.loose, 'loose-flip');
    const oid = largestBlob(dir);
    const file = loosePath(dir, oid);
    flipByte(file, Math.floor(statSync(file).size / 2));
    assertCorrupt(() => openRepository(dir).readObject(oid), file, /zlib|hashes/);
  });

  it('a truncated file is reported as a truncated zlib stream', () => {
    const dir = fixtures.copy(fixtures.loose, 'loose-truncated');
    const oid = largestBlob(dir);
    const file = loosePath(dir, oid);
    truncateFile(file, statSync(file).size - 100);
    assertCorrupt(() => openRepository(dir).readObject(oid), file, /zlib stream is truncated/, 0);
  });

  it('an intact file under the wrong name is not returned as that object', () => {
    const dir = fixtures.copy(fixtures.loose, 'loose-swapped');
    const [a, b] = allObjects(dir).filter((o) => o.type === 'blob');
    assert.ok(a && b, 'the loose fixture has two blobs');
    renameSync(loosePath(dir, b.oid), loosePath(dir, a.oid));
    assertCorrupt(
      () => openRepository(dir).readObject(a.oid),
      loosePath(dir, a.oid),
      /hashes to .* not to its name/,
    );
  });

  it('a header with an unknown type is reported', () => {
    const dir = fixtures.copy(fixtures.loose, 'loose-header');
    const oid = largestBlob(dir);
    const file = loosePath(dir, oid);
    // Replace the file with a valid zlib stream whose header names no object type.
    writeFileSync(file, deflateSync(Buffer.from('blub 3\0abc')));
    assertCorrupt(() => openRepository(dir).readObject(oid), file, /bad loose object header "blub 3"/, 0);
    assertCorrupt(() => openRepository(dir).readHeader(oid), file, /bad loose object header/, 0);
  });
});

describe('corrupt packs', () => {
  const pick = (entries: EntryInfo[], kind: string): EntryInfo => {
    const found = entries
      .filter(
        (e) =>
          e.header.kind === kind &&
          (kind !== 'whole' || (e.header.kind === 'whole' && e.header.type === 'blob')),
      )
      .sort((a, b) => b.end - b.offset - (a.end - a.offset))[0];
    assert.ok(found, `the pack has a ${kind} entry`);
    return found;
  };

  it('a flipped byte inside an entry fails its CRC-32, naming pack and entry offset', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-flip');
    const layout = packLayout(dir);
    const entry = pick(layout.entries, 'whole');
    flipByte(layout.packPath, entry.offset + 10);
    assertCorrupt(() => openRepository(dir).readObject(entry.oid), layout.packPath, /CRC-32/, entry.offset);
  });

  it('damage the CRC-32 cannot see is caught by zlib’s checksum', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-flip-crc-fixed');
    const layout = packLayout(dir);
    const entry = pick(layout.entries, 'whole');
    damageEntry(layout, entry, (bytes) => (bytes[bytes.length - 30]! ^= 0x55));
    assertCorrupt(() => openRepository(dir).readObject(entry.oid), layout.packPath, /zlib/);
  });

  it('an entry with an invalid type is reported as such', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-type');
    const layout = packLayout(dir);
    const entry = pick(layout.entries, 'whole');
    damageEntry(layout, entry, (bytes) => (bytes[0] = (bytes[0]! & 0x8f) | (5 << 4)));
    assertCorrupt(
      () => openRepository(dir).readObject(entry.oid),
      layout.packPath,
      /invalid type 5/,
      entry.offset,
    );
  });

  it('an entry whose size was changed is caught by the size check', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-size');
    const layout = packLayout(dir);
    const entry = pick(layout.entries, 'whole');
    damageEntry(layout, entry, (bytes) => (bytes[0]! ^= 0x01));
    assertCorrupt(() => openRepository(dir).readObject(entry.oid), layout.packPath, /inflates to/);
  });

  it('a truncated pack is reported when it is opened', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-truncated');
    const layout = packLayout(dir);
    truncateFile(layout.packPath, statSync(layout.packPath).size - 1000);
    assertCorrupt(() => openRepository(dir), layout.packPath, /pack checksum does not match/);
  });

  it('a truncated delta entry is reported, not applied', () => {
    const dir = fixtures.copy(fixtures.gc, 'pack-delta-cut');
    const layout = packLayout(dir);
    const entry = pick(layout.entries, 'ofs-delta');
    damageEntry(layout, entry, (bytes) => bytes.fill(0, bytes.length - 8));
    assertCorrupt(() => openRepository(dir).readObject(entry.oid), layout.packPath, /zlib/);
  });
});

describe('corrupt indexes', () => {
  it('a flipped byte fails the index checksum when the repository is opened', () => {
    const dir = fixtures.copy(fixtures.gc, 'idx-flip');
    const layout = packLayout(dir);
    flipByte(layout.idxPath, 2000);
    assertCorrupt(() => openRepository(dir), layout.idxPath, /index checksum does not match/);
  });

  it('a truncated index is reported', () => {
    const dir = fixtures.copy(fixtures.gc, 'idx-truncated');
    const layout = packLayout(dir);
    truncateFile(layout.idxPath, 1500);
    assertCorrupt(() => openRepository(dir), layout.idxPath, /cannot be 1500 bytes long|truncated/);
  });

  it('an index pointing past the pack is reported, naming the index', () => {
    const dir = fixtures.copy(fixtures.gc, 'idx-past-end');
    const layout = packLayout(dir);
    const entry = layout.entries[3]!;
    setIndexedOffset(layout.idxPath, entry.position, statSync(layout.packPath).size + 4096);
    assertCorrupt(() => openRepository(dir).readObject(entry.oid), layout.idxPath, /points past its pack/);
  });

  it('an index pointing into the middle of an entry is reported, not followed', () => {
    const dir = fixtures.copy(fixtures.gc, 'idx-mid-entry');
    const layout = packLayout(dir);
    const entry = layout.entries[3]!;
    setIndexedOffset(layout.idxPath, entry.position, entry.offset + 1);
    assertCorrupt(
      () => openRepository(dir).readObject(entry.oid),
      layout.packPath,
      /CRC-32/,
      entry.offset + 1,
    );
  });
});

describe('random damage', () => {
  it('never yields a wrong object or an error other than ObjectCorruptError', () => {
    const dir = fixtures.copy(fixtures.gc, 'fuzz');
    const layout = packLayout(dir);
    const pristinePack = readFileSync(layout.packPath);
    const pristineIndex = readFileSync(layout.idxPath);
    const expected = new Map(allObjects(dir).map((o) => [o.oid, o]));
    const small = layout.entries.filter((e) => e.end - e.offset < 64 * 1024);
    let seed = 12345;
    const below = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let caught = 0;
    for (let round = 0; round < 60; round++) {
      writeFileSync(layout.packPath, pristinePack);
      writeFileSync(layout.idxPath, pristineIndex);
      const victim = small[below(small.length)]!;
      damageEntry(layout, victim, (bytes) => {
        const at = below(bytes.length);
        if (below(3) === 0) bytes.fill(below(256), at);
        else bytes[at]! ^= 1 + below(255);
      });
      const repo = openRepository(dir, { deltaBaseCacheLimit: 0 });
      for (const entry of small) {
        try {
          const object = repo.readObject(entry.oid);
          const want = expected.get(entry.oid)!;
          assert.equal(object?.type, want.type, `round ${round}: ${entry.oid} type`);
          assert.ok(object?.data.equals(want.data), `round ${round}: ${entry.oid} returned wrong bytes`);
        } catch (err) {
          if (!(err instanceof ObjectCorruptError)) throw err;
          caught++;
        }
      }
      repo.close();
    }
    assert.ok(caught >= 60, `every round's damage was reported (${caught} reports)`);
  });
});
