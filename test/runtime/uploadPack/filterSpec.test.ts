import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { cacheKey } from '@writev/runtime';
import {
  canonicalFilter,
  parseFilterSpec,
  parseUnsigned,
  sparseExpressions,
} from '@writev/runtime/dist/uploadPack/filterSpec';

describe('filter specs: numbers, canonical forms and cache keys', () => {
  it('reads numbers as git does: white space, +, 0x and octal prefixes, units, at most 2^64-1', () => {
    const cases: [string, bigint | string][] = [
      ['0', 0n],
      ['1k', 1024n],
      ['1K', 1024n],
      ['2m', 2n << 20n],
      ['1g', 1n << 30n],
      ['0x400', 1024n],
      ['010', 8n],
      ['+1', 1n],
      [' \t1', 1n],
      ['18446744073709551615', (1n << 64n) - 1n],
      ['17179869183g', 17179869183n << 30n],
      ['', 'invalid unit'],
      ['k', 'invalid unit'],
      ['08', 'invalid unit'],
      ['0x', 'invalid unit'],
      ['1 ', 'invalid unit'],
      ['1kb', 'invalid unit'],
      ['-1', 'invalid unit'],
      ['+-1', 'invalid unit'],
      ['18446744073709551616', 'out of range'],
      ['17179869184g', 'out of range'],
    ];
    for (const [text, expected] of cases) {
      const got = parseUnsigned(text);
      assert.deepEqual(
        got,
        typeof expected === 'bigint' ? { value: expected } : { problem: expected },
        `'${text}'`,
      );
    }
  });

  it('writes one canonical form that parses back to itself, whatever the encoding or the units', () => {
    const equivalent: string[][] = [
      ['blob:limit=1k', 'blob:limit=1024', 'blob:limit=0x400', 'blob:limit=02000', 'blob:limit= +1k'],
      ['tree:1', 'tree:01', 'tree:+1'],
      [
        'combine:tree:1+blob:none',
        'combine:tree%3a1+blob%3Anone',
        'combine:tree:01+blob:none',
        'combine:%74ree:1+blob:none',
      ],
      [
        'combine:combine:tree:1%2bblob:none+blob:limit=1k',
        'combine:combine:tree%3a1%2Bblob:none+blob:limit=1024',
      ],
    ];
    for (const group of equivalent) {
      const forms = group.map((spec) => canonicalFilter(parseFilterSpec(spec)));
      assert.equal(new Set(forms).size, 1, `${group.join(' = ')}: ${forms.join(' | ')}`);
      const canonical = forms[0]!;
      assert.equal(canonicalFilter(parseFilterSpec(canonical)), canonical, `${canonical} is a fixed point`);
    }
    const different = [
      'blob:none',
      'blob:limit=0',
      'blob:limit=1',
      'tree:0',
      'tree:1',
      'combine:blob:none',
      'object:type=blob',
    ];
    assert.equal(new Set(different.map((s) => canonicalFilter(parseFilterSpec(s)))).size, different.length);
  });

  it('escapes what a sub-filter must not hold, so a sparse expression with + or spaces survives a combine', () => {
    const spec = parseFilterSpec('combine:sparse:oid=main%3adir%20one/%2bspec+blob:none');
    assert.deepEqual(sparseExpressions(spec), ['main:dir one/+spec']);
    const canonical = canonicalFilter(spec);
    assert.deepEqual(sparseExpressions(parseFilterSpec(canonical)), ['main:dir one/+spec']);
    // Once resolved, the key names the blob, not the branch.
    const oid = 'a'.repeat(40);
    assert.equal(
      canonicalFilter(spec, new Map([['main:dir one/+spec', oid]])),
      `combine:sparse:oid=${oid}+blob:none`,
    );
  });

  it('keys a filtered pack apart from the whole one, and leaves the unfiltered key as it was', () => {
    const request = { wants: ['b'.repeat(40)], common: [], ofsDelta: true, objectFormat: 'sha1' as const };
    const whole = cacheKey(request);
    // The key of an unfiltered request is still the one earlier versions computed: their entries stay valid.
    const before = ['writev-upload-pack cache v2', 'object-format sha1', 'settings ""', 'ofs-delta 1'];
    const lines = [...before, 'thin-pack 0', 'include-tag 0', `want ${'b'.repeat(40)}`];
    assert.equal(whole, createHash('sha256').update(lines.join('\n')).digest('hex'));
    assert.equal(cacheKey({ ...request, filter: undefined }), whole);
    const blobless = cacheKey({ ...request, filter: 'blob:none' });
    assert.notEqual(blobless, whole);
    assert.notEqual(cacheKey({ ...request, filter: 'tree:0' }), blobless);
    assert.equal(cacheKey({ ...request, filter: 'blob:none' }), blobless);
  });
});
