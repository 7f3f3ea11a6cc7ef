import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { allObjects, git, GitFixtures } from '../odb/helpers/gitFixtures';
import { catBlobIntoClosedReader, fastImport, shuffled, writevCatBlob } from './helpers';

const fixtures = new GitFixtures();
after(() => fixtures.dispose());

/** A request for every blob of `dir` in shuffled order, each twice, with missing objects mixed in. */
function everyBlobRequest(dir: string, hexLength: number): string {
  const blobs = allObjects(dir)
    .filter((o) => o.type === 'blob')
    .map((o) => o.oid);
  const missing = ['0', '1', 'f'].map((d) => d.repeat(hexLength));
  const oids = shuffled([...blobs, ...blobs.slice(0, 20), ...missing], blobs.length);
  return oids.map((oid) => `cat-blob ${oid}\n`).join('');
}

function assertSameAnswers(dir: string, request: string, args: string[] = []): void {
  const git = fastImport(dir, request);
  const ours = writevCatBlob(dir, request, args);
  assert.equal(git.status, 0, git.stderr);
  assert.equal(ours.status, 0, ours.stderr);
  assert.ok(ours.catBlob.length > 0);
  assert.ok(
    ours.catBlob.equals(git.catBlob),
    `output differs from git fast-import (${ours.catBlob.length} vs ${git.catBlob.length} bytes)`,
  );
}

describe('writev-cat-blob answers byte for byte as git fast-import --cat-blob-fd=3', () => {
  const cases: [string, () => string, number][] = [
    ['loose objects', () => fixtures.loose, 40],
    ['a pack with offset deltas', () => fixtures.gc, 40],
    ['a pack with reference deltas', () => fixtures.refDeltas, 40],
    ['an alternate', () => fixtures.alternate, 40],
    ['a SHA-256 repository', () => fixtures.sha256, 64],
  ];
  for (const [name, dir, hexLength] of cases) {
    it(`for every blob of ${name}, plus missing objects`, () => {
      assertSameAnswers(dir(), everyBlobRequest(dir(), hexLength));
    });
  }

  it('in every write mode, and with hash verification', () => {
    const request = everyBlobRequest(fixtures.gc, 40);
    for (const mode of ['writes', 'writev', 'batched'])
      assertSameAnswers(fixtures.gc, request, [`--mode=${mode}`]);
    assertSameAnswers(fixtures.gc, request, ['--verify-hash']);
  });

  it('with comments, upper-case ids, a last line without LF, and after done', () => {
    const blob = git(fixtures.gc, ['rev-parse', 'main:src/file1.txt']).toString().trim();
    assertSameAnswers(fixtures.gc, `# comment\ncat-blob ${blob.toUpperCase()}\ncat-blob ${blob}`);
    assertSameAnswers(fixtures.gc, `cat-blob ${blob}\ndone\ncat-blob ${blob}\n`);
  });
});

describe('writev-cat-blob fails as git fast-import does', () => {
  const blob = (): string => git(fixtures.gc, ['rev-parse', 'main:src/file2.txt']).toString().trim();
  const tree = (): string => git(fixtures.gc, ['rev-parse', 'main^{tree}']).toString().trim();
  const commit = (): string => git(fixtures.gc, ['rev-parse', 'main']).toString().trim();

  const failures: [string, () => string][] = [
    ['a tree', () => `cat-blob ${blob()}\ncat-blob ${tree()}\ncat-blob ${blob()}\n`],
    ['a commit', () => `cat-blob ${blob()}\ncat-blob ${commit()}\n`],
    ['an unknown command', () => `cat-blob ${blob()}\nfrobnicate now\n`],
    ['an empty line', () => `cat-blob ${blob()}\n\ncat-blob ${blob()}\n`],
    ['an abbreviated id', () => `cat-blob ${blob().slice(0, 12)}\n`],
    ['a revision expression', () => `cat-blob main:src/file2.txt\n`],
    ['garbage after the id', () => `cat-blob ${blob()}\ncat-blob ${blob()} \n`],
    ['an undeclared mark', () => `cat-blob :1\n`],
  ];
  for (const [name, request] of failures) {
    it(`on ${name}: same answers before it, exit 128, same fatal message`, () => {
      const dir = fixtures.copy(fixtures.gc, `fail-${name.replace(/\W+/g, '-')}`);
      const theirs = fastImport(dir, request());
      const ours = writevCatBlob(dir, request());
      assert.equal(theirs.status, 128);
      assert.equal(ours.status, 128);
      assert.ok(ours.catBlob.equals(theirs.catBlob), 'answers before the failure');
      const fatal = (stderr: string): string => stderr.split('\n').find((l) => l.startsWith('fatal: ')) ?? '';
      assert.equal(fatal(ours.stderr), fatal(theirs.stderr));
      assert.match(ours.stderr, /^fatal: /);
    });
  }
});

describe('writev-cat-blob and the rest of the fast-import language', () => {
  it('refuses commands other than cat-blob, naming the line, after answering what came before', () => {
    const blob = git(fixtures.gc, ['rev-parse', 'main:src/file3.txt']).toString().trim();
    const ours = writevCatBlob(fixtures.gc, `cat-blob ${blob}\nblob\nmark :1\ndata 0\n`);
    assert.equal(ours.status, 128);
    assert.equal(ours.stderr, 'fatal: Unsupported command: blob\n');
    assert.ok(ours.catBlob.equals(fastImport(fixtures.gc, `cat-blob ${blob}\n`).catBlob));
  });

  it('exits 141 without a message when the reader goes away, as Git does on SIGPIPE', () => {
    const request = everyBlobRequest(fixtures.gc, 40);
    const result = catBlobIntoClosedReader(fixtures.gc, request);
    assert.equal(result.status, '141');
    assert.equal(result.stderr, '');
  });

  it('names a directory that is not a repository', () => {
    const ours = writevCatBlob('/', 'cat-blob 0000000000000000000000000000000000000000\n');
    assert.equal(ours.status, 128);
    assert.match(ours.stderr, /^fatal: \/: not a git repository/);
  });

  it('rejects unknown options with the usage', () => {
    const ours = writevCatBlob(fixtures.gc, '', ['--frob']);
    assert.equal(ours.status, 129);
    assert.match(ours.stderr, /^error: Unknown option '--frob'\nusage: writev-cat-blob/);
  });
});
