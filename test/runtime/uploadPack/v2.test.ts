import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, delimPkt, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { ours, theirs } from './helpers/advertisement';
import { addCommit, git, makeRepository, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

const V2 = { GIT_PROTOCOL: 'version=2' };

/** Text of every packet up to the first pack data, `<flush>`/`<delim>` for the special ones. */
function v2Lines(stdout: Buffer): string[] {
  const lines: string[] = [];
  for (const p of decodePktLines(stdout)) {
    if (p.kind !== 'data') {
      lines.push(`<${p.kind}>`);
      continue;
    }
    if (p.payload[0] === 1 || p.payload[0] === 2) continue; // sideband pack data and progress
    lines.push(packetText(p.payload));
  }
  return lines;
}

/** The advertisement less what differs by design: the agent, and what is not implemented yet. */
function comparable(lines: string[]): string[] {
  return lines
    .filter((line) => !line.startsWith('agent=') && line !== 'object-info')
    .map((line) => (line.startsWith('fetch=') ? line.replace(/\bfilter ?/g, '').trim() : line));
}

/** A v2 request: a command, its capabilities, and its arguments. */
function command(name: string, args: string[], caps: string[] = ['object-format=sha1']): Buffer {
  return Buffer.concat([
    encodePktLine(`command=${name}\n`),
    ...caps.map((cap) => encodePktLine(`${cap}\n`)),
    delimPkt(),
    ...args.map((arg) => encodePktLine(`${arg}\n`)),
    flushPkt(),
  ]);
}

describe('protocol v2 (GIT_PROTOCOL=version=2) as git upload-pack speaks it', () => {
  const scratch = new Scratch();
  const cache = { WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache') };
  let source: string;
  const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();

  before(() => {
    source = makeRepository(scratch.dir);
    for (const name of ['c1', 'c2', 'c3']) addCommit(source, name);
    git(source, ['update-ref', 'refs/namespaces/t/refs/heads/main', rev('main~1')]);
    git(source, ['symbolic-ref', 'refs/namespaces/t/HEAD', 'refs/namespaces/t/refs/heads/main']);
    git(source, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/topic']);
  });
  after(() => scratch.dispose());

  async function both(input: Buffer, env: NodeJS.ProcessEnv = {}): Promise<[string[], string[]]> {
    const expected = await theirs(source, input, { ...V2, ...env });
    const got = await ours(source, input, { ...V2, ...cache, ...env });
    assert.equal(got.status, expected.status, `exit status; ours said: ${got.stderr}`);
    return [comparable(v2Lines(got.stdout)), comparable(v2Lines(expected.stdout))];
  }

  it('advertises the capabilities git advertises (less object-info)', async () => {
    const [got, expected] = await both(flushPkt());
    assert.deepEqual(got, expected);
  });

  const lsRefsCases: Record<string, { args: string[]; env?: NodeJS.ProcessEnv }> = {
    'no arguments': { args: [] },
    'symrefs, peel, unborn and prefixes': {
      args: [
        'symrefs',
        'peel',
        'unborn',
        'ref-prefix HEAD',
        'ref-prefix refs/heads/',
        'ref-prefix refs/tags/',
      ],
    },
    'in a namespace (its HEAD listed twice, as git does)': {
      args: ['symrefs', 'peel'],
      env: { GIT_NAMESPACE: 't' },
    },
    'with hidden refs': {
      args: ['symrefs', 'peel'],
      env: {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'uploadpack.hideRefs',
        GIT_CONFIG_VALUE_0: 'refs/tags',
      },
    },
  };
  for (const [name, { args, env }] of Object.entries(lsRefsCases)) {
    it(`answers ls-refs as git does: ${name}`, async () => {
      const [got, expected] = await both(Buffer.concat([command('ls-refs', args), flushPkt()]), env);
      assert.deepEqual(got, expected);
    });
  }

  it('acknowledges haves as git does, with ready when it can give up, and waits for done when asked', async () => {
    const missing = 'e'.repeat(40);
    for (const args of [
      ['no-progress', `want ${rev('main')}`, `have ${missing}`],
      [
        'no-progress',
        `want ${rev('main')}`,
        `have ${rev('main~2')}`,
        `have ${missing}`,
        `have ${rev('main~1')}`,
      ],
      ['no-progress', 'wait-for-done', `want ${rev('main')}`, `have ${rev('main~1')}`],
      [
        'no-progress',
        'ofs-delta',
        `want ${rev('main')}`,
        `want ${rev('topic')}`,
        `have ${rev('main~3')}`,
        'done',
      ],
    ]) {
      const [got, expected] = await both(Buffer.concat([command('fetch', args), flushPkt()]));
      assert.deepEqual(got, expected, args.join(', '));
    }
  });

  it('refuses what git refuses: a missing want (ERR), an unknown command, capability or argument', async () => {
    const [got, expected] = await both(command('fetch', [`want ${'e'.repeat(40)}`, 'done']));
    assert.equal(got.at(-1), expected.at(-1));
    for (const [input, message] of [
      [command('bogus', []), /invalid command 'bogus'/],
      [command('fetch', [], ['frob=1']), /unknown capability 'frob=1'/],
      [command('ls-refs', ['frob']), /unexpected line: 'frob'/],
      [
        command('fetch', [`want ${rev('main')}`, 'filter blob:none', 'done']),
        /unexpected line: 'filter blob:none'/,
      ],
    ] as const) {
      const theirsResult = await theirs(source, input, V2);
      const oursResult = await ours(source, input, { ...V2, ...cache });
      assert.equal(theirsResult.status, 128);
      assert.equal(oursResult.status, 128);
      assert.match(theirsResult.stderr, message);
      assert.match(oursResult.stderr, message);
    }
  });

  it('serves the real git client: clone, fetch and ls-remote with the same refs and objects', async () => {
    const env = gitEnv(cache);
    const v2 = ['-c', 'protocol.version=2'];
    for (const [dest, uploadPack] of [
      ['ours', [`--upload-pack=${uploadPackCommand()}`]],
      ['git', []],
    ] as const) {
      const clone = await run(
        'git',
        [...v2, 'clone', '-q', ...uploadPack, `file://${source}`, scratch.path(dest)],
        { env },
      );
      assert.equal(clone.status, 0, clone.stderr);
    }
    addCommit(source, 'later');
    for (const [dest, uploadPack] of [
      ['ours', [`--upload-pack=${uploadPackCommand()}`]],
      ['git', []],
    ] as const) {
      const fetch = await run('git', [...v2, 'fetch', '-q', ...uploadPack, 'origin'], {
        cwd: scratch.path(dest),
        env,
      });
      assert.equal(fetch.status, 0, fetch.stderr);
      git(scratch.path(dest), ['fsck', '--full', '--strict']);
    }
    const objects = (dir: string): string =>
      git(scratch.path(dir), ['rev-list', '--objects', '--all']).split('\n').sort().join('\n');
    assert.equal(git(scratch.path('ours'), ['for-each-ref']), git(scratch.path('git'), ['for-each-ref']));
    assert.equal(objects('ours'), objects('git'));
    const trace = await run(
      'git',
      [...v2, 'ls-remote', '--symref', `--upload-pack=${uploadPackCommand()}`, `file://${source}`],
      {
        env: gitEnv({ ...cache, GIT_TRACE_PACKET: '1' }),
      },
    );
    assert.equal(trace.status, 0, trace.stderr);
    assert.match(trace.stderr, /version 2/, 'the client spoke protocol v2');
    assert.equal(
      trace.stdout.toString(),
      git(scratch.dir, [...v2, 'ls-remote', '--symref', `file://${source}`]),
    );
  });

  it('serves clones over ssh (a GIT_SSH_COMMAND that runs the command locally), v0 and v2, as git does', async () => {
    // git runs `<ssh> [-o SendEnv=GIT_PROTOCOL] <host> "<upload-pack> '<path>'"`; this ssh runs the
    // last argument here, with the environment git gave it (GIT_PROTOCOL included).
    const ssh = scratch.path('fake-ssh');
    writeFileSync(ssh, '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n', { mode: 0o755 });
    const env = gitEnv({ ...cache, GIT_SSH_COMMAND: ssh });
    for (const version of ['0', '2']) {
      const dests: string[] = [];
      for (const [name, uploadPack] of [
        ['ours', [`--upload-pack=${uploadPackCommand()}`]],
        ['git', []],
      ] as const) {
        const dest = scratch.path(`ssh-v${version}-${name}`);
        dests.push(dest);
        const args = [
          '-c',
          `protocol.version=${version}`,
          '-c',
          'ssh.variant=ssh',
          'clone',
          '-q',
          ...uploadPack,
        ];
        const clone = await run('git', [...args, `ssh://localhost${source}`, dest], { env });
        assert.equal(clone.status, 0, clone.stderr);
        git(dest, ['fsck', '--full', '--strict']);
      }
      assert.equal(git(dests[0]!, ['for-each-ref']), git(dests[1]!, ['for-each-ref']));
      assert.equal(
        git(dests[0]!, ['rev-list', '--objects', '--all']),
        git(dests[1]!, ['rev-list', '--objects', '--all']),
      );
    }
  });
});
