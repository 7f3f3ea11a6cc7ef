import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { ObjectCorruptError } from '@writev/runtime';
import { inflateExact, type InflateEngine } from '@writev/runtime/dist/odb/zlibInflate';

const place = { file: 'pack-1a2b.pack', offset: 100 };
const engines: InflateEngine[] = ['reused', 'per-call'];

/** The outcome of inflating: the bytes, or the error's message. */
function outcome(input: Uint8Array, size: number, engine: InflateEngine): Buffer | string {
  try {
    return inflateExact(input, size, place, engine);
  } catch (err) {
    assert.ok(err instanceof ObjectCorruptError, String(err));
    return err.message;
  }
}

describe('inflateExact', () => {
  const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(200));
  const random = randomBytes(70_000);

  it('inflates streams of every size alike with the reused stream and with inflateSync', () => {
    for (const payload of [Buffer.alloc(0), Buffer.from('x'), text, random]) {
      const compressed = deflateSync(payload);
      for (const engine of engines) {
        const out = inflateExact(compressed, payload.length, place, engine);
        assert.ok(out.equals(payload), `${engine}, ${payload.length} bytes`);
      }
    }
  });

  it('reports damage the same way with both, and recovers for the next stream', () => {
    const good = deflateSync(text);
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.length / 2)]! ^= 0xff;
    const badChecksum = Buffer.from(good);
    badChecksum[good.length - 1]! ^= 0x01;
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['truncated', good.subarray(0, good.length - 10), text.length, /zlib stream is truncated/],
      ['garbage after the end', Buffer.concat([good, Buffer.from('xyz')]), text.length, /3 bytes of garbage/],
      ['longer than declared', good, text.length - 1, /inflates to more than 8799 bytes/],
      ['shorter than declared', good, text.length + 5, /inflates to 8800 bytes, 8805 expected/],
      ['a wrong Adler-32', badChecksum, text.length, /bad zlib data \(incorrect data check\)/],
      ['not zlib at all', Buffer.from('hello world'), 11, /bad zlib data/],
      ['flipped bits', flipped, text.length, /./],
    ];
    for (const [name, input, size, problem] of cases) {
      const results = engines.map((engine) => outcome(input, size, engine));
      for (const [i, result] of results.entries()) {
        assert.equal(typeof result, 'string', `${name} (${engines[i]}) must fail`);
        assert.match(result as string, /^pack-1a2b\.pack at offset \d+: /);
        assert.match(result as string, problem, `${name} (${engines[i]})`);
      }
      // Random damage may be caught at different points (the output cap, the checksum).
      if (name !== 'flipped bits') assert.equal(results[0], results[1], `${name}: both engines say the same`);
      // The reused stream is reset after a failure: the next object reads fine.
      assert.ok(inflateExact(good, text.length, place).equals(text), `after ${name}`);
    }
  });
});
