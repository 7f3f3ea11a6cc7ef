import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrokenPipeError, createSys, WriteError, writevInFull, writevOrDie } from '@writev/runtime';
import { digestOf, payloadLayout } from './helpers/payload';

const WRITER = join(__dirname, 'helpers', 'pipeWriter.js');
const READER = join(__dirname, 'helpers', 'slowReader.js');
const SIZE = 64 << 20;

interface WriterReport {
  nonblocking: boolean;
  counts: { write: number; writev: number; waits: number; errors: Record<string, number> };
  error?: { name: string; code: string; message: string; bytesWritten: number };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
}

async function stdoutOf(child: ChildProcess): Promise<string> {
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const status = await exitOf(child);
  assert.equal(status, 0, `reader exited with ${status}`);
  return out;
}

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'writev-real-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

function writerArgs(report: string, extra: string[] = []): string[] {
  return [WRITER, '--bytes', String(SIZE), '--report', report, ...extra];
}

/** What the reader prints: the bytes it read and their SHA-256. */
interface ReaderReport {
  bytes: number;
  sha256: string;
}

/** Runs writer | slow reader through a shell, so the two are joined by a real pipe. */
async function throughPipe(extra: string[]): Promise<{ read: ReaderReport; report: WriterReport }> {
  const report = join(dir, `report-${Math.random()}.json`);
  const q = (s: string): string => `'${s}'`;
  const line = `${[process.execPath, ...writerArgs(report, extra)].map(q).join(' ')} | ${q(process.execPath)} ${q(READER)}`;
  const read = JSON.parse(
    await stdoutOf(spawn('sh', ['-c', line], { stdio: ['ignore', 'pipe', 'inherit'] })),
  ) as ReaderReport;
  return { read, report: JSON.parse(readFileSync(report, 'utf8')) as WriterReport };
}

/** Runs the writer with its stdout on a spawn socket pair, read by the slow reader. */
async function throughSocketPair(extra: string[]): Promise<{ read: ReaderReport; report: WriterReport }> {
  const report = join(dir, `report-${Math.random()}.json`);
  const writer = spawn(process.execPath, writerArgs(report, extra), { stdio: ['ignore', 'pipe', 'inherit'] });
  const reader = spawn(process.execPath, [READER], { stdio: [writer.stdout, 'pipe', 'inherit'] });
  writer.stdout.destroy(); // the reader holds its own copy; this process must not read
  const [out, status] = await Promise.all([stdoutOf(reader), exitOf(writer)]);
  assert.equal(status, 0);
  return {
    read: JSON.parse(out) as ReaderReport,
    report: JSON.parse(readFileSync(report, 'utf8')) as WriterReport,
  };
}

const expected = digestOf(payloadLayout(SIZE, 1));

describe('writevInFull on real descriptors (64 MiB, slow reader)', () => {
  for (const [name, through] of [
    ['a pipe', throughPipe],
    ['a spawn socket pair', throughSocketPair],
  ] as const) {
    it(`delivers every byte through ${name} whose write end blocks`, async () => {
      const { read, report } = await through([]);
      assert.equal(report.nonblocking, false);
      assert.deepEqual(read, { bytes: SIZE, sha256: expected });
      assert.equal(report.counts.errors.EAGAIN ?? 0, 0);
    });

    it(`delivers every byte through ${name} whose write end is non-blocking, waiting on EAGAIN`, async () => {
      const { read, report } = await through(['--nonblocking']);
      assert.equal(report.nonblocking, true, 'touching process.stdout should have made fd 1 non-blocking');
      assert.deepEqual(read, { bytes: SIZE, sha256: expected });
      assert.ok(report.counts.waits > 0, 'a slow reader should have made the writer wait');
      assert.equal(report.counts.waits, report.counts.errors.EAGAIN);
    });
  }

  it('delivers every byte through a non-blocking pipe when told to sleep instead of reopening', async () => {
    const { read, report } = await throughPipe(['--nonblocking', '--wait', 'sleep']);
    assert.deepEqual(read, { bytes: SIZE, sha256: expected });
    assert.ok(report.counts.waits > 0);
  });

  it('delivers every byte through a non-blocking pipe with the promise twin', async () => {
    const { read, report } = await throughPipe(['--nonblocking', '--async']);
    assert.deepEqual(read, { bytes: SIZE, sha256: expected });
    assert.equal(report.nonblocking, true);
  });

  it('sends a two-buffer write into a pipe with room as one syscall', async () => {
    const report = join(dir, 'two.json');
    const q = (s: string): string => `'${s}'`;
    const args = [process.execPath, WRITER, '--bytes', '101', '--batch', '2', '--report', report];
    const line = `${args.map(q).join(' ')} | cat > /dev/null`;
    assert.equal(await exitOf(spawn('sh', ['-c', line], { stdio: 'inherit' })), 0);
    const { counts } = JSON.parse(readFileSync(report, 'utf8')) as WriterReport;
    assert.deepEqual({ write: counts.write, writev: counts.writev }, { write: 0, writev: 1 });
  });

  it('reports BrokenPipeError and exits 141 when the reader leaves early', async () => {
    const report = join(dir, 'epipe.json');
    const writer = spawn(process.execPath, writerArgs(report), { stdio: ['ignore', 'pipe', 'pipe'] });
    const head = spawn('head', ['-c', '1000'], { stdio: [writer.stdout, 'ignore', 'inherit'] });
    writer.stdout.destroy();
    let stderr = '';
    writer.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const [status] = await Promise.all([exitOf(writer), exitOf(head)]);
    const { error } = JSON.parse(readFileSync(report, 'utf8')) as WriterReport;
    assert.equal(error?.name, 'BrokenPipeError');
    assert.equal(error?.code, 'EPIPE');
    assert.ok(error.bytesWritten >= 1000);
    assert.equal(status, 141);
    assert.equal(stderr, '', 'a broken pipe is not worth a message');
  });
});

describe('writevInFull on files', () => {
  it('writes a layout of 2,000 buffers to a real file, byte for byte', () => {
    const path = join(dir, 'file.bin');
    const bufs = payloadLayout(8 << 20, 7);
    const fd = openSync(path, 'w');
    const sys = createSys();
    assert.equal(writevInFull(fd, bufs, { sys }), 8 << 20);
    closeSync(fd);
    assert.equal(digestOf([readFileSync(path)]), digestOf(bufs));
    assert.ok(sys.counts.writev <= Math.ceil(bufs.length / 1023) + 2, `${sys.counts.writev} writev calls`);
  });

  it('gives a WriteError with ENOSPC on /dev/full', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      assert.throws(
        () => writevOrDie(fd, [Buffer.from('header'), Buffer.from('payload')]),
        (err: unknown) =>
          err instanceof WriteError &&
          !(err instanceof BrokenPipeError) &&
          err.code === 'ENOSPC' &&
          err.bytesWritten === 0 &&
          err.message === 'writev error: No space left on device',
      );
    } finally {
      closeSync(fd);
    }
  });

  it('exits 128 with a fatal message like Git when a tool fails to write', async () => {
    const child = spawn(process.execPath, [WRITER, '--bytes', '100'], {
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    assert.equal(await exitOf(child), 128);
    assert.equal(stderr, 'fatal: writev error: No space left on device\n');
  });
});
