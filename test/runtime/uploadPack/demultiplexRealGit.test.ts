import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import {
  demultiplexSideband,
  encodePktLine,
  FdSource,
  flushPkt,
  PktReader,
  type SidebandHandlers,
} from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { git, makeRepository, Scratch } from './helpers/gitRepo';

describe('the demultiplexer reading real git upload-pack output', () => {
  const scratch = new Scratch();
  let source: string;

  before(() => {
    source = makeRepository(scratch.dir);
  });
  after(() => scratch.dispose());

  it('recovers a pack that git index-pack --stdin accepts, and progress in CR/LF pieces', async () => {
    const tips = [...new Set(git(source, ['for-each-ref', '--format=%(objectname)']).trim().split('\n'))];
    const request = scratch.path('request');
    writeFileSync(
      request,
      Buffer.concat([
        encodePktLine(`want ${tips[0]} side-band-64k ofs-delta agent=test/1\n`),
        ...tips.slice(1).map((t) => encodePktLine(`want ${t}\n`)),
        flushPkt(),
        encodePktLine('done\n'),
      ]),
    );
    const fifo = scratch.path('fifo');
    execFileSync('mkfifo', [fifo]);
    const server = spawn(
      'sh',
      ['-c', 'exec git upload-pack "$1" < "$2" > "$3"', 'sh', source, request, fifo],
      {
        env: gitEnv(),
        stdio: 'ignore',
      },
    );
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    const fd = openSync(fifo, 'r');
    const pack: Buffer[] = [];
    const progress: string[] = [];
    try {
      const reader = new PktReader(new FdSource(fd));
      const refs: string[] = [];
      for (let line = reader.readLine(); line !== undefined; line = reader.readLine()) refs.push(line);
      assert.ok(refs.length >= tips.length);
      assert.equal(reader.readLine(), 'NAK');
      const handlers: SidebandHandlers = {
        data: (chunk) => pack.push(Buffer.from(chunk)),
        progress: (piece) => progress.push(piece),
      };
      demultiplexSideband(reader, handlers);
      assert.equal(reader.next(), undefined, 'nothing after the closing flush');
    } finally {
      closeSync(fd);
    }
    assert.equal(await exited, 0);

    git(scratch.dir, ['init', '-q', 'target']);
    const target = scratch.path('target');
    const indexed = git(target, ['index-pack', '--stdin'], { input: Buffer.concat(pack) });
    assert.match(indexed, /^pack\t[0-9a-f]{40}\n$/);
    git(target, ['cat-file', '-e', tips[0]!]);
    assert.ok(progress.length > 0, 'pack-objects progress arrived on band 2');
    assert.ok(progress.every((p) => /[\r\n]$/.test(p)));
    assert.ok(progress.some((p) => p.startsWith('Enumerating objects') || p.startsWith('Counting objects')));
  });
});
