// A function-pointer member whose implementations take no descriptor and find the thread's
// connection for themselves (c/memberWriters.ts, c/contextLocals.ts): a call through it writes to that
// connection, so two calls in one function are a run, and a read between two is a turn. The fixture's
// markers say where each run is found (cShapes.test.ts); here, what a user reads. The connection may
// also come from an accessor of no parameters returning the thread's state (c/sharedStateAccessors.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFixture, fixture, inFunction } from './helpers';

const NAME = 'c/member-connections.c';

describe('calls through a member whose implementations write to the thread connection', () => {
  it('reports the reply sent in two calls, without a fix, as writes to the connection', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    assert.equal(found.length, 1);
    const f = found[0]!;
    assert.equal(f.fix, undefined);
    assert.match(f.message, /^2 syscalls to conn /);
    assert.match(f.message, /function pointer mc_out/);
    assert.deepEqual(inFunction(found, text, 'mc_send_reply'), [f]);
  });

  it('joins no calls across a read of the answer', async () => {
    const text = fixture(NAME);
    const found = await analyzeFixture(NAME);
    assert.deepEqual(inFunction(found, text, 'mc_handshake'), []);
  });

  it('reads an accessor of no parameters returning the thread state as one fixed connection', async () => {
    const name = 'c/accessor-connections.c';
    const text = fixture(name);
    const found = await analyzeFixture(name);
    assert.equal(found.length, 1);
    assert.match(found[0]!.message, /^2 syscalls to ac_current\(\) /);
    assert.deepEqual(inFunction(found, text, 'ac_greet'), found);
  });
});
