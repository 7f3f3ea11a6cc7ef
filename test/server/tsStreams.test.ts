// Streams held in members and stream runs through tests and if/else arms (fixtures/ts/memberStreams.ts):
// the fixture's code, before and after fix-all, run in a child process whose stdout is a real pipe,
// writes the same bytes in the same order on every path (error paths included), and the corked code
// hands the stream fewer writes. Also which hints get which fix, and why the others have none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as ts from 'typescript';
import { type Finding } from 'writev-lint';
import { analyzeFixture, analyzer, fixture, FIXTURES } from './helpers';

const NAME = 'ts/memberStreams.ts';

const work = mkdtempSync(join(tmpdir(), 'writev-streams-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * Runs one scenario against the module in argv[2]: `out` is process.stdout (a pipe), and the calls
 * the stream it names makes to `_write`/`_writev` (one each per syscall on a pipe) go to stderr.
 */
const DRIVER = `
'use strict';
const fs = require('node:fs');
const m = require(process.argv[2]);
const file = process.argv[4];
const out = process.stdout;
let calls = 0;
function count(stream) {
  for (const k of ['_write', '_writev']) {
    const f = stream[k];
    if (f) stream[k] = function (...args) { calls++; return f.apply(this, args); };
  }
}
process.on('exit', () => process.stderr.write('calls: ' + calls + '\\n'));
const scenarios = {
  journal: () => new m.Journal(out).entry('tag', 'text\\u00e9'),
  journalThrows: () => new m.Journal(out).entry('tag', 42),
  hexNegated: () => new m.HexDump(out).line(true, 'c0ffee'),
  hexPlain: () => new m.HexDump(out).line(false, 'c0ffee'),
  show: () => { const s = new m.Status(file); s.show('ok'); s.close(); },
  save: () => {
    const s = new m.Status(file);
    count(s.file);
    // Once open (and constructed, a turn later): until then the stream queues every write anyway.
    s.file.on('ready', () => setImmediate(() => {
      s.save('a', 'b\\u00e9');
      s.file.on('finish', () => out.write(fs.readFileSync(file)));
      s.close();
    }));
  },
  report: () => m.report({ out, lines: 0 }, 'key', 'value'),
  reportThrows: () => {
    try { m.report({ out, lines: 0 }, 'key', null); } catch (e) { out.write('caught ' + e.code); }
    out.write(' after');
  },
  reply: () => m.reply({ stream: out }, { socket: out }, 'HEAD ', 'body'),
  choiceA: () => m.choice(out, true, 'a', 'b'),
  choiceB: () => m.choice(out, false, 'a', 'b'),
  earlyBody: () => m.early(out, 'head', 'body'),
  earlyNone: () => { m.early(out, 'head', undefined); out.write(' after'); },
  pressured: () => m.pressured(out, 'head', 'body'),
  measured: () => m.measured(out, 'head', 'body'),
};
if (process.argv[3] !== 'save') count(out);
scenarios[process.argv[3]]();
`;

/** The scenarios, and whether the fixed code makes fewer writes (the last two keep theirs: no fix). */
const SCENARIOS: [string, boolean][] = [
  ['journal', true],
  ['journalThrows', false],
  ['hexNegated', true],
  ['hexPlain', true],
  ['show', true],
  ['save', true],
  ['report', true],
  ['reportThrows', false],
  ['reply', true],
  ['choiceA', true],
  ['choiceB', true],
  ['earlyBody', true],
  ['earlyNone', false],
  ['pressured', false],
  ['measured', false],
];

/** Compiles TS source to CommonJS in `work`; returns its path. */
function compile(name: string, source: string): string {
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const path = join(work, `${name}.cjs`);
  writeFileSync(path, js);
  return path;
}

/** What the scenario wrote to its stdout pipe, how it exited, and how many writes the stream made. */
function run(module: string, scenario: string): { bytes: string; status: number | null; calls: number } {
  const result = spawnSync(
    process.execPath,
    [join(work, 'driver.cjs'), module, scenario, join(work, `${scenario}.out`)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const calls = /calls: (\d+)/.exec(result.stderr.toString());
  assert.ok(calls, `${scenario} reports its writes (stderr: ${result.stderr.toString()})`);
  return { bytes: result.stdout.toString('latin1'), status: result.status, calls: Number(calls[1]) };
}

/** The finding that starts in the function or method named `fn`. */
async function findingIn(fn: string): Promise<Finding> {
  const text = fixture(NAME);
  const at = text.search(new RegExp(`\\b${fn}\\(`));
  const next = text.indexOf('\n}', at);
  const found = (await analyzeFixture(NAME)).find((f) => f.span.start > at && f.span.start < next);
  assert.ok(found, `a finding in ${fn}`);
  return found;
}

describe('streams in members, stream runs through tests and arms', () => {
  let fixedText = '';
  before(async () => {
    const found = await analyzeFixture(NAME);
    fixedText = (await analyzer()).fixAll(join(FIXTURES, NAME), fixture(NAME), found, true) ?? '';
    writeFileSync(join(work, 'driver.cjs'), DRIVER);
  });

  it('corks without a try when nothing in the run can throw or leave it', () => {
    assert.match(
      fixedText,
      /this\.out\.cork\(\);\n {4}if \(negated\) this\.out\.write\('\^'\);.*\n {4}this\.out\.write\(hex\);\n {4}this\.out\.write\('\\n'\);\n {4}this\.out\.uncork\(\);/,
    );
  });

  it('uncorks in a finally when a statement between the writes runs code, or a write may throw', () => {
    assert.match(fixedText, /this\.#out\.cork\(\);\n {4}try \{\n {6}this\.#out\.write\(tag\);/);
    assert.match(fixedText, / {2}\} finally \{\n {4}out\.uncork\(\);\n {2}\}\n\}\n\n\/\*\*.*early exit/);
  });

  it('reports a run whose last write returns its result without a fix, and says why', async () => {
    const f = await findingIn('pressured');
    assert.equal(f.fix, undefined);
    assert.match(f.message, /no automatic fix: a write.s result is used/);
  });

  it('reports a run around a declaration used later without a fix, and says why', async () => {
    const f = await findingIn('measured');
    assert.equal(f.fix, undefined);
    assert.match(f.message, /no automatic fix: .*would hide `size`/);
  });

  it('the fixed code writes the same bytes to a pipe, in order, on every path, in fewer writes', () => {
    assert.notEqual(fixedText, '');
    const was = compile('before', fixture(NAME));
    const now = compile('fixed', fixedText);
    for (const [scenario, fewer] of SCENARIOS) {
      const a = run(was, scenario);
      const b = run(now, scenario);
      assert.ok(a.bytes.length > 0, `${scenario} writes something`);
      assert.equal(b.bytes, a.bytes, scenario);
      assert.equal(b.status, a.status, `${scenario} exits alike`);
      if (fewer)
        assert.ok(b.calls < a.calls, `${scenario}: ${b.calls} writes after the fix, ${a.calls} before`);
      else assert.ok(b.calls <= a.calls, `${scenario}: ${b.calls} writes after the fix, ${a.calls} before`);
    }
  });
});
