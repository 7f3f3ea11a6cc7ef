import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ObjectCorruptError, openRepository } from '@writev/runtime';
import { deltaHeader, objectId, writeHandPack } from './helpers/packWriter';

const root = mkdtempSync(join(tmpdir(), 'writev-handpack-'));
after(() => rmSync(root, { recursive: true, force: true }));

const base = Buffer.from('the base object, forty bytes long.......');

function assertCorrupt(run: () => unknown, file: string, problem: RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ObjectCorruptError, String(err));
    assert.equal(err.file, file);
    assert.match(err.message, problem);
    return true;
  });
}

describe('packs that git would not write', () => {
  it('a reference delta built by hand resolves (the writer is right)', () => {
    const result = Buffer.from('the base! plus');
    // copy 8 bytes from offset 0 ("the base"), insert "! plus"
    const delta = Buffer.concat([
      deltaHeader(base.length, result.length),
      Buffer.from([0x90, 8, 6]),
      Buffer.from('! plus'),
    ]);
    const dir = join(root, 'good');
    const { ids } = writeHandPack(dir, [
      { kind: 'whole', type: 'blob', data: base },
      { kind: 'ref-delta', oid: objectId('blob', result), base: objectId('blob', base), delta },
    ]);
    const repo = openRepository(dir);
    assert.equal(repo.readObject(ids[1]!)?.data.toString(), 'the base! plus');
    assert.deepEqual(repo.readHeader(ids[1]!), { type: 'blob', size: result.length });
    repo.close();
  });

  it('a delta that reaches past its base is reported with the pack and the delta’s offset', () => {
    const delta = Buffer.concat([deltaHeader(base.length, 30), Buffer.from([0x91, 20, 30])]);
    const dir = join(root, 'past-base');
    const { ids, packPath } = writeHandPack(dir, [
      { kind: 'whole', type: 'blob', data: base },
      { kind: 'ref-delta', oid: 'ab'.repeat(20), base: objectId('blob', base), delta },
    ]);
    assertCorrupt(
      () => openRepository(dir).readObject(ids[1]!),
      packPath,
      /at offset \d+: delta reaches past its base/,
    );
  });

  it('a loop of reference deltas is reported, not followed forever', () => {
    const a = 'aa'.repeat(20);
    const b = 'bb'.repeat(20);
    const delta = Buffer.concat([deltaHeader(4, 4), Buffer.from([0x90, 4])]);
    const dir = join(root, 'loop');
    const { packPath } = writeHandPack(dir, [
      { kind: 'ref-delta', oid: a, base: b, delta },
      { kind: 'ref-delta', oid: b, base: a, delta },
    ]);
    const repo = openRepository(dir);
    assertCorrupt(() => repo.readObject(a), packPath, /delta chain longer than 10000 \(a loop\?\)/);
    assertCorrupt(() => repo.readHeader(a), packPath, /delta chain longer than 10000 \(a loop\?\)/);
    repo.close();
  });

  it('a reference delta whose base is nowhere is reported', () => {
    const delta = Buffer.concat([deltaHeader(4, 4), Buffer.from([0x90, 4])]);
    const dir = join(root, 'no-base');
    const { ids, packPath } = writeHandPack(dir, [
      { kind: 'ref-delta', oid: 'cc'.repeat(20), base: 'dd'.repeat(20), delta },
    ]);
    assertCorrupt(() => openRepository(dir).readObject(ids[0]!), packPath, /delta base d{40} is missing/);
  });

  it('an object stored under another id is caught with verifyHash', () => {
    // A delta that claims the name ee...ee but produces the base's bytes: only hashing can see that.
    const forged = join(root, 'forged');
    const { ids, packPath } = writeHandPack(forged, [
      {
        kind: 'ref-delta',
        oid: 'ee'.repeat(20),
        base: objectId('blob', base),
        delta: Buffer.concat([deltaHeader(40, 40), Buffer.from([0x90, 40])]),
      },
      { kind: 'whole', type: 'blob', data: base },
    ]);
    assert.equal(openRepository(forged).readObject(ids[0]!)?.data.toString(), base.toString());
    assertCorrupt(
      () => openRepository(forged, { verifyHash: true }).readObject(ids[0]!),
      packPath,
      /hashes to/,
    );
  });
});
