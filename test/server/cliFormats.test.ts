// writev-lint's outputs as their consumers read them: SARIF 2.1.0 for code scanning (the OASIS schema,
// rule help, linked writes, fingerprints that survive line shifts, notifications for unreadable files),
// reviewdog's rdjson (UTF-8 byte columns), JUnit XML, and colours (terminal, NO_COLOR, FORCE_COLOR).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cFunction, lintBin, lintRun } from './cliHelpers';
import { REPO } from './helpers';
import { sarifProblems } from './sarif';

const tmp = mkdtempSync(join(tmpdir(), 'writev-formats-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const HEADER = '#include "git-compat-util.h"\n\n';

interface SarifResult {
  ruleId: string;
  message: { text: string };
  locations: { physicalLocation: { region: { startLine: number } } }[];
  relatedLocations: { id: number }[];
  partialFingerprints: Record<string, string>;
}

async function sarif(args: string[], cwd = REPO) {
  const { out, status, err } = await lintRun(['--format', 'sarif', ...args], cwd);
  return { log: JSON.parse(out), status, err };
}

describe('writev-lint --format sarif', () => {
  it('validates against the SARIF 2.1.0 schema (which does catch a broken log)', async () => {
    const { log } = await sarif(['test/server/fixtures']);
    assert.deepEqual(sarifProblems(log), []);
    const broken = structuredClone(log);
    delete broken.runs[0].results[0].message;
    broken.runs[0].results[1].level = 'fatal';
    assert.equal(sarifProblems(broken).length >= 2, true);
  });

  it('describes each rule with help text and markdown, tags and precision', async () => {
    const { log } = await sarif(['test/server/fixtures/c/loops.c']);
    for (const rule of log.runs[0].tool.driver.rules) {
      assert.ok(rule.help.text.length > 40, `${rule.id} help.text`);
      assert.match(rule.help.markdown, /```c\n/);
      // The write rules are about performance; the suppression rule about maintenance.
      assert.ok(
        rule.properties.tags.includes(rule.id === 'unused-directive' ? 'suppression' : 'performance'),
      );
      assert.ok(['very-high', 'high', 'medium', 'low'].includes(rule.properties.precision), rule.id);
    }
  });

  it('links each write from the message to its related location', async () => {
    const { log } = await sarif(['test/server/fixtures/c/betweenStatements.c']);
    const result: SarifResult = log.runs[0].results[0];
    assert.deepEqual(
      result.relatedLocations.map((r) => r.id),
      [1, 2, 3],
    );
    assert.match(result.message.text, / \(\[write 1\]\(1\), \[write 2\]\(2\), \[write 3\]\(3\)\)$/);
  });

  it('gives fingerprints that stay the same when the code moves, and differ between findings', async () => {
    const dir = join(tmp, 'moving');
    mkdirSync(dir);
    const file = join(dir, 'f.c');
    writeFileSync(file, HEADER + cFunction('one') + cFunction('two', '"x", 1'));
    const before = (await sarif([file], dir)).log.runs[0].results as SarifResult[];
    writeFileSync(file, `${HEADER}/* a\n * comment\n */\n${cFunction('one')}${cFunction('two', '"x", 1')}`);
    const after = (await sarif([file], dir)).log.runs[0].results as SarifResult[];
    assert.deepEqual(
      after.map((r) => r.locations[0]!.physicalLocation.region.startLine),
      before.map((r) => r.locations[0]!.physicalLocation.region.startLine + 3),
    );
    const prints = (rs: SarifResult[]) => rs.map((r) => r.partialFingerprints['writevFinding/v1']);
    assert.deepEqual(prints(after), prints(before));
    assert.notEqual(prints(before)[0], prints(before)[1]);
  });

  it('says in invocations[0] which file could not be read, and exits 2', async () => {
    const dir = join(tmp, 'unreadable');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ok.c'), HEADER + cFunction('ok'));
    // Reading /proc/self/mem from offset 0 fails with EIO, even for root.
    symlinkSync('/proc/self/mem', join(dir, 'broken.c'));
    const { log, status } = await sarif([join(dir, 'broken.c'), join(dir, 'ok.c')], dir);
    assert.equal(status, 2);
    assert.deepEqual(sarifProblems(log), []);
    const invocation = log.runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.toolExecutionNotifications.length, 1);
    const note = invocation.toolExecutionNotifications[0];
    assert.equal(note.level, 'error');
    assert.match(note.message.text, /cannot read .*broken\.c: EIO/);
    assert.equal(note.locations[0].physicalLocation.artifactLocation.uri, 'broken.c');
    assert.equal(log.runs[0].results.length, 1, 'the readable file is still reported');
    const clean = await sarif(['test/server/fixtures/c/loops.c']);
    assert.deepEqual(clean.log.runs[0].invocations, [
      { executionSuccessful: true, toolExecutionNotifications: [] },
    ]);
  });
});

describe('writev-lint --format rdjson and junit', () => {
  it('writes reviewdog diagnostics with UTF-8 byte columns, codes, suggestions and related writes', async () => {
    const dir = join(tmp, 'rdjson');
    mkdirSync(dir);
    // "é" is two bytes in UTF-8 and one UTF-16 unit: the second write starts at byte column 24, not 23.
    writeFileSync(
      join(dir, 'u.c'),
      `${HEADER}void u(int fd, const char *b, size_t n)\n{\n\twrite_or_die(fd, "é", 2);\n\t/* é */ write_or_die(fd, b, n);\n}\n`,
    );
    const { out, status } = await lintRun(['--format', 'rdjson', join(dir, 'u.c')], dir);
    assert.equal(status, 1);
    const doc = JSON.parse(out);
    assert.equal(doc.source.name, 'writev-lint');
    const d = doc.diagnostics[0];
    assert.equal(d.location.path, 'u.c');
    assert.equal(d.severity, 'WARNING');
    assert.equal(d.code.value, 'adjacent-writes');
    assert.deepEqual(d.location.range.start, { line: 5, column: 2 });
    assert.deepEqual(d.related_locations[1].location.range.start, { line: 6, column: 11 });
    assert.ok(d.suggestions.length > 0 && typeof d.suggestions[0].text === 'string');
  });

  it('writes JUnit XML: a failing case per finding, a passing case per clean file', async () => {
    const { out, status } = await lintRun([
      '--format',
      'junit',
      'test/server/fixtures/c/loops.c',
      'test/server/fixtures/c/negatives.c',
    ]);
    assert.equal(status, 1);
    assert.match(
      out,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="writev-lint" tests="3" failures="2" errors="0">\n/,
    );
    assert.equal((out.match(/<failure message="one syscall per iteration to fd/g) ?? []).length, 2);
    assert.match(
      out,
      /<testsuite name="test\/server\/fixtures\/c\/negatives\.c" tests="1" failures="0" errors="0">\n {4}<testcase name="test\/server\/fixtures\/c\/negatives\.c" classname="writev-lint" \/>/,
    );
    assert.match(out, /<\/testsuites>\n$/);
  });
});

describe('writev-lint colours', () => {
  const ESC = '\u001b';
  const file = 'test/server/fixtures/c/loops.c';
  const env = (extra: NodeJS.ProcessEnv) => {
    const e = { ...process.env, ...extra };
    for (const [k, v] of Object.entries(extra)) if (v === undefined) delete e[k];
    return e;
  };

  it('colours on a terminal, not in a pipe, never with NO_COLOR, always with FORCE_COLOR', () => {
    const plain = lintBin([file], { env: env({ NO_COLOR: undefined, FORCE_COLOR: undefined }) });
    assert.ok(!plain.stdout.includes(ESC), 'a pipe gets no colour');
    // script(1) runs the bin on a pseudo-terminal.
    const bin = join(REPO, 'node_modules', '.bin', 'writev-lint');
    const tty = spawnSync('script', ['-qec', `${bin} ${file}`, '/dev/null'], {
      cwd: REPO,
      encoding: 'utf8',
      env: env({ NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm' }),
    });
    const coloured = `${ESC}[1m${file}${ESC}[22m:8:2: ${ESC}[36minfo${ESC}[39m: one syscall per iteration`;
    assert.ok(tty.stdout.includes(coloured), JSON.stringify(tty.stdout.slice(0, 200)));
    const noColor = spawnSync('script', ['-qec', `${bin} ${file}`, '/dev/null'], {
      cwd: REPO,
      encoding: 'utf8',
      env: env({ NO_COLOR: '1', FORCE_COLOR: undefined, TERM: 'xterm' }),
    });
    assert.ok(noColor.stdout.includes('loops.c:8:2: info:') && !noColor.stdout.includes(ESC));
    const forced = lintBin([file], { env: env({ NO_COLOR: undefined, FORCE_COLOR: '1' }) });
    assert.ok(forced.stdout.startsWith(coloured.replace(/ one syscall.*/, '')), forced.stdout);
    const json = lintBin(['--format', 'json', file], { env: env({ FORCE_COLOR: '1' }) });
    assert.doesNotThrow(() => JSON.parse(json.stdout), 'machine formats are never coloured');
  });
});
