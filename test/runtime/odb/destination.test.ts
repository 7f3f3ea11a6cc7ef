import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { openRepository, type Repository } from '@writev/runtime';
import type { Destination } from '@writev/runtime/dist/odb/repository';
import { allObjects, GitFixtures } from './helpers/gitFixtures';
import { packLayout } from './helpers/packSurgery';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** Every blob of the gc fixture by id, and which of them some delta of the pack is made from. */
function gcBlobs(): { blobs: Map<string, Buffer>; bases: Set<string> } {
  const blobs = new Map<string, Buffer>();
  for (const o of allObjects(fixtures.gc)) if (o.type === 'blob') blobs.set(o.oid, o.data);
  const { entries } = packLayout(fixtures.gc);
  const byOffset = new Map(entries.map((e) => [e.offset, e.oid]));
  const bases = new Set<string>();
  for (const e of entries) {
    if (e.header.kind === 'ofs-delta') bases.add(byOffset.get(e.header.baseOffset)!);
  }
  return { blobs, bases };
}

/**
 * Reads one commit often enough for the pack to be scanned for its delta bases (before that,
 * nothing is known to be free of deltas made from it), leaving every other object unread.
 */
function scanned(repo: Repository): void {
  const commit = allObjects(fixtures.gc).find((o) => o.type === 'commit')!.oid;
  for (let i = 0; i < 300; i++) repo.readObjectShared(commit);
}

describe('Repository.readObjectShared with a destination', () => {
  it('makes a blob nothing more is made from in the memory given, and a delta base elsewhere', () => {
    const { blobs, bases } = gcBlobs();
    const repo = openRepository(fixtures.gc);
    try {
      scanned(repo);
      let given = 0;
      let made = 0;
      let leaves = 0;
      for (const [oid, expected] of blobs) {
        const calls: { type: string; size: number }[] = [];
        const memory = Buffer.alloc(expected.length + 1 + 8, 0xee);
        const destination: Destination = (type, size) => {
          calls.push({ type, size });
          return memory.subarray(8);
        };
        const object = repo.readObjectShared(oid, destination);
        assert.ok(object !== undefined);
        assert.ok(object.data.equals(expected), `bytes of ${oid}`);
        if (bases.has(oid)) {
          assert.equal(calls.length, 0, `${oid} is a delta base: it stays the cache's`);
          continue;
        }
        if (calls.length === 0) continue; // in the cache already: nothing to make
        leaves++;
        assert.deepEqual(calls, [{ type: 'blob', size: expected.length }]);
        given++;
        if (object.data.buffer === memory.buffer) {
          assert.equal(object.data.byteOffset, memory.byteOffset + 8);
          assert.ok(memory.subarray(8, 8 + expected.length).equals(expected));
          assert.ok(memory.subarray(0, 8).equals(Buffer.alloc(8, 0xee)), 'nothing before the memory given');
          made++;
        }
      }
      assert.ok(leaves > 20, `blobs made from scratch: ${leaves}`);
      assert.equal(made, given, 'every blob given memory was made in it');
    } finally {
      repo.close();
    }
  });

  it('reads right when the destination gives nothing or too little', () => {
    const { blobs } = gcBlobs();
    for (const give of [
      (): Buffer | undefined => undefined,
      (size: number): Buffer | undefined => Buffer.alloc(size),
    ]) {
      const repo = openRepository(fixtures.gc);
      try {
        for (let round = 0; round < 3; round++) {
          for (const [oid, expected] of blobs) {
            const object = repo.readObjectShared(oid, (_type, size) => give(size));
            assert.ok(object !== undefined && object.data.equals(expected), `bytes of ${oid}`);
            assert.equal(object.size, expected.length);
          }
        }
      } finally {
        repo.close();
      }
    }
  });

  it('never offers a tree, commit or tag a blob’s room: the type is said', () => {
    const repo = openRepository(fixtures.gc);
    const objects = allObjects(fixtures.gc);
    try {
      scanned(repo);
      const types = new Set<string>();
      for (const o of objects) {
        let said: string | undefined;
        const object = repo.readObjectShared(o.oid, (type) => {
          said = type;
          return undefined;
        });
        assert.ok(object?.data.equals(o.data));
        if (said !== undefined) {
          assert.equal(said, o.type);
          types.add(said);
        }
      }
      assert.ok(types.has('tree') || types.has('commit'), 'other types are asked about too');
    } finally {
      repo.close();
    }
  });
});
