import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { delimPkt, encodePktLine, flushPkt } from '@writev/runtime';
import { ours, replyLines, theirs } from './helpers/advertisement';
import { git, makeRepository, Scratch } from './helpers/gitRepo';

/** An `object-info` request of `args`, then an `ls-refs` (the session goes on after it). */
function request(args: readonly string[]): Buffer {
  return Buffer.concat([
    encodePktLine('command=object-info\n'),
    delimPkt(),
    ...args.map((arg) => encodePktLine(`${arg}\n`)),
    flushPkt(),
    encodePktLine('command=ls-refs\n'),
    flushPkt(),
  ]);
}

const OFFERED = {
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'transfer.advertiseObjectInfo',
  GIT_CONFIG_VALUE_0: 'true',
};
const V2 = { GIT_PROTOCOL: 'version=2' };

describe('v2 object-info', () => {
  const scratch = new Scratch();
  let source: string;
  let head: string;
  let blob: string;
  let tree: string;

  before(() => {
    source = makeRepository(scratch.dir);
    head = git(source, ['rev-parse', 'HEAD']).trim();
    blob = git(source, ['rev-parse', 'HEAD:data.txt']).trim();
    tree = git(source, ['rev-parse', 'HEAD^{tree}']).trim();
  });
  after(() => scratch.dispose());

  const cases: [string, () => string[]][] = [
    [
      'the sizes of a commit, a tree, a blob and a missing object',
      () => ['size', `oid ${head}`, `oid ${tree}`, `oid ${blob}`, `oid ${'1'.repeat(40)}`],
    ],
    ['size named after the ids', () => [`oid ${blob}`, 'size']],
    ['an unknown line', () => ['size', 'frob', `oid ${blob}`]],
    ['an id that is not hexadecimal', () => ['size', `oid ${blob}`, 'oid xyz']],
    ['nothing asked', () => []],
    ['size without ids', () => ['size']],
    ['an unknown line and no ids', () => ['size', 'frob']],
  ];
  for (const [label, args] of cases) {
    it(`answers ${label} as git does, when transfer.advertiseObjectInfo offers it`, async () => {
      const input = request(args());
      const env = { ...V2, ...OFFERED, WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache') };
      const [mine, gits] = await Promise.all([
        ours(source, input, env),
        theirs(source, input, { ...V2, ...OFFERED }),
      ]);
      assert.equal(mine.status, gits.status, mine.stderr);
      const myLines = replyLines(mine.stdout);
      // The advertisements differ by agent only; everything after them must be the same.
      const agentless = (lines: string[]) =>
        lines.map((line) => (line.startsWith('agent=') ? 'agent' : line));
      assert.deepEqual(agentless(myLines), agentless(replyLines(gits.stdout)));
      assert.ok(myLines.includes('object-info'), 'offered');
    });
  }

  it('neither offers nor serves object-info without the setting (git 2.39 offered it always)', async () => {
    const mine = await ours(source, request(['size', `oid ${blob}`]), {
      ...V2,
      WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache'),
    });
    const lines = replyLines(mine.stdout);
    assert.ok(!lines.includes('object-info'));
    assert.equal(mine.status, 128);
    assert.match(mine.stderr, /invalid command 'object-info'/);
  });
});
