import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, delimPkt, encodePktLine, flushPkt } from '@writev/runtime';
import { ours, theirs } from './advertisement';
import { git, Scratch } from './gitRepo';
import { makeShallowHistory } from './shallowSuite';

/**
 * Which requests a run sends: `fast` (npm test) sends every case, each by one protocol (v0 and v2 in
 * turn), and the cases whose form differs between the protocols by both; `twins` (npm run test:slow)
 * sends each other case by its other protocol. Both protocols hand their lines to the one parser
 * (runtime/src/uploadPack/shallowArgs.ts), so npm test keeps every case and each protocol's framing.
 */
export type ShallowRequestPart = 'fast' | 'twins';

/** The text of every packet after the advertisement, less pack data and progress (bands 1 and 2). */
function replyAfterAdvertisement(stdout: Buffer, v2: boolean): string[] {
  const packets = decodePktLines(stdout);
  const start = packets.findIndex((p) => p.kind === 'flush') + 1;
  const lines: string[] = [];
  for (const p of packets.slice(v2 ? start : start)) {
    if (p.kind !== 'data') lines.push(`<${p.kind}>`);
    // The payload exactly: git sends its shallow lines without a newline, its section names with one.
    else if (p.payload[0] !== 1 && p.payload[0] !== 2) lines.push(Buffer.from(p.payload).toString('latin1'));
  }
  return lines;
}

/** Shallow and deepen lines refused and accepted as git upload-pack does, by protocol v0 and v2. */
export function defineShallowRequestSuite(part: ShallowRequestPart): void {
  const twins = part === 'twins' ? ' (the twins by the other protocol)' : '';
  describe(`shallow requests as git upload-pack answers them${twins}`, () => {
    const scratch = new Scratch();
    let source: string;
    let main: string;
    let tree: string;
    before(() => {
      source = makeShallowHistory(scratch.dir);
      main = git(source, ['rev-parse', 'main']).trim();
      tree = git(source, ['rev-parse', 'main^{tree}']).trim();
      // A name two refs answer to: git's deepen-not refuses it as ambiguous.
      git(source, ['branch', 'dup', 'main~1']);
      git(source, ['tag', 'dup', 'main~2']);
    });
    after(() => scratch.dispose());

    // deepen-relative is a capability in v0, an argument in v2.
    const v0 = (lines: string[]): Buffer =>
      Buffer.concat([
        encodePktLine(
          `want ${main} side-band-64k ofs-delta no-progress${lines.includes('deepen-relative') ? ' deepen-relative' : ''}\n`,
        ),
        ...lines.filter((line) => line !== 'deepen-relative').map((line) => encodePktLine(`${line}\n`)),
        flushPkt(),
        encodePktLine('done\n'),
      ]);
    const v2 = (lines: string[]): Buffer =>
      Buffer.concat([
        encodePktLine('command=fetch\n'),
        encodePktLine('object-format=sha1\n'),
        delimPkt(),
        ...[`want ${main}`, 'no-progress', ...lines, 'done'].map((line) => encodePktLine(`${line}\n`)),
        flushPkt(),
      ]);
    const protocols = [
      { name: 'v0', request: v0, env: {} },
      { name: 'v2', request: v2, env: { GIT_PROTOCOL: 'version=2' } },
    ];

    const refusals: [string, () => string[], RegExp][] = [
      ['deepen 0', () => ['deepen 0'], /Invalid deepen: deepen 0/],
      ['a depth that is not a number', () => ['deepen abc'], /Invalid deepen: deepen abc/],
      ['a negative depth', () => ['deepen -1'], /Invalid deepen: deepen -1/],
      ['a date that is not a number', () => ['deepen-since abc'], /Invalid deepen-since: deepen-since abc/],
      [
        'deepen-not of a name no ref has',
        () => ['deepen-not nosuch'],
        /git upload-pack: ambiguous deepen-not: deepen-not nosuch/,
      ],
      [
        'deepen-not of a name both a branch and a tag have',
        () => ['deepen-not dup'],
        /git upload-pack: ambiguous deepen-not: deepen-not dup/,
      ],
      ['a shallow line without an object id', () => ['shallow zz'], /invalid shallow line: shallow zz/],
      ['a shallow line naming a tree', () => [`shallow ${tree}`], /invalid shallow object [0-9a-f]{40}/],
      [
        'deepen with deepen-since',
        () => ['deepen 1', 'deepen-since 5'],
        /deepen and deepen-since \(or deepen-not\) cannot be used together/,
      ],
      [
        'deepen-not of the wanted branch itself',
        () => ['deepen-not main'],
        /no commits selected for shallow requests/,
      ],
    ];
    /**
     * Whether case `index` of a table runs by protocol number `p` in this part: the fast part alternates
     * the protocols from case to case, and runs a case whose form differs between them by both.
     */
    const runs = (p: number, index: number, bothInFast = false): boolean =>
      part === 'fast' ? bothInFast || (index + p) % 2 === 0 : !bothInFast && (index + p) % 2 === 1;
    for (const [p, { name: protocol, request, env }] of protocols.entries()) {
      for (const [index, [what, lines, message]] of refusals.entries()) {
        if (!runs(p, index)) continue;
        it(`refuses ${what} (${protocol}) in git's words, exit 128, no pack, the cache untouched`, async () => {
          const input = request(lines());
          const expected = await theirs(source, input, env);
          assert.equal(expected.status, 128);
          assert.match(expected.stderr, message);
          const cache = scratch.path(`cache-${protocol}-${what.replace(/\W+/g, '-')}`);
          const got = await ours(source, input, { ...env, WRITEV_UPLOAD_PACK_CACHE: cache });
          assert.equal(got.status, 128, got.stderr);
          assert.match(got.stderr, message);
          const reply = replyAfterAdvertisement(got.stdout, protocol === 'v2');
          assert.ok(!reply.includes('packfile\n'), 'no packfile section');
          assert.ok(!reply.some((line) => /^(un)?shallow /.test(line)), 'no shallow lines');
          assert.ok(
            !decodePktLines(got.stdout).some((p) => p.kind === 'data' && p.payload[0] === 1),
            'no pack data',
          );
          // Only what git also said comes before the refusal (v2 names the shallow-info section first).
          const theirReply = replyAfterAdvertisement(expected.stdout, protocol === 'v2');
          assert.deepEqual(reply.slice(0, -1), theirReply.slice(0, reply.length - 1));
          assert.match(reply.at(-1)!, message);
          const entries = existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith('.pack')) : [];
          assert.deepEqual(entries, [], 'no cache entry');
        });
      }

      const accepted: [string, () => string[], bothInFast?: boolean][] = [
        ['a hexadecimal depth (C strtol: 0x2 is 2)', () => ['deepen 0x2']],
        ['an octal depth beyond the history (010 is 8)', () => ['deepen 010']],
        ['a depth past 2^32 (kept as a C int: 1)', () => ['deepen 4294967297']],
        ['deepen-since 0 (no date bound)', () => ['deepen-since 0']],
        ['deepen-not of a tag by its short name', () => ['deepen-not v1.0']],
        [
          'deepen-not of a branch by its full name, with a date',
          () => ['deepen-not refs/heads/topic', 'deepen-since 1704931200'],
        ],
        ['a shallow line of an object the repository lacks (ignored)', () => [`shallow ${'e'.repeat(40)}`]],
        ['a shallow line with text after the object id (ignored)', () => [`shallow ${main}xyz`]],
        // deepen-relative is a v0 capability but a v2 argument: both forms run in npm test.
        ['deepen-relative without a shallow commit', () => ['deepen-relative', 'deepen 1'], true],
      ];
      for (const [index, [what, lines, bothInFast]] of accepted.entries()) {
        if (!runs(p, index, bothInFast)) continue;
        it(`accepts ${what} (${protocol}) and answers the same shallow lines as git`, async () => {
          const input = request(lines());
          const expected = await theirs(source, input, env);
          const got = await ours(source, input, { ...env, WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache') });
          assert.equal(got.status, expected.status, got.stderr);
          assert.deepEqual(
            replyAfterAdvertisement(got.stdout, protocol === 'v2'),
            replyAfterAdvertisement(expected.stdout, protocol === 'v2'),
          );
        });
      }
    }
  });
}
