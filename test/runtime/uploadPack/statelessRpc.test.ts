import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, delimPkt, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { refLines } from './helpers/advertisement';
import { addCommit, git, makeRepository, run, runInProcess, Scratch, type Finished } from './helpers/gitRepo';

const V2 = { GIT_PROTOCOL: 'version=2' };

/** What an answer says: its lines (`<flush>`, `<delim>`), the pack's objects, band-3 text. */
interface Said {
  lines: string[];
  objects: string[];
  error: string;
}

/** Splits an answer: sideband packets (first byte 1, 2, 3) from the lines around them. */
function said(stdout: Buffer, dir: string): Said {
  const lines: string[] = [];
  const pack: Buffer[] = [];
  let error = '';
  for (const p of decodePktLines(stdout)) {
    if (p.kind !== 'data') lines.push(`<${p.kind}>`);
    else if (p.payload[0] === 1) pack.push(Buffer.from(p.payload.subarray(1)));
    else if (p.payload[0] === 3) error += Buffer.from(p.payload.subarray(1)).toString('utf8');
    else if (p.payload[0] !== 2) lines.push(packetText(p.payload));
  }
  return { lines, objects: packObjects(Buffer.concat(pack), dir), error };
}

let packs = 0;
/** The object ids of a pack, sorted (none for no pack), by git's own index-pack. */
function packObjects(pack: Buffer, dir: string): string[] {
  if (pack.length === 0) return [];
  const file = join(dir, `answer-${++packs}.pack`);
  writeFileSync(file, pack);
  execFileSync('git', ['index-pack', file], { env: gitEnv(), stdio: 'pipe' });
  const index = execFileSync('git', ['show-index'], {
    input: execFileSync('cat', [file.replace(/\.pack$/, '.idx')]),
    env: gitEnv(),
    encoding: 'utf8',
  });
  return index
    .trim()
    .split('\n')
    .map((line) => line.split(' ')[1]!)
    .sort();
}

/** The agent and what this server does not implement yet (shallow, filter, object-info) set aside. */
function comparableV2(lines: string[]): string[] {
  return lines
    .filter((line) => !line.startsWith('agent=') && line !== 'object-info')
    .map((line) => (line.startsWith('fetch=') ? line.replace(/\b(shallow|filter) ?/g, '').trim() : line));
}

/** A v2 request: a command, a capability, a delim, its arguments, a flush. */
function command(name: string, args: readonly string[]): Buffer {
  return Buffer.concat([
    encodePktLine(`command=${name}\n`),
    encodePktLine('object-format=sha1\n'),
    delimPkt(),
    ...args.map((arg) => encodePktLine(`${arg}\n`)),
    flushPkt(),
  ]);
}

/** pkt-lines of `lines`, `<flush>` for a flush. */
function pkts(...lines: string[]): Buffer {
  return Buffer.concat(lines.map((line) => (line === '<flush>' ? flushPkt() : encodePktLine(`${line}\n`))));
}

describe('--stateless-rpc and --advertise-refs, as git upload-pack serves them', () => {
  const scratch = new Scratch();
  const cacheDir = scratch.path('cache');
  let source: string;
  const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();

  before(() => {
    source = makeRepository(scratch.dir);
    addCommit(source, 'c1');
    addCommit(source, 'c2');
  });
  after(() => scratch.dispose());

  function theirs(args: string[], input: Buffer, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
    return run('git', ['upload-pack', ...args, source], { env: gitEnv(env), input });
  }
  function ours(args: string[], input: Buffer, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
    const cache = { WRITEV_UPLOAD_PACK_CACHE: cacheDir };
    return runInProcess([...args, source], { env: gitEnv({ ...cache, ...env }), input });
  }
  /** Runs both with the same arguments and input; asserts the same exit status. */
  async function both(
    args: string[],
    input: Buffer,
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ got: Finished; expected: Finished }> {
    const [got, expected] = await Promise.all([ours(args, input, env), theirs(args, input, env)]);
    assert.equal(
      got.status,
      expected.status,
      `exit status; ours said: ${got.stderr}; git: ${expected.stderr}`,
    );
    return { got, expected };
  }

  const ADVERTISE = [
    ['--advertise-refs'],
    ['--stateless-rpc', '--advertise-refs'],
    ['--http-backend-info-refs'],
  ];
  for (const args of ADVERTISE) {
    it(`${args.join(' ')}: the v0 advertisement alone, with no-done, and nothing read`, async () => {
      // A request on the input must be left unread: only the advertisement comes out.
      const input = pkts(`want ${rev('main')} side-band-64k`, '<flush>', 'done');
      const { got, expected } = await both(args, input);
      assert.equal(got.status, 0);
      assert.deepEqual(refLines(got.stdout), refLines(expected.stdout));
      const lines = decodePktLines(got.stdout);
      assert.equal(lines.at(-1)?.kind, 'flush');
      assert.equal(lines.filter((p) => p.kind === 'flush').length, 1, 'one flush, at the end');
      const caps = (out: Buffer): string[] => {
        const first = decodePktLines(out)[0];
        return first?.kind === 'data' ? packetText(first.payload).split('\0')[1]!.split(' ') : [];
      };
      assert.ok(caps(got.stdout).includes('no-done'), `no-done offered: ${caps(got.stdout).join(' ')}`);
      assert.ok(caps(expected.stdout).includes('no-done'));
    });

    it(`${args.join(' ')}: the v2 capability advertisement alone`, async () => {
      const { got, expected } = await both(args, command('ls-refs', []), V2);
      assert.equal(got.status, 0);
      const text = (f: Finished): string[] => said(f.stdout, scratch.dir).lines;
      assert.deepEqual(comparableV2(text(got)), comparableV2(text(expected)));
      assert.equal(text(got)[0], 'version 2');
      assert.equal(text(got).at(-1), '<flush>');
    });
  }

  it('offers no no-done in a session (no --advertise-refs), as git does not', async () => {
    const { got, expected } = await both([], flushPkt());
    for (const out of [got.stdout, expected.stdout]) assert.ok(!out.toString('latin1').includes('no-done'));
  });

  /** v0 stateless requests, each answered by both; the lines and the pack's objects must agree. */
  const v0Requests: Record<string, (rev: (spec: string) => string) => string[]> = {
    'wants and done: NAK and the pack': (r) => [
      `want ${r('main')} multi_ack_detailed side-band-64k ofs-delta no-progress`,
      `want ${r('topic')}`,
      '<flush>',
      'done',
    ],
    'a round of haves without done (multi_ack_detailed): its acknowledgments, then the end': (r) => [
      `want ${r('main')} multi_ack_detailed side-band-64k no-progress`,
      '<flush>',
      `have ${r('main~1')}`,
      `have ${'e'.repeat(40)}`,
      '<flush>',
    ],
    'a round that makes the server ready, with no-done: ACK, then the pack at once': (r) => [
      `want ${r('main')} multi_ack_detailed no-done side-band-64k ofs-delta no-progress`,
      '<flush>',
      `have ${r('main~1')}`,
      '<flush>',
    ],
    'the same without no-done: ready, NAK, and no pack until done': (r) => [
      `want ${r('main')} multi_ack_detailed side-band-64k ofs-delta no-progress`,
      '<flush>',
      `have ${r('main~1')}`,
      '<flush>',
    ],
    'the next request: the common haves again, then done': (r) => [
      `want ${r('main')} multi_ack_detailed side-band-64k ofs-delta no-progress`,
      '<flush>',
      `have ${r('main~1')}`,
      `have ${r('v0.1')}`,
      'done',
    ],
    'basic acknowledgments: the first common ACK, no NAK after it': (r) => [
      `want ${r('main')} side-band-64k no-progress`,
      '<flush>',
      `have ${r('main~2')}`,
      '<flush>',
    ],
    'multi_ack: continue, NAK': (r) => [
      `want ${r('main')} multi_ack side-band-64k no-progress`,
      '<flush>',
      `have ${r('main~2')}`,
      '<flush>',
    ],
    'wants and their flush only: nothing': (r) => [`want ${r('main')} side-band-64k`, '<flush>'],
    'a lone flush: nothing': () => ['<flush>'],
    'an object only a tag peels to: served, as the refs may have moved since the advertisement': (r) => [
      `want ${r('v1.0^{}')} side-band-64k ofs-delta no-progress`,
      '<flush>',
      'done',
    ],
  };
  for (const [name, request] of Object.entries(v0Requests)) {
    it(`v0 --stateless-rpc: ${name}`, async () => {
      const { got, expected } = await both(['--stateless-rpc'], pkts(...request(rev)));
      assert.equal(got.status, 0, got.stderr);
      assert.deepEqual(said(got.stdout, scratch.dir), said(expected.stdout, scratch.dir));
    });
  }

  it('v0 --stateless-rpc: a request that ends without a pack leaves the cache as it was', async () => {
    const request = pkts(
      `want ${rev('topic')} multi_ack_detailed side-band-64k`,
      '<flush>',
      `have ${rev('main~2')}`,
      '<flush>',
    );
    const before = existsSync(cacheDir) ? readdirSync(cacheDir).sort() : [];
    const got = await ours(['--stateless-rpc'], request);
    assert.equal(got.status, 0, got.stderr);
    assert.deepEqual(existsSync(cacheDir) ? readdirSync(cacheDir).sort() : [], before);
  });

  it('v0 --stateless-rpc refuses what git refuses, exit 128', async () => {
    // An object the repository lacks: git's ERR line, word for word.
    const missing = '1'.repeat(40);
    const unknown = await both(['--stateless-rpc'], pkts(`want ${missing} side-band-64k`, '<flush>', 'done'));
    assert.equal(unknown.got.status, 128);
    assert.deepEqual(
      said(unknown.got.stdout, scratch.dir).lines,
      said(unknown.expected.stdout, scratch.dir).lines,
    );
    assert.deepEqual(said(unknown.got.stdout, scratch.dir).lines, [
      `ERR upload-pack: not our ref ${missing}`,
    ]);
    // A line that is not a want, an empty request (the client went away), wants cut short.
    for (const input of [pkts('hello', '<flush>', 'done'), Buffer.alloc(0), pkts(`want ${rev('main')}`)]) {
      const { got } = await both(['--stateless-rpc'], input);
      assert.equal(got.status, 128);
      assert.equal(said(got.stdout, scratch.dir).objects.length, 0, 'no pack');
    }
  });

  it('v0 in a session still refuses an object only a tag peels to', async () => {
    const input = pkts(`want ${rev('v1.0^{}')} side-band-64k`, '<flush>', 'done');
    const { got } = await both([], input);
    assert.equal(got.status, 128);
    assert.ok(said(got.stdout, scratch.dir).lines.includes(`ERR upload-pack: not our ref ${rev('v1.0^{}')}`));
  });

  const v2Requests: Record<string, (rev: (spec: string) => string) => Buffer> = {
    'ls-refs: the refs, no advertisement before them': () =>
      command('ls-refs', ['symrefs', 'peel', 'unborn', 'ref-prefix HEAD', 'ref-prefix refs/']),
    'two commands: only the first is answered': () =>
      Buffer.concat([
        command('ls-refs', ['ref-prefix refs/heads/']),
        command('ls-refs', ['ref-prefix refs/tags/']),
      ]),
    'fetch with haves and no done: the acknowledgments, ready, and the pack': (r) =>
      command('fetch', ['no-progress', 'ofs-delta', `want ${r('main')}`, `have ${r('main~1')}`]),
    'fetch with haves it lacks and no done: NAK, and the end': (r) =>
      command('fetch', ['no-progress', `want ${r('main')}`, `have ${'e'.repeat(40)}`]),
    'fetch with wants only: the pack at once': (r) =>
      command('fetch', ['no-progress', 'ofs-delta', `want ${r('main')}`]),
    'fetch with done': (r) =>
      command('fetch', ['no-progress', 'ofs-delta', `want ${r('topic')}`, `have ${r('v0.1')}`, 'done']),
    'a lone flush: nothing': () => flushPkt(),
    'nothing at all: nothing': () => Buffer.alloc(0),
  };
  for (const [name, request] of Object.entries(v2Requests)) {
    it(`v2 --stateless-rpc: ${name}`, async () => {
      const { got, expected } = await both(['--stateless-rpc'], request(rev), V2);
      assert.equal(got.status, 0, got.stderr);
      assert.deepEqual(said(got.stdout, scratch.dir), said(expected.stdout, scratch.dir));
    });
  }

  it('v2 in a session: a fetch with wants only gets the pack at once, as from git', async () => {
    const input = Buffer.concat([
      command('fetch', ['no-progress', 'ofs-delta', `want ${rev('main')}`]),
      flushPkt(),
    ]);
    const { got, expected } = await both([], input, V2);
    assert.equal(got.status, 0, got.stderr);
    const answer = (f: Finished): Said => {
      const all = said(f.stdout, scratch.dir);
      return { ...all, lines: comparableV2(all.lines) };
    };
    assert.deepEqual(answer(got), answer(expected));
    assert.ok(answer(got).lines.includes('packfile'));
  });

  it('v2 --stateless-rpc refuses what git refuses, exit 128', async () => {
    const missing = '1'.repeat(40);
    const unknown = await both(['--stateless-rpc'], command('fetch', [`want ${missing}`, 'done']), V2);
    assert.equal(unknown.got.status, 128);
    assert.deepEqual(
      said(unknown.got.stdout, scratch.dir).lines,
      said(unknown.expected.stdout, scratch.dir).lines,
    );
    const bad: Buffer[] = [
      pkts('command=bogus', '<flush>'),
      pkts('command=ls-refs', 'foo=bar', '<flush>'),
      command('ls-refs', ['bogus']),
      command('fetch', ['bogus']),
      // A request cut short: the client went away.
      pkts('command=ls-refs'),
    ];
    for (const input of bad) {
      const { got, expected } = await both(['--stateless-rpc'], input, V2);
      assert.equal(got.status, 128);
      // git dies without a word on the wire here; ours says why in an ERR line, in git's words.
      const reason = expected.stderr.replace(/^fatal: /, '').trim();
      const lines = said(got.stdout, scratch.dir).lines;
      assert.equal(lines.length, 1, `one ERR line: ${lines.join('|')}`);
      if (!/hung up/.test(reason)) assert.ok(lines[0]!.includes(reason), `${lines[0]} says ${reason}`);
    }
  });
});
