// writev-lint: formats (text, JSON, SARIF 2.1.0, GitHub annotations), exit statuses, --fix, --config,
// .gitignore, and the worker-thread path through the installed bin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from 'writev-lint/out/cli/main';
import { findingLines } from './cliHelpers';
import { FIXTURES, REPO } from './helpers';
import { sarifProblems } from './sarif';

async function run(args: string[], cwd = REPO): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await main(args, { out: (t) => (out += t), err: (t) => (err += t) }, cwd);
  return { status, out, err };
}

const tmp = mkdtempSync(join(tmpdir(), 'writev-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('writev-lint', () => {
  it('prints file:line:col: warning: message [code] and exits 1 on findings', async () => {
    const { status, out } = await run(['test/server/fixtures/c/adjacent.c']);
    assert.equal(status, 1);
    const lines = findingLines(out);
    assert.equal(lines.length, 6);
    assert.equal(
      lines[0],
      'test/server/fixtures/c/adjacent.c:6:2: warning: 2 syscalls to fd can become one: gather these writes into one writev_or_die() [*] [adjacent-writes]',
    );
  });

  it('exits 0 with findings under --exit-zero', async () => {
    const { status, out } = await run(['--exit-zero', 'test/server/fixtures/c/adjacent.c']);
    assert.equal(status, 0);
    assert.equal(findingLines(out).length, 6);
  });

  it('exits 0 with no output when there is nothing to report', async () => {
    const { status, out } = await run([
      'test/server/fixtures/c/negatives.c',
      'test/server/fixtures/ts/negatives.ts',
    ]);
    assert.deepEqual([status, out], [0, '']);
  });

  it('exits 2 with a clear message for a missing path, a bad option or a bad config', async () => {
    const missing = await run(['no/such/dir']);
    assert.deepEqual(
      [missing.status, missing.err],
      [2, 'writev-lint: no such file or folder: no/such/dir\n'],
    );
    const bad = await run(['--format', 'xml']);
    assert.equal(bad.status, 2);
    assert.match(
      bad.err,
      /--format must be one of text, concise, full, json, sarif, github, rdjson, junit, gitlab, checkstyle, not "xml"/,
    );
    const config = join(tmp, 'bad.json');
    writeFileSync(config, JSON.stringify({ minSequenceLength: 1 }));
    const wrong = await run(['--config', config, 'test/server/fixtures/c']);
    assert.equal(wrong.status, 2);
    assert.match(wrong.err, /bad\.json: minSequenceLength: expected a whole number of 2 or more, got 1/);
  });

  it('reads settings from --config (plain or under "writev")', async () => {
    const config = join(tmp, 'three.json');
    writeFileSync(
      config,
      JSON.stringify({ writev: { minSequenceLength: 3, languages: { typescript: false } } }),
    );
    const { out } = await run(['--config', config, '--format', 'json', 'test/server/fixtures']);
    const report = JSON.parse(out) as { findings: { path: string; syscalls: number }[] };
    assert.ok(report.findings.length > 0);
    assert.ok(
      report.findings.every((f) => f.syscalls >= 3 || f.path.endsWith('.js') || f.path.includes('loops')),
    );
    assert.ok(report.findings.every((f) => !f.path.endsWith('.ts')));
  });

  it('writes JSON with 1-based positions, related writes and fixability', async () => {
    const { out } = await run(['--format', 'json', 'test/server/fixtures/c/betweenStatements.c']);
    const report = JSON.parse(out);
    assert.equal(report.files, 1);
    assert.deepEqual(
      {
        line: report.findings[0].line,
        column: report.findings[0].column,
        descriptor: report.findings[0].descriptor,
        fixable: report.findings[0].fixable,
      },
      { line: 15, column: 2, descriptor: 'out_fd', fixable: true },
    );
    assert.equal(report.findings[0].related.length, 3);
  });

  it('writes SARIF 2.1.0 that conforms to the structure, with rules, locations and fixes', async () => {
    const { out, status } = await run(['--format', 'sarif', 'test/server/fixtures']);
    assert.equal(status, 1);
    const log = JSON.parse(out);
    assert.deepEqual(sarifProblems(log), []);
    const run0 = log.runs[0];
    assert.deepEqual(
      run0.tool.driver.rules.map((r: { id: string }) => r.id),
      ['adjacent-writes', 'adjacent-writes-unknown-fd', 'loop-writes', 'unused-directive', 'measured-writes'],
    );
    const loop = run0.results.find((r: { ruleId: string }) => r.ruleId === 'loop-writes');
    assert.equal(loop.level, 'note');
    const betweenStatements = run0.results.find(
      (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        r.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('c/betweenStatements.c'),
    );
    assert.equal(betweenStatements.locations[0].physicalLocation.region.startLine, 15);
    assert.equal(betweenStatements.fixes[0].artifactChanges[0].replacements.length, 2);
  });

  it('writes GitHub workflow annotations, escaping what the format needs', async () => {
    const { out } = await run(['--format', 'github', 'test/server/fixtures/c/loops.c']);
    const lines = out.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(
      lines[0]!,
      /^::notice file=test\/server\/fixtures\/c\/loops\.c,line=8,col=2,endLine=9,endColumn=\d+,title=writev loop-writes::one syscall per iteration to fd/,
    );
  });

  it('--fix --unsafe-fixes rewrites the files, then reports only what has no fix', async () => {
    const dir = join(tmp, 'fix');
    cpSync(join(FIXTURES, 'c'), dir, { recursive: true });
    const { status, out, err } = await run(['--fix', '--unsafe-fixes', dir]);
    assert.equal(status, 1);
    assert.match(err, /files fixed/);
    assert.match(readFileSync(join(dir, 'branchTails.c'), 'utf8'), /writev_or_die\(fd, iov, 2\);/);
    const left = findingLines(out).map((l) => l.replace(/^.*\/fix\//, ''));
    assert.deepEqual(
      left.map((l) => l.split(':').slice(0, 2).join(':')),
      [
        'accessor-connections.c:76',
        'accessor-held-buffers.c:49',
        'accessor-targets.c:40',
        'addressed-messages.c:50',
        'adjacent.c:56',
        'alternative-heads.c:31',
        'alternative-openers.c:21',
        'alternative-openers.c:31',
        'apart-scopes.c:26',
        'append-buffers.c:57',
        'arm-alternatives.c:34',
        'arm-alternatives.c:40',
        'arm-alternatives.c:70',
        'arm-computations.c:13',
        'arm-computations.c:24',
        'arm-computations.c:34',
        'arm-computations.c:46',
        'arm-computations.c:63',
        'arm-computations.c:86',
        'arm-declared-lengths.c:10',
        'arm-declared-lengths.c:25',
        'arm-declared-lengths.c:41',
        'arm-declared-lengths.c:42',
        'arm-openings.c:21',
        'arm-openings.c:60',
        'arm-preparations.c:19',
        'arm-preparations.c:39',
        'arm-preparations.c:54',
        'arm-tail-conditions.c:11',
        'arm-tail-conditions.c:29',
        'assertion-checks.c:52',
        'assertion-checks.c:67',
        'assumed-results.c:25',
        'atomicioWrites.c:12',
        'attribute-groups.c:25',
        'attribute-groups.c:35',
        'awaited-replies.c:50',
        'bare-blocks.c:13',
        'bare-blocks.c:44',
        'bare-blocks.c:111',
        'bare-blocks.c:128',
        'bound-writers.c:42',
        'bounded-retries.c:37',
        'branch-runs.c:40',
        'branch-runs.c:60',
        'branch-runs.c:80',
        'branch-runs.c:97',
        'branch-runs.c:110',
        'branch-runs.c:132',
        'buffered-copies.c:62',
        'call-site-file-helpers.c:17',
        'call-site-file-helpers.c:29',
        'call-site-helpers.c:29',
        'call-site-helpers.c:38',
        'call-site-helpers.c:44',
        'call-site-helpers.c:56',
        'call-site-helpers.c:64',
        'call-site-helpers.c:133',
        'call-site-helpers.c:146',
        'call-site-helpers.c:178',
        'call-site-helpers.c:200',
        'call-site-helpers.c:207',
        'call-site-helpers.c:223',
        'call-site-reused.c:24',
        'capped-slice-loops.c:51',
        'case-alternatives.c:52',
        'case-tests.c:20',
        'case-tests.c:35',
        'case-tests.c:53',
        'case-tests.c:84',
        'case-tests.c:158',
        'cast-counts.c:19',
        'cast-counts.c:30',
        'chained-conditions.c:126',
        'chained-conditions.c:139',
        'chained-conditions.c:150',
        'chained-mixed-checks.c:10',
        'character-class-loops.c:13',
        'check-forms.c:68',
        'check-forms.c:110',
        'check-forms.c:119',
        'check-forms.c:165',
        'check-forms.c:184',
        'check-forms.c:229',
        'check-forms.c:247',
        'check-forms.c:257',
        'check-forms.c:268',
        'check-forms.c:278',
        'check-forms.c:301',
        'check-forms.c:339',
        'check-forms.c:368',
        'check-forms.c:391',
        'check-macros.c:16',
        'check-macros.c:29',
        'checked-elses.c:30',
        'checked-elses.c:46',
        'checked-elses.c:59',
        'checked-steps.c:47',
        'checksummed-fields.c:73',
        'choice-statuses.c:16',
        'choice-statuses.c:23',
        'chosen-codes.c:42',
        'chosen-codes.c:57',
        'clamped-loops.c:74',
        'clamped-loops.c:83',
        'clamped-loops.c:116',
        'cleanup-locals.c:24',
        'cleanup-locals.c:60',
        'comma-preludes.c:18',
        'comma-preludes.c:34',
        'comma-preludes.c:49',
        'commented-helpers.c:58',
        'computed-arm-writes.c:17',
        'computed-arm-writes.c:40',
        'computed-between.c:19',
        'computed-between.c:39',
        'computed-between.c:51',
        'computed-between.c:108',
        'computed-between.c:172',
        'computed-between.c:222',
        'computed-between.c:232',
        'computed-between.c:244',
        'computed-between.c:273',
        'computed-between.c:296',
        'computed-between.c:308',
        'computed-between.c:345',
        'computed-exit-tests.c:23',
        'computed-line-writers.c:75',
        'computed-line-writers.c:84',
        'computing-arm-ifs.c:12',
        'computing-arm-ifs.c:26',
        'computing-branches.c:27',
        'computing-else-arms.c:21',
        'computing-else-arms.c:35',
        'computing-else-arms.c:47',
        'computing-else-arms.c:59',
        'condition-subjects.c:39',
        'condition-subjects.c:50',
        'condition-subjects.c:59',
        'condition-words.c:15',
        'condition-words.c:27',
        'condition-words.c:38',
        'conditional-writes.c:65',
        'conditional-writes.c:155',
        'conditional-writes.c:164',
        'conditional-writes.c:210',
        'conditional-writes.c:247',
        'configured-pacing.c:79',
        'configured-pacing.c:90',
        'conjoined-gates.c:37',
        'conjoined-gates.c:47',
        'conjoined-gates.c:55',
        'conjoined-gates.c:69',
        'conjoined-gates.c:80',
        'conjoined-gates.c:88',
        'conjoined-gates.c:134',
        'conjoined-success.c:27',
        'conjoined-success.c:35',
        'const-pointee-arguments.c:20',
        'constant-exit-tests.c:29',
        'constant-exit-tests.c:40',
        'constant-exit-tests.c:49',
        'constant-exit-tests.c:58',
        'constant-writers.c:75',
        'constant-writers.c:112',
        'context-locals.c:45',
        'continued-directives.c:27',
        'copied-counts.c:29',
        'copied-member-locals.c:31',
        'counted-lengths.c:85',
        'counted-lengths.c:96',
        'counted-lengths.c:103',
        'counted-lengths.c:150',
        'counted-retries.c:42',
        'dead-groups.c:31',
        'declared-pure.c:49',
        'declared-pure.c:56',
        'decorated-helpers.c:33',
        'decorated-helpers.c:39',
        'defining-directives.c:13',
        'defining-directives.c:22',
        'descriptor-origins.c:177',
        'descriptor-origins.c:205',
        'descriptor-origins.c:217',
        'descriptor-origins.c:228',
        'descriptor-origins.c:242',
        'descriptor-origins.c:249',
        'descriptor-origins.c:256',
        'descriptor-origins.c:338',
        'descriptor-origins.c:394',
        'descriptor-origins.c:444',
        'device-opener-loops.c:24',
        'device-opener-loops.c:33',
        'digest-trailers.c:21',
        'dispatched-modes.c:51',
        'early-exits.c:16',
        'early-exits.c:28',
        'elif-sessions.c:43',
        'elif-sessions.c:90',
        'elif-sessions.c:141',
        'else-if-writes.c:15',
        'end-pointer-loops.c:58',
        'every-path-arms.c:24',
        'every-path-arms.c:35',
        'excluded-tests.c:24',
        'excluded-tests.c:46',
        'excluded-tests.c:58',
        'exit-arm-writes.c:16',
        'exit-arm-writes.c:30',
        'exit-arms.c:19',
        'exit-arms.c:39',
        'exit-arms.c:56',
        'exiting-formatters.c:91',
        'exiting-formatters.c:101',
        'exiting-releases.c:43',
        'expanded-macros.c:67',
        'expanded-macros.c:75',
        'expanded-macros.c:86',
        'failing-computed.c:28',
        'failing-computed.c:49',
        'failure-chains.c:13',
        'falling-cases.c:33',
        'falling-cases.c:57',
        'falling-cases.c:75',
        'falling-cases.c:91',
        'falling-cases.c:108',
        'falling-cases.c:127',
        'filled-objects.c:52',
        'for-initialized-counts.c:58',
        'for-initialized-counts.c:65',
        'for-update-loops.c:27',
        'for-update-loops.c:36',
        'format-forwarders.c:67',
        'format-forwarders.c:73',
        'formatWrappers.c:51',
        'formatted-arms.c:50',
        'formatted-arms.c:96',
        'formatted-copies.c:45',
        'formatted-copies.c:65',
        'formatted-locals.c:41',
        'forwarded-flags.c:53',
        'forwarded-flags.c:66',
        'frame-forwarders.c:28',
        'frame-forwarders.c:37',
        'frame-forwarders.c:62',
        'framed-iovec-helpers.c:40',
        'framed-iovec-helpers.c:46',
        'gated-chains.c:23',
        'gated-chains.c:34',
        'global-dialogues.c:70',
        'global-loggers.c:56',
        'goto-loops.c:77',
        'goto-loops.c:90',
        'goto-loops.c:96',
        'handed-formatters.c:49',
        'handed-formatters.c:57',
        'handed-on-writers.c:64',
        'handed-records.c:99',
        'handed-writer-helpers.c:33',
        'handle-types.c:23',
        'handle-types.c:32',
        'head-conditionals.c:25',
        'head-then-arms.c:12',
        'head-then-arms.c:31',
        'head-words.c:31',
        'head-words.c:37',
        'headerdefs.c:23',
        'headerdefs.c:47',
        'helper-body-facts.c:61',
        'helper-body-facts.c:171',
        'helper-body-facts.c:234',
        'helper-body-facts.c:294',
        'helper-body-facts.c:299',
        'helper-body-facts.c:391',
        'helper-statuses.c:66',
        'helper-statuses.c:80',
        'helper-statuses.c:95',
        'helper-statuses.c:107',
        'helper-statuses.c:155',
        'helper-statuses.c:168',
        'helper-statuses.c:180',
        'helper-statuses.c:187',
        'hygienic-macros.c:18',
        'hygienic-macros.c:28',
        'inline-clamps.c:80',
        'inline-clamps.c:86',
        'inline-clamps.c:95',
        'inner-conditionals.c:24',
        'inner-conditionals.c:37',
        'inner-conditionals.c:54',
        'inner-conditionals.c:131',
        'iovec-helpers.c:70',
        'iovec-helpers.c:114',
        'jump-arguments.c:24',
        'kept-elses.c:20',
        'kept-elses.c:37',
        'kept-elses.c:53',
        'kept-failure-reports.c:23',
        'kept-failure-reports.c:38',
        'kept-failures.c:30',
        'kept-failures.c:44',
        'kept-failures.c:57',
        'kept-failures.c:117',
        'kept-failures.c:154',
        'kept-failures.c:165',
        'kept-results.c:18',
        'kept-results.c:26',
        'kept-results.c:39',
        'kept-results.c:52',
        'kept-results.c:61',
        'kept-retries.c:15',
        'kept-start-cursors.c:37',
        'last-check-else.c:23',
        'last-check-else.c:44',
        'late-conversions.c:28',
        'later-arm-writes.c:16',
        'later-arm-writes.c:24',
        'leading-tests.c:14',
        'leaving-arm-addresses.c:29',
        'leaving-arm-addresses.c:46',
        'leaving-arms.c:15',
        'leaving-arms.c:30',
        'leaving-arms.c:41',
        'leaving-arms.c:58',
        'leaving-handlers.c:49',
        'leaving-handlers.c:61',
        'leaving-handlers.c:73',
        'leaving-handlers.c:87',
        'left-in-locals.c:48',
        'literal-formats.c:49',
        'local-spellings.c:43',
        'locked-helpers.c:38',
        'loops.c:8',
        'loops.c:16',
        'macro-arms.c:22',
        'macro-arms.c:35',
        'macro-arms.c:47',
        'macro-attributes.c:18',
        'macro-bodies.c:47',
        'macro-bodies.c:56',
        'macro-bodies.c:63',
        'macro-bodies.c:72',
        'macro-bodies.c:79',
        'macro-bodies.c:91',
        'macro-bodies.c:97',
        'macro-write-loops.c:36',
        'member-confined-calls.c:79',
        'member-confined-calls.c:90',
        'member-confined-calls.c:101',
        'member-confined-calls.c:113',
        'member-connection-writers.c:38',
        'member-connection-writers.c:114',
        'member-connections.c:102',
        'member-forwarders.c:37',
        'member-forwarders.c:43',
        'member-kinds.c:62',
        'member-kinds.c:127',
        'member-kinds.c:196',
        'member-kinds.c:260',
        'member-writers.c:43',
        'member-writers.c:55',
        'member-writers.c:68',
        'memory-modes.c:41',
        'memory-modes.c:50',
        'memory-modes.c:134',
        'message-choices.c:16',
        'message-scatter-loops.c:22',
        'mixed-families.c:54',
        'mixed-families.c:63',
        'mode-helpers.c:36',
        'mode-sockets.c:44',
        'mode-sockets.c:58',
        'named-assertions.c:22',
        'named-assertions.c:37',
        'named-directions.c:54',
        'named-status-codes.c:32',
        'named-status-codes.c:43',
        'named-status-codes.c:54',
        'nested-arm-tails.c:19',
        'nested-mode-arms.c:48',
        'nested-paired-conditionals.c:38',
        'noreturn-directives.c:21',
        'object-descriptors.c:85',
        'object-descriptors.c:91',
        'object-descriptors.c:105',
        'object-pointers.c:52',
        'object-writers.c:54',
        'object-writers.c:60',
        'object-writers.c:66',
        'old-style-parameters.c:41',
        'old-style-pointers.c:17',
        'old-style-pointers.c:30',
        'one-arm-openings.c:15',
        'one-arm-openings.c:26',
        'open-switches.c:19',
        'open-switches.c:33',
        'open-switches.c:47',
        'open-switches.c:61',
        'open-switches.c:77',
        'open-switches.c:88',
        'open-switches.c:130',
        'own-held-buffers.c:57',
        'own-held-buffers.c:64',
        'padding-helpers.c:36',
        'paired-conditionals.c:10',
        'paired-conditionals.c:11',
        'paired-conditionals.c:18',
        'paired-conditionals.c:37',
        'peer-peeks.c:49',
        'pipe-ends.c:100',
        'platform-helpers.c:46',
        'platform-respelled.c:34',
        'pointed-descriptors.c:37',
        'pointed-descriptors.c:46',
        'pointee-locals.c:56',
        'pointee-locals.c:64',
        'pointee-locals.c:116',
        'pointer-openers.c:59',
        'prepared-writes.c:23',
        'prepared-writes.c:42',
        'quiet-arm-calls.c:33',
        'quiet-arm-calls.c:44',
        'quiet-tests.c:24',
        'quiet-tests.c:39',
        'quiet-tests.c:50',
        'refusal-guards.c:49',
        'released-locals.c:57',
        'reply-readers.c:65',
        'reported-counts.c:16',
        'reported-counts.c:26',
        'reported-failures.c:30',
        'result-checks.c:14',
        'result-checks.c:34',
        'resumed-spellings.c:62',
        'returned-openings.c:65',
        'returned-outcomes.c:41',
        'returned-outcomes.c:49',
        'returned-outcomes.c:59',
        'returned-tallies.c:22',
        'returned-tallies.c:37',
        'returned-tallies.c:50',
        'returned-writes.c:34',
        'returned-writes.c:43',
        'returned-writes.c:53',
        'returned-writes.c:61',
        'returned-writes.c:67',
        'returned-writes.c:73',
        'returned-writes.c:79',
        'returned-writes.c:87',
        'returned-writes.c:97',
        'returned-writes.c:132',
        'returning-sessions.c:55',
        'returning-sessions.c:79',
        'returning-sessions.c:93',
        'returning-sessions.c:107',
        'returning-sessions.c:121',
        'returning-sessions.c:209',
        'rewritten-loops.c:54',
        'rewritten-loops.c:103',
        'selected-branches.c:51',
        'selected-branches.c:68',
        'selected-constants.c:48',
        'selected-constants.c:70',
        'self-retries.c:25',
        'self-sized-records.c:55',
        'self-sized-records.c:61',
        'separate-initializers.c:51',
        'separate-initializers.c:58',
        'session-alternatives.c:43',
        'session-alternatives.c:62',
        'session-alternatives.c:116',
        'session-cursors.c:54',
        'setting-writers.c:56',
        'settled-globals.c:70',
        'settled-globals.c:79',
        'shadowing-macros.c:39',
        'short-write-resends.c:64',
        'short-write-resends.c:70',
        'shrinking-resends.c:52',
        'shrinking-resends.c:58',
        'small-helpers.c:59',
        'small-helpers.c:65',
        'small-helpers.c:90',
        'small-helpers.c:135',
        'small-helpers.c:141',
        'sole-arm-writes.c:20',
        'sole-arm-writes.c:30',
        'sole-arm-writes.c:41',
        'sole-arm-writes.c:118',
        'spanned-members.c:31',
        'split-headers.c:16',
        'split-headers.c:31',
        'split-headers.c:58',
        'split-headers.c:75',
        'split-headers.c:91',
        'split-macro-uses.c:12',
        'standard-prints.c:99',
        'standing-retries.c:41',
        'standing-retries.c:47',
        'static-returns.c:64',
        'static-returns.c:72',
        'static-returns.c:79',
        'static-senders.c:36',
        'static-senders.c:43',
        'static-senders.c:49',
        'static-senders.c:62',
        'status-forwarders.c:42',
        'status-frames.c:42',
        'status-frames.c:50',
        'status-frames.c:68',
        'status-frames.c:78',
        'status-polarity.c:48',
        'status-polarity.c:53',
        'status-polarity.c:58',
        'status-variables.c:34',
        'status-variables.c:67',
        'stepped-cursors.c:36',
        'stored-descriptors.c:110',
        'stored-tests.c:24',
        'stored-tests.c:35',
        'stream-redirects.c:64',
        'string-cursors.c:35',
        'success-bodies.c:42',
        'success-runs.c:38',
        'success-runs.c:52',
        'success-runs.c:70',
        'success-status.c:20',
        'success-status.c:36',
        'summed-counts.c:14',
        'summed-counts.c:24',
        'summed-results.c:25',
        'taken-arm-writes.c:24',
        'taken-arm-writes.c:25',
        'tallied-counts.c:25',
        'tallied-counts.c:49',
        'terminal-modes.c:20',
        'terminal-requests.c:73',
        'terminal-requests.c:82',
        'terminated-strings.c:15',
        'tested-choices.c:11',
        'tls-writes.c:10',
        'translated-messages.c:57',
        'twin-conditionals.c:42',
        'unfinished-conditionals.c:29',
        'unfinished-conditionals.c:50',
        'unwritten-codes.c:52',
        'value-prefixes.c:24',
        'value-prefixes.c:31',
        'value-writer-statuses.c:27',
        'waiting-functions.c:42',
        'weak-definitions.c:15',
        'weak-definitions.c:27',
        'wrapped-head-macros.c:48',
        'wrapped-head-macros.c:57',
        'wrappers.c:45',
        'writable-waits.c:58',
        'writable-waits.c:75',
        'write-macros.c:94',
        'write-macros.c:111',
        'write-macros.c:129',
        'writeLoops.c:33',
        'writeLoops.c:67',
        'writeLoops.c:74',
        'writeLoops.c:81',
        'writer-bodies.c:60',
        'writer-bodies.c:154',
        'writer-bodies.c:175',
        'writer-bodies.c:225',
        'writer-bodies.c:345',
      ],
    );
  });

  it('skips what .gitignore ignores when walking a folder', async () => {
    const dir = join(tmp, 'ignored');
    cpSync(join(FIXTURES, 'c'), join(dir, 'src'), { recursive: true });
    cpSync(join(FIXTURES, 'c'), join(dir, 'build'), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), 'build/\nsrc/adjacent.c\n');
    const { out } = await run(['--format', 'json', dir]);
    const paths = new Set(
      (JSON.parse(out).findings as { path: string }[]).map((f) => f.path.replace(/^.*\/ignored\//, '')),
    );
    assert.ok(!paths.has('src/adjacent.c'));
    assert.ok([...paths].every((p) => p.startsWith('src/')));
    assert.ok(paths.has('src/betweenStatements.c'));
  });

  it('skips what a .gitignore deeper in the walked folder ignores, below it only', async () => {
    const dir = join(tmp, 'nested-ignore');
    cpSync(join(FIXTURES, 'c'), join(dir, 'a'), { recursive: true });
    cpSync(join(FIXTURES, 'c'), join(dir, 'b'), { recursive: true });
    writeFileSync(join(dir, 'b', '.gitignore'), 'adjacent.c\n');
    const { out } = await run(['--format', 'json', dir]);
    const paths = new Set(
      (JSON.parse(out).findings as { path: string }[]).map((f) => f.path.replace(/^.*\/nested-ignore\//, '')),
    );
    assert.ok(paths.has('a/adjacent.c'));
    assert.ok(!paths.has('b/adjacent.c'));
    assert.ok(paths.has('b/betweenStatements.c'));
  });

  it('reads junk without crashing: binary bytes, deep nesting, a half-typed file', async () => {
    const dir = join(tmp, 'junk');
    cpSync(join(FIXTURES, 'c', 'loops.c'), join(dir, 'ok.c'));
    writeFileSync(
      join(dir, 'binary.c'),
      Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 131) % 256)),
    );
    writeFileSync(
      join(dir, 'nested.c'),
      `int f(int x) { return ${'('.repeat(20000)}x${')'.repeat(20000)}; }\n`,
    );
    writeFileSync(
      join(dir, 'half.ts'),
      "import * as fs from 'fs';\nexport function f(fd: number) {\n  fs.writeSync(fd, 'a');\n  fs.wri",
    );
    const { status, out, err } = await run(['--format', 'json', dir]);
    // The binary file is named as skipped, which makes the run incomplete.
    assert.equal(status, 2);
    assert.match(err, /skipped .*binary\.c: binary \(contains NUL bytes\)/);
    assert.deepEqual(
      JSON.parse(out).findings.map((f: { path: string }) => f.path.replace(/^.*\/junk\//, '')),
      ['ok.c', 'ok.c'],
    );
  });

  it('runs as the installed bin on worker threads with the same results', () => {
    const bin = join(REPO, 'node_modules', '.bin', 'writev-lint');
    const threaded = spawnSync(bin, ['--jobs', '2', '--format', 'json', 'test/server/fixtures'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    const inline = spawnSync(bin, ['--jobs', '1', '--format', 'json', 'test/server/fixtures'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    assert.equal(threaded.status, 1, threaded.stderr);
    assert.deepEqual(JSON.parse(threaded.stdout), JSON.parse(inline.stdout));
    // Every fixture's findings but the three of OpenSSH's atomicio, which need its preset (unnamed
    // here), and eleven more the tree as a whole shows: the drivers of c-run/ define the stubs the
    // fixtures call (get_fd() returns 1, strbuf_addf() does nothing, cleanup_row() and reconnect()
    // neither, so the descriptor given them is read and nothing more), pure functions across files,
    // and call the fixtures' functions that write to fd 1 one after another (kept-results.main.c,
    // check-forms.main.c's functions that return their last write's outcome),
    // and the driver of headerdefs.c calls its tablet_mode() twice. c-treebodies/ and c-headerinline/
    // are trees of their own, whose three runs the whole folder finds as well, as it finds those of
    // c-headermacros/, c-headerwrites/, c-treemembers/, c-treeimplementations/, c-treereplies/, c-treelengths/,
    // c-treestatusnames/, c-treedatagrams/, c-treedirections/, c-treeredirects/, c-treeweak/,
    // c-treedeviceloops/, c-treedatagrammembers/, c-treefilestatics/, c-headerhelpers/, c-sourceincludes/,
    // c-headermacrohelpers/, c-treereturnedloops/, c-treekinds/, c-treedevices/, c-treewaits/, c-treerefills/,
    // c-headermacrochains/, c-treeshadows/, c-treewritablewaits/, c-treeshadowedhelpers/,
    // c-treepointeropeners/, c-treeopaquecalls/, c-treeassigningmacros/, c-treeconfiguredhelpers/,
    // c-treepointeraliases/, c-treedatagramhelpers/, c-treepacedhelpers/, c-treemessagelisteners/,
    // c-treemodelisteners/, c-treememberparams/, c-treeexterndatagrams/, c-treeterminalrequests/,
    // c-treepuremacros/, c-treepuremembers/, c-treebracingmacros/, c-treepassedwriters/, c-treeconstants/,
    // c-treehandedparams/ and c-treeleaving/ (c-treeseqpacketmembers/ finds none). c/member-connection-writers.c adds
    // two of its own.
    assert.equal(JSON.parse(threaded.stdout).findings.length, 876);
  });
});
