import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  decodePktLines,
  encodePktLine,
  flushPkt,
  LARGE_PACKET_MAX,
  packetText,
  type Packet,
} from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { git, makeRepository, run, runInProcess, Scratch } from './helpers/gitRepo';

/** A server's reply split into its phases. */
interface Reply {
  /** The ref lines, the first without its capabilities. */
  refs: string[];
  /** ACK and NAK lines. */
  negotiation: string[];
  /** Band-1 bytes, concatenated. */
  pack: Buffer;
  /** Sizes of the band-1 packets, headers included. */
  packetSizes: number[];
}

function parseReply(stdout: Buffer): Reply {
  const packets: Packet[] = decodePktLines(stdout);
  const reply: Reply = { refs: [], negotiation: [], pack: Buffer.alloc(0), packetSizes: [] };
  let i = 0;
  for (; packets[i]!.kind !== 'flush'; i++) {
    const p = packets[i] as { payload: Uint8Array };
    reply.refs.push(packetText(p.payload).split('\0')[0]!);
  }
  for (i++; i < packets.length; i++) {
    const p = packets[i]!;
    if (p.kind !== 'data') break;
    const text = packetText(p.payload);
    if (/^(ACK |NAK$)/.test(text)) {
      reply.negotiation.push(text);
      continue;
    }
    if (p.payload[0] === 1) {
      reply.pack = Buffer.concat([reply.pack, p.payload.subarray(1)]);
      reply.packetSizes.push(p.payload.length + 4);
    }
  }
  return reply;
}

describe('writev-upload-pack against git upload-pack with a hook that cats the same pack', () => {
  const scratch = new Scratch();
  let source: string;
  let tips: string[];
  let old: string;
  const cache = scratch.path('cache');
  const hook = scratch.path('cat-pack.sh');

  before(() => {
    source = makeRepository(scratch.dir);
    tips = [...new Set(git(source, ['for-each-ref', '--format=%(objectname)']).trim().split('\n'))];
    old = git(source, ['rev-parse', 'v0.1']).trim();
    // The hook swallows git's want list, then sends the pack writev-upload-pack cached.
    writeFileSync(hook, '#!/bin/sh\ncat > /dev/null\nexec cat "$CACHED_PACK"\n', { mode: 0o755 });
  });
  after(() => scratch.dispose());

  /** A fetch: every tip wanted, a have the server lacks, then two it has, then done. */
  function request(capability: string): Buffer {
    return Buffer.concat([
      encodePktLine(`want ${tips[0]} ${capability} ofs-delta no-progress agent=test/1\n`),
      ...tips.slice(1).map((t) => encodePktLine(`want ${t}\n`)),
      flushPkt(),
      encodePktLine(`have ${'e'.repeat(40)}\n`),
      flushPkt(),
      encodePktLine(`have ${old}\n`),
      encodePktLine(`have ${git(source, ['rev-parse', 'v0.1^{tree}']).trim()}\n`),
      flushPkt(),
      encodePktLine('done\n'),
    ]);
  }

  async function ours(input: Buffer): Promise<Reply> {
    const result = await runInProcess([source], {
      env: gitEnv({ WRITEV_UPLOAD_PACK_CACHE: cache }),
      input,
    });
    assert.equal(result.status, 0, result.stderr);
    return parseReply(result.stdout);
  }

  async function theirs(input: Buffer, pack: string): Promise<Reply> {
    const args = ['-c', `uploadpack.packObjectsHook=${hook}`, 'upload-pack', source];
    const result = await run('git', args, { env: gitEnv({ CACHED_PACK: pack }), input });
    assert.equal(result.status, 0, result.stderr);
    return parseReply(result.stdout);
  }

  for (const capability of ['side-band-64k', 'side-band']) {
    it(`sends the same ref lines, negotiation lines and band-1 bytes (${capability})`, async () => {
      const input = request(capability);
      const miss = await ours(input);
      const entries = readdirSync(cache).filter((f) => f.endsWith('.pack'));
      const pack = `${cache}/${entries.find((f) => miss.pack.equals(readFileSync(`${cache}/${f}`)))}`;
      const hit = await ours(input);
      const git = await theirs(input, pack);

      assert.deepEqual(miss.refs, git.refs);
      assert.deepEqual(git.negotiation, ['NAK', `ACK ${old}`], 'the basic negotiation, as git answers it');
      assert.deepEqual(miss.negotiation, git.negotiation);
      assert.deepEqual(hit.negotiation, git.negotiation);
      assert.ok(git.pack.length > 10_000);
      assert.ok(miss.pack.equals(git.pack), 'band 1 of a cache miss equals git');
      assert.ok(hit.pack.equals(git.pack), 'band 1 of a cache hit equals git');

      const packetMax = capability === 'side-band' ? 1000 : LARGE_PACKET_MAX;
      assert.ok(Math.max(...git.packetSizes) <= packetMax);
      // From the cache every packet but the last is full size; git's depend on its reads.
      assert.ok(hit.packetSizes.slice(0, -1).every((size) => size === packetMax));
    });
  }
});
