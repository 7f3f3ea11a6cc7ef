import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  advertisementLines,
  ChunkSource,
  decodePktLines,
  encodePktLine,
  flushPkt,
  negotiate,
  packetText,
  parseOptions,
  PktReader,
  readWants,
  UploadPackError,
  UsageError,
} from '@writev/runtime';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

/** A want policy: `tips` advertised, `has` present in the repository (the tips too). */
const policy = (tips: string[], has: string[] = []) => ({
  tips: new Set(tips),
  present: (oids: readonly string[]) => new Set(oids.filter((o) => tips.includes(o) || has.includes(o))),
});

const reader = (...lines: (string | null)[]): PktReader =>
  new PktReader(
    new ChunkSource([Buffer.concat(lines.map((l) => (l === null ? flushPkt() : encodePktLine(l))))]),
  );

/** Runs a negotiation where the server has `has`, returning what it answered and the common objects. */
async function negotiateWith(
  has: string[],
  ...lines: (string | null)[]
): Promise<{ answers: string[]; common: string[] }> {
  const answers: string[] = [];
  const common = await negotiate(
    reader(...lines),
    (packet) =>
      answers.push(
        ...decodePktLines(Buffer.from(packet)).map((p) => packetText((p as { payload: Uint8Array }).payload)),
      ),
    (oids) => new Set(oids.filter((o) => has.includes(o))),
  );
  return { answers, common };
}

describe('readWants', () => {
  it('reads the wants and the capabilities of the first line, dropping repeats', async () => {
    const request = await readWants(
      reader(`want ${A} side-band-64k ofs-delta agent=x\n`, `want ${B}\n`, `want ${A}\n`, null),
      policy([A, B]),
    );
    assert.deepEqual(request?.wants, [A, B]);
    assert.deepEqual([...request.capabilities], ['side-band-64k', 'ofs-delta', 'agent=x']);
  });

  it('returns nothing for a flush without wants; a client that hangs up instead is an error, as in git', async () => {
    assert.equal(await readWants(reader(null), policy([])), undefined);
    await assert.rejects(() => readWants(reader(), policy([])), {
      name: 'UploadPackError',
      message: 'the remote end hung up unexpectedly',
    });
  });

  it('refuses an object that was not advertised, and a malformed id', async () => {
    await assert.rejects(() => readWants(reader(`want ${C}\n`, null), policy([A])), {
      message: `git upload-pack: not our ref ${C}`,
      wire: `upload-pack: not our ref ${C}`,
    });
    await assert.rejects(() => readWants(reader('want xyz\n', null), policy([A])), UploadPackError);
  });

  it('names the first missing object, as git refuses it on its line; else the first unadvertised', async () => {
    // C exists but is not advertised, B is missing: git dies at B's line, before the flush.
    await assert.rejects(() => readWants(reader(`want ${C}\n`, `want ${B}\n`, null), policy([A], [C])), {
      wire: `upload-pack: not our ref ${B}`,
    });
    // A missing object before a malformed line is named; the malformed line is after git died.
    await assert.rejects(() => readWants(reader(`want ${B}\n`, 'want xyz\n', null), policy([A])), {
      wire: `upload-pack: not our ref ${B}`,
    });
    await assert.rejects(() => readWants(reader(`want ${C}\n`, 'want xyz\n', null), policy([A], [C])), {
      message: /protocol error/,
    });
    await assert.rejects(() => readWants(reader(`want ${A}\n`, `want ${C}\n`, null), policy([A], [C])), {
      wire: `upload-pack: not our ref ${C}`,
    });
  });
});

describe('negotiate (no multi_ack)', () => {
  it('answers a clone (done without haves) with NAK', async () => {
    assert.deepEqual(await negotiateWith([], 'done\n'), { answers: ['NAK'], common: [] });
  });

  it('sends NAK on each flush until a common object is found, then ACK it once and keeps silent', async () => {
    const result = await negotiateWith(
      [A, B],
      `have ${C}\n`,
      null,
      `have ${A}\n`,
      `have ${B}\n`,
      null,
      `have ${A}\n`,
      null,
      'done\n',
    );
    assert.deepEqual(result, { answers: ['NAK', `ACK ${A}`], common: [A, B] });
  });

  it('acknowledges a common object named just before done', async () => {
    assert.deepEqual((await negotiateWith([B], `have ${B}\n`, 'done\n')).answers, [`ACK ${B}`]);
  });

  it('refuses a line that is neither have nor done, and a client that hangs up', async () => {
    await assert.rejects(() => negotiateWith([], 'want x\n'), /expected have or done, got 'want x'/);
    await assert.rejects(() => negotiateWith([], `have ${A}\n`), /hung up during negotiation/);
  });
});

describe('advertisementLines', () => {
  it('puts HEAD first with the capabilities, then refs with peeled tags', async () => {
    const lines = advertisementLines({
      head: { oid: A },
      headTarget: 'refs/heads/main',
      refs: [
        { name: 'refs/heads/main', oid: A },
        { name: 'refs/tags/v1', oid: B, peeled: A },
      ],
      objectFormat: 'sha1',
    });
    assert.deepEqual(lines, [
      `${A} HEAD\0multi_ack thin-pack side-band side-band-64k ofs-delta shallow deepen-since deepen-not deepen-relative no-progress include-tag multi_ack_detailed symref=HEAD:refs/heads/main object-format=sha1 agent=writev-upload-pack/0.1.0\n`,
      `${A} refs/heads/main\n`,
      `${B} refs/tags/v1\n`,
      `${A} refs/tags/v1^{}\n`,
    ]);
  });

  it('advertises capabilities on a capabilities^{} line for an empty repository', async () => {
    const [line] = advertisementLines({ refs: [], objectFormat: 'sha1' });
    assert.match(line!, /^0{40} capabilities\^\{\}\0multi_ack thin-pack side-band /);
  });
});

describe('parseOptions', () => {
  it('takes options over the environment over the defaults', async () => {
    const env = { WRITEV_UPLOAD_PACK_CACHE: '/env/cache', WRITEV_UPLOAD_PACK_WRITE_MODE: 'writev' };
    assert.deepEqual(parseOptions(['repo'], {}).cacheDir, 'default');
    assert.equal(parseOptions(['repo'], env).cacheDir, '/env/cache');
    assert.equal(parseOptions(['repo'], { WRITEV_UPLOAD_PACK_CACHE: 'off' }).cacheDir, false);
    const o = parseOptions(['--cache-dir=/opt/c', '--write-mode=writes', 'repo'], env);
    assert.equal(o.cacheDir, '/opt/c');
    assert.equal(o.writeMode, 'writes');
    assert.equal(parseOptions(['--no-cache', 'repo'], env).cacheDir, false);
    assert.equal(parseOptions(['--cache-dir', '/opt/d', 'repo'], env).cacheDir, '/opt/d');
  });

  it('refuses unknown options, bad values and a missing directory', async () => {
    assert.throws(
      () => parseOptions(['--stateful-rpc', 'repo'], {}),
      (err) => err instanceof UsageError && err.message === "unknown option '--stateful-rpc'",
    );
    assert.throws(
      () => parseOptions(['repo', '--cache-dir'], {}),
      /option '--cache-dir <value>' argument missing/,
    );
    assert.throws(
      () => parseOptions(['--write-mode=fast', 'repo'], {}),
      /'fast' is not one of batched, writev, writes/,
    );
    assert.throws(() => parseOptions(['--cache-max-bytes=-1', 'repo'], {}), /not a byte count/);
    assert.throws(() => parseOptions([], {}), /exactly one <directory>/);
  });
});
