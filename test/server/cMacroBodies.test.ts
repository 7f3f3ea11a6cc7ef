// Function-like macros whose body is several writes (macro-bodies.c): a use is that many syscalls,
// reported where it is used, with the fix left to the body that every use shares.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/macro-bodies.c';

/** The findings inside the definition of function `fn` of the fixture. */

describe('C macros whose body is several writes', () => {
  it('reports each use at the use, without a fix, naming the body and how many uses it serves', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const [reply] = inFunction(found, text, 'mb_refuse');
    assert.equal(reply?.syscalls, 2, 'a send and a nested one-write macro');
    assert.equal(reply?.fix, undefined);
    const line = text.split('\n').findIndex((l) => l.startsWith('#define MB_REPLY_END')) + 1;
    assert.match(
      reply?.message ?? '',
      new RegExp(
        `in the body of the macro MB_REPLY_END\\(\\) \\(line ${line}\\): one change there serves its 2 uses`,
      ),
    );
  });

  it("points a use's finding at the body's writes, where the fix goes", async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const [reply] = inFunction(found, text, 'mb_refuse');
    const lines = text.split('\n');
    const at = (span: { start: number }) => text.slice(0, span.start).split('\n').length;
    const define = lines.findIndex((l) => l.startsWith('#define MB_REPLY_END')) + 1;
    assert.deepEqual(
      reply?.related.map((r) => at(r.span)),
      [define + 2, define + 3],
      'the send() and the nested one-write macro of the body',
    );
    assert.match(lines[define + 2]?.trimStart() ?? '', /^MB_SEND_EOF\(/);
  });

  it('keeps a guarded body a run of its own and joins an unguarded one to the writes beside it', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const guarded = inFunction(found, text, 'mb_getopt_then');
    assert.deepEqual(
      guarded.map((f) => f.syscalls),
      [3],
      'the usage line after it is not in the run',
    );
    const labels = inFunction(found, text, 'mb_labels');
    assert.deepEqual(
      labels.map((f) => f.syscalls),
      [5],
    );
    assert.equal(labels[0]?.fix, undefined);
  });

  it('reads no body that writes two descriptors or has two definitions', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const fn of ['mb_echo', 'mb_note']) assert.deepEqual(inFunction(found, text, fn), [], fn);
  });

  it('reads a body that leaves or counts between its writes as its expansion, without a fix', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    for (const [fn, syscalls] of [
      ['mb_fail', 3],
      ['mb_counted', 2],
    ] as const) {
      const runs = inFunction(found, text, fn);
      assert.deepEqual(
        runs.map((f) => f.syscalls),
        [syscalls],
        fn,
      );
      assert.equal(runs[0]?.fix, undefined, `${fn}: the writes are in the body of the macro`);
    }
  });
});
