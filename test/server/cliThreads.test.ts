import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { defaultThreads, runThreads, workerLimit } from 'writev-lint/out/cli/pool';

const MiB = 1024 * 1024;

describe('how many threads a writev-lint run uses', () => {
  it('lints little source on this thread alone, however many files hold it', () => {
    assert.equal(runThreads(2000, 1 * MiB), 1);
    assert.equal(runThreads(2000, 5 * MiB - 1), 1);
  });

  it('uses the default threads for a large tree, but no more than one per 16 files', () => {
    assert.equal(runThreads(2000, 5 * MiB), defaultThreads());
    assert.equal(runThreads(2000, 500 * MiB), defaultThreads());
    assert.equal(runThreads(3, 500 * MiB), 1, 'three large files are one thread of work each at most');
  });

  it('follows --jobs whatever the size, up to the cores and the files', () => {
    assert.equal(runThreads(2000, 0, 1), 1);
    assert.equal(runThreads(2000, 0, 2), Math.min(2, workerLimit()));
    assert.equal(runThreads(2000, 0, 1000), workerLimit());
    assert.equal(runThreads(20, 0, 1000), Math.min(2, workerLimit()));
  });

  it('never uses fewer threads for more files or more bytes', () => {
    for (const bytes of [0, MiB, 4 * MiB, 5 * MiB, 64 * MiB]) {
      for (const files of [1, 16, 17, 64, 1000]) {
        const threads = runThreads(files, bytes);
        assert.ok(threads >= 1);
        assert.ok(threads >= runThreads(Math.max(1, files - 1), bytes), `${files} files, ${bytes} bytes`);
        assert.ok(threads >= runThreads(files, bytes / 2), `${files} files, ${bytes} bytes`);
      }
    }
  });
});
