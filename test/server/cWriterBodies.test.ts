// Write helpers whose bodies are read rather than their names or spellings (writer-bodies.c): the
// markers there say where each run is found (cShapes.test.ts); here, what a user reads about them,
// and that an edited wait helper is read again in an editing session (a body that starts to write
// makes the loop around it two writes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzeFixture, analyzer, fixture, inFunction } from './helpers';

const NAME = 'c/writer-bodies.c';

describe('write helpers read from their bodies', () => {
  it('says why a message built in a local array has no fix', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const token = inFunction(found, text, 'wb_token_text')[0];
    assert.equal(token?.fix, undefined);
    assert.match(
      token?.message ?? '',
      /wb_token_num\(\) writes bytes it computes from its arguments into an array of its own/,
    );
  });

  it('names the table element a helper indexed by its parameter writes to, and fixes the direct spelling', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    const ask = inFunction(found, text, 'wb_ask')[0];
    assert.match(ask?.message ?? '', /^3 syscalls to wb_ends\[WB_PARENT\] /);
    assert.equal(ask?.severity, 'warning');
    const tell = inFunction(found, text, 'wb_tell')[0];
    assert.equal(tell?.code, 'adjacent-writes');
    assert.ok(tell?.fix, 'an element of a stream socketpair array is a stream: the run is fixed');
    assert.equal(inFunction(found, text, 'wb_tell_dgram')[0], undefined);
  });

  it('reads a wait helper again once its body writes', async () => {
    const a = await analyzer();
    const key = 'writer-bodies-edit.c';
    const text = fixture(NAME);
    const greets = (t: string) =>
      inFunction(a.analyze(key, t, DEFAULT_SETTINGS, { key }), t, 'wb_greet')[0] !== undefined;
    assert.equal(greets(text), true);
    const writing = text.replace(
      '\tfor (;;) {\n\t\ttv.tv_sec',
      '\t(void)write(fd, "", 1);\n\tfor (;;) {\n\t\ttv.tv_sec',
    );
    assert.notEqual(writing, text);
    assert.equal(greets(writing), false);
    assert.equal(greets(text), true);
    a.forget(key);
  });
});
