import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, delimPkt, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { v2PackDigest } from '@writev/runtime/dist/bench/suites/sidebandV2';
import { gitEnv } from '../helpers/gitEnv';
import { addCommit, git, makeRepository, runInProcess, Scratch } from './helpers/gitRepo';

/** The advertised `oid name` lines, capabilities cut off. */
function advertised(stdout: Buffer): string[] {
  const lines: string[] = [];
  for (const packet of decodePktLines(stdout)) {
    if (packet.kind !== 'data') break;
    lines.push(packetText(packet.payload).split('\0')[0]!.trimEnd());
  }
  return lines;
}

/** One thread of delta search: git's pack and ours (made by pack-objects with it) are the same bytes. */
const ONE_THREAD = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'pack.threads', GIT_CONFIG_VALUE_0: '1' };

/** A v2 answer without its capability advertisement (everything up to its first flush). */
function afterAdvertisement(stdout: Buffer): Buffer {
  for (let at = 0; at + 4 <= stdout.length;) {
    const length = parseInt(stdout.toString('latin1', at, at + 4), 16);
    if (length === 0) return stdout.subarray(at + 4);
    assert.ok(length >= 4, `a pkt-line in the advertisement at byte ${at}`);
    at += length;
  }
  assert.fail('the advertisement has no flush');
}

describe('a fetch the pack cache answers runs no git', () => {
  const scratch = new Scratch();
  let source: string;
  const cache = scratch.path('cache');
  const log = scratch.path('git-calls.log');
  const shims = scratch.path('bin');
  // A `git` first on PATH that logs its arguments, then runs the real one.
  const env = gitEnv({
    PATH: `${shims}:${process.env.PATH}`,
    WRITEV_UPLOAD_PACK_CACHE: cache,
    GIT_CALLS_LOG: log,
  });

  before(() => {
    source = makeRepository(scratch.dir);
    mkdirSync(shims);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      `${shims}/git`,
      `#!/bin/sh\ncase "$1" in --git-dir=*) echo "$2" ;; *) echo "$1" ;; esac >> "$GIT_CALLS_LOG"\nexec '${realGit}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
  });
  after(() => scratch.dispose());

  /** Serves one clone-like request (every ref tip wanted), returning stdout and the git calls made. */
  async function serve(): Promise<{ lines: string[]; calls: string[] }> {
    rmSync(log, { force: true });
    const tips = git(source, ['for-each-ref', '--format=%(objectname)']).trim().split('\n');
    const request = Buffer.concat([
      ...[...new Set(tips)].map((oid, i) =>
        encodePktLine(`want ${oid}${i === 0 ? ' side-band-64k ofs-delta' : ''}\n`),
      ),
      flushPkt(),
      encodePktLine('done\n'),
    ]);
    const result = await runInProcess([`${source}/.git`], { env, input: request });
    assert.equal(result.status, 0, result.stderr);
    const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    return { lines: advertised(result.stdout), calls };
  }

  /** What git itself advertises for the refs (HEAD, then every ref and peeled tag). */
  function gitAdvertises(extra: NodeJS.ProcessEnv = {}): string[] {
    const out = git(source, ['upload-pack', '--advertise-refs', '.git'], { env: gitEnv(extra) });
    return advertised(Buffer.from(out, 'latin1'));
  }

  /** Only the advertisement (a client that sends a flush), with the git calls made. */
  async function advertise(extra: NodeJS.ProcessEnv = {}): Promise<{ lines: string[]; calls: string[] }> {
    rmSync(log, { force: true });
    const result = await runInProcess([`${source}/.git`], {
      env: { ...env, ...extra },
      input: flushPkt(),
    });
    assert.equal(result.status, 0, result.stderr);
    const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    return { lines: advertised(result.stdout), calls };
  }

  it('lists refs with git once, then from the memo; a changed ref is listed by git again', async () => {
    const first = await serve();
    assert.deepEqual(first.calls, ['config', 'for-each-ref', 'pack-objects']);
    assert.deepEqual(first.lines, gitAdvertises());

    const hit = await serve();
    assert.deepEqual(hit.calls, [], 'no git process on a cache hit');
    assert.deepEqual(hit.lines, gitAdvertises());

    addCommit(source, 'moved'); // a new loose tag and a moved branch
    const moved = await serve();
    assert.deepEqual(moved.calls[0], 'for-each-ref');
    assert.deepEqual(moved.lines, gitAdvertises());

    git(source, ['pack-refs', '--all']); // the same refs, now in packed-refs
    const packed = await serve();
    assert.deepEqual(packed.calls, ['for-each-ref']);
    assert.deepEqual(packed.lines, gitAdvertises());
    assert.deepEqual((await serve()).calls, []);
  });

  /** A protocol v2 `fetch` of `wants` with `done`, then the session's closing flush. */
  function v2Fetch(wants: readonly string[], args: readonly string[] = []): Buffer {
    return Buffer.concat([
      encodePktLine('command=fetch\n'),
      delimPkt(),
      encodePktLine('ofs-delta\n'),
      encodePktLine('no-progress\n'),
      ...args.map((arg) => encodePktLine(`${arg}\n`)),
      ...wants.map((oid) => encodePktLine(`want ${oid}\n`)),
      encodePktLine('done\n'),
      flushPkt(),
      flushPkt(),
    ]);
  }

  /** Serves one v2 fetch; its answer (the advertisement cut off) and the git calls made. */
  async function serveV2(
    wants: readonly string[],
    args: readonly string[] = [],
  ): Promise<{ answer: Buffer; calls: string[] }> {
    rmSync(log, { force: true });
    const result = await runInProcess([`${source}/.git`], {
      env: { ...env, GIT_PROTOCOL: 'version=2', ...ONE_THREAD },
      input: v2Fetch(wants, args),
    });
    assert.equal(result.status, 0, result.stderr);
    const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    return { answer: afterAdvertisement(result.stdout), calls };
  }

  /** git upload-pack's answer to the same v2 fetch (the advertisement cut off). */
  function gitV2(wants: readonly string[], args: readonly string[] = []): Buffer {
    const out = execFileSync('git', ['upload-pack', '.git'], {
      cwd: source,
      env: gitEnv({ GIT_PROTOCOL: 'version=2', ...ONE_THREAD }),
      input: v2Fetch(wants, args),
      maxBuffer: 1 << 28,
    });
    return afterAdvertisement(out);
  }

  it('answers a v2 fetch of ref tips from the cache without any git; a want that is no tip is looked up', async () => {
    const tips = [...new Set(git(source, ['for-each-ref', '--format=%(objectname)']).trim().split('\n'))];
    const first = await serveV2(tips);
    assert.ok(first.calls.includes('pack-objects'), first.calls.join());
    assert.ok(!first.calls.includes('cat-file'), 'a ref tip is known to be present: no lookup');
    const hit = await serveV2(tips);
    assert.deepEqual(hit.calls, [], 'no git process on a cache hit');
    assert.equal(v2PackDigest(hit.answer, 'hit'), v2PackDigest(gitV2(tips), 'git'), 'the same pack as git');

    // A commit no ref or tag names is asked of git, and served like git serves it.
    const named = new Set(
      git(source, ['for-each-ref', '--format=%(objectname)%0a%(*objectname)']).split('\n'),
    );
    const parent = git(source, ['rev-list', '--all'])
      .split('\n')
      .find((oid) => oid !== '' && !named.has(oid))!;
    const inside = await serveV2([parent]);
    assert.deepEqual(inside.calls, ['cat-file', 'pack-objects']);
    assert.deepEqual((await serveV2([parent])).calls, ['cat-file']);
    assert.equal(v2PackDigest(inside.answer, 'ours'), v2PackDigest(gitV2([parent]), 'git'));

    // A missing object beside the tips is refused as git refuses it, whatever the cache holds.
    const missing = 'e'.repeat(40);
    const refused = await runInProcess([`${source}/.git`], {
      env: { ...env, GIT_PROTOCOL: 'version=2' },
      input: v2Fetch([...tips, missing]),
    });
    assert.equal(refused.status, 128);
    assert.match(
      afterAdvertisement(refused.stdout).toString('latin1'),
      new RegExp(`ERR upload-pack: not our ref ${missing}`),
    );
  });

  it('answers a v2 --depth 1 fetch from the cache without any git: the listing tells what a want peels to', async () => {
    const depth = ['deepen 1'];
    const head = git(source, ['rev-parse', 'HEAD']).trim();
    const tag = git(source, ['rev-parse', 'refs/tags/v1.0']).trim(); // annotated: peels to a commit
    for (const want of [head, tag]) {
      const first = await serveV2([want], depth);
      assert.ok(!first.calls.includes('cat-file'), `no lookup for ${want}: ${first.calls.join()}`);
      const hit = await serveV2([want], depth);
      assert.deepEqual(hit.calls, [], 'no git process on a cache hit');
      assert.equal(
        v2PackDigest(hit.answer, 'ours'),
        v2PackDigest(gitV2([want], depth), 'git'),
        'the same shallow lines and pack as git',
      );
    }
    // The same in protocol v0.
    const v0Depth1 = Buffer.concat([
      encodePktLine(`want ${head} side-band-64k ofs-delta shallow no-progress\n`),
      encodePktLine('deepen 1\n'),
      flushPkt(),
      encodePktLine('done\n'),
    ]);
    for (let i = 0; i < 2; i++) {
      rmSync(log, { force: true });
      const v0 = await runInProcess([`${source}/.git`], { env, input: v0Depth1 });
      assert.equal(v0.status, 0, v0.stderr);
      assert.ok(!existsSync(log) || !readFileSync(log, 'utf8').includes('cat-file'), 'v0: no lookup');
      if (i === 1) assert.ok(!existsSync(log), 'v0: no git process on a cache hit');
      assert.match(v0.stdout.toString('latin1'), new RegExp(`shallow ${head}0000`));
    }
    // A tag of a tag: the listing peels it one level only, so git is asked what it tags.
    git(source, ['tag', '-a', 'outer', '-m', 'a tag of a tag', 'v1.0']);
    try {
      const outer = git(source, ['rev-parse', 'refs/tags/outer']).trim();
      await serveV2([outer], depth);
      const hit = await serveV2([outer], depth);
      assert.deepEqual(hit.calls, ['cat-file']);
      assert.equal(v2PackDigest(hit.answer, 'ours'), v2PackDigest(gitV2([outer], depth), 'git'));
    } finally {
      git(source, ['tag', '-d', 'outer']);
    }
  });

  it('filters the memo by namespace and hide rules on every serve: one memo, each client its own refs', async () => {
    const head = git(source, ['rev-parse', 'HEAD']).trim();
    git(source, ['update-ref', 'refs/namespaces/t1/refs/heads/only-t1', head]);
    git(source, ['symbolic-ref', 'refs/namespaces/t1/HEAD', 'refs/namespaces/t1/refs/heads/only-t1']);
    const warm = await advertise();
    assert.deepEqual(warm.lines, gitAdvertises());

    const t1 = await advertise({ GIT_NAMESPACE: 't1' });
    assert.deepEqual(t1.calls, [], 'the namespace is served from the same memo');
    assert.deepEqual(t1.lines, gitAdvertises({ GIT_NAMESPACE: 't1' }));
    assert.deepEqual(t1.lines, [`${head} HEAD`, `${head} refs/heads/only-t1`]);

    git(source, ['config', 'uploadpack.hideRefs', 'refs/tags']);
    const hidden = await advertise();
    assert.deepEqual(hidden.calls, ['config'], 'a changed config is read again; the refs memo still holds');
    assert.deepEqual(hidden.lines, gitAdvertises());
    assert.ok(!hidden.lines.some((line) => line.includes('refs/tags/')));
    assert.deepEqual((await advertise()).calls, []);

    const envRule = {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'transfer.hideRefs',
      GIT_CONFIG_VALUE_0: 'refs/heads',
    };
    const fromEnv = await advertise(envRule);
    assert.deepEqual(fromEnv.calls, ['config'], 'configuration from the environment is part of the key');
    assert.deepEqual(fromEnv.lines, gitAdvertises(envRule));
    git(source, ['config', '--unset', 'uploadpack.hideRefs']);
    assert.deepEqual((await advertise()).lines, gitAdvertises());
  });
});
