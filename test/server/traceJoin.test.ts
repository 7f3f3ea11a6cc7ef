// writev-lint --trace on real traces: a C program built with gcc -g and a Node script, each traced by
// writev-trace, then linted with the trace: measured figures on the findings in every format, the
// measured-writes hint on a hot line no rule flags, ordering by calls, and bad trace files refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO } from './helpers';

const LINT = join(REPO, 'server', 'bin', 'writev-lint.js');
const TRACE = join(REPO, 'runtime', 'dist', 'writev-trace.js');

const C_SOURCE = [
  '#include <fcntl.h>',
  '#include <stdio.h>',
  '#include <unistd.h>',
  '',
  'static void print_pairs(int n)',
  '{',
  '\tchar num[16];',
  '',
  '\tfor (int i = 0; i < n; i++) {',
  '\t\tint len = snprintf(num, sizeof(num), "%d", i);',
  '\t\twrite(1, "key", 3);',
  '\t\twrite(1, "=", 1);',
  '\t\twrite(1, num, len);',
  '\t\twrite(1, "\\n", 1);',
  '\t}',
  '}',
  '',
  '/* An external function: callers in other files may pass a datagram socket, so no rule flags it. */',
  'void save(int fd, const char *text, int n)',
  '{',
  '\tfor (int i = 0; i < n; i++)',
  '\t\twrite(fd, text + i, 1); /* hot */',
  '}',
  '',
  'int main(void)',
  '{',
  '\tstatic char text[500];',
  '',
  '\tprint_pairs(1000);',
  '\tint fd = open("saved.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);',
  '',
  '\tsave(fd, text, 500);',
  '\tclose(fd);',
  '\treturn 0;',
  '}',
  '',
].join('\n');

function run(args: string[], cwd: string) {
  return spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

describe('writev-lint --trace', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'writev-lint-trace-'));
    writeFileSync(join(dir, 'pairs.c'), C_SOURCE);
    const cc = spawnSync('gcc', ['-g', '-O0', '-o', join(dir, 'pairs'), join(dir, 'pairs.c')], {
      encoding: 'utf8',
    });
    assert.equal(cc.status, 0, cc.stderr);
    const traced = run([TRACE, '--out', join(dir, 'trace.json'), '--', join(dir, 'pairs')], dir);
    assert.equal(traced.status, 0, traced.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('shows what each finding cost in the traced run, and the hot line no rule flags (text)', () => {
    const lint = run([LINT, '--trace', 'trace.json', '--format', 'concise', 'pairs.c'], dir);
    assert.equal(lint.status, 1, lint.stderr);
    // 1,000 lines of "key" "=" <number> "\n": 4,000 calls; 3,000 + 1,000 + 2,890 digits + 1,000 bytes.
    assert.deepEqual(lint.stdout.trim().split('\n'), [
      'pairs.c:11:3: warning: 4 syscalls to 1 can become one: gather these writes into one writev() [*] [adjacent-writes] (measured: 4,000 calls, 7.9 kB)',
      'pairs.c:22:1: info: This line made 500 write calls in the traced run (1 byte each on average: 500 write on fd 3); gather or buffer them [measured-writes] (measured: 500 calls, 500 B)',
    ]);
  });

  it('carries the measurements in JSON and SARIF properties', () => {
    const json = JSON.parse(
      run([LINT, '--trace', 'trace.json', '--format', 'json', 'pairs.c'], dir).stdout,
    ) as {
      findings: { code: string; measured?: { calls: number; bytes: number } }[];
    };
    assert.deepEqual(
      json.findings.map((f) => [f.code, f.measured]),
      [
        ['adjacent-writes', { calls: 4000, bytes: 7890 }],
        ['measured-writes', { calls: 500, bytes: 500 }],
      ],
    );
    const sarif = JSON.parse(
      run([LINT, '--trace', 'trace.json', '--format', 'sarif', 'pairs.c'], dir).stdout,
    ) as {
      runs: {
        results: { ruleId: string; properties?: { measured?: unknown } }[];
        tool: { driver: { rules: { id: string }[] } };
      }[];
    };
    const [sarifRun] = sarif.runs;
    assert.deepEqual(
      sarifRun?.results.map((r) => [r.ruleId, r.properties?.measured]),
      [
        ['adjacent-writes', { calls: 4000, bytes: 7890 }],
        ['measured-writes', { calls: 500, bytes: 500 }],
      ],
    );
    assert.ok(sarifRun?.tool.driver.rules.some((r) => r.id === 'measured-writes'));
  });

  it('orders findings by measured calls, busiest first', () => {
    const source = [
      "const fs = require('node:fs');",
      'function few(fd) {',
      "  fs.writeSync(fd, 'a');",
      "  fs.writeSync(fd, 'b');",
      '}',
      'function many(fd) {',
      "  fs.writeSync(fd, 'c');",
      "  fs.writeSync(fd, 'd');",
      '}',
      "const fd = fs.openSync(__dirname + '/out.txt', 'w');",
      'few(fd);',
      'for (let i = 0; i < 50; i++) many(fd);',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'order.js'), source);
    const traced = run([TRACE, '--out', 'node-trace.json', '--', process.execPath, 'order.js'], dir);
    assert.equal(traced.status, 0, traced.stderr);
    const plain = run([LINT, '--format', 'concise', 'order.js'], dir).stdout.trim().split('\n');
    assert.deepEqual(
      plain.map((l) => l.split(':')[1]),
      ['3', '7'],
      'without a trace: source order',
    );
    const measured = run([LINT, '--trace', 'node-trace.json', '--format', 'concise', 'order.js'], dir)
      .stdout.trim()
      .split('\n');
    assert.deepEqual(
      measured.map((l) => l.split(':')[1]),
      ['7', '3'],
    );
    assert.match(measured[0] ?? '', /\(measured: 100 calls, 100 B\)$/);
    assert.match(measured[1] ?? '', /\(measured: 2 calls, 2 B\)$/);
  });

  it('makes no finding of traced lines beyond the end of the file (a trace of another version)', () => {
    // Lone CR line endings: the last line is still inside the file.
    const source = [
      'int f(int fd, char *s, int n)',
      '{',
      '\tfor (int i = 0; i < n; i++)',
      '\t\twrite(fd, s + i, 1);',
      '}',
      '',
    ];
    writeFileSync(join(dir, 'short.c'), source.join('\r'));
    const site = (line: number) => ({
      file: join(dir, 'short.c'),
      line,
      function: 'f',
      syscall: 'write',
      fd: 3,
      calls: 900,
      bytes: 900,
    });
    writeFileSync(
      join(dir, 'stale.json'),
      JSON.stringify({ version: 1, command: ['x'], exitCode: 0, sites: [site(999999), site(7), site(4)] }),
    );
    const lint = run([LINT, '--trace', 'stale.json', '--format', 'json', 'short.c'], dir);
    const json = JSON.parse(lint.stdout) as { findings: { code: string; line: number }[] };
    assert.deepEqual(
      json.findings.map((f) => [f.code, f.line]),
      [['measured-writes', 4]],
      lint.stdout,
    );
  });

  it('refuses a trace that is not one, naming the file and the place (exit 2)', () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ version: 1, command: [], exitCode: 0, sites: [{ file: 'x', line: 0 }] }),
    );
    const bad = run([LINT, '--trace', 'bad.json', 'pairs.c'], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /bad\.json: sites\[0\]: "line" is not a 1-based line number/);
    const missing = run([LINT, '--trace', 'missing.json', 'pairs.c'], dir);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read the trace missing\.json/);
  });
});
