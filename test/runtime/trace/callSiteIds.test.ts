// The Node tracer's numbered call sites on real programs: the same exact counts whether a call's line
// comes from its number or from a stack capture, a program that behaves exactly as without the tracer,
// and a marked call that is not the traced one never lending its line to another.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { lineOf, program, sitesOf, trace, removedAfterTests } from './helpers';

const folder = removedAfterTests();

const noRewrite = { ...process.env, WRITEV_TRACE_REWRITE: '0' };

describe('writev-trace with numbered call sites', () => {
  it('counts the same at the same lines with numbered sites as with stack captures, fallbacks included', () => {
    const dir = folder();
    const text = [
      "const fs = require('node:fs');",
      "const fd = fs.openSync(__dirname + '/out.bin', 'w');",
      "function main() { for (let i = 0; i < 50; i++) fs.writeSync(fd, 'k' + i); } // numbered",
      'main();',
      "fs.writevSync(fd, [Buffer.from('ab'), Buffer.from('c')]); // numbered-writev",
      'eval("fs.writeSync(fd, \'from eval\')"); // eval',
      "new Function('fs', 'fd', \"fs.writeSync(fd, 'fn')\")(fs, fd); // new-function",
      "const parts = [fd, 'spread']; fs.writeSync(...parts); // spread",
      "const ws = fs.writeSync; ws(fd, 'alias'); // alias",
      "for (let i = 0; i < 3; i++) process.stdout.write('s' + i + '\\n'); // stream",
      "process.stdout.write(String(main.toString().includes('__writev' + 'Site')) + '\\n'); // rewritten?",
      '',
    ].join('\n');
    const file = program(dir, 'both.js', text);
    const at = (marker: string) => lineOf(text, marker);
    const expected = [
      `${at('// numbered')} write fd=file calls=50 bytes=${Array.from({ length: 50 }, (_, i) => `k${i}`).join('').length}`,
      `${at('numbered-writev')} writev fd=file calls=1 bytes=3`,
      `${at('// eval')} write fd=file calls=1 bytes=9`,
      `${at('new-function')} write fd=file calls=1 bytes=2`,
      `${at('// spread')} write fd=file calls=1 bytes=6`,
      `${at('// alias')} write fd=file calls=1 bytes=5`,
      `${at('// stream')} write fd=1 calls=3 bytes=9`,
    ];
    const numbered = trace(dir, ['node', file]);
    assert.equal(numbered.run.status, 0, numbered.run.stderr);
    assert.equal(numbered.run.stdout, 's0\ns1\ns2\ntrue\n', 'the program ran rewritten');
    assert.deepEqual(
      sitesOf(numbered.trace, file),
      [...expected, `${at('rewritten?')} write fd=1 calls=1 bytes=5`].sort(),
    );
    const captured = trace(dir, ['node', file], [], noRewrite);
    assert.equal(captured.run.stdout, 's0\ns1\ns2\nfalse\n', 'the program ran as written');
    assert.deepEqual(
      sitesOf(captured.trace, file),
      [...expected, `${at('rewritten?')} write fd=1 calls=1 bytes=6`].sort(),
    );
  });

  it('leaves what a program computes unchanged where a wrongly placed marker would change it', () => {
    const dir = folder();
    const text = [
      "'use strict';",
      'const log = [];',
      "const o = { n: 0, write(a, b) { this.n++; log.push('args=' + arguments.length); return a + (b ?? 0); }, end(x) { return x; } };",
      "const say = (v) => (log.push('eval ' + v), v);",
      "log.push('strings ' + 'o.write(1)' + `${'t'}.write(${o.write(1)})` + /\\.write\\((\\d)\\)/.exec('o.write(7)')[1]);",
      "log.push('division ' + 12 / o.write(2, 1) / 2);",
      'const chained = o',
      '  .write(3, 4);',
      "log.push('asi ' + chained);",
      "log.push('order ' + o.write(say('a'), say('b')));",
      "log.push('trailing ' + o.write(5, 6,));",
      "log.push('nested ' + o.write(o.write(1, 1), o.write(2, 2)));",
      "log.push('comments ' + o.write(/* a */ 8 /* b */, /* c */ 9 /* d */));",
      "log.push('arrow ' + o.end((a, b) => a + b)(2, 3));",
      'function* gen() { return o.write(yield 1, yield 2); }',
      'const g = gen(); g.next(); g.next(10);',
      "log.push('yield ' + g.next(20).value);",
      'let maybe;',
      "log.push('optional ' + maybe?.write(say('never')) + ' ' + o?.write(1, 2));",
      "log.push('count ' + o.n);",
      '// A function whose text runs where no marker is defined (a new vm context, a browser page).',
      "const inPage = function () { const sink = { got: [], write(x) { this.got.push(x); return 'page ' + x; } }; return sink.write(7); };",
      "log.push(require('node:vm').runInNewContext('(' + inPage + ')()'));",
      "console.error('rewritten ' + String(inPage).includes('__writev' + 'Site'));",
      "require('node:fs').writeSync(1, log.join('\\n') + '\\n');",
      '',
    ].join('\n');
    const file = program(dir, 'tricky.js', text);
    const plain = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    assert.equal(plain.status, 0, plain.stderr);
    const { run } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, plain.stdout);
    assert.match(run.stdout, /^strings o\.write\(1\)t\.write\(1\)7$/m);
    assert.match(run.stdout, /^division 2$/m);
    assert.match(run.stdout, /^eval a\neval b\nargs=2\norder ab$/m);
    assert.match(run.stdout, /^args=2\ntrailing 11$/m);
    assert.match(run.stdout, /^yield 30$/m);
    assert.match(run.stdout, /^optional undefined 3$/m);
    assert.doesNotMatch(run.stdout, /never/);
    assert.match(run.stdout, /^page 7$/m);
    assert.match(plain.stderr, /^rewritten false$/m);
    assert.match(run.stderr, /^rewritten true$/m, 'the function run in a new context was rewritten');
  });

  it("never lends a marked call's line to a write made inside the method it called", () => {
    const dir = folder();
    // The rewrite leaves this file alone (it names a source map): its write is found by capture.
    const sinkText = [
      '// sourceMappingURL: none; this file is not rewritten',
      'exports.Sink = class Sink {',
      '  write(line) { process.stdout.write(line); } // sink-write',
      '};',
      '',
    ].join('\n');
    program(dir, 'sink.js', sinkText);
    const text = [
      "const { Sink } = require('./sink.js');",
      'class Logger {',
      '  write(message) {',
      '    console.log(message); // logger-console',
      '  }',
      '}',
      'function describe() {',
      "  console.log('describing'); // describe-console",
      "  return 'described\\n';",
      '}',
      'const logger = new Logger();',
      'const sink = new Sink();',
      'for (let i = 0; i < 4; i++) {',
      "  logger.write('m' + i); // logger-call",
      "  sink.write('s' + i + '\\n'); // sink-call",
      '}',
      'process.stdout.write(describe()); // outer-write',
      '// One call line, three receivers: the sink first (its write is elsewhere), the stream, the logger.',
      "for (const target of [sink, process.stdout, logger]) target.write('p\\n'); // poly-call",
      '',
    ].join('\n');
    const file = program(dir, 'calls.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stdout,
      ['m0', 's0', 'm1', 's1', 'm2', 's2', 'm3', 's3', 'describing', 'described', 'p', 'p', 'p', '', ''].join(
        '\n',
      ),
    );
    assert.deepEqual(
      sitesOf(t, file),
      [
        `${lineOf(text, 'logger-console')} write fd=1 calls=5 bytes=15`,
        `${lineOf(text, 'describe-console')} write fd=1 calls=1 bytes=11`,
        `${lineOf(text, 'outer-write')} write fd=1 calls=1 bytes=10`,
        `${lineOf(text, 'poly-call')} write fd=1 calls=1 bytes=2`,
      ].sort(),
    );
    assert.deepEqual(sitesOf(t, `${dir}/sink.js`), [
      `${lineOf(sinkText, 'sink-write')} write fd=1 calls=5 bytes=14`,
    ]);
  });
});
