// Write helpers that never return, defined in another file (c-treeleaving/): a body that ends in
// `_exit()`, or in a call of such a helper, shows that its calls do not come back, so two of them are
// no run, in the language server's index and in a batch run alike; a helper that returns still runs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';
import { endingCall, treeLeaving } from 'writev-lint/out/analyzer/c/leavingFunctions';
import type { CFunctionFact } from 'writev-lint/out/analyzer/c/functionFacts';

const TREE = join(FIXTURES, 'c-treeleaving');

/** A function fact with what the tree reading asks. */
function fact(name: string, endsIn?: string, exported = true): CFunctionFact {
  return { name, exported, calls: [], opaque: false, ...(endsIn !== undefined && { endsIn }) };
}

describe('C write helpers another file shows never return', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });

  it('reads the call that ends a body only where no path returns before it', () => {
    assert.equal(endingCall(' write(fd, m, n);\n  _exit(2);\n'), '_exit');
    assert.equal(endingCall(' log_it(m);\n  (void) leave_now(3);  '), 'leave_now');
    assert.equal(endingCall(' if (m) { write(fd, m, n); }\n  abort();'), 'abort');
    // A return on some path, a conditional last call, a block or a label last: no answer.
    assert.equal(endingCall(' if (!m) return;\n  exit(1);'), undefined);
    assert.equal(endingCall(' write(fd, m, n);\n  if (bad) exit(1);'), undefined);
    assert.equal(endingCall(' write(fd, m, n);\n  else exit(1);'), undefined);
    assert.equal(endingCall(' if (bad) { exit(1); }'), undefined);
    assert.equal(endingCall(' do { f(); } while (0);'), undefined);
    assert.equal(endingCall(' goto out;\nout:\n  exit(1);'), undefined);
  });

  it('takes a name to leave only when every visible definition does, through chains', () => {
    const leaving = treeLeaving([
      [[fact('die_now', '_exit'), fact('die_later', 'die_now'), fact('die_static', 'exit', false)], false],
      [[fact('usage', 'exit'), fact('cleanup', 'free')], false],
      [[fact('usage', 'printf')], false],
      [[fact('shared_die', 'abort', false)], true],
    ]);
    assert.deepEqual([...leaving].sort(), ['die_later', 'die_now', 'shared_die']);
  });
});
