// Per-folder settings: `overrides` in a .writev-lint.json, applied in order (a later entry wins, objects
// merge key by key), with gitignore-style patterns relative to the config file's folder, by the CLI and
// the language server alike; bad patterns and keys are named with the file and the key path. Through
// the installed bin (every case that depends on the working folder) and the real language server; the
// refusals and the --stdin cases run main() in this process, which loads the analyzer once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lintBin, lintHere } from './cliHelpers';
import { TestServer } from './lspClient';

const tmp = mkdtempSync(join(tmpdir(), 'writev-overrides-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** An adjacent-writes pair (line 3) and a loop-writes loop (line 5). */
const SOURCE = [
  'void f(int fd, const char *b, size_t n, const char **l, const size_t *ll, int k)',
  '{',
  '\twrite_or_die(fd, "x", 1);',
  '\twrite_or_die(fd, b, n);',
  '\tfor (int i = 0; i < k; i++)',
  '\t\twrite_or_die(fd, l[i], ll[i]);',
  '}',
  '',
].join('\n');

/** A project (a git repository, where the config lookup stops) with `files`. */
function tree(name: string, files: Record<string, string>): string {
  const root = join(tmp, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CONFIG = JSON.stringify({
  severity: { adjacentWrites: 'hint' },
  overrides: [
    { files: ['tests/'], severity: { loopWrites: 'off' } },
    { files: ['tests/keep.c'], severity: { adjacentWrites: 'error' } },
  ],
});

/** `path:line severity code` of each finding of a JSON report. */
function findings(stdout: string): string[] {
  const report = JSON.parse(stdout) as {
    findings: { path: string; line: number; severity: string; code: string }[];
  };
  return report.findings.map((f) => `${f.path}:${f.line} ${f.severity} ${f.code}`).sort();
}

describe('overrides', () => {
  it('apply in order to the files they name: a later entry wins, objects merge key by key', () => {
    const root = tree('order', {
      '.writev-lint.json': CONFIG,
      'src/a.c': SOURCE,
      'tests/t.c': SOURCE,
      'tests/keep.c': SOURCE,
    });
    const run = lintBin(['--format', 'json', '.'], { cwd: root });
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(findings(run.stdout), [
      'src/a.c:3 hint adjacent-writes',
      'src/a.c:5 information loop-writes',
      'tests/keep.c:3 error adjacent-writes',
      'tests/t.c:3 hint adjacent-writes',
    ]);
  });

  it('take patterns relative to the folder of their config file, not the working folder', () => {
    const root = tree('relative', {
      'sub/.writev-lint.json': JSON.stringify({
        overrides: [{ files: ['/gen/'], severity: { adjacentWrites: 'off', loopWrites: 'off' } }],
      }),
      'sub/gen/x.c': SOURCE,
      'sub/x.c': SOURCE,
      'gen/x.c': SOURCE,
    });
    const run = lintBin(['--format', 'json', '.'], { cwd: root });
    assert.deepEqual(findings(run.stdout), [
      'gen/x.c:3 warning adjacent-writes',
      'gen/x.c:5 information loop-writes',
      'sub/x.c:3 warning adjacent-writes',
      'sub/x.c:5 information loop-writes',
    ]);
    // A file named on the command line, from inside the folder, gets the same.
    const inside = lintBin(['--format', 'json', 'gen/x.c', 'x.c'], { cwd: join(root, 'sub') });
    assert.deepEqual(findings(inside.stdout), [
      'x.c:3 warning adjacent-writes',
      'x.c:5 information loop-writes',
    ]);
  });

  it('apply to --stdin under its --stdin-filename, and with --config relative to the working folder', async () => {
    const root = tree('stdin', { '.writev-lint.json': CONFIG });
    const piped = async (name: string) =>
      findings(
        (
          await lintHere(['--format', 'json', '--stdin', '--stdin-filename', name], {
            cwd: root,
            input: SOURCE,
          })
        ).stdout,
      );
    assert.deepEqual(await piped('tests/keep.c'), ['tests/keep.c:3 error adjacent-writes']);
    assert.deepEqual(await piped('src/a.c'), [
      'src/a.c:3 hint adjacent-writes',
      'src/a.c:5 information loop-writes',
    ]);
    writeFileSync(join(root, 'elsewhere.json'), CONFIG);
    mkdirSync(join(root, 'tests'), { recursive: true });
    writeFileSync(join(root, 'tests', 'keep.c'), SOURCE);
    const explicit = lintBin(['--format', 'json', '--config', 'elsewhere.json', 'tests/keep.c'], {
      cwd: root,
    });
    assert.deepEqual(findings(explicit.stdout), ['tests/keep.c:3 error adjacent-writes']);
  });

  it('refuse bad patterns and keys, naming the file and each key path, and lint nothing', async () => {
    const cases: [unknown, RegExp[]][] = [
      [
        { overrides: [{ files: ['../x', '[abc', '#c', 'ok/', 'a\\', '[z-a].c'] }, { files: ['!x'] }] },
        [
          /\.writev-lint\.json: overrides\[0\]\.files\[0\]: the pattern "\.\.\/x" has a \.\. segment/,
          /\.writev-lint\.json: overrides\[0\]\.files\[1\]: the pattern "\[abc" has a \[ without its closing \]/,
          /overrides\[0\]\.files\[2\]: the pattern "#c" starts with #/,
          /overrides\[0\]\.files\[4\]: the pattern "a\\\\" ends with a lone backslash/,
          /overrides\[0\]\.files\[5\]: the pattern "\[z-a\]\.c" has the range z-a, which runs backwards/,
          /overrides\[1\]\.files: only negative patterns/,
        ],
      ],
      [
        {
          writev: {
            overrides: [
              { files: ['t/'], severity: { adjacentWrite: 'off' }, exclude: ['x'] },
              { files: [] },
              { severity: {} },
              { files: ['t/'], minSequenceLength: 1 },
            ],
          },
        },
        [
          /writev\.overrides\[0\]\.severity\.adjacentWrite: unknown setting; did you mean writev\.overrides\[0\]\.severity\.adjacentWrites\?/,
          /writev\.overrides\[0\]\.exclude: unknown setting/,
          /writev\.overrides\[1\]\.files: expected a list of 1 or more, got a list of 0/,
          /writev\.overrides\[2\]\.files: missing \(it is required\)/,
          /writev\.overrides\[3\]\.minSequenceLength: expected a whole number of 2 or more, got 1/,
        ],
      ],
    ];
    for (const [i, [config, expected]] of cases.entries()) {
      const root = tree(`bad-${i}`, { '.writev-lint.json': JSON.stringify(config), 'a.c': SOURCE });
      const run = await lintHere([join(root, 'a.c')], { cwd: root });
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, '');
      for (const pattern of expected) assert.match(run.stderr, pattern);
      for (const line of run.stderr.trim().split('\n'))
        assert.ok(line.startsWith(`writev-lint: ${join(root, '.writev-lint.json')}: `), line);
    }
  });

  it('are applied by the language server as by the CLI', async () => {
    const root = tree('lsp', { '.writev-lint.json': CONFIG, 'src/a.c': SOURCE, 'tests/keep.c': SOURCE });
    const server = await TestServer.start(root, { workspace: { configuration: true } });
    try {
      const severities = async (path: string) => {
        const uri = `file://${join(root, path)}`;
        await server.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'c', version: 1, text: SOURCE },
        });
        return (await server.published(uri, 1)).map(
          (d) => `${d.range.start.line + 1} ${d.severity} ${d.code}`,
        );
      };
      // LSP severities: 1 error, 3 information, 4 hint.
      assert.deepEqual(await severities('tests/keep.c'), ['3 1 adjacent-writes']);
      assert.deepEqual(await severities('src/a.c'), ['3 4 adjacent-writes', '5 3 loop-writes']);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
