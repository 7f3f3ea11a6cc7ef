import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidObjectIdError, openRepository, RepositoryError, type Repository } from '@writev/runtime';
import { PackFile } from '@writev/runtime/dist/odb/packFile';
import { PackIndex } from '@writev/runtime/dist/odb/packIndex';
import { allObjects, git, GitFixtures } from './helpers/gitFixtures';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** Reads every object git lists back through the reader and compares type, size and bytes. */
function assertReadsEverything(
  dir: string,
  repo: Repository = openRepository(dir),
  order: 'listed' | 'reversed' = 'listed',
): number {
  const listed = allObjects(dir);
  if (order === 'reversed') listed.reverse();
  try {
    for (const { oid, type, data } of listed) {
      const object = repo.readObject(oid);
      assert.ok(object, `${oid} is missing`);
      assert.equal(object.type, type, `${oid} type`);
      assert.equal(object.size, data.length, `${oid} size`);
      assert.ok(object.data.equals(data), `${oid} bytes differ`);
      assert.deepEqual(repo.readHeader(oid), { type, size: data.length }, `${oid} header`);
    }
  } finally {
    repo.close();
  }
  return listed.length;
}

/** How many entries of each kind the repository's packs hold, read through the pack parser. */
function entryKinds(dir: string): Record<string, number> {
  const packDir = join(dir, 'objects', 'pack');
  const kinds: Record<string, number> = {};
  for (const name of readdirSync(packDir).filter((n) => n.endsWith('.idx'))) {
    const index = PackIndex.open(join(packDir, name), 'sha1');
    const pack = PackFile.open(join(packDir, name.replace(/\.idx$/, '.pack')), index, 'sha1');
    for (let i = 0; i < index.count; i++) {
      const kind = pack.readHeader(index.offsetAt(i)).kind;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    pack.close();
  }
  return kinds;
}

describe('openRepository reads every object git lists', () => {
  it('from loose objects only', () => {
    assert.equal(readdirSync(join(fixtures.loose, 'objects', 'pack')).length, 0);
    assert.ok(assertReadsEverything(fixtures.loose) > 150);
  });

  it('from a pack with offset deltas (after git gc)', () => {
    assert.ok((entryKinds(fixtures.gc)['ofs-delta'] ?? 0) > 50, 'the pack has offset deltas');
    assertReadsEverything(fixtures.gc);
  });

  it('from a pack with reference deltas (gc --aggressive, pack.useDeltaBaseOffset=false)', () => {
    const kinds = entryKinds(fixtures.refDeltas);
    assert.ok((kinds['ref-delta'] ?? 0) > 50, 'the pack has reference deltas');
    assert.equal(kinds['ofs-delta'] ?? 0, 0);
    assertReadsEverything(fixtures.refDeltas);
  });

  it('from several packs, which share one bound on pack windows', () => {
    const packs = readdirSync(join(fixtures.multiPack, 'objects', 'pack')).filter((n) => n.endsWith('.pack'));
    assert.equal(packs.length, 3);
    assert.ok((entryKinds(fixtures.multiPack)['ofs-delta'] ?? 0) > 20, 'the packs have deltas');
    assertReadsEverything(fixtures.multiPack);
  });

  it('from fast-import’s own pack', () => {
    assertReadsEverything(fixtures.imported);
  });

  it('through an alternate, and from a subdirectory of the work tree', () => {
    assertReadsEverything(fixtures.alternate);
    const sub = join(fixtures.alternate, 'deep', 'er');
    mkdirSync(sub, { recursive: true });
    const own = git(fixtures.alternate, ['rev-parse', 'HEAD:own.txt']).toString().trim();
    const repo = openRepository(sub);
    assert.equal(repo.readObject(own)?.data.toString(), 'only in the borrowing repository\n');
    assert.equal(repo.objectDirectories.length, 2);
    repo.close();
  });

  it('with a version 1 pack index', () => {
    assertReadsEverything(fixtures.indexV1);
  });

  it('in a SHA-256 repository', () => {
    assert.equal(openRepository(fixtures.sha256).algorithm, 'sha256');
    assertReadsEverything(fixtures.sha256);
  });

  it('with a delta-base cache of one byte, and with hash verification', () => {
    assertReadsEverything(fixtures.gc, openRepository(fixtures.gc, { deltaBaseCacheLimit: 1 }));
    assertReadsEverything(fixtures.refDeltas, openRepository(fixtures.refDeltas, { verifyHash: true }));
  });

  it('with caches that keep the plans of objects inside chains but must read their roots again', () => {
    // Small limits hold the small plans but few or none of the roots they are built from.
    for (const limit of [600, 4096, 32768]) {
      for (const order of ['listed', 'reversed'] as const) {
        for (const dir of [fixtures.gc, fixtures.refDeltas]) {
          assertReadsEverything(dir, openRepository(dir, { deltaBaseCacheLimit: limit }), order);
        }
      }
    }
  });
});

describe('openRepository edge cases', () => {
  it('reads the empty blob and blobs of several MB', () => {
    const repo = openRepository(fixtures.gc);
    const empty = git(fixtures.gc, ['rev-parse', 'main:extra/blob0.bin']).toString().trim();
    assert.equal(empty, 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    assert.deepEqual(repo.readObject(empty), { type: 'blob', size: 0, data: Buffer.alloc(0) });
    const big = git(fixtures.gc, ['rev-parse', 'main:extra/blob2.bin']).toString().trim();
    assert.equal(repo.readHeader(big)?.size, 5 * 1024 * 1024 + 17);
    assert.ok(repo.readObject(big)?.data.equals(git(fixtures.gc, ['cat-file', 'blob', big])));
    repo.close();
  });

  it('returns undefined for a missing object and accepts upper-case ids', () => {
    const repo = openRepository(fixtures.gc);
    assert.equal(repo.readObject('0123456789012345678901234567890123456789'), undefined);
    assert.equal(repo.readHeader('0123456789012345678901234567890123456789'), undefined);
    assert.equal(repo.hasObject('E69DE29BB2D1D6434B8B29AE775AD8C2E48C5391'), true);
    repo.close();
  });

  it('rejects an id that is not a full hexadecimal object id', () => {
    const repo = openRepository(fixtures.gc);
    const empty = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
    const bad = [
      '',
      'e69de29',
      'HEAD',
      `g${empty.slice(1)}`, // a bad digit first, in the middle, last
      `${empty.slice(0, 20)}x${empty.slice(21)}`,
      `${empty.slice(0, 39)}z`,
      `${empty} `,
      ` ${empty.slice(1)}`,
      `${empty}${empty.slice(0, 24)}`, // 64 digits in a SHA-1 repository
    ];
    for (const id of bad) {
      assert.throws(() => repo.readObject(id), InvalidObjectIdError, JSON.stringify(id));
      assert.throws(() => repo.hasObject(id), InvalidObjectIdError, JSON.stringify(id));
    }
    // Either case names the same object.
    assert.deepEqual(repo.readObject(empty.toUpperCase()), repo.readObject(empty));
    assert.equal(repo.readObject(empty.toUpperCase())?.size, 0);
    repo.close();
  });

  it('names a path that is not a repository', () => {
    assert.throws(
      () => openRepository('/'),
      (err: unknown) => err instanceof RepositoryError && err.code === 'ENOTREPO',
    );
  });

  it('refuses an object format it does not know, naming the config file', () => {
    const dir = fixtures.copy(fixtures.loose, 'unknown-format');
    git(dir, ['config', 'core.repositoryformatversion', '1']);
    git(dir, ['config', 'extensions.objectFormat', 'sha512']);
    assert.throws(
      () => openRepository(dir),
      (err: unknown) =>
        err instanceof RepositoryError &&
        err.code === 'EUNSUPPORTED' &&
        /config: object format sha512/.test(err.message),
    );
  });

  it('finds objects packed after it was opened', () => {
    const dir = fixtures.copy(fixtures.loose, 'repacked-later');
    const repo = openRepository(dir);
    const head = git(dir, ['rev-parse', 'main']).toString().trim();
    git(dir, ['gc', '-q', '--prune=now']);
    assert.equal(repo.readObject(head)?.type, 'commit');
    repo.close();
  });
});

describe('core.deltaBaseCacheLimit', () => {
  it('is honoured from the repository config, as Git does, and a bad value is named', () => {
    const dir = fixtures.copy(fixtures.gc, 'cache-limit');
    git(dir, ['config', 'core.deltaBaseCacheLimit', '1k']);
    assertReadsEverything(dir);
    git(dir, ['config', 'core.deltaBaseCacheLimit', 'lots']);
    assert.throws(() => openRepository(dir), /bad size "lots" for core.deltaBaseCacheLimit/);
  });
});
