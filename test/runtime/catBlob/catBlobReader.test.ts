import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { CatBlobProtocolError, CatBlobReader } from '@writev/runtime';
import { allObjects, GIT_ENV, GitFixtures } from '../odb/helpers/gitFixtures';
import { CAT_BLOB_BIN } from './helpers';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** Starts a responder with its cat-blob descriptor (fd 3) as a pipe to this process. */
function startResponder(
  command: string,
  args: string[],
  cwd: string,
): { child: ChildProcess; answers: Readable; requests: Writable } {
  const child = spawn(command, args, { cwd, env: GIT_ENV, stdio: ['pipe', 'ignore', 'inherit', 'pipe'] });
  return { child, answers: child.stdio[3] as Readable, requests: child.stdin! };
}

/** Sends each request only after the previous answer arrived, as a frontend does, and checks every answer. */
async function converse(command: string, args: string[]): Promise<void> {
  const dir = fixtures.gc;
  const blobs = allObjects(dir)
    .filter((o) => o.type === 'blob')
    .slice(0, 30);
  const { child, answers, requests } = startResponder(command, args, dir);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const reader = new CatBlobReader(answers);
  for (const blob of blobs) {
    requests.write(`cat-blob ${blob.oid}\n`);
    const answer = await reader.read(blob.oid);
    assert.ok(answer?.type === 'blob' && answer.data.equals(blob.data), `answer for ${blob.oid}`);
  }
  const missing = 'd'.repeat(40);
  requests.write(`cat-blob ${missing}\n`);
  assert.deepEqual(await reader.read(missing), { oid: missing, type: 'missing' });
  requests.end();
  assert.equal(await reader.read(), undefined);
  assert.equal(await exited, 0);
}

describe('CatBlobReader against real responders', () => {
  it('reads git fast-import --cat-blob-fd answers one request at a time', async () => {
    await converse('git', ['fast-import', '--quiet', '--cat-blob-fd=3']);
  });

  it('reads writev-cat-blob’s batched answers one request at a time (nothing held back)', async () => {
    await converse(process.execPath, [CAT_BLOB_BIN, '--cat-blob-fd=3']);
  });

  it('reads a whole stream of every blob, large ones included', async () => {
    const dir = fixtures.gc;
    const blobs = allObjects(dir).filter((o) => o.type === 'blob');
    const { answers, requests } = startResponder('git', ['fast-import', '--quiet', '--cat-blob-fd=3'], dir);
    requests.end(blobs.map((b) => `cat-blob ${b.oid}\n`).join(''));
    const reader = new CatBlobReader(answers);
    for (const blob of blobs) {
      const answer = await reader.read(blob.oid);
      assert.ok(answer?.type === 'blob' && answer.data.equals(blob.data));
    }
    assert.equal(await reader.read(), undefined);
  });
});

describe('CatBlobReader rejects broken streams clearly', () => {
  const oid = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

  /** Feeds `bytes` in small pieces, then ends the stream, and returns the error of the first bad read. */
  async function failureOf(bytes: string | Buffer, expected?: string): Promise<CatBlobProtocolError> {
    const stream = new PassThrough();
    const reader = new CatBlobReader(stream);
    const data = Buffer.from(bytes);
    for (let i = 0; i < data.length; i += 7) stream.write(data.subarray(i, i + 7));
    stream.end();
    for (;;) {
      try {
        if ((await reader.read(expected)) === undefined) assert.fail('the stream was accepted');
      } catch (err) {
        assert.ok(err instanceof CatBlobProtocolError, String(err));
        return err;
      }
    }
  }

  it('parses answers split across chunks, the empty blob included', async () => {
    const stream = new PassThrough();
    const reader = new CatBlobReader(stream);
    const text = `${oid} blob 0\n\n${'a'.repeat(40)} blob 5\nhello\n${'b'.repeat(40)} missing\n`;
    for (const ch of text) stream.write(ch);
    stream.end();
    assert.deepEqual(await reader.read(oid), { oid, type: 'blob', size: 0, data: Buffer.alloc(0) });
    assert.equal((await reader.read())?.type, 'blob');
    assert.deepEqual(await reader.read(), { oid: 'b'.repeat(40), type: 'missing' });
    assert.equal(await reader.read(), undefined);
    assert.equal(reader.offset, Buffer.byteLength(text));
  });

  it('a truncated payload', async () => {
    const err = await failureOf(`${oid} blob 10\nhello`);
    assert.match(
      err.message,
      /^cat-blob response at byte 49: stream ends after 5 bytes of the 10-byte payload/,
    );
  });

  it('a payload not followed by LF', async () => {
    const err = await failureOf(`${oid} blob 5\nhelloX${oid} missing\n`);
    assert.match(err.message, /payload of e69de.* \(5 bytes\) is not followed by LF/);
    assert.equal(err.offset, 53); // where the LF should be
  });

  it('a malformed header', async () => {
    for (const header of [
      `${oid} blob -1`,
      `${oid} blob 01`,
      `${oid} tree 5`,
      `${oid.slice(1)} missing`,
      'fatal: x',
    ]) {
      assert.match((await failureOf(`${header}\n`)).message, /malformed header/);
    }
  });

  it('a stream that ends inside a header, or a header without LF', async () => {
    assert.match((await failureOf(`${oid} blo`)).message, /stream ends inside a header/);
    assert.match((await failureOf('x'.repeat(300))).message, /no LF within 256 bytes/);
  });

  it('an answer for another object than the one asked for', async () => {
    const err = await failureOf(`${'a'.repeat(40)} missing\n`, oid);
    assert.match(err.message, /answer for a{40}, but e69de.* was asked for/);
  });
});
