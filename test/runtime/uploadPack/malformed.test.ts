import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, delimPkt, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { ours, theirs } from './helpers/advertisement';
import { git, makeRepository, Scratch } from './helpers/gitRepo';

const RESPONSE_END = Buffer.from('0002');

/** A v2 request: `command=<name>`, the capability lines, then (if any) a delim and the arguments, a flush. */
function v2Request(command: string, args: readonly string[], caps: readonly string[] = []): Buffer {
  return Buffer.concat([
    encodePktLine(`command=${command}\n`),
    ...caps.map((cap) => encodePktLine(`${cap}\n`)),
    ...(args.length > 0 ? [delimPkt(), ...args.map((arg) => encodePktLine(`${arg}\n`))] : []),
    flushPkt(),
  ]);
}

/**
 * What a server answered after its advertisement (everything up to the first flush), as the
 * client sees it: text lines, `<flush>`/`<delim>`, a pack's band-1 packets as one `PACK`, progress
 * (band 2) left out, `ERR` lines as `ERR`.
 */
function answer(stdout: Buffer): string[] {
  const packets = decodePktLines(stdout);
  const start = packets.findIndex((p) => p.kind === 'flush') + 1;
  const shape: string[] = [];
  for (const packet of packets.slice(start)) {
    if (packet.kind !== 'data') {
      shape.push(`<${packet.kind}>`);
      continue;
    }
    const band = packet.payload[0];
    const text = packetText(packet.payload);
    if (text.startsWith('ERR ')) shape.push('ERR');
    else if (band === 2) continue;
    else if (band === 1 || text.startsWith('PACK')) {
      if (shape.at(-1) !== 'PACK') shape.push('PACK');
    } else shape.push(text);
  }
  return shape;
}

describe('writev-upload-pack answers malformed and truncated requests as git upload-pack does', () => {
  const scratch = new Scratch();
  let source: string;
  let head: string;
  let parent: string;
  const cache = scratch.path('cache');

  before(() => {
    source = makeRepository(scratch.dir);
    head = git(source, ['rev-parse', 'HEAD']).trim();
    parent = git(source, ['rev-parse', 'HEAD~1']).trim();
  });
  after(() => scratch.dispose());

  const want = (caps = 'side-band-64k') => encodePktLine(`want ${head} ${caps}\n`);
  const cases: [label: string, v2: boolean, input: () => Buffer][] = [
    ["v2: the input ends inside the first packet's header", true, () => Buffer.from('00')],
    ['v2: the input ends inside the first packet', true, () => Buffer.from('0014comm')],
    [
      "v2: the input ends inside a later request's first packet",
      true,
      () => Buffer.concat([v2Request('ls-refs', []), Buffer.from('0014comm')]),
    ],
    ['v2: the input ends after the command line', true, () => encodePktLine('command=fetch\n')],
    ['v2: bad hexadecimal length', true, () => Buffer.from('zzzz')],
    ['v2: a length over the limit', true, () => Buffer.from(`ffff${'x'.repeat(64)}`)],
    ['v2: an unknown command', true, () => v2Request('frob', [])],
    ['v2: an unknown capability', true, () => v2Request('ls-refs', [], ['frob=1'])],
    ['v2: a command line after another', true, () => v2Request('ls-refs', [], ['command=fetch'])],
    [
      'v2: a capability before the command',
      true,
      () => Buffer.concat([encodePktLine('agent=x\n'), v2Request('ls-refs', [])]),
    ],
    [
      'v2: capabilities without a command',
      true,
      () => Buffer.concat([encodePktLine('agent=x\n'), flushPkt()]),
    ],
    ['v2: server-option without a value', true, () => v2Request('ls-refs', [], ['server-option'])],
    ['v2: object-format without a value', true, () => v2Request('ls-refs', [], ['object-format'])],
    ['v2: another object format', true, () => v2Request('ls-refs', [], ['object-format=sha256'])],
    ['v2: an unknown object format', true, () => v2Request('ls-refs', [], ['object-format=md5'])],
    [
      'v2: a delim among the arguments',
      true,
      () =>
        Buffer.concat([
          encodePktLine('command=fetch\n'),
          delimPkt(),
          encodePktLine(`want ${head}\n`),
          delimPkt(),
          flushPkt(),
        ]),
    ],
    [
      'v2: a have before the want',
      true,
      () => v2Request('fetch', [`have ${parent}`, `want ${head}`, 'done']),
    ],
    ['v2: done twice', true, () => v2Request('fetch', [`want ${head}`, 'done', 'done'])],
    ['v2: deepen 0', true, () => v2Request('fetch', [`want ${head}`, 'deepen 0', 'done'])],
    [
      'v2: a filter when filters are off',
      true,
      () => v2Request('fetch', [`want ${head}`, 'filter blob:none', 'done']),
    ],
    ['v2: a fetch without arguments', true, () => v2Request('fetch', [])],
    [
      'v2: a fetch without wants, then ls-refs',
      true,
      () => Buffer.concat([v2Request('fetch', ['done']), v2Request('ls-refs', [])]),
    ],
    ['v2: a fetch with haves and no wants', true, () => v2Request('fetch', [`have ${parent}`])],
    [
      'v2: wait-for-done with haves and no wants',
      true,
      () => v2Request('fetch', ['wait-for-done', `have ${parent}`]),
    ],
    [
      'v2: wait-for-done and done without wants (an empty pack)',
      true,
      () => v2Request('fetch', ['wait-for-done', 'done']),
    ],
    ['v2: a want of a missing object', true, () => v2Request('fetch', [`want ${'1'.repeat(40)}`, 'done'])],
    ['v0: the input ends inside the first packet', false, () => Buffer.from('0032want')],
    ['v0: bad hexadecimal length', false, () => Buffer.from('zzzz')],
    [
      'v0: a delim among the wants',
      false,
      () => Buffer.concat([want(), delimPkt(), encodePktLine('done\n')]),
    ],
    ['v0: a delim instead of the wants', false, () => delimPkt()],
    [
      'v0: a response-end among the wants',
      false,
      () => Buffer.concat([want(), RESPONSE_END, encodePktLine('done\n')]),
    ],
    [
      'v0: a delim after a deepen line',
      false,
      () =>
        Buffer.concat([
          want('side-band-64k shallow'),
          encodePktLine('deepen 1\n'),
          delimPkt(),
          encodePktLine('done\n'),
        ]),
    ],
    [
      'v0: a delim among the haves',
      false,
      () =>
        Buffer.concat([
          want('side-band-64k multi_ack_detailed'),
          flushPkt(),
          encodePktLine(`have ${parent}\n`),
          delimPkt(),
          encodePktLine('done\n'),
        ]),
    ],
    [
      'v0: a delim after the wants, then the input ends',
      false,
      () => Buffer.concat([want(), flushPkt(), delimPkt()]),
    ],
    [
      'v0: a have before any want',
      false,
      () => Buffer.concat([encodePktLine(`have ${parent}\n`), flushPkt(), encodePktLine('done\n')]),
    ],
    [
      'v0: done twice',
      false,
      () => Buffer.concat([want(), flushPkt(), encodePktLine('done\n'), encodePktLine('done\n')]),
    ],
    [
      'v0: deepen 0',
      false,
      () =>
        Buffer.concat([
          want('side-band-64k shallow'),
          encodePktLine('deepen 0\n'),
          flushPkt(),
          encodePktLine('done\n'),
        ]),
    ],
    [
      'v0: a filter when filters are off',
      false,
      () =>
        Buffer.concat([
          want('side-band-64k filter'),
          encodePktLine('filter blob:none\n'),
          flushPkt(),
          encodePktLine('done\n'),
        ]),
    ],
  ];

  for (const [label, v2, input] of cases) {
    it(`${label}: the same exit status and answer`, async () => {
      const protocol = v2 ? { GIT_PROTOCOL: 'version=2' } : {};
      const bytes = input();
      const [mine, gits] = await Promise.all([
        ours(source, bytes, { ...protocol, WRITEV_UPLOAD_PACK_CACHE: cache }),
        theirs(source, bytes, protocol),
      ]);
      assert.equal(mine.status, gits.status, `git: ${gits.stderr}\nours: ${mine.stderr}`);
      const theirAnswer = answer(gits.stdout);
      const myAnswer = answer(mine.stdout);
      // Where git dies without telling the client (most v2 refusals), this server still sends an
      // ERR packet naming the problem, as its last packet; where git sends one, this one must.
      if (!theirAnswer.includes('ERR') && myAnswer.at(-1) === 'ERR') myAnswer.pop();
      assert.deepEqual(myAnswer, theirAnswer, `git: ${gits.stderr}\nours: ${mine.stderr}`);
      if (gits.status !== 0) assert.notEqual(mine.stderr, '', 'a refusal is named on stderr');
    });
  }
});
