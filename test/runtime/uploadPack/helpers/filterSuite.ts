import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { decodePktLines, packetText } from '@writev/runtime';
import { gitEnv } from '../../helpers/gitEnv';
import { serveBoth, type HttpPair } from '../../http/helpers';
import { LS_REMOTE } from './advertisement';
import { git, makeRepository, run, Scratch, uploadPackCommand } from './gitRepo';
import {
  bothServers,
  client,
  configEnv,
  gitWords,
  objectsOf,
  packBytes,
  packObjects,
  replyPackets,
  uploadPackArgs,
  V2,
  v0Request,
  v2Command,
  type Side,
} from './partialClone';

/** Filter specs git accepts; each must select the same objects through both servers. */
const ACCEPTED = [
  'blob:none',
  'blob:limit=1k',
  'blob:limit=0',
  'tree:0',
  'tree:1',
  'object:type=commit',
  'sparse:oid=main:.sparse',
  'combine:blob:none+tree:2',
  'combine:tree%3a1+blob:limit=%31k',
];
const ACCEPTED_FULL = [
  'blob:limit=0x400',
  'blob:limit=010',
  'blob:limit=+1',
  'blob:limit=1K',
  'blob:limit=1m',
  'tree:01',
  'tree:1k',
  'object:type=tree',
  'object:type=blob',
  'object:type=tag',
  'combine:combine:tree:1',
  'combine:sparse:oid=main%3a.sparse+blob:limit=100',
  'combine:blob:limit=1k+blob:none',
];

/** Filter specs git refuses, each with its own message. */
const REFUSED = [
  '',
  'blob:nope',
  'blob:limit=',
  'blob:limit=1kb',
  'blob:limit=-1',
  'tree:',
  'tree:x',
  'sparse:path=x',
  'object:type=Blob',
  'combine:',
  'combine:blob:none+',
  'combine:tree:1~',
  'combine:blob:none++tree:1',
];
const REFUSED_FULL = [
  'BLOB:none',
  'blob:none2',
  'blob:limit=k',
  'blob:limit=08',
  'blob:limit=0x',
  'blob:limit=1 ',
  'blob:limit=18446744073709551616',
  'blob:limit=17179869184g',
  'tree:-1',
  'tree:18446744073709551616',
  'sparse:foo',
  'object:type=',
  'combine:+tree:1',
  'combine:blob:none%2btree:1',
  'combine:tree:1%',
  'combine:%',
  'combine:blob:none%00',
  'combine:bad+tree:1~',
  'combine:blob:none?',
];

/** The capabilities of a v0 advertisement's first line. */
function v0Capabilities(stdout: Buffer): string[] {
  const first = decodePktLines(stdout)[0]!;
  assert.equal(first.kind, 'data');
  return packetText((first as { payload: Uint8Array }).payload)
    .split('\0')[1]!
    .split(' ');
}

/** The capabilities both servers implement (git's shallow family and the agents left out). */
function comparableCaps(caps: string[]): string[] {
  return caps.filter((cap) => !/^(agent=|shallow$|deepen-)/.test(cap));
}

/** Serves (from the timing file) and how each got its pack. */
function serves(timing: string): string[] {
  try {
    return readFileSync(timing, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { pack: string }).pack);
  } catch {
    return [];
  }
}

/** The packs in a cache folder. */
function cachedPacks(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.pack'));
  } catch {
    return [];
  }
}

/**
 * A repository with blobs above and below 1 KiB, folders three deep, a sparse-checkout
 * specification on `main` (`.sparse`) and a branch `other` to check out later.
 */
function makeFilterRepository(dir: string): string {
  const repo = makeRepository(dir);
  mkdirSync(join(repo, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(join(repo, 'a', 'small.txt'), 'small\n');
  writeFileSync(join(repo, 'a', 'b', 'mid.txt'), 'x'.repeat(900));
  writeFileSync(join(repo, 'a', 'b', 'c', 'big.txt'), 'y\n'.repeat(3000));
  writeFileSync(join(repo, '.sparse'), '/README\n/a/b/\n');
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'folders and a sparse spec']);
  git(repo, ['checkout', '-q', '-b', 'other']);
  writeFileSync(join(repo, 'a', 'b', 'c', 'big.txt'), 'z\n'.repeat(3000));
  writeFileSync(join(repo, 'other.txt'), 'other\n'.repeat(500));
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'other work']);
  git(repo, ['checkout', '-q', 'main']);
  return repo;
}

/**
 * The partial-clone suite: `full` runs every spec and every transport (the slow matrix), else a
 * representative part that keeps `npm test` fast.
 */
export function defineFilterSuite(full: boolean): void {
  describe(`partial clone (filter) as git upload-pack serves it${full ? ': the full matrix' : ''}`, () => {
    const scratch = new Scratch();
    const cache = scratch.path('cache');
    const timing = scratch.path('timing.jsonl');
    const ourEnv = { WRITEV_UPLOAD_PACK_CACHE: cache, WRITEV_UPLOAD_PACK_TIMING: timing };
    const allow = configEnv({ 'uploadpack.allowFilter': 'true' });
    let source: string;
    const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();
    /**
     * Runs `fn` with `settings` in the repository's own config: git's client clears the
     * environment's config (GIT_CONFIG_COUNT...) before it starts a local upload-pack.
     */
    function useRepoConfig(t: TestContext, settings: Record<string, string>): void {
      for (const [key, value] of Object.entries(settings)) git(source, ['config', key, value]);
      t.after(() => {
        for (const key of Object.keys(settings)) git(source, ['config', '--unset', key]);
      });
    }

    before(() => {
      source = makeFilterRepository(scratch.dir);
    });
    after(() => scratch.dispose());

    it('advertises filter only with uploadpack.allowFilter, where git places it (v0 and v2)', async () => {
      for (const env of [{}, allow]) {
        const v0 = await bothServers(source, LS_REMOTE, env, ourEnv);
        assert.deepEqual(
          comparableCaps(v0Capabilities(v0.ours.stdout)),
          comparableCaps(v0Capabilities(v0.git.stdout)),
        );
        const v2 = await bothServers(source, LS_REMOTE, { ...V2, ...env }, ourEnv);
        const fetchLine = (stdout: Buffer): string | undefined =>
          replyPackets(stdout)
            .find((line) => line.startsWith('fetch='))
            ?.replace(/\bshallow ?/, '');
        assert.equal(fetchLine(v2.ours.stdout), fetchLine(v2.git.stdout));
      }
    });

    const accepted = full ? [...ACCEPTED, ...ACCEPTED_FULL] : ACCEPTED.filter((_, i) => i % 2 === 0);
    it(`packs the same objects as git for each filter it accepts (${accepted.length} specs, v2 and v0)`, async () => {
      for (const [i, spec] of accepted.entries()) {
        const v2 = v2Command('fetch', [
          `want ${rev('main')}`,
          `want ${rev('other')}`,
          `filter ${spec}`,
          'no-progress',
          'done',
        ]);
        const v0 = v0Request([rev('main'), rev('other')], 'side-band-64k no-progress filter', [
          `filter ${spec}`,
        ]);
        for (const [version, input, env] of [
          ['v2', v2, { ...V2, ...allow }],
          ['v0', v0, allow],
        ] as const) {
          if (version === 'v0' && !full && i > 0) continue;
          const { ours, git: theirs } = await bothServers(source, input, env, ourEnv);
          assert.equal(ours.status, 0, `${version} ${spec}: ${ours.stderr}`);
          assert.equal(theirs.status, 0, `${version} ${spec}: ${theirs.stderr}`);
          assert.deepEqual(
            packObjects(packBytes(ours.stdout), scratch, `ours-${version}-${i}`),
            packObjects(packBytes(theirs.stdout), scratch, `git-${version}-${i}`),
            `${version} ${spec}`,
          );
        }
      }
    });

    const refused = full ? [...REFUSED, ...REFUSED_FULL] : REFUSED.filter((_, i) => i % 3 === 0);
    it(`refuses each malformed filter with git's message and status (${refused.length} specs)`, async () => {
      for (const spec of refused) {
        const input = v2Command('fetch', [`want ${rev('main')}`, `filter ${spec}`, 'no-progress', 'done']);
        const { ours, git: theirs } = await bothServers(source, input, { ...V2, ...allow }, ourEnv);
        assert.equal(theirs.status, 128, `git accepted '${spec}'`);
        assert.equal(ours.status, 128, `we accepted '${spec}'`);
        assert.equal(gitWords(ours.stderr), gitWords(theirs.stderr), `'${spec}'`);
      }
    });

    it('refuses what the configuration does not allow as git does: the ERR, the status, nothing cached', async () => {
      const main = rev('main');
      const cases: { env: NodeJS.ProcessEnv; v2?: string[]; v0?: Buffer }[] = [
        // filters off: the v0 line is not negotiated, the v2 line unknown
        { env: {}, v0: v0Request([main], 'side-band-64k filter', ['filter blob:none']) },
        { env: {}, v2: [`want ${main}`, 'filter blob:none', 'done'] },
        // on, but the client did not choose the capability
        { env: allow, v0: v0Request([main], 'side-band-64k', ['filter blob:none']) },
        // two filter lines
        { env: allow, v2: [`want ${main}`, 'filter blob:none', 'filter tree:0', 'done'] },
        { env: allow, v0: v0Request([main], 'side-band-64k filter', ['filter blob:none', 'filter tree:0']) },
        // uploadpackfilter settings
        ...(
          [
            { 'uploadpackfilter.allow': 'false' },
            { 'uploadpackfilter.blob:limit.allow': 'false' },
            { 'uploadpackfilter.tree.maxDepth': '1' },
            { 'uploadpackfilter.tree.maxDepth': '4', 'uploadpackfilter.tree.allow': 'false' },
            { 'uploadpackfilter.combine.allow': 'false' },
            {
              'uploadpackfilter.allow': 'false',
              'uploadpackfilter.combine.allow': 'true',
              'uploadpackfilter.tree.allow': 'true',
            },
            { 'uploadpackfilter.allow': 'nope' },
            { 'uploadpackfilter.tree.maxDepth': 'x' },
          ] as Record<string, string>[]
        ).flatMap((settings, i) => {
          const env = configEnv({ 'uploadpack.allowFilter': 'true', ...settings });
          const specs = ['blob:limit=1k', 'tree:2', 'combine:tree:1+blob:none'];
          return (full ? specs : [specs[i % 3]!]).flatMap((spec) =>
            [
              { env, v2: [`want ${main}`, `filter ${spec}`, 'done'] },
              { env, v0: v0Request([main], 'side-band-64k filter', [`filter ${spec}`]) },
            ].filter((_, j) => full || j === i % 2),
          );
        }),
      ];
      const allowed = { 'uploadpackfilter.allow': 'false', 'uploadpackfilter.blob:limit.allow': 'true' };
      cases.push({
        env: configEnv({ 'uploadpack.allowFilter': 'true', ...allowed }),
        v2: [`want ${main}`, 'filter blob:limit=1', 'done'],
      });
      let refusals = 0;
      for (const { env, v2, v0 } of cases) {
        const input = v2 ? v2Command('fetch', [...v2, 'no-progress']) : v0!;
        const serverEnv = v2 ? { ...V2, ...env } : env;
        const before = cachedPacks(cache);
        const { ours, git: theirs } = await bothServers(source, input, serverEnv, ourEnv);
        const label = `${v2 ? `v2 ${v2.join(', ')}` : 'v0'} with ${JSON.stringify(env)}`;
        assert.equal(ours.status, theirs.status, `${label}: ${ours.stderr}`);
        if (theirs.status === 0) continue;
        refusals++;
        assert.equal(gitWords(ours.stderr), gitWords(theirs.stderr), label);
        // Where git sends an ERR, ours sends the same one; where git sends nothing, ours adds its own.
        const theirLast = replyPackets(theirs.stdout).at(-1) ?? '';
        if (theirLast.startsWith('ERR ')) assert.equal(replyPackets(ours.stdout).at(-1), theirLast, label);
        assert.equal(packBytes(ours.stdout).length, 0, `${label}: no pack`);
        assert.deepEqual(cachedPacks(cache), before, `${label}: nothing cached`);
      }
      assert.ok(refusals >= cases.length / 2, `most cases are refusals (${refusals} of ${cases.length})`);
    });

    const sides: Side[] = ['ours', 'git'];
    /**
     * writev-git-http and git http-backend serving the scratch folder (so `source`) for one test;
     * ours with its cache and timing file.
     */
    async function httpServers(t: TestContext): Promise<HttpPair> {
      const pair = await serveBoth(scratch.dir, uploadPackCommand(), {}, { ours: ourEnv });
      t.after(() => pair.stop());
      return pair;
    }
    // v0 lazy fetches want blobs by id: git needs allowAnySHA1InWant or allowReachableSHA1InWant.
    const lazy: [version: string, allowance: string, transport: 'file' | 'http'][] = full
      ? (['file', 'http'] as const).flatMap((transport) => [
          ['0', 'allowAnySHA1InWant', transport],
          ['0', 'allowReachableSHA1InWant', transport],
          ['2', 'allowAnySHA1InWant', transport],
        ])
      : [['2', 'allowAnySHA1InWant', 'file']];
    for (const [version, allowance, transport] of lazy) {
      it(`a --filter=blob:none clone over ${transport} (v${version}) equals git's, and its checkout fetches the missing blobs from us (${allowance})`, async (t) => {
        const config = ['-c', `protocol.version=${version}`];
        const settings = { 'uploadpack.allowFilter': 'true', [`uploadpack.${allowance}`]: 'true' };
        useRepoConfig(t, settings);
        const http = transport === 'http' ? await httpServers(t) : undefined;
        const dests: string[] = [];
        for (const side of sides) {
          const dest = scratch.path(`blobless-v${version}-${allowance}-${transport}-${side}`);
          dests.push(dest);
          const url = http ? `${http[side]}source` : `file://${source}`;
          const upload = http ? [] : uploadPackArgs(side);
          await client(
            [...config, 'clone', '-q', '--filter=blob:none', ...upload, url, dest],
            scratch.dir,
            ourEnv,
          );
          // `clone --upload-pack` does not store the command: the lazy fetches of missing blobs
          // go where remote.origin.uploadpack says.
          if (side === 'ours' && !http)
            git(dest, ['config', 'remote.origin.uploadpack', uploadPackCommand()]);
          const servedBefore = serves(timing).length;
          assert.match(objectsOf(dest), /^\?/m, 'the clone lacks blobs');
          // The client's HTTP requests, to see the lazy fetch go to the server that cloned.
          const trace = scratch.path(`blobless-v${version}-${allowance}-${transport}-${side}.curl`);
          const traced = http ? { GIT_TRACE_CURL: trace, GIT_TRACE_CURL_NO_DATA: '1' } : {};
          await client([...config, 'checkout', '-q', 'other'], dest, { ...ourEnv, ...traced });
          if (side === 'ours')
            assert.ok(serves(timing).length > servedBefore, 'the lazy fetch was served by us');
          if (http) {
            const port = new URL(http[side]).port;
            const posts = readFileSync(trace, 'utf8').match(
              new RegExp(
                `=> Send header: POST /source/git-upload-pack[^]*?Host: 127\\.0\\.0\\.1:${port}\\b`,
                'g',
              ),
            );
            assert.ok(posts !== null, `the checkout POSTed to ${side}'s server: ${http.stderr()}`);
          }
          git(dest, ['fsck', '--full']);
        }
        assert.equal(git(dests[0]!, ['for-each-ref']), git(dests[1]!, ['for-each-ref']));
        assert.equal(objectsOf(dests[0]!), objectsOf(dests[1]!));
      });
    }

    const clones: [version: string, transport: 'file' | 'ssh' | 'http', args: string[]][] = full
      ? ['0', '2'].flatMap((version) =>
          (['file', 'ssh', 'http'] as const).flatMap((transport) =>
            [
              ['--filter=blob:none'],
              ['--filter=blob:limit=1k'],
              ['--filter=tree:0'],
              ['--no-checkout', '--filter=sparse:oid=main:.sparse'],
              ['--filter=blob:none', '--single-branch', '--branch=other'],
            ].map((args) => [version, transport, args] as [string, 'file' | 'ssh' | 'http', string[]]),
          ),
        )
      : [
          ['2', 'file', ['--filter=blob:limit=1k']],
          ['0', 'file', ['--filter=tree:0']],
          ['2', 'ssh', ['--no-checkout', '--filter=sparse:oid=main:.sparse']],
        ];
    for (const [version, transport, args] of clones) {
      it(`clones with ${args.join(' ')} over ${transport} (v${version}) as from git: refs, objects, fsck`, async (t) => {
        // git runs `<ssh> <host> "<upload-pack> '<path>'"`; this ssh runs it here, with git's environment.
        const ssh = scratch.path('fake-ssh');
        writeFileSync(ssh, '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n', { mode: 0o755 });
        const settings = { 'uploadpack.allowFilter': 'true', 'uploadpack.allowAnySHA1InWant': 'true' };
        useRepoConfig(t, settings);
        const env = { ...ourEnv, GIT_SSH_COMMAND: ssh };
        const http = transport === 'http' ? await httpServers(t) : undefined;
        const urlFor = (side: Side): string => {
          if (http) return `${http[side]}source`;
          return transport === 'ssh' ? `ssh://localhost${source}` : `file://${source}`;
        };
        const dests: string[] = [];
        for (const side of sides) {
          const dest = scratch.path(
            `clone-${version}-${transport}-${args.join('').replace(/\W/g, '')}-${side}`,
          );
          dests.push(dest);
          const config = ['-c', `protocol.version=${version}`, '-c', 'ssh.variant=ssh'];
          await client(
            [...config, 'clone', '-q', ...args, ...(http ? [] : uploadPackArgs(side)), urlFor(side), dest],
            scratch.dir,
            env,
          );
          git(dest, ['fsck', '--full']);
        }
        assert.equal(git(dests[0]!, ['for-each-ref']), git(dests[1]!, ['for-each-ref']));
        assert.equal(objectsOf(dests[0]!), objectsOf(dests[1]!));
        assert.match(objectsOf(dests[0]!), /^\?/m, 'the clone is partial');
      });
    }

    it('a v0 lazy fetch is refused without allowAnySHA1InWant or allowReachableSHA1InWant, as by git', async (t) => {
      useRepoConfig(t, { 'uploadpack.allowFilter': 'true', 'uploadpack.allowTipSHA1InWant': 'true' });
      const env = ourEnv;
      for (const side of sides) {
        const dest = scratch.path(`refused-lazy-${side}`);
        await client(
          [
            '-c',
            'protocol.version=0',
            'clone',
            '-q',
            '--no-checkout',
            '--filter=blob:none',
            ...uploadPackArgs(side),
            `file://${source}`,
            dest,
          ],
          scratch.dir,
          env,
        );
        if (side === 'ours') git(dest, ['config', 'remote.origin.uploadpack', uploadPackCommand()]);
        const servedBefore = serves(timing).length;
        const checkout = await run('git', ['-c', 'protocol.version=0', 'checkout', '-q', 'other'], {
          cwd: dest,
          env: gitEnv(env),
        });
        assert.notEqual(checkout.status, 0, side);
        if (side === 'ours') assert.ok(serves(timing).length === servedBefore, 'refused: no serve recorded');
        assert.match(checkout.stderr, /could not fetch [0-9a-f]{40} from promisor remote/, side);
      }
    });
  });
}
