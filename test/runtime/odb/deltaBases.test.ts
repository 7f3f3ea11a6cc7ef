import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openRepository } from '@writev/runtime';
import { PackFile } from '@writev/runtime/dist/odb/packFile';
import { PackIndex } from '@writev/runtime/dist/odb/packIndex';
import { allObjects, git, GitFixtures } from './helpers/gitFixtures';
import { objectId, writeHandPack } from './helpers/packWriter';

const fixtures = new GitFixtures();
const scratch = mkdtempSync(join(tmpdir(), 'writev-delta-bases-'));
after(() => {
  fixtures.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** The repository's one pack, opened through the parser. */
function onlyPack(dir: string): { pack: PackFile; index: PackIndex; packPath: string } {
  const packDir = join(dir, 'objects', 'pack');
  const names = readdirSync(packDir).filter((n) => n.endsWith('.idx'));
  assert.equal(names.length, 1, 'one pack');
  const index = PackIndex.open(join(packDir, names[0]!), 'sha1');
  const packPath = join(packDir, names[0]!.replace(/\.idx$/, '.pack'));
  return { pack: PackFile.open(packPath, index, 'sha1'), index, packPath };
}

/** How many deltas git says are made against each object of the pack (`git verify-pack -v`). */
function childrenByGit(dir: string, packPath: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of git(dir, ['verify-pack', '-v', packPath]).toString().split('\n')) {
    const fields = line.split(/\s+/);
    // "<oid> <type> <size> <size-in-pack> <offset> <depth> <base-oid>" for a delta.
    if (fields.length === 7 && /^[0-9a-f]{40}$/.test(fields[6]!)) {
      counts.set(fields[6]!, (counts.get(fields[6]!) ?? 0) + 1);
    }
  }
  return counts;
}

describe('PackFile.findDeltaBases', () => {
  for (const name of ['gc', 'refDeltas'] as const) {
    it(`counts the deltas made against each entry as git verify-pack does (${name})`, () => {
      const dir = fixtures[name];
      const { pack, index, packPath } = onlyPack(dir);
      try {
        assert.equal(pack.deltaChildren(index.offsetAt(0)), undefined, 'unknown before the scan');
        pack.findDeltaBases();
        const expected = childrenByGit(dir, packPath);
        assert.ok(expected.size > 20, 'the pack has delta bases');
        let bases = 0;
        for (let i = 0; i < index.count; i++) {
          const oid = index.idAt(i).toString('hex');
          const count = pack.deltaChildren(index.offsetAt(i));
          assert.equal(count, expected.get(oid) ?? 0, `deltas against ${oid}`);
          if (count > 0) bases++;
        }
        assert.equal(bases, expected.size);
      } finally {
        pack.close();
      }
    });
  }

  it('leaves the counts unknown when an entry header is damaged, and objects still read right', () => {
    const dir = join(scratch, 'damaged');
    cpSync(fixtures.gc, dir, { recursive: true });
    const { pack, index, packPath } = onlyPack(dir);
    pack.close();
    // The last entry's first byte becomes type 5 (reserved): its header is invalid.
    let last = 0;
    let lastOid = '';
    for (let i = 0; i < index.count; i++) {
      if (index.offsetAt(i) < last) continue;
      last = index.offsetAt(i);
      lastOid = index.idAt(i).toString('hex');
    }
    const bytes = readFileSync(packPath);
    bytes[last] = (bytes[last]! & 0x8f) | 0x50;
    writeFileSync(packPath, bytes);
    const damaged = PackFile.open(packPath, index, 'sha1');
    try {
      damaged.findDeltaBases();
      assert.equal(damaged.deltaChildren(index.offsetAt(0)), undefined);
    } finally {
      damaged.close();
    }
    // A reader that scans this pack keeps every object, as before: every other object reads right.
    const repo = openRepository(dir);
    try {
      let read = 0;
      for (const { oid, data } of allObjects(fixtures.gc)) {
        if (oid === lastOid) continue;
        assert.ok(repo.readObject(oid)?.data.equals(data), `${oid} bytes`);
        read++;
      }
      assert.ok(read > 256, 'enough reads to start the scan');
    } finally {
      repo.close();
    }
  });
});

describe('Repository keeps an object asked for only while deltas against it are to come', () => {
  /** Every blob of the history, newest first, as `git rev-list --objects` lists them. */
  function blobsInHistoryOrder(dir: string): string[] {
    const listed = git(dir, ['rev-list', '--objects', '--all']).toString().trim().split('\n');
    const ids = listed.map((line) => line.slice(0, 40));
    const types = git(dir, ['cat-file', '--batch-check=%(objecttype)'], ids.join('\n') + '\n')
      .toString()
      .trim()
      .split('\n');
    return ids.filter((_, i) => types[i] === 'blob');
  }

  for (const name of ['gc', 'refDeltas'] as const) {
    it(`gives git's bytes for every blob in history order, twice, holding none once all were asked for (${name})`, () => {
      const dir = fixtures[name];
      const expected = new Map(allObjects(dir).map((o) => [o.oid, o.data]));
      const blobs = blobsInHistoryOrder(dir);
      const repo = openRepository(dir);
      try {
        // Reads in bulk start the scan: one object read often enough, so nothing else is cached.
        const head = git(dir, ['rev-list', '-1', '--all']).toString().trim();
        for (let i = 0; i < 256; i++) repo.readObjectShared(head);
        const before = repo.deltaBaseCacheBytes;
        for (const round of [1, 2]) {
          let most = 0;
          for (const oid of blobs) {
            const object = repo.readObjectShared(oid);
            assert.ok(
              object !== undefined && object.data.equals(expected.get(oid)!),
              `${oid}, round ${round}`,
            );
            most = Math.max(most, repo.deltaBaseCacheBytes - before);
            repo.releaseShared();
          }
          // Once every blob was asked for, every delta against each was made: none is held.
          assert.ok(most > 0, 'bases were held on the way');
          assert.equal(repo.deltaBaseCacheBytes, before, `round ${round}`);
        }
      } finally {
        repo.close();
      }
    });
  }

  it('never holds more than its limit, however the objects are asked for', () => {
    const dir = fixtures.gc;
    const expected = allObjects(dir);
    for (const limit of [1, 4096, 65536]) {
      const repo = openRepository(dir, { deltaBaseCacheLimit: limit });
      try {
        for (const order of [expected, [...expected].reverse()]) {
          for (const { oid, data } of order) {
            assert.ok(repo.readObjectShared(oid)?.data.equals(data), oid);
            assert.ok(repo.deltaBaseCacheBytes <= limit, `${repo.deltaBaseCacheBytes} > ${limit}`);
            repo.releaseShared();
          }
        }
      } finally {
        repo.close();
      }
    }
  });
});

describe('the scan of a large pack', () => {
  it('starts after one read in 64 of its entries, and from then on answers nothing is made from are not kept', () => {
    // 20,000 distinct small blobs, all stored whole: nothing is a delta base. The scan starts at
    // read 313 (20,000 / 64, rounded up), not at 256. (fast-import is far too slow to write such a
    // pack for a unit test; the hand-made pack is written directly.)
    const dir = join(scratch, 'many');
    git(scratch, ['init', '--quiet', '--bare', dir]);
    const entries = Array.from({ length: 20_000 }, (_, i) => ({
      kind: 'whole' as const,
      type: 'blob' as const,
      data: Buffer.from(`blob number ${i}\n`),
    }));
    writeHandPack(dir, entries);
    const blobs = entries.map((e) => ({ oid: objectId('blob', e.data), data: e.data }));
    const repo = openRepository(dir);
    try {
      const held: number[] = [];
      for (const { oid, data } of blobs.slice(0, 400)) {
        assert.ok(repo.readObjectShared(oid)?.data.equals(data), oid);
        repo.releaseShared();
        held.push(repo.deltaBaseCacheBytes);
      }
      // Until the scan every object read is kept; from the 313th on (the scan's start), none is.
      assert.ok(held[311]! > held[310]!, 'kept before the scan');
      assert.equal(held[399], held[311], 'nothing kept from the scan on');
    } finally {
      repo.close();
    }
  });
});
