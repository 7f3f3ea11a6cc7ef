import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { BenchProtocolError, JsonLinesDecoder } from '@writev/client/out/bench/jsonLines';

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

describe('JsonLinesDecoder', () => {
  it('returns events as lines complete, across chunks cut anywhere', () => {
    const text =
      line({ type: 'suite', suite: 'writev', title: 'ü µs', size: 'tiny' }) +
      line({ type: 'done', suite: 'writev' });
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const d = new JsonLinesDecoder();
      const events = [...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut))];
      d.end();
      assert.deepEqual(
        events.map((e) => e.type),
        ['suite', 'done'],
        `cut at ${cut}`,
      );
      assert.equal((events[0] as { title: string }).title, 'ü µs');
    }
  });

  it('skips blank lines', () => {
    const d = new JsonLinesDecoder();
    assert.deepEqual(d.push(Buffer.from(`\n  \n${line({ type: 'done', suite: 's' })}`)).length, 1);
  });

  it('rejects a line that is not JSON, naming it', () => {
    const d = new JsonLinesDecoder();
    assert.throws(
      () => d.push(Buffer.from('Error: boom\n')),
      (err: unknown) => {
        assert.ok(err instanceof BenchProtocolError);
        assert.equal(err.code, 'EBENCHPROTOCOL');
        assert.match(err.message, /not JSON: Error: boom/);
        return true;
      },
    );
  });

  it('rejects JSON that is not a benchmark event', () => {
    assert.throws(
      () => new JsonLinesDecoder().push(Buffer.from('{"type":"nope"}\n')),
      /not a benchmark event/,
    );
    assert.throws(() => new JsonLinesDecoder().push(Buffer.from('null\n')), /not a benchmark event/);
  });

  it('reports a stream that ends inside a line', () => {
    const d = new JsonLinesDecoder();
    d.push(Buffer.from('{"type":"do'));
    assert.throws(() => d.end(), /ended inside a line/);
  });
});
