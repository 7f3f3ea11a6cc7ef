// writev-lint's config files: .writev-lint.json found by walking up from each file (the nearest
// wins), --config for every file, --no-config-lookup, `exclude` relative to the file that sets it,
// --report-unused-directives, and every bad file a usage error (exit 2) that names the file and the
// key path, without hanging on a FIFO.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from 'writev-lint/out/cli/main';
import { findingLines } from './cliHelpers';
import { REPO } from './helpers';

async function run(args: string[], cwd: string): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await main(args, { out: (t) => (out += t), err: (t) => (err += t) }, cwd);
  return { status, out, err };
}

const PAIR = 'void f(int fd)\n{\n\twrite_or_die(fd, "a", 1);\n\twrite_or_die(fd, "b", 1);\n}\n';

const tmp = mkdtempSync(join(tmpdir(), 'writev-config-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `files` (path to content; objects as JSON) under a fresh folder and returns it. */
function tree(name: string, files: Record<string, string | object>): string {
  const root = join(tmp, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

/** `path:line: severity [code]` of each text-format finding, paths relative to `root`. */
function findings(out: string, root: string): string[] {
  return findingLines(out).map((l) => {
    const m = /^(.*?):(\d+):\d+: (\w+): .* \[([\w-]+)\]$/.exec(l.replace(`${root}/`, ''));
    return m ? `${m[1]}:${m[2]}: ${m[3]} [${m[4]}]` : l;
  });
}

describe('.writev-lint.json lookup', () => {
  let root: string;
  before(() => {
    root = tree('lookup', {
      '.writev-lint.json': { minSequenceLength: 3 },
      'a.c': PAIR,
      'sub/.writev-lint.json': { writev: { severity: { adjacentWrites: 'error' }, exclude: ['gen/'] } },
      'sub/b.c': PAIR,
      'sub/gen/c.c': PAIR,
      'gen/d.c': PAIR,
      'other.json': { severity: { adjacentWrites: 'hint' } },
    });
  });

  it('takes the nearest config above each file; a nested exclude is relative to its own folder', async () => {
    const { status, out } = await run([root], root);
    assert.equal(status, 1);
    assert.deepEqual(findings(out, root), ['sub/b.c:3: error [adjacent-writes]']);
    const named = await run([join(root, 'sub', 'b.c'), join(root, 'a.c')], root);
    assert.deepEqual(findings(named.out, root), ['sub/b.c:3: error [adjacent-writes]']);
  });

  it('--config applies one file to every file, instead of the lookup', async () => {
    const { out } = await run(['--config', join(root, 'other.json'), root], root);
    assert.deepEqual(findings(out, root), [
      'a.c:3: hint [adjacent-writes]',
      'gen/d.c:3: hint [adjacent-writes]',
      'sub/b.c:3: hint [adjacent-writes]',
      'sub/gen/c.c:3: hint [adjacent-writes]',
    ]);
  });

  it('--no-config-lookup uses the defaults', async () => {
    const { out } = await run(['--no-config-lookup', root], root);
    assert.equal(findings(out, root).length, 4);
    assert.ok(findings(out, root).every((f) => f.endsWith(': warning [adjacent-writes]')));
  });
});

describe('--report-unused-directives', () => {
  it('reports a directive that suppresses nothing, from the flag or from the config file', async () => {
    const unused = `// writev-lint-disable-next-line loop-writes\n${PAIR.replace('\twrite_or_die(fd, "a"', '\t/* writev-lint-disable-next-line */\n\twrite_or_die(fd, "a"')}`;
    const root = tree('unused', { 'a.c': unused });
    assert.deepEqual([(await run([root], root)).status, (await run([root], root)).out], [0, '']);
    const flagged = await run(['--report-unused-directives', root], root);
    assert.equal(flagged.status, 1);
    assert.deepEqual(findings(flagged.out, root), ['a.c:1: warning [unused-directive]']);
    writeFileSync(join(root, '.writev-lint.json'), '{"reportUnusedDirectives": true}');
    assert.deepEqual(findings((await run([root], root)).out, root), ['a.c:1: warning [unused-directive]']);
  });
});

describe('bad config files: exit 2, the file and the key path named, nothing linted', () => {
  const cases: [string, string, RegExp][] = [
    [
      'wrong type',
      '{"languages":{"c":"no"}}',
      /\.writev-lint\.json: languages\.c: expected true or false, got "no"$/m,
    ],
    ['a number', '42', /\.writev-lint\.json: expected an object holding the writev settings, got 42$/m],
    ['writev not an object', '{"writev":5}', /\.writev-lint\.json: writev: expected an object, got 5$/m],
    [
      'a near miss',
      '{"writev":{"severity":{"adjacentWrite":"error"}}}',
      /\.writev-lint\.json: writev\.severity\.adjacentWrite: unknown setting; did you mean writev\.severity\.adjacentWrites\?$/m,
    ],
    [
      'invalid JSON',
      '{\n  "minSequenceLength": 3,\n}',
      /\.writev-lint\.json: not valid JSON \(line 3, column 1\)/,
    ],
    [
      'a key beside writev',
      '{"writev":{},"exclude":[]}',
      /\.writev-lint\.json: exclude: unknown key beside "writev"/,
    ],
  ];
  for (const [name, content, expected] of cases) {
    it(name, async () => {
      const root = tree(`bad-${name.replace(/\W/g, '-')}`, { 'src/a.c': PAIR, '.writev-lint.json': content });
      const { status, out, err } = await run([join(root, 'src')], root);
      assert.equal(status, 2);
      assert.equal(out, '', 'no findings are printed');
      assert.match(err, expected);
      assert.ok(
        err.split('\n').every((l) => l === '' || l.startsWith(`writev-lint: ${root}/.writev-lint.json: `)),
        err,
      );
    });
  }

  it('lists every problem of a file, one line each', async () => {
    const root = tree('bad-many', {
      '.writev-lint.json': { minSequenceLength: '3', wrappers: [{ name: 'emit' }], colour: 1 },
      'a.c': PAIR,
    });
    const { status, err } = await run([root], root);
    assert.equal(status, 2);
    assert.deepEqual(
      err
        .trim()
        .split('\n')
        .map((l) => l.replace(`writev-lint: ${root}/.writev-lint.json: `, ''))
        .sort(),
      [
        'colour: unknown setting (known here: writeFunctions, wrappers, minSequenceLength, severity, unknownDescriptors, languages, exclude, attributeMacros, measuredWrites, streamFunctions, presets, reportUnusedDirectives, overrides)',
        'minSequenceLength: expected a whole number, got "3"',
        'wrappers[0].fd: missing (it is required)',
      ],
    );
  });

  it('a FIFO, found by lookup or given to --config, is refused at once (no hang)', () => {
    const root = tree('fifo', { 'a.c': PAIR });
    const fifo = join(root, '.writev-lint.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const bin = join(REPO, 'node_modules', '.bin', 'writev-lint');
    for (const args of [[root], ['--config', fifo, '--no-config-lookup', root]]) {
      const result = spawnSync(bin, args, { cwd: root, encoding: 'utf8', timeout: 20_000 });
      assert.equal(result.signal, null, 'writev-lint did not hang');
      assert.equal(result.status, 2);
      assert.equal(
        result.stderr,
        `writev-lint: ${fifo}: the config file is a FIFO; it must be a regular file\n`,
      );
    }
  });

  it('a folder named .writev-lint.json, a missing --config, an unreadable file', async (t) => {
    const root = tree('odd', { 'a.c': PAIR, 'sub/b.c': PAIR, 'sub/.writev-lint.json/x': '' });
    const folder = await run([join(root, 'sub')], root);
    assert.equal(folder.status, 2);
    assert.match(
      folder.err,
      /sub\/\.writev-lint\.json: the config file is a folder; it must be a regular file/,
    );
    const missing = await run(['--config', 'nope.json', join(root, 'a.c')], root);
    assert.deepEqual(
      [missing.status, missing.err],
      [2, `writev-lint: ${root}/nope.json: cannot read the config file: ENOENT\n`],
    );
    writeFileSync(join(root, '.writev-lint.json'), '{}');
    chmodSync(join(root, '.writev-lint.json'), 0);
    const expected = `writev-lint: ${root}/.writev-lint.json: cannot read the config file: EACCES\n`;
    if (process.getuid?.() !== 0) {
      const unreadable = await run([join(root, 'a.c')], root);
      assert.deepEqual([unreadable.status, unreadable.err], [2, expected]);
      return;
    }
    // As root every file is readable: run the installed bin as an unprivileged user instead.
    if (spawnSync('runuser', ['--help']).status !== 0) {
      t.skip('running as root without runuser: the unreadable case cannot be checked');
      return;
    }
    chmodSync(tmp, 0o755);
    chmodSync(root, 0o755);
    const bin = join(REPO, 'server', 'bin', 'writev-lint.js');
    const result = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, bin, join(root, 'a.c')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.deepEqual([result.status, result.stderr], [2, expected]);
  });
});

describe('config lookup stays in the project', () => {
  const SECRET = 'WRITEV_SECRET=hunter2-do-not-print';

  it('stops at the repository root: a config file in a shared folder above it never applies', async () => {
    const shared = tree('shared', { '.writev-lint.json': { exclude: ['**'] }, 'repo/src/a.c': PAIR });
    const repo = join(shared, 'repo');
    assert.equal(spawnSync('git', ['init', '-q', repo]).status, 0);
    const { status, out } = await run([repo], repo);
    assert.equal(status, 1, 'the finding in the repository is reported');
    assert.deepEqual(findings(out, repo), ['src/a.c:3: warning [adjacent-writes]']);
    const below = await run([join(repo, 'src')], join(repo, 'src'));
    assert.equal(below.status, 1, 'from a folder of the repository too');
  });

  it('outside a repository, stops at the working folder', async () => {
    const shared = tree('shared-plain', { '.writev-lint.json': { exclude: ['**'] }, 'project/a.c': PAIR });
    const project = join(shared, 'project');
    const { status, out } = await run([project], project);
    assert.equal(status, 1);
    assert.deepEqual(findings(out, project), ['a.c:3: warning [adjacent-writes]']);
  });

  it('refuses a config file that links out of the project, naming it and printing none of the target', async () => {
    const root = tree('linked', { 'repo/a.c': PAIR, 'outside.json': `${SECRET}\n` });
    const repo = join(root, 'repo');
    assert.equal(spawnSync('git', ['init', '-q', repo]).status, 0);
    symlinkSync(join(root, 'outside.json'), join(repo, '.writev-lint.json'));
    const { status, out, err } = await run([repo], repo);
    assert.equal(status, 2);
    assert.equal(out, '');
    assert.equal(
      err,
      `writev-lint: ${repo}/.writev-lint.json: a link to a file outside ${repo}, the root of the project it is in; it is not read (copy the settings into the project instead)\n`,
    );
    assert.doesNotMatch(err, /hunter2/);
  });

  it('follows a link that stays in the project', async () => {
    const root = tree('linked-in', {
      'shared.json': { severity: { adjacentWrites: 'error' } },
      'sub/a.c': PAIR,
    });
    symlinkSync(join(root, 'shared.json'), join(root, 'sub', '.writev-lint.json'));
    const { status, out } = await run([root], root);
    assert.equal(status, 1);
    assert.deepEqual(findings(out, root), ['sub/a.c:3: error [adjacent-writes]']);
  });

  it('names the place, never the content, of a config file that is not JSON', async () => {
    const root = tree('not-json', { '.writev-lint.json': `${SECRET}\n`, 'a.c': PAIR });
    const { status, err } = await run([root], root);
    assert.equal(status, 2);
    assert.equal(
      err,
      `writev-lint: ${root}/.writev-lint.json: not valid JSON: it does not start like JSON\n`,
    );
  });

  it('says on stderr when exclude leaves no file to lint', async () => {
    const root = tree('all-excluded', { '.writev-lint.json': { exclude: ['**'] }, 'a.c': PAIR });
    const { status, out, err } = await run(['--format', 'json', root], root);
    assert.equal(status, 0);
    assert.equal((JSON.parse(out) as { files: number }).files, 0);
    assert.equal(
      err,
      `writev-lint: 0 files linted under .: the exclude setting of ${root}/.writev-lint.json applies there\n`,
    );
  });
});
