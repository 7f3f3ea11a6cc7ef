// writev-lint reads files synchronously on its worker threads; the editor reads them asynchronously.
// Both readers run one algorithm: the same bytes, the same stamp, the same refusals.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  readRegularFile,
  readRegularFileSync,
  readSourceFile,
  readSourceFileSync,
  readSourceTextSync,
  ReadBuffer,
  SkippedFileError,
} from 'writev-lint/out/workspace/sourceFile';

const dir = mkdtempSync(join(tmpdir(), 'writev-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the synchronous reader', () => {
  it('gives the bytes, text and stamp the asynchronous reader gives', async () => {
    const file = join(dir, 'big.c');
    // Larger than one 64 KiB chunk, with non-ASCII text.
    const bytes = Buffer.from('/* caf\u00e9 */ int x;\n'.repeat(20_000));
    writeFileSync(file, bytes);
    const sync = readSourceFileSync(file);
    const async = await readSourceFile(file);
    assert.ok(sync.bytes.equals(bytes));
    assert.ok(async.bytes.equals(bytes));
    assert.equal(sync.text, async.text);
    assert.deepEqual(sync.form, { encoding: 'utf8', bom: false });
    assert.deepEqual({ ...sync.stamp }, { ...async.stamp });
    assert.equal(sync.stamp.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(sync.stamp.size, bytes.length);
  });

  it('refuses a FIFO at once (no writer: no hang) and a file over the limit, as the other does', async () => {
    const fifo = join(dir, 'pipe.c');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readRegularFileSync(fifo), SkippedFileError);
    await assert.rejects(readRegularFile(fifo), SkippedFileError);
    const large = join(dir, 'large.c');
    writeFileSync(large, 'x'.repeat(1001));
    assert.throws(() => readRegularFileSync(large, 1000), /1001 bytes, larger than the limit of 1000 bytes/);
    assert.equal(readRegularFileSync(large, 1001).bytes.length, 1001);
    assert.throws(() => readRegularFileSync(join(dir, 'missing.c')), { code: 'ENOENT' });
  });
});

describe('the text-only reader (one buffer for a whole run)', () => {
  it('gives the text and form the full reader gives, file after file, through one buffer', async () => {
    const buffer = new ReadBuffer();
    const files: [string, Buffer][] = [
      // Larger than the buffer's first size: it grows, then serves the smaller files after it.
      ['huge.c', Buffer.from('/* caf\u00e9 */ int x;\n'.repeat(40_000))],
      ['small.c', Buffer.from('int y;\n')],
      ['latin1.c', Buffer.from([0x2f, 0x2a, 0xe9, 0x2a, 0x2f, 0x0a])],
      ['bom.c', Buffer.from([0xef, 0xbb, 0xbf, 0x69, 0x6e, 0x74, 0x3b])],
      ['empty.c', Buffer.alloc(0)],
    ];
    for (const [name, bytes] of files) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const full = await readSourceFile(file);
      const text = readSourceTextSync(file, 4 * 1024 * 1024, buffer);
      assert.equal(text.text, full.text, name);
      assert.deepEqual(text.form, full.form, name);
    }
  });

  it('refuses a FIFO, a file over the limit and a missing file as the full reader does', () => {
    const buffer = new ReadBuffer();
    const fifo = join(dir, 'pipe2.c');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readSourceTextSync(fifo, 1000, buffer), SkippedFileError);
    const large = join(dir, 'large2.c');
    writeFileSync(large, 'x'.repeat(1001));
    assert.throws(
      () => readSourceTextSync(large, 1000, buffer),
      /1001 bytes, larger than the limit of 1000 bytes/,
    );
    assert.equal(readSourceTextSync(large, 1001, buffer).text.length, 1001);
    assert.throws(() => readSourceTextSync(join(dir, 'missing2.c'), 1000, buffer), { code: 'ENOENT' });
  });
});
