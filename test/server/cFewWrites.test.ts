// The first look that passes over target functions whose text holds one syscall and no loop: what it
// keeps and what it passes over.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { mayHoldWrites } from 'writev-lint/out/analyzer/c/fewWrites';

const calls = [/\b(?:write|put_frame|send_all)\s*\(/g];
const one = () => 1;

describe('functions that cannot hold a finding (fewWrites)', () => {
  it('passes over a function of one write and no loop', () => {
    assert.equal(mayHoldWrites('int f(int fd) { return write(fd, "x", 1); }', calls, one), false);
    assert.equal(
      mayHoldWrites('void g(void) { rewrite(1); writer(2); write(fd, b, n); }', calls, one),
      false,
    );
  });

  it('keeps a function of two writes, a loop, or a call of several syscalls', () => {
    assert.equal(mayHoldWrites('void f(int fd) { write(fd, a, 1); send_all(fd, b, 2); }', calls, one), true);
    assert.equal(mayHoldWrites('void f(int fd) { for (;;) write(fd, a, 1); }', calls, one), true);
    assert.equal(mayHoldWrites('void f(int fd) { do { } while (0); write(fd, a, 1); }', calls, one), true);
    const framing = (name: string) => (name === 'put_frame' ? 2 : 1);
    assert.equal(mayHoldWrites('void f(int fd) { put_frame(fd, h, p); }', calls, framing), true);
  });

  it('reads the patterns from the start of each text', () => {
    const text = 'void f(int fd) { write(fd, a, 1); write(fd, b, 1); }';
    assert.equal(mayHoldWrites(text, calls, one), true);
    assert.equal(mayHoldWrites(text, calls, one), true);
  });
});
