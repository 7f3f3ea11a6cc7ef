// The Node tracer on real programs: exact calls and bytes per source line for every write form Node
// offers, the runtime's own writev stack, child processes, exit status and output passed through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { lineOf, program, REPO, sitesOf, trace, removedAfterTests } from './helpers';

const folder = removedAfterTests();

describe('writev-trace on a Node program', () => {
  it('counts each fs write form at the line that called it, with exact bytes', async () => {
    const dir = folder();
    const text = [
      "const fs = require('node:fs');",
      "const fd = fs.openSync(__dirname + '/out.bin', 'w');",
      'for (let i = 0; i < 100; i++) {',
      "  fs.writeSync(fd, 'ab'); // sync-string",
      '  fs.writeSync(fd, Buffer.alloc(3)); // sync-buffer',
      '}',
      "fs.writevSync(fd, [Buffer.from('x'), Buffer.from('yz')]); // sync-writev",
      "fs.writeSync(fd, 'p', 0); // positioned",
      "fs.write(fd, Buffer.from('hello'), () => { // callback-write",
      "  fs.writev(fd, [Buffer.from('a'), Buffer.from('b')], async () => { // callback-writev",
      "    const handle = await fs.promises.open(__dirname + '/other.bin', 'w');",
      "    await handle.write(Buffer.from('1234')); // handle-write",
      "    await handle.writev([Buffer.from('12'), Buffer.from('345')]); // handle-writev",
      '    await handle.close();',
      '  });',
      '});',
      '',
    ].join('\n');
    const file = program(dir, 'forms.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    const at = (marker: string) => lineOf(text, marker);
    assert.deepEqual(
      sitesOf(t, file),
      [
        `${at('sync-string')} write fd=file calls=100 bytes=200`,
        `${at('sync-buffer')} write fd=file calls=100 bytes=300`,
        `${at('sync-writev')} writev fd=file calls=1 bytes=3`,
        `${at('positioned')} pwrite fd=file calls=1 bytes=1`,
        `${at('callback-write')} write fd=file calls=1 bytes=5`,
        `${at('callback-writev')} writev fd=file calls=1 bytes=2`,
        `${at('handle-write')} write fd=file calls=1 bytes=4`,
        `${at('handle-writev')} writev fd=file calls=1 bytes=5`,
      ].sort(),
    );
    assert.deepEqual(t.command, ['node', file]);
    assert.equal(t.exitCode, 0);
    assert.ok(
      t.sites.every((s, i) => i === 0 || t.sites[i - 1]!.calls >= s.calls),
      'sorted by calls',
    );
  });

  it("maps a stream's chunks to their .write() lines: one write each, one writev for a corked batch", () => {
    const dir = folder();
    const text = [
      'for (let i = 0; i < 5; i++) process.stdout.write(`line ${i}\\n`); // plain',
      'process.stdout.cork();',
      "process.stdout.write('a'); // corked-first",
      "process.stdout.write('bb');",
      'process.stdout.uncork();',
      "console.log('end'); // console",
      '',
    ].join('\n');
    const file = program(dir, 'streams.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'line 0\nline 1\nline 2\nline 3\nline 4\nabbend\n', 'output passes through');
    assert.deepEqual(
      sitesOf(t, file),
      [
        `${lineOf(text, 'plain')} write fd=1 calls=5 bytes=35`,
        `${lineOf(text, 'corked-first')} writev fd=1 calls=1 bytes=3`,
        `${lineOf(text, 'console')} write fd=1 calls=1 bytes=4`,
      ].sort(),
    );
  });

  it("gives a file stream's gathered batch to its first chunk's line, and a lone chunk to its own", () => {
    const dir = folder();
    // The stream opens its file first: the three chunks wait, then leave in one writev. 'dddd' is
    // written once that writev is done, alone.
    const text = [
      "const fs = require('node:fs');",
      "const out = fs.createWriteStream(__dirname + '/s.bin');",
      "out.write('a'); // batch-head",
      "out.write('bb'); // joins",
      "out.write('ccc', () => { // joins-too",
      "  out.write('dddd'); // alone",
      '  out.end();',
      '});',
      '',
    ].join('\n');
    const file = program(dir, 'batch.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(sitesOf(t, file), [
      `${lineOf(text, 'batch-head')} writev fd=file calls=1 bytes=6`,
      `${lineOf(text, 'alone')} write fd=file calls=1 bytes=4`,
    ]);
  });

  it('counts every byte a file stream written in a loop from two lines wrote, at those lines', () => {
    const dir = folder();
    const text = [
      "const fs = require('node:fs');",
      "const out = fs.createWriteStream(__dirname + '/loop.bin');",
      'let i = 0;',
      'function more() {',
      '  while (i < 20000) {',
      '    i++;',
      "    out.write('k' + i); // key",
      "    if (!out.write('=' + i + '\\n')) return out.once('drain', more); // value",
      '  }',
      '  out.end();',
      '}',
      'more();',
      '',
    ].join('\n');
    const file = program(dir, 'loop.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    const sites = t.sites.filter((s) => s.file === file);
    const lines = new Set([lineOf(text, 'key'), lineOf(text, 'value')]);
    assert.ok(
      sites.every((s) => lines.has(s.line) && (s.syscall === 'write' || s.syscall === 'writev')),
      JSON.stringify(sites),
    );
    const written = statSync(join(dir, 'loop.bin')).size;
    assert.equal(
      sites.reduce((n, s) => n + s.bytes, 0),
      written,
    );
    assert.equal(t.sites.filter((s) => s.file !== file).length, 0, 'no call left to Node or the unknown');
  });

  it("attributes the runtime's gathered writes to the program's call, not to the runtime", () => {
    const dir = folder();
    const runtime = JSON.stringify(join(REPO, 'runtime'));
    const text = [
      `const { writevInFull, writeInFull } = require(${runtime});`,
      "const fd = require('node:fs').openSync(__dirname + '/o.bin', 'w');",
      'for (let i = 0; i < 10; i++) {',
      "  writeInFull(fd, Buffer.from('hdr')); // two-writes",
      "  writeInFull(fd, Buffer.from('payload'));",
      "  writevInFull(fd, [Buffer.from('hdr'), Buffer.from('payload')]); // gathered",
      '}',
      '',
    ].join('\n');
    const file = program(dir, 'runtime.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      sitesOf(t, file),
      [
        `${lineOf(text, 'two-writes')} write fd=file calls=10 bytes=30`,
        `${lineOf(text, 'two-writes') + 1} write fd=file calls=10 bytes=70`,
        `${lineOf(text, 'gathered')} writev fd=file calls=10 bytes=100`,
      ].sort(),
    );
  });

  it('traces every Node process of the command, and passes its exit status through', () => {
    const dir = folder();
    const childText = "require('node:fs').writeSync(2, 'child\\n'); // in-child\nprocess.exit(0);\n";
    const child = program(dir, 'child.js', childText);
    const parentText = [
      "const { spawnSync } = require('node:child_process');",
      `spawnSync(process.execPath, [${JSON.stringify(child)}], { stdio: 'inherit' });`,
      "require('node:fs').writeSync(2, 'parent\\n'); // in-parent",
      'process.exitCode = 3;',
      '',
    ].join('\n');
    const parent = program(dir, 'parent.js', parentText);
    const { run, trace: t } = trace(dir, ['node', parent]);
    assert.equal(run.status, 3);
    assert.equal(t.exitCode, 3);
    assert.match(run.stderr, /^child\nparent\n/);
    assert.deepEqual(sitesOf(t, child), [`${lineOf(childText, 'in-child')} write fd=2 calls=1 bytes=6`]);
    assert.deepEqual(sitesOf(t, parent), [`${lineOf(parentText, 'in-parent')} write fd=2 calls=1 bytes=7`]);
  });

  it('still writes the trace when the program dies of SIGTERM, reports 128 + 15 and dies of it too', () => {
    const dir = folder();
    const text = [
      "require('node:fs').writeSync(1, 'before\\n'); // before-signal",
      "process.kill(process.pid, 'SIGTERM');",
      'setTimeout(() => {}, 10_000);',
      '',
    ].join('\n');
    const file = program(dir, 'killed.js', text);
    const { run, trace: t } = trace(dir, ['node', file]);
    assert.deepEqual([run.status, run.signal], [null, 'SIGTERM']);
    assert.equal(t.exitCode, 143);
    assert.deepEqual(sitesOf(t, file), [`${lineOf(text, 'before-signal')} write fd=1 calls=1 bytes=7`]);
  });

  it('places calls on the TypeScript source line when the program runs with --enable-source-maps', () => {
    const dir = folder();
    const source = [
      'interface Chunk { text: string }',
      'const chunks: Chunk[] = [{ text: "a" }, { text: "bc" }];',
      'for (const c of chunks) {',
      '  require("node:fs").writeSync(1, c.text); // ts-line',
      '}',
      '',
    ].join('\n');
    program(dir, 'app.ts', source);
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true },
      fileName: 'app.ts',
    });
    program(dir, 'app.js', `${out.outputText}`);
    program(dir, 'app.js.map', out.sourceMapText ?? '');
    const { run, trace: t } = trace(dir, ['node', '--enable-source-maps', join(dir, 'app.js')]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(sitesOf(t, join(dir, 'app.ts')), [
      `${lineOf(source, 'ts-line')} write fd=1 calls=2 bytes=3`,
    ]);
  });

  it('sums the trace up on stderr in words that fit the count', () => {
    const dir = folder();
    const one = program(dir, 'one.js', "require('fs').writeSync(1, 'x');\n");
    const single = trace(dir, ['node', one]).run;
    assert.match(single.stderr, /^writev-trace: 1 call at 1 line -> /m);
    const two = program(
      dir,
      'two.js',
      "require('fs').writeSync(1, 'x');\nrequire('fs').writeSync(1, 'yz');\n",
    );
    const pair = trace(dir, ['node', two]).run;
    assert.match(pair.stderr, /^writev-trace: 2 calls at 2 lines -> /m);
  });

  it('names a command that does not exist, with status 128 and no trace', () => {
    const dir = folder();
    const run = spawnSync(
      process.execPath,
      [join(REPO, 'runtime', 'dist', 'writev-trace.js'), '--', 'no-such-program-xyz'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 128);
    assert.match(run.stderr, /cannot run no-such-program-xyz: not found or not executable/);
  });

  it('rejects an unknown syscall name with the usage (status 129)', () => {
    const run = spawnSync(
      process.execPath,
      [join(REPO, 'runtime', 'dist', 'writev-trace.js'), '--syscalls', 'write,read', '--', 'true'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 129);
    assert.match(run.stderr, /unknown syscall "read"/);
  });
});
