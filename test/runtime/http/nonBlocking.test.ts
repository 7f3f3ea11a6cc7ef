/**
 * A serve inside writev-git-http's process runs its git commands without blocking the server: while
 * one request waits on git (negotiating its haves, or planning a shallow boundary), the server
 * answers others. The wait is real: the slow repository's `info/grafts` is a FIFO, which every git
 * that reads commits opens and reads until the test closes it. The other requests go to another
 * repository of the same folder.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { git, makeRepository, Scratch } from '../uploadPack/helpers/gitRepo';
import { createSmartHttpHandler } from '@writev/runtime';
import {
  closeServer,
  httpRequest,
  httpTestEnv,
  serveHandler,
  startBin,
  type Answer,
  type RunningBin,
} from './helpers';

function pkt(line: string): string {
  return `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
}

/** Long enough for any git here to have answered; reached only when the server is stuck. */
const STUCK_MS = 20_000;

describe('writev-git-http answers other requests while a serve waits on git', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const repo = join(served, 'slow.git');
  const other = join(served, 'other.git');
  const grafts = join(repo, 'info', 'grafts');
  let head = '';
  let parent = '';
  let bin: RunningBin;

  before(async () => {
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, repo]);
    git(scratch.dir, ['clone', '-q', '--bare', source, other]);
    head = git(repo, ['rev-parse', 'HEAD']).trim();
    parent = git(repo, ['rev-parse', 'HEAD~1']).trim();
    bin = await startBin(
      served,
      [],
      httpTestEnv({
        WRITEV_UPLOAD_PACK_CACHE: 'off',
        // git warns that grafts are deprecated; the warning is noise here.
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'advice.graftFileDeprecated',
        GIT_CONFIG_VALUE_0: 'false',
      }),
    );
  });
  after(async () => {
    await bin?.stop();
    scratch.dispose();
  });

  const v2 = { 'Git-Protocol': 'version=2' };
  const post = (body: string, headers: Record<string, string> = {}): Promise<Answer> =>
    httpRequest(bin.url, '/slow.git/git-upload-pack', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', ...headers },
      body: Buffer.from(body, 'latin1'),
    });

  const cases: [label: string, send: () => Promise<Answer>, expect: () => RegExp][] = [
    [
      'a v2 negotiation of haves',
      () => post(`${pkt('command=fetch\n')}0001${pkt(`want ${head}\n`)}${pkt(`have ${parent}\n`)}0000`, v2),
      () => new RegExp(`acknowledgments\n[0-9a-f]{4}ACK ${parent}`),
    ],
    [
      'a v0 negotiation of haves',
      () =>
        post(
          `${pkt(`want ${head} multi_ack_detailed side-band-64k ofs-delta\n`)}0000${pkt(`have ${parent}\n`)}0000`,
        ),
      () => new RegExp(`ACK ${parent} common`),
    ],
    [
      'a v2 shallow fetch (deepen 1)',
      () =>
        post(
          `${pkt('command=fetch\n')}0001${pkt(`want ${head}\n`)}${pkt('deepen 1\n')}${pkt('done\n')}0000`,
          v2,
        ),
      () => new RegExp(`shallow-info\n[0-9a-f]{4}shallow ${head}`),
    ],
  ];

  for (const [label, send, expect] of cases) {
    it(`answers /info/refs while ${label} waits on git`, async () => {
      execFileSync('mkfifo', [grafts]);
      const events: string[] = [];
      const slow = send().then((answer) => (events.push('slow request answered'), answer));
      // Opening the FIFO for writing completes once a git of the slow request opened it to read.
      const writer = await open(grafts, 'w');
      events.push('git waits on the slow request');
      let guard: NodeJS.Timeout | undefined;
      const stuck = new Promise<void>((resolve) => (guard = setTimeout(resolve, STUCK_MS)));
      const refs = httpRequest(bin.url, '/other.git/info/refs?service=git-upload-pack', { headers: v2 }).then(
        (answer) => (events.push('/info/refs answered'), answer),
      );
      await Promise.race([refs, stuck.then(() => events.push('server stuck: git released'))]);
      clearTimeout(guard);
      // Later gits (pack-objects) find no grafts; this one reads an empty file and goes on.
      await unlink(grafts);
      await writer.close();
      const [slowAnswer, refsAnswer] = await Promise.all([slow, refs]);
      assert.deepEqual(events, [
        'git waits on the slow request',
        '/info/refs answered',
        'slow request answered',
      ]);
      assert.equal(refsAnswer.status, 200);
      assert.match(refsAnswer.body.toString('latin1'), /version 2/);
      assert.equal(slowAnswer.status, 200, slowAnswer.body.toString('latin1'));
      assert.match(slowAnswer.body.toString('latin1'), expect());
    });
  }

  it('leaves no synchronous child process anywhere a serve reaches', () => {
    // The folders whose code runs inside the HTTP server per request.
    const src = join(__dirname, '..', '..', '..', '..', 'runtime', 'src');
    const blocking: string[] = [];
    for (const folder of ['uploadPack', 'http', 'protocol']) {
      for (const name of readdirSync(join(src, folder))) {
        const text = readFileSync(join(src, folder, name), 'utf8');
        if (/\b(execFileSync|spawnSync|execSync)\b/.test(text)) blocking.push(`${folder}/${name}`);
      }
    }
    assert.deepEqual(blocking, []);
  });
});

/** The pids of the git processes working on `gitDir` (started with `--git-dir=<gitDir>`). */
function gitsOn(gitDir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').includes(`--git-dir=${gitDir}`)) {
        pids.push(Number(name));
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

describe('a serve given up stops the git it waits on', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const repo = join(served, 'slow.git');
  const grafts = join(repo, 'info', 'grafts');

  before(() => {
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, repo]);
  });
  after(() => scratch.dispose());

  it("terminate() stops a negotiation's git at once, not when git is done", async () => {
    const head = git(repo, ['rev-parse', 'HEAD']).trim();
    const parent = git(repo, ['rev-parse', 'HEAD~1']).trim();
    const handler = createSmartHttpHandler({
      root: served,
      env: httpTestEnv({ WRITEV_UPLOAD_PACK_CACHE: 'off' }),
    });
    const { url, server } = await serveHandler(handler);
    execFileSync('mkfifo', [grafts]);
    const answer = httpRequest(url, '/slow.git/git-upload-pack', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Git-Protocol': 'version=2' },
      body: Buffer.from(
        `${pkt('command=fetch\n')}0001${pkt(`want ${head}\n`)}${pkt(`have ${parent}\n`)}0000`,
        'latin1',
      ),
    }).catch((err: Error) => err);
    // The open completes once the serve's git has the FIFO open: it now waits on it.
    const writer = await open(grafts, 'w');
    try {
      assert.notEqual(gitsOn(repo).length, 0, 'a git waits on the FIFO');
      handler.terminate();
      assert.equal(handler.running, 0);
      for (const deadline = Date.now() + STUCK_MS; gitsOn(repo).length > 0;) {
        assert.ok(Date.now() < deadline, `git still runs after terminate(): ${gitsOn(repo).join(' ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await unlink(grafts);
      await writer.close();
      await answer;
      await closeServer(server);
    }
  });
});
