// What a run's writes sent, as memory: a statement between writes may change another member of the
// same struct without changing a byte already sent, but not the member sent, a part of it, or the
// whole struct.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OtherStep, WriteStep } from 'writev-lint/out/analyzer/model';
import { bufferPath, pathsOverlap, SentBuffers } from 'writev-lint/out/analyzer/shapes/sentBuffers';

/** A write step of `bufs`, each sent with the count `len`. */
function writeWith(len: string, ...bufs: string[]): WriteStep {
  const reads = bufs.flatMap((b) => b.match(/[A-Za-z_]\w*/g) ?? []);
  return {
    kind: 'write',
    span: { start: 0, end: 0 },
    target: 'fd',
    fdText: 'fd',
    targetNames: ['fd'],
    callee: 'write',
    family: 'writev',
    pieces: bufs.map((buf) => ({ buf, len })),
    reads,
  };
}

function write(...bufs: string[]): WriteStep {
  return writeWith('n', ...bufs);
}

function statement(mutated: string[], mutatedPaths?: string[]): OtherStep {
  return {
    kind: 'other',
    span: { start: 0, end: 0 },
    reads: mutated,
    writes: mutated,
    calls: [],
    barrier: false,
    mutated,
    ...(mutatedPaths && { mutatedPaths }),
  };
}

describe('the buffers a run sent', () => {
  it('reads the memory a buffer expression points at, through casts, & and parentheses', () => {
    assert.equal(bufferPath('&ddf->controller'), 'ddf->controller');
    assert.equal(bufferPath('(char *) &d -> hdr . crc'), 'd->hdr.crc');
    assert.equal(bufferPath('&(s.a)'), 's.a');
    assert.equal(bufferPath('buf'), 'buf');
    assert.equal(bufferPath('&len'), 'len');
    assert.equal(bufferPath('buf + off'), undefined);
    assert.equal(bufferPath('d->data[i]'), undefined);
    assert.equal(bufferPath('(a)+(b)'), undefined);
  });

  it('tells member paths that share memory from those that do not', () => {
    assert.ok(pathsOverlap('d->a', 'd->a.crc'));
    assert.ok(pathsOverlap('d->a.crc', 'd->a'));
    assert.ok(pathsOverlap('d->a', 'd->a'));
    assert.ok(pathsOverlap('d->a', 'd->a[3]'));
    assert.ok(!pathsOverlap('d->a', 'd->ab'));
    assert.ok(!pathsOverlap('d->a', 'd->b.crc'));
  });

  it('a statement that changes another member of a struct sent in part changes nothing sent', () => {
    const sent = new SentBuffers();
    sent.add(writeWith('sizeof d->header', '&d->header'));
    assert.ok(!sent.changedBy(statement(['d'], ['d->controller.crc', 'd->controller'])));
    assert.ok(sent.changedBy(statement(['d'], ['d->header.crc'])));
    // No paths given: the statement may change any part of d.
    assert.ok(sent.changedBy(statement(['d'])));
    assert.ok(!sent.changedBy(statement(['other'])));
  });

  it('a member sent with a computed count sends the members after it: any other member may change it', () => {
    const spanned = new SentBuffers();
    spanned.add(writeWith('end - (char *)&d->header', '&d->header'));
    assert.ok(spanned.changedBy(statement(['d'], ['d->controller'])));
    const fixed = new SentBuffers();
    fixed.add(writeWith('4', '&d->header'));
    assert.ok(!fixed.changedBy(statement(['d'], ['d->controller'])));
  });

  it('a struct sent whole, or through an expression it cannot reduce, changes with any member', () => {
    const whole = new SentBuffers();
    whole.add(write('d'));
    assert.ok(whole.changedBy(statement(['d'], ['d->controller.crc'])));
    const offset = new SentBuffers();
    offset.add(write('d->data + off'));
    assert.ok(offset.changedBy(statement(['d'], ['d->other'])));
    const unknown = new SentBuffers();
    unknown.add({ ...write('x'), pieces: undefined, reads: ['d'] });
    assert.ok(unknown.changedBy(statement(['d'], ['d->other'])));
  });
});
