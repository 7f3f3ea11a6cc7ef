import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { cacheKey, PackCache, PackChecksum } from '@writev/runtime';
import { Scratch } from './helpers/gitRepo';

/** A minimal valid pack: header for `objects` objects, a body, and the SHA-1 trailer. */
function fakePack(body: Buffer, objects = 1): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects, 8);
  const content = Buffer.concat([header, body]);
  return Buffer.concat([content, createHash('sha1').update(content).digest()]);
}

/** A cache key (64 hex digits) with a readable name in the test. */
const key = (label: string): string => createHash('sha256').update(label).digest('hex');
const K = {
  k: key('k'),
  k1: key('k1'),
  huge: key('huge'),
  old: key('old'),
  recent: key('recent'),
  new: key('new'),
};

function fill(cache: PackCache, key: string, pack: Buffer, pieces = 3): boolean {
  const f = cache.startFill(key, 'sha1');
  assert.ok(f);
  const step = Math.ceil(pack.length / pieces);
  for (let at = 0; at < pack.length; at += step) f.write(pack.subarray(at, at + step));
  return f.commit();
}

const request = {
  wants: ['b'.repeat(40), 'a'.repeat(40)],
  common: [],
  ofsDelta: true,
  objectFormat: 'sha1' as const,
};

describe('cacheKey', () => {
  it('depends on the set of wants and haves, not their order or repeats', () => {
    assert.equal(
      cacheKey(request),
      cacheKey({ ...request, wants: ['a'.repeat(40), 'b'.repeat(40), 'a'.repeat(40)] }),
    );
  });

  it('changes with a have, with ofs-delta and with the hash', () => {
    const keys = new Set([
      cacheKey(request),
      cacheKey({ ...request, common: ['c'.repeat(40)] }),
      cacheKey({ ...request, ofsDelta: false }),
      cacheKey({ ...request, objectFormat: 'sha256' }),
    ]);
    assert.equal(keys.size, 4);
  });

  it('changes with every shallow input: the boundary, the edges, and shallow mode itself', () => {
    const [c, d] = ['c'.repeat(40), 'd'.repeat(40)];
    const keys = new Set([
      cacheKey(request),
      // pack-objects told of no shallow commit still packs for a shallow client (--shallow-file '').
      cacheKey({ ...request, shallows: [] }),
      cacheKey({ ...request, shallows: [c] }),
      cacheKey({ ...request, shallows: [c, d] }),
      cacheKey({ ...request, shallows: [c], edges: [d] }),
    ]);
    assert.equal(keys.size, 5);
    assert.equal(
      cacheKey({ ...request, shallows: [d, c, c], edges: [] }),
      cacheKey({ ...request, shallows: [c, d] }),
      'the boundary is a set',
    );
  });

  it('keeps the key of a request without shallow inputs as it was (entries of earlier versions stay valid)', () => {
    const lines = [
      'writev-upload-pack cache v2',
      'object-format sha1',
      'settings ""',
      'ofs-delta 1',
      'thin-pack 0',
      'include-tag 0',
      `want ${'a'.repeat(40)}`,
      `want ${'b'.repeat(40)}`,
    ];
    assert.equal(cacheKey(request), createHash('sha256').update(lines.join('\n')).digest('hex'));
  });
});

describe('PackChecksum', () => {
  it('accepts a pack fed in any pieces and rejects one byte changed', () => {
    const pack = fakePack(Buffer.alloc(1000, 7));
    for (const step of [1, 3, 19, 20, 21, 500, pack.length]) {
      const sum = new PackChecksum('sha1');
      for (let at = 0; at < pack.length; at += step) sum.update(pack.subarray(at, at + step));
      assert.ok(sum.matches(), `pieces of ${step}`);
    }
    const bad = Buffer.from(pack);
    bad[100]! ^= 1;
    const sum = new PackChecksum('sha1');
    sum.update(bad);
    assert.ok(!sum.matches());
  });
});

describe('PackCache', () => {
  const scratch = new Scratch();
  after(() => scratch.dispose());

  it('stores a complete pack and opens it trusted', () => {
    const cache = new PackCache(scratch.path('a'));
    const pack = fakePack(Buffer.alloc(5000, 1));
    assert.equal(cache.open(K.k1), undefined);
    assert.ok(fill(cache, K.k1, pack));
    const entry = cache.open(K.k1)!;
    assert.equal(entry.size, pack.length);
    assert.ok(entry.trusted);
  });

  it('never stores a truncated or corrupt fill, and leaves no temporary file', () => {
    const cache = new PackCache(scratch.path('b'));
    const pack = fakePack(Buffer.alloc(5000, 2));
    assert.ok(!fill(cache, K.k, pack.subarray(0, pack.length - 1)));
    const bad = Buffer.from(pack);
    bad[50]! ^= 0xff;
    assert.ok(!fill(cache, K.k, bad));
    assert.deepEqual(readdirSync(scratch.path('b')), []);
  });

  it('does not trust an entry written to after it was stamped', () => {
    const dir = scratch.path('c');
    const cache = new PackCache(dir);
    fill(cache, K.k, fakePack(Buffer.alloc(100, 3)));
    chmodSync(`${dir}/${K.k}.pack`, 0o644);
    writeFileSync(`${dir}/${K.k}.pack`, fakePack(Buffer.alloc(100, 4)));
    assert.equal(cache.open(K.k)!.trusted, false);
  });

  it('drops a pack larger than its bound, and evicts the least recently served first', () => {
    const dir = scratch.path('d');
    const small = new PackCache(dir, { maxBytes: 1000 });
    assert.ok(!fill(small, K.huge, fakePack(Buffer.alloc(2000))));
    const cache = new PackCache(dir, { maxBytes: 2500 });
    fill(cache, K.old, fakePack(Buffer.alloc(1000, 5)));
    fill(cache, K.recent, fakePack(Buffer.alloc(1000, 6)));
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${dir}/${K.old}.stamp`, past, past);
    fill(cache, K.new, fakePack(Buffer.alloc(1000, 7)));
    assert.deepEqual(
      readdirSync(dir)
        .filter((f) => f.endsWith('.pack'))
        .sort(),
      [`${K.new}.pack`, `${K.recent}.pack`].sort(),
    );
    assert.ok(!existsSync(`${dir}/${K.old}.stamp`));
  });

  it('lets two fills of one key race: both commit, the entry is whole', () => {
    const dir = scratch.path('e');
    const cache = new PackCache(dir);
    const pack = fakePack(Buffer.alloc(3000, 8));
    const a = cache.startFill(K.k, 'sha1')!;
    const b = cache.startFill(K.k, 'sha1')!;
    a.write(pack.subarray(0, 1000));
    b.write(pack);
    a.write(pack.subarray(1000));
    assert.ok(b.commit());
    assert.ok(a.commit());
    assert.ok(cache.open(K.k)!.trusted);
    assert.deepEqual(readdirSync(dir).sort(), [`${K.k}.pack`, `${K.k}.stamp`]);
  });

  it('evicts only entries its stamps vouch for, and only its own stale temporary files', () => {
    const dir = scratch.path('f');
    const cache = new PackCache(dir, { maxBytes: 1500 });
    fill(cache, K.old, fakePack(Buffer.alloc(1000, 9)));
    const hour = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const foreign = {
      [`${K.k}.pack`]: fakePack(Buffer.alloc(5000, 1)), // an entry's name, but no stamp of ours
      'backup.pack': Buffer.alloc(5000, 2),
      'tmp-notes.txt': Buffer.from('notes'),
    };
    for (const [name, bytes] of Object.entries(foreign)) {
      writeFileSync(`${dir}/${name}`, bytes);
      utimesSync(`${dir}/${name}`, hour, hour);
    }
    writeFileSync(`${dir}/writev-fill-1-0123456789ab.pack`, 'a dead fill');
    utimesSync(`${dir}/writev-fill-1-0123456789ab.pack`, hour, hour);
    utimesSync(`${dir}/${K.old}.stamp`, hour, hour);
    fill(cache, K.new, fakePack(Buffer.alloc(1000, 10)));
    assert.deepEqual(
      readdirSync(dir).sort(),
      [...Object.keys(foreign), `${K.new}.pack`, `${K.new}.stamp`].sort(),
    );
  });

  it('refuses a key that is not 64 hex digits (it names a file)', () => {
    assert.throws(() => new PackCache(scratch.path('g')).open('../x'), RangeError);
  });
});
