// Message descriptors kept in members where the writing file cannot tell them from its own text: a
// datagram socket in a member of a global declared `extern` in a header (c-treeexterndatagrams/), the
// writing file naming neither the struct nor the socket() call; and a SOCK_SEQPACKET connection
// accept() stored in a member in one file, the struct in a header, written in a third file
// (c-treeseqpacketmembers/). Neither is a byte stream: two writes are two messages, never a run.
// Another struct's member of the same name keeps its own reading.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { headerObjects } from 'writev-lint/out/analyzer/c/headerObjects';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const EXTERN = join(FIXTURES, 'c-treeexterndatagrams');
const SEQPACKET = join(FIXTURES, 'c-treeseqpacketmembers');

describe('a header’s object declarations', () => {
  it('carries extern objects of a struct or a type name, and typedefs of tagged structs', () => {
    const text = [
      '/* extern struct gone g; */',
      'typedef struct st { int fd; } st_t, *st_p;',
      'extern struct st state;',
      'extern const struct st *cur;',
      'extern st_t taps[4];',
      'extern int (*hook)(int);',
      'struct st local;',
    ].join('\n');
    assert.deepEqual(headerObjects(text), [
      'struct st state;',
      'struct st *cur;',
      'st_t taps;',
      'typedef struct st st_t;',
    ]);
  });
});

describe('C message descriptors in members the writing file cannot resolve alone', () => {
  it('reads a header’s extern global by the struct it declares, in the editor and in a batch run', async () => {
    await assertEditorFindsMarkers(EXTERN);
    assert.equal((await assertBatchFindsMarkers(EXTERN)).length, 1);
  });

  it('keeps an accepted SOCK_SEQPACKET connection a message descriptor in the file that writes it', async () => {
    await assertEditorFindsMarkers(SEQPACKET);
    assert.equal((await assertBatchFindsMarkers(SEQPACKET)).length, 0);
  });
});
