import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../../helpers/gitEnv';
import { LS_REMOTE, ours, replyLines, theirs, wantRequest } from './advertisement';
import { addCommit, git, makeRepository, run, Scratch, uploadPackCommand } from './gitRepo';

/** Capabilities git advertises that this server does not implement yet (filter). */
const NOT_YET = new Set(['filter']);

/** The capabilities of the first advertised line, agent left out. */
function capabilities(stdout: Buffer): string[] {
  const first = decodePktLines(stdout)[0]!;
  assert.equal(first.kind, 'data');
  const caps = packetText((first as { payload: Uint8Array }).payload)
    .split('\0')[1]!
    .split(' ');
  return caps.filter((cap) => !cap.startsWith('agent=') && !NOT_YET.has(cap));
}

/** The ACK and NAK lines of a reply, in order. */
function acks(stdout: Buffer): string[] {
  return replyLines(stdout).filter((line) => /^(ACK |NAK$)/.test(line));
}

/**
 * The protocol v0 suite against git upload-pack. `full` runs every combination (the slow suite);
 * otherwise a few of each kind, so `npm test` stays quick.
 */
export function defineV0Suite(full: boolean): void {
  /** All of `items` in the full suite, else the ones at `picks`. */
  const some = <T>(items: [string, T][], picks: number[]): [string, T][] =>
    full ? items : items.filter((_, i) => picks.includes(i));
  describe(`protocol v0 capabilities as git upload-pack offers them${full ? ' (full matrix)' : ''}`, () => {
    const scratch = new Scratch();
    const env = { WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache') };
    let source: string;
    const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();

    before(() => {
      source = makeRepository(scratch.dir);
      for (const name of ['c1', 'c2', 'c3', 'c4']) addCommit(source, name);
      git(source, ['update-ref', 'refs/hidden/tip', rev('main~2')]);
    });
    after(() => scratch.dispose());

    const configs: Record<string, [string, string][]> = {
      none: [],
      allowTip: [['uploadpack.allowTipSHA1InWant', 'true']],
      allowReachable: [['uploadpack.allowReachableSHA1InWant', 'true']],
      allowAny: [['uploadpack.allowAnySHA1InWant', 'true']],
      'allowAny, then allowTip off': [
        ['uploadpack.allowAnySHA1InWant', 'true'],
        ['uploadpack.allowTipSHA1InWant', 'false'],
      ],
    };
    const envConfig = (pairs: [string, string][]): NodeJS.ProcessEnv => {
      const out: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(pairs.length + 1) };
      [['uploadpack.hideRefs', 'refs/hidden'], ...pairs].forEach(([key, value], i) => {
        out[`GIT_CONFIG_KEY_${i}`] = key;
        out[`GIT_CONFIG_VALUE_${i}`] = value;
      });
      return out;
    };

    for (const [name, pairs] of some(Object.entries(configs), [0, 3, 4])) {
      it(`advertises git's capabilities, in git's order (config: ${name})`, async () => {
        const expected = await theirs(source, LS_REMOTE, envConfig(pairs));
        const got = await ours(source, LS_REMOTE, { ...env, ...envConfig(pairs) });
        assert.equal(got.status, 0, got.stderr);
        assert.deepEqual(capabilities(got.stdout), capabilities(expected.stdout));
      });
    }

    describe('wants beyond the advertised refs, allowed as the configuration says', () => {
      const wants: Record<string, () => string> = {
        'a hidden tip': () => rev('refs/hidden/tip'),
        'an ancestor of a branch': () => rev('main~3'),
        "a blob of the history (git's reachability looks at commits only)": () => rev('main~3:c1.txt'),
        'an unreachable commit': () =>
          git(source, ['commit-tree', rev('main^{tree}'), '-m', 'dangling'], { env: gitEnv() }).trim(),
      };
      for (const [config, pairs] of some(Object.entries(configs), [0, 2])) {
        for (const [what, want] of some(Object.entries(wants), [0, 1, 2])) {
          it(`${what}, config ${config}: served or refused as git does`, async () => {
            const request = wantRequest([want()], 'ofs-delta');
            const expected = await theirs(source, request, envConfig(pairs));
            const got = await ours(source, request, { ...env, ...envConfig(pairs) });
            assert.equal(got.status, expected.status, got.stderr);
            if (expected.status !== 0)
              assert.equal(replyLines(got.stdout).at(-1), replyLines(expected.stdout).at(-1));
          });
        }
      }
    });

    describe('negotiation: the same ACK and NAK lines as git', () => {
      const missing = 'e'.repeat(40);
      /** Rounds of haves (each ends in a flush), then done. */
      const scenarios: Record<string, () => string[][]> = {
        'no common object': () => [[missing], [missing.replace(/e/g, 'd')]],
        'a common commit after a missing one': () => [[missing, rev('main~2')]],
        'common commits in two rounds, then missing ones': () => [[rev('main~1')], [missing, rev('main~3')]],
        'the tip itself and its parent': () => [[rev('main'), rev('main~1')]],
        'an old commit, then a newer one': () => [[rev('main~5')], [rev('main~2')], [missing]],
        'a tree and a tag': () => [[rev('main~2^{tree}'), rev('v1.0')]],
        'the same commit twice': () => [[rev('main~2'), rev('main~2')]],
      };
      for (const mode of full
        ? ['', 'multi_ack', 'multi_ack_detailed', 'multi_ack multi_ack_detailed']
        : ['', 'multi_ack_detailed']) {
        for (const [name, rounds] of some(Object.entries(scenarios), [2, 4])) {
          it(`${name} (${mode || 'basic'})`, async () => {
            const request = Buffer.concat([
              encodePktLine(`want ${rev('main')} side-band-64k ofs-delta no-progress ${mode}\n`),
              encodePktLine(`want ${rev('topic')}\n`),
              flushPkt(),
              ...rounds().flatMap((round) => [
                ...round.map((oid) => encodePktLine(`have ${oid}\n`)),
                flushPkt(),
              ]),
              encodePktLine('done\n'),
            ]);
            const expected = await theirs(source, request, {});
            assert.equal(expected.status, 0, expected.stderr);
            const got = await ours(source, request, env);
            assert.equal(got.status, 0, got.stderr);
            assert.deepEqual(acks(got.stdout), acks(expected.stdout));
          });
        }
      }
    });

    describe('the real git client', () => {
      const fetchBoth = async (args: string[]): Promise<void> => {
        for (const [dest, uploadPack] of [
          ['ours', [`--upload-pack=${uploadPackCommand()}`]],
          ['git', []],
        ] as const) {
          const result = await run('git', ['fetch', '-q', ...uploadPack, ...args], {
            cwd: scratch.path(dest),
            env: gitEnv(env),
          });
          assert.equal(result.status, 0, result.stderr);
          git(scratch.path(dest), ['fsck', '--full', '--strict']);
        }
        const objects = (dir: string): string =>
          git(scratch.path(dir), ['rev-list', '--objects', '--all']).split('\n').sort().join('\n');
        const refs = (dir: string): string => git(scratch.path(dir), ['for-each-ref']);
        assert.equal(refs('ours'), refs('git'));
        assert.equal(objects('ours'), objects('git'));
      };

      it('a single-branch clone, then fetches of new commits and tags (thin packs, include-tag)', async () => {
        for (const dest of ['ours', 'git']) {
          git(scratch.dir, ['init', '-q', '-b', 'main', dest]);
        }
        await fetchBoth([`file://${source}`, 'refs/heads/topic:refs/remotes/origin/topic']);
        addCommit(source, 'later');
        git(source, ['tag', '-a', 'only-by-include-tag', '-m', 'auto', 'main']);
        await fetchBoth([`file://${source}`, 'refs/heads/main:refs/remotes/origin/main']);
        addCommit(source, 'later2');
        await fetchBoth(['--tags', `file://${source}`, 'refs/heads/main:refs/remotes/origin/main']);
      });
    });
  });
}
