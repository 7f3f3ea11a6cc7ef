import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CatBlobCommandError, NotABlobError, openRepository, serveCatBlob } from '@writev/runtime';
import type { ReadFn } from '@writev/runtime/dist/catBlob/lineInput';
import { READ_AHEAD_QUEUE } from '@writev/runtime/dist/catBlob/serve';
import { allocateArena, ArenaCarver, type ArenaMemory } from '@writev/runtime/dist/odb/memoryArena';
import { allObjects, git, GIT_ENV, GitFixtures } from '../odb/helpers/gitFixtures';
import { damageEntry, packLayout } from '../odb/helpers/packSurgery';
import { CAT_BLOB_BIN, catBlobIntoClosedReader, fastImport, run, shuffled, writevCatBlob } from './helpers';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** Enough requests for one read to hand the stream to the worker: every blob, three times over. */
function bulkRequest(dir: string): string {
  const blobs = allObjects(dir)
    .filter((o) => o.type === 'blob')
    .map((o) => o.oid);
  const oids = shuffled([...blobs, ...blobs, ...blobs, '0'.repeat(40)], 7);
  assert.ok(oids.length > 2 * READ_AHEAD_QUEUE);
  return oids.map((oid) => `cat-blob ${oid}\n`).join('');
}

/**
 * {@link bulkRequest} after one blob asked for 300 times: by then the pack is scanned for its delta
 * bases, so the blobs asked for afterwards that nothing is made from are made straight in the ring
 * (before the scan every object read is kept, and none is made there).
 */
function scannedBulkRequest(dir: string): string {
  const first = allObjects(dir).find((o) => o.type === 'blob' && o.data.length > 0)!.oid;
  return `cat-blob ${first}\n`.repeat(300) + bulkRequest(dir);
}

function stats(stderr: string): { readAhead: boolean; answers: number; inPlace: number; writev: number } {
  return JSON.parse(stderr.trim().split('\n').at(-1)!) as {
    readAhead: boolean;
    answers: number;
    inPlace: number;
    writev: number;
  };
}

describe('writev-cat-blob with answers made ahead of a writer thread', () => {
  it('fails with a message, and no half answer, when the writer thread stops on its own', () => {
    // A preload makes the writer thread exit in the middle of its writes (as a dependency calling
    // process.exit would): the answering thread waits on the ring synchronously, so only the ring
    // can tell it. Small batches make enough writes for that.
    const preload = join(fixtures.gc, '..', 'exit-in-worker.js');
    writeFileSync(
      preload,
      `const wt = require('node:worker_threads'); const fs = require('node:fs');
       if (!wt.isMainThread) { const writev = fs.writevSync; let n = 0;
         fs.writevSync = (...args) => { if (++n > 3) process.exit(7); return writev(...args); }; }`,
    );
    const request = bulkRequest(fixtures.gc).repeat(4);
    const ours = run(
      process.execPath,
      ['--require', preload, CAT_BLOB_BIN, '--cat-blob-fd=3', '--batch-bytes=1'],
      fixtures.gc,
      request,
    );
    assert.notEqual(ours.status, 0, 'a failed run is not reported as success');
    assert.match(ours.stderr, /cat-blob writer thread stopped \(exit code 7\)/);
    assert.ok(ours.catBlob.length > 0, 'the writes before it went out');
    const answers = fastImport(fixtures.gc, request).catBlob;
    assert.ok(
      answers.subarray(0, ours.catBlob.length).equals(ours.catBlob),
      'what was written is a prefix of the answers',
    );
  });

  it('answers a bulk request byte for byte as git fast-import, with the worker', () => {
    for (const dir of [fixtures.gc, fixtures.refDeltas, fixtures.alternate]) {
      const request = scannedBulkRequest(dir);
      const theirs = fastImport(dir, request);
      const ours = writevCatBlob(dir, request, ['--stats']);
      assert.equal(ours.status, 0, ours.stderr);
      assert.equal(stats(ours.stderr).readAhead, true, 'the writer thread wrote the answers');
      assert.ok(
        stats(ours.stderr).inPlace > 0,
        `answers were made straight in the ring (${dir}: ${ours.stderr})`,
      );
      assert.ok(stats(ours.stderr).inPlace < stats(ours.stderr).answers, 'and others copied into it');
      assert.ok(ours.catBlob.equals(theirs.catBlob), `output differs in ${dir}`);
      const { writev, answers } = stats(ours.stderr);
      assert.ok(writev > 0 && writev < answers, `the writer thread's writev calls are counted: ${writev}`);
      const single = writevCatBlob(dir, request, ['--stats', '--no-read-ahead']);
      assert.equal(stats(single.stderr).readAhead, false);
      assert.ok(single.catBlob.equals(theirs.catBlob));
    }
  });

  const blob = (): string => git(fixtures.gc, ['rev-parse', 'main:src/file2.txt']).toString().trim();
  const failures: [string, () => string][] = [
    ['a tree', () => `cat-blob ${git(fixtures.gc, ['rev-parse', 'main^{tree}']).toString().trim()}\n`],
    ['an unknown command', () => 'frobnicate now\n'],
    ['garbage after the id', () => `cat-blob ${blob()} \n`],
  ];
  for (const [name, bad] of failures) {
    it(`stops at ${name} deep in a bulk request: same answers before it, exit 128, same message`, () => {
      const request = bulkRequest(fixtures.gc) + bad() + `cat-blob ${blob()}\n`;
      const theirs = fastImport(fixtures.gc, request);
      const ours = writevCatBlob(fixtures.gc, request);
      assert.equal(theirs.status, 128);
      assert.equal(ours.status, 128);
      const fatal = (stderr: string): string => stderr.split('\n').find((l) => l.startsWith('fatal: ')) ?? '';
      assert.equal(fatal(ours.stderr), fatal(theirs.stderr));
      assert.ok(ours.catBlob.length > 0);
      assert.ok(ours.catBlob.equals(theirs.catBlob), 'every answer before the bad line, nothing after');
    });
  }

  it('answers each burst before the frontend sends the next (a request is never waited for)', async () => {
    const dir = fixtures.gc;
    const burst = bulkRequest(dir);
    const expected = fastImport(dir, burst).catBlob;
    const child = spawn(process.execPath, [CAT_BLOB_BIN, '--stats'], {
      cwd: dir,
      env: GIT_ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const received: Buffer[] = [];
    let length = 0;
    const waitFor = (bytes: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (length >= bytes) resolve();
        };
        child.stdout.on('data', (d: Buffer) => {
          received.push(d);
          length += d.length;
          check();
        });
        child.on('exit', () => reject(new Error(`exited before ${bytes} bytes: ${stderr}`)));
        check();
      });
    // Three bursts, each sent only once every answer of the one before has arrived: if anything
    // were held back until more input came, this would wait forever (and the test time out).
    for (let round = 1; round <= 3; round++) {
      child.stdin.write(burst);
      await waitFor(expected.length * round);
      child.stdout.removeAllListeners('data');
    }
    child.stdin.end();
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(status, 0, stderr);
    assert.ok(Buffer.concat(received).equals(Buffer.concat([expected, expected, expected])));
    assert.equal(stats(stderr).readAhead, true);
  });

  it('writes no byte of an answer that fails half made in the ring, and every answer before it', () => {
    // A blob no delta is made from is inflated straight into the ring once the pack is scanned;
    // damage that only zlib's checksum sees fails it after its bytes were written there. (The
    // history's small whole blobs are all delta bases, so one that is not is added.)
    const dir = fixtures.copy(fixtures.gc, 'ahead-damaged-leaf');
    let x = 7;
    const noise = Buffer.from(
      Array.from({ length: 20_000 }, () => (x = (x * 1103515245 + 12345) % 2 ** 31) >> 23),
    );
    const oid = git(dir, ['hash-object', '-w', '--stdin'], noise).toString().trim();
    git(dir, ['update-ref', 'refs/tags/noise', oid]);
    git(dir, ['repack', '-adq']);
    const layout = packLayout(dir);
    const leaf = layout.entries.find((e) => e.oid === oid);
    assert.ok(leaf !== undefined && leaf.header.kind === 'whole', 'the added blob is whole in the pack');
    assert.ok(
      !layout.entries.some((e) => e.header.kind === 'ofs-delta' && e.header.baseOffset === leaf.offset),
    );
    damageEntry(layout, leaf, (bytes) => (bytes[bytes.length - 30]! ^= 0x55));
    const before = scannedBulkRequest(fixtures.gc)
      .split('\n')
      .filter((line) => line !== '' && !line.endsWith(leaf.oid))
      .map((line) => `${line}\n`)
      .join('');
    const request = `${before}cat-blob ${leaf.oid}\n${before}`;
    const expected = fastImport(fixtures.gc, before).catBlob;
    const ours = writevCatBlob(dir, request);
    assert.notEqual(ours.status, 0, 'a failed run is not reported as success');
    assert.match(ours.stderr, /zlib/);
    assert.ok(ours.stderr.includes(layout.packPath), ours.stderr);
    assert.ok(ours.catBlob.equals(expected), 'every answer before the damaged blob, nothing of it');
    const single = writevCatBlob(dir, request, ['--no-read-ahead']);
    assert.equal(single.status, ours.status);
    assert.ok(single.catBlob.equals(expected));
  });

  it('exits 141 without a message when the reader goes away', () => {
    const request = bulkRequest(fixtures.gc).repeat(20);
    const result = catBlobIntoClosedReader(fixtures.gc, request);
    assert.equal(result.status, '141');
    assert.equal(result.stderr, '');
  });
});

describe('serveCatBlob with readAhead', () => {
  /** Serves `request` from files, as the library's caller would with real descriptors. */
  function serveFromFiles(
    request: string,
    ringBytes?: number,
    options: { arena?: ArenaMemory; read?: ReadFn } = {},
  ): { out: Buffer; summary?: ReturnType<typeof serveCatBlob>; error?: unknown } {
    const input = join(fixtures.root, 'request');
    const output = join(fixtures.root, 'answers');
    writeFileSync(input, request);
    const inFd = openSync(input, 'r');
    const outFd = openSync(output, 'w');
    const carver = options.arena && new ArenaCarver(options.arena);
    const repo = openRepository(fixtures.gc, carver && { memory: carver });
    try {
      const readAhead = { ringBytes, arena: carver };
      const input = options.read && { read: options.read };
      const summary = serveCatBlob(inFd, outFd, repo, { readAhead, ...(input && { input }) });
      return { out: Buffer.alloc(0), summary };
    } catch (error) {
      return { out: Buffer.alloc(0), error };
    } finally {
      repo.close();
      closeSync(inFd);
      closeSync(outFd);
    }
  }
  const answers = (): Buffer => readFileSync(join(fixtures.root, 'answers'));

  it('passes answers larger than its ring through it in pieces, and counts every line and answer', () => {
    const request = scannedBulkRequest(fixtures.gc);
    const expected = fastImport(fixtures.gc, request).catBlob;
    for (const ringBytes of [4096, 64 * 1024]) {
      const { summary } = serveFromFiles(request, ringBytes);
      assert.ok(answers().equals(expected), `output with a ring of ${ringBytes} bytes`);
      assert.equal(summary?.readAhead, true);
      assert.equal(summary?.lines, request.split('\n').length - 1);
      assert.equal(summary?.answers, summary?.lines);
      assert.equal(summary?.bytes, expected.length);
      // Answers that fit before the ring's end are made in it; the rest (and the blobs of
      // several MB) are copied through it.
      const inPlace = summary?.inPlace ?? 0;
      assert.ok(inPlace > 0 && inPlace < (summary?.answers ?? 0), `in place: ${inPlace}`);
    }
  });

  it('builds the objects in the arena it is given, with the same answers', () => {
    const request = scannedBulkRequest(fixtures.gc);
    const arena = allocateArena(64 * 1024 * 1024);
    const { summary } = serveFromFiles(request, undefined, { arena });
    assert.equal(summary?.readAhead, true);
    assert.ok(answers().equals(fastImport(fixtures.gc, request).catBlob));
    const used = Buffer.from(arena.data).subarray(0, 1024 * 1024);
    assert.ok(
      used.some((b) => b !== 0),
      'objects were built in the arena',
    );
  });

  it('reads through an injected input function, the writes going to the writer thread', () => {
    const request = bulkRequest(fixtures.gc);
    let reads = 0;
    const read: ReadFn = (fd, buf, offset, length) => {
      reads++;
      return readSync(fd, buf, offset, Math.min(length, 4096), null);
    };
    const { summary } = serveFromFiles(request, undefined, { read });
    assert.equal(summary?.readAhead, true);
    assert.equal(summary?.reads, reads);
    assert.ok(answers().equals(fastImport(fixtures.gc, request).catBlob));
  });

  it('throws the reader error as its own class, with its fields, after the answers before it', () => {
    const tree = git(fixtures.gc, ['rev-parse', 'main^{tree}']).toString().trim();
    const request = bulkRequest(fixtures.gc);
    const { error } = serveFromFiles(`${request}cat-blob ${tree}\n`);
    assert.ok(error instanceof NotABlobError, String(error));
    assert.equal(error.oid, tree);
    assert.equal(error.type, 'tree');
    assert.ok(answers().equals(fastImport(fixtures.gc, request).catBlob));
    const lines = request.split('\n').length;
    const bad = serveFromFiles(`${request}cat-blob nope\n`).error;
    assert.ok(bad instanceof CatBlobCommandError);
    assert.equal(bad.lineNumber, lines, 'the line number counts the lines read before the hand-over');
    assert.equal(bad.message, 'Invalid dataref: cat-blob nope');
  });
});
