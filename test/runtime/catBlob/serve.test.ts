import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import {
  catBlob,
  CatBlobResponder,
  CatBlobCommandError,
  DEFAULT_BATCH_BYTES,
  IOV_MAX,
  LineInput,
  NotABlobError,
  openRepository,
  serveCatBlob,
  systemError,
  type ReadFn,
  type Repository,
} from '@writev/runtime';
import { parseCommand } from '@writev/runtime/dist/catBlob/commands';
import { SinkSys } from '../helpers/sinkSys';
import { allObjects, git, GitFixtures } from '../odb/helpers/gitFixtures';

const fixtures = new GitFixtures();
let repo: Repository;
let blobs: { oid: string; data: Buffer }[];
before(() => {
  repo = openRepository(fixtures.gc);
  blobs = allObjects(fixtures.gc).filter((o) => o.type === 'blob');
});
after(() => {
  repo.close();
  fixtures.dispose();
});

/** The answer git fast-import gives for a blob. */
function answerOf(blob: { oid: string; data: Buffer }): Buffer {
  return Buffer.concat([Buffer.from(`${blob.oid} blob ${blob.data.length}\n`), blob.data, Buffer.from('\n')]);
}

/** A read function that hands out `chunks` one per call, calling `onRead` before each. */
function chunkedInput(chunks: string[], onRead: (call: number) => void = () => {}): ReadFn {
  let call = 0;
  const pending = chunks.map((c) => Buffer.from(c));
  return (_fd, buf, offset, length) => {
    onRead(call++);
    const next = pending.shift();
    if (next === undefined) return 0;
    const n = Math.min(length, next.length);
    next.copy(buf, offset, 0, n);
    if (n < next.length) pending.unshift(next.subarray(n));
    return n;
  };
}

const small = (): { oid: string; data: Buffer }[] =>
  blobs.filter((b) => b.data.length < 100_000).slice(0, 40);

describe('catBlob', () => {
  it('writes header, payload and LF with one writev, as fast-import does', () => {
    const sink = new SinkSys();
    const blob = small()[0]!;
    catBlob(9, blob.oid.toUpperCase(), repo, { sys: sink });
    assert.ok(sink.received().equals(answerOf(blob)));
    assert.deepEqual(sink.counts.writev, 1);
    assert.deepEqual(sink.counts.write, 0);
  });

  it('answers "<oid> missing" for an absent object', () => {
    const sink = new SinkSys();
    catBlob(9, '1'.repeat(40), repo, { sys: sink });
    assert.equal(sink.received().toString(), `${'1'.repeat(40)} missing\n`);
  });

  it('refuses a tree with git’s wording and writes nothing', () => {
    const sink = new SinkSys();
    const tree = git(fixtures.gc, ['rev-parse', 'main^{tree}']).toString().trim();
    assert.throws(() => catBlob(9, tree, repo, { sys: sink }), {
      name: 'NotABlobError',
      message: `Object ${tree} is a tree but a blob was expected.`,
    });
    assert.throws(() => catBlob(9, tree, repo, { sys: sink }), NotABlobError);
    assert.equal(sink.calls.length, 0);
  });
});

describe('serveCatBlob', () => {
  it('answers requests that arrived together with one writev', () => {
    const sink = new SinkSys();
    const request = small().map((b) => `cat-blob ${b.oid}\n`);
    const summary = serveCatBlob(0, 1, repo, {
      sys: sink,
      batchBytes: 1 << 30, // gather them all
      input: { read: chunkedInput([request.join('')]) },
    });
    assert.ok(sink.received().equals(Buffer.concat(small().map(answerOf))));
    assert.equal(sink.counts.writev, 1);
    assert.equal(summary.answers, small().length);
    assert.equal(summary.reads, 2); // the burst, then the end of input
  });

  it('never holds an answer back while it waits for input', () => {
    const sink = new SinkSys();
    const answers = small().map(answerOf);
    // Requests trickle in: two at once, one, a line split across reads, then three at once.
    const lines = small()
      .slice(0, 8)
      .map((b) => `cat-blob ${b.oid}\n`);
    const chunks = [
      lines[0]! + lines[1]!,
      lines[2]!,
      lines[3]!.slice(0, 20),
      lines[3]!.slice(20),
      lines[4]! + lines[5]! + lines[6]!,
      lines[7]!,
    ];
    const completeBefore = [0, 2, 3, 3, 4, 7, 8];
    const read = chunkedInput(chunks, (call) => {
      const expected = Buffer.concat(answers.slice(0, completeBefore[call]));
      assert.ok(sink.received().equals(expected), `before read ${call}, every answer so far is out`);
    });
    serveCatBlob(0, 1, repo, { sys: sink, input: { read } });
    assert.ok(sink.received().equals(Buffer.concat(answers.slice(0, 8))));
    assert.equal(sink.counts.writev, 5, 'one gathered write per burst');
  });

  it('stays within IOV_MAX buffers and maxIoSize bytes per gathered write', () => {
    const sink = new SinkSys();
    const many = Array.from({ length: 700 }, (_, i) => small()[i % small().length]!);
    const request = many.map((b) => `cat-blob ${b.oid}\n`).join('');
    serveCatBlob(0, 1, repo, { sys: sink, batchBytes: 1 << 30, input: { read: chunkedInput([request]) } });
    assert.ok(sink.received().equals(Buffer.concat(many.map(answerOf))));
    assert.ok(sink.calls.every((c) => c.buffers <= IOV_MAX));
    assert.equal(sink.calls.length, Math.ceil((700 * 3) / IOV_MAX));

    const limited = new SinkSys();
    const big = blobs.reduce((a, b) => (b.data.length > a.data.length ? b : a));
    const mixed = [small()[0]!, big, small()[1]!, small()[2]!];
    const mixedRequest = mixed.map((b) => `cat-blob ${b.oid}\n`).join('');
    serveCatBlob(0, 1, repo, {
      sys: limited,
      maxIoSize: 1 << 20,
      batchBytes: 1 << 30, // capped at maxIoSize
      input: { read: chunkedInput([mixedRequest]) },
    });
    assert.ok(limited.received().equals(Buffer.concat(mixed.map(answerOf))));
    assert.ok(limited.calls.every((c) => c.requested <= 1 << 20));
    // The first small answer goes out before the big one, the last two together after it.
    assert.equal(limited.calls[0]!.requested, answerOf(mixed[0]!).length);
    assert.equal(limited.calls.at(-1)!.requested, answerOf(mixed[2]!).length + answerOf(mixed[3]!).length);
  });

  it('writes gathered answers once 16 KiB of them wait, by default', () => {
    const sink = new SinkSys();
    const many = Array.from({ length: 2000 }, (_, i) => small()[i % small().length]!);
    const total = many.reduce((sum, b) => sum + answerOf(b).length, 0);
    assert.ok(total > 3 * DEFAULT_BATCH_BYTES, 'the answers fill several batches');
    const request = many.map((b) => `cat-blob ${b.oid}\n`).join('');
    assert.ok(request.length < 128 * 1024, 'the whole request fits the input buffer: no pause');
    serveCatBlob(0, 1, repo, { sys: sink, input: { read: chunkedInput([request]) } });
    assert.ok(sink.received().equals(Buffer.concat(many.map(answerOf))));
    // The documented rule, replayed: gather until 16 KiB wait (IOV_MAX and 8 MiB are not reached).
    const expected: number[] = [];
    let bytes = 0;
    for (const size of many.map((b) => answerOf(b).length)) {
      bytes += size;
      if (bytes >= DEFAULT_BATCH_BYTES) {
        expected.push(bytes);
        bytes = 0;
      }
    }
    if (bytes > 0) expected.push(bytes);
    assert.deepEqual(
      sink.calls.map((c) => c.requested),
      expected,
    );
    assert.ok(expected.length < many.length / 4, 'several answers per write');
  });

  it('keeps Git’s three writes per answer in writes mode, one writev in writev mode', () => {
    const request = small()
      .slice(0, 5)
      .map((b) => `cat-blob ${b.oid}\n`)
      .join('');
    const writes = new SinkSys();
    serveCatBlob(0, 1, repo, { sys: writes, mode: 'writes', input: { read: chunkedInput([request]) } });
    assert.deepEqual([writes.counts.write, writes.counts.writev], [15, 0]);
    const writev = new SinkSys();
    serveCatBlob(0, 1, repo, { sys: writev, mode: 'writev', input: { read: chunkedInput([request]) } });
    assert.deepEqual([writev.counts.write, writev.counts.writev], [0, 5]);
    assert.ok(writes.received().equals(writev.received()));
  });

  it('writes the answers before a failing request, then reports it', () => {
    const sink = new SinkSys();
    const request = `cat-blob ${small()[0]!.oid}\ncat-blob ${small()[1]!.oid}\nbogus\n`;
    assert.throws(() => serveCatBlob(0, 1, repo, { sys: sink, input: { read: chunkedInput([request]) } }), {
      message: 'Unsupported command: bogus',
      lineNumber: 3,
    });
    assert.ok(sink.received().equals(Buffer.concat(small().slice(0, 2).map(answerOf))));
  });

  it('retries reads after EINTR and EAGAIN', () => {
    const sink = new SinkSys();
    const inner = chunkedInput([`cat-blob ${small()[0]!.oid}\n`]);
    let faults = ['EAGAIN', 'EINTR', 'EAGAIN', 'EAGAIN'];
    const read: ReadFn = (...args) => {
      const code = faults[0];
      faults = faults.slice(1);
      if (code !== undefined) throw systemError(code, 'read');
      return inner(...args);
    };
    const summary = serveCatBlob(0, 1, repo, { sys: sink, input: { read } });
    assert.ok(sink.received().equals(answerOf(small()[0]!)));
    assert.equal(summary.reads, 6);
  });
});

describe('command lines', () => {
  it('parses cat-blob, comments and done; refuses the rest as fast-import words it', () => {
    const oid = 'a'.repeat(40);
    assert.deepEqual(parseCommand(`cat-blob ${oid.toUpperCase()}`, 1, 40), { kind: 'cat-blob', oid });
    assert.deepEqual(parseCommand('# note', 1, 40), { kind: 'comment' });
    assert.deepEqual(parseCommand('done', 1, 40), { kind: 'done' });
    const refused: [string, string][] = [
      ['', 'Unsupported command: '],
      ['cat-blob', 'Unsupported command: cat-blob'],
      [`cat-blob ${oid} `, `Garbage after SHA1: cat-blob ${oid} `],
      ['cat-blob abc', 'Invalid dataref: cat-blob abc'],
      ['cat-blob :7', 'mark :7 not declared'],
    ];
    for (const [line, message] of refused) {
      assert.throws(
        () => parseCommand(line, 4, 40),
        (err: unknown) => {
          assert.ok(err instanceof CatBlobCommandError);
          assert.equal(err.message, message);
          assert.equal(err.lineNumber, 4);
          return true;
        },
      );
    }
  });

  it('reads through one buffer, takes a last line without LF, and refuses a line longer than the buffer', () => {
    const input = new LineInput(0, { read: chunkedInput(['a\nb\n', 'c']) });
    assert.equal(input.readLine(), 'a');
    assert.equal(input.hasBufferedLine(), true);
    assert.equal(input.readLine(), 'b');
    assert.equal(input.hasBufferedLine(), false);
    assert.equal(input.readLine(), 'c');
    assert.equal(input.readLine(), undefined);
    const long = new LineInput(0, { bufferSize: 16, read: chunkedInput(['x'.repeat(40)]) });
    assert.throws(() => long.readLine(), /command line longer than 16 bytes/);
  });
});

describe('CatBlobResponder limits', () => {
  it('refuses a limit below 1 as every batching writer does, before anything is written', () => {
    for (const limits of [{ iovMax: 0 }, { maxIoSize: 0 }, { iovMax: 1.5 }]) {
      assert.throws(() => new CatBlobResponder(1, repo, { sys: new SinkSys(), ...limits }), RangeError);
    }
  });
});
