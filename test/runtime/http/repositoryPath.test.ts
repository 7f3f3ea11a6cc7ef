import { strict as assert } from 'node:assert';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HttpRequestError, parseRequestTarget, resolveRepository } from '@writev/runtime';
import { git, Scratch } from '../uploadPack/helpers/gitRepo';

function refusal(code: string, message: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof HttpRequestError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  };
}

describe('request targets: what a smart HTTP path names', () => {
  it('splits the repository from info/refs and git-upload-pack, decoding each segment once', () => {
    const advertise = parseRequestTarget('/group/my%20repo.git/info/refs?service=git-upload-pack');
    assert.deepEqual(advertise.repository, ['group', 'my repo.git']);
    assert.equal(advertise.action, 'info/refs');
    assert.equal(advertise.query.get('service'), 'git-upload-pack');
    const post = parseRequestTarget('/r/git-upload-pack');
    assert.deepEqual([post.repository, post.action], [['r'], 'git-upload-pack']);
    // Decoded once: %252e%252e is the literal name %2e%2e, not '..'.
    assert.deepEqual(parseRequestTarget('/%252e%252e/info/refs').repository, ['%2e%2e']);
  });

  it('refuses .., ., empty segments, encoded slashes, NUL and bad escapes, naming the path', () => {
    for (const [target, problem] of [
      ['/a/../b/info/refs', /a '\.\.' segment/],
      ['/a/%2E%2e/info/refs', /a '\.\.' segment/],
      ['/./info/refs', /a '\.' segment/],
      ['//abs/info/refs', /an empty segment/],
      ['/a//b/info/refs', /an empty segment/],
      ['/a%2fb/info/refs', /an encoded '\/' in 'a%2fb'/],
      ['/a%00/info/refs', /an encoded NUL/],
      ['/a%e0%80/info/refs', /malformed percent-encoding/],
      ['relative/info/refs', /not a path starting with '\/'/],
    ] as const) {
      assert.throws(() => parseRequestTarget(target), refusal('ERR_HTTP_BAD_PATH', problem), target);
    }
    assert.throws(
      () => parseRequestTarget('/a%01b/info/refs'),
      refusal('ERR_HTTP_BAD_PATH', /^bad path '\/a%01b\/info\/refs': a control character in 'a%01b'$/),
    );
    assert.throws(
      () => parseRequestTarget('/a\x1bb/info/refs'),
      refusal('ERR_HTTP_BAD_PATH', /^bad path '\/a\\x1bb\/info\/refs'/),
    );
  });

  it('404 for paths that are not smart HTTP requests', () => {
    assert.throws(
      () => parseRequestTarget('/r.git/HEAD'),
      refusal('ERR_HTTP_NOT_FOUND', /request not supported/),
    );
    assert.throws(
      () => parseRequestTarget('/info/refs'),
      refusal('ERR_HTTP_NOT_FOUND', /no repository in the path/),
    );
  });
});

describe('repositories inside the served folder', () => {
  const scratch = new Scratch();
  const root = realpathSync(scratch.path());
  mkdirSync(join(root, 'served', 'plain'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  git(root, ['init', '-q', '--bare', join('served', 'bare.git')]);
  git(root, ['init', '-q', join('served', 'tree')]);
  git(root, ['init', '-q', '--bare', join('outside', 'secret.git')]);
  symlinkSync(join(root, 'outside', 'secret.git'), join(root, 'served', 'escape.git'));
  symlinkSync(join(root, 'served', 'bare.git'), join(root, 'served', 'alias.git'));
  symlinkSync(join(root, 'served', 'missing'), join(root, 'served', 'dangling.git'));
  writeFileSync(join(root, 'served', 'plain', 'HEAD'), 'ref: refs/heads/main\n');
  const served = join(root, 'served');
  after(() => scratch.dispose());
  const find = (path: string): string => resolveRepository(served, parseRequestTarget(`/${path}/info/refs`));

  it('finds <path>.git and <path>/.git as git daemon does, and follows symlinks that stay inside', () => {
    assert.equal(find('bare.git'), join(served, 'bare.git'));
    assert.equal(find('bare'), join(served, 'bare.git'));
    assert.equal(find('tree'), join(served, 'tree', '.git'));
    assert.equal(find('tree/.git'), join(served, 'tree', '.git'));
    // The real path is what upload-pack gets: a symlink changed later cannot redirect it.
    assert.equal(find('alias.git'), join(served, 'bare.git'));
  });

  it('refuses symlinks out of the folder, non-repositories and nothing, each by its own code', () => {
    assert.throws(() => find('escape.git'), refusal('ERR_HTTP_OUTSIDE_ROOT', /^'escape\.git' leads outside/));
    assert.throws(() => find('escape'), refusal('ERR_HTTP_OUTSIDE_ROOT', /^'escape' leads outside/));
    assert.throws(
      () => find('plain'),
      refusal('ERR_HTTP_NOT_A_REPOSITORY', /^'plain' is not a git repository$/),
    );
    assert.throws(
      () => find('dangling.git'),
      refusal('ERR_HTTP_NOT_A_REPOSITORY', /is not a git repository/),
    );
    assert.throws(() => find('nothing'), refusal('ERR_HTTP_NOT_FOUND', /^no repository at 'nothing'$/));
    assert.equal(new HttpRequestError('ERR_HTTP_OUTSIDE_ROOT', 'x').status, 403);
  });
});
