// The TS/JS idioms of real programs (fixtures/ts/idioms.ts): which hints get a fix, what the fix
// writes, and why the others have none.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { applyEdits, DEFAULT_SETTINGS, type Finding } from 'writev-lint';
import { analyzer, analyzeFixture, fixture, FIXTURES } from './helpers';

const NAME = 'ts/idioms.ts';

const work = mkdtempSync(join(tmpdir(), 'writev-idioms-'));
after(() => rmSync(work, { recursive: true, force: true }));

type Module = Record<string, (...args: unknown[]) => unknown> & {
  Connection: new (sock: { fd: number }) => { send(a: Uint8Array, b: Uint8Array): void };
};

/** Compiles TS source to CommonJS in `work` and loads it, @writev/runtime resolved from here. */
function load(name: string, source: string): Module {
  const text = source.replaceAll("'@writev/runtime'", JSON.stringify(require.resolve('@writev/runtime')));
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const path = join(work, `${name}.cjs`);
  writeFileSync(path, js);
  return require(path) as Module;
}

/** The bytes `call` writes to a fresh file through the descriptor it is given. */
function bytesTo(call: (fd: number) => void): string {
  const path = join(work, 'out.bin');
  const fd = openSync(path, 'w');
  try {
    call(fd);
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, 'latin1');
}

/** A stream that records what reaches it and how many times it is asked to write. */
class Recorder extends Writable {
  data = '';
  calls = 0;
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.calls++;
    this.data += chunk.toString('latin1');
    done();
  }
  override _writev(chunks: { chunk: Buffer }[], done: () => void): void {
    this.calls++;
    for (const c of chunks) this.data += c.chunk.toString('latin1');
    done();
  }
}

/** The finding that starts in the function named `fn`. */
async function findingIn(fn: string): Promise<Finding> {
  const text = fixture(NAME);
  const at = text.indexOf(`${fn}(`);
  const next = text.indexOf('\n}', at);
  const found = (await analyzeFixture(NAME)).find((f) => f.span.start > at && f.span.start < next);
  assert.ok(found, `a finding in ${fn}`);
  return found;
}

async function fixedIn(fn: string): Promise<string> {
  const text = fixture(NAME);
  const finding = await findingIn(fn);
  assert.ok(finding.fix, `${fn} has a fix`);
  const fixed = applyEdits(text, (await analyzer()).fixEdits(join(FIXTURES, NAME), text, finding) ?? []);
  const at = fixed.indexOf(`${fn}(`);
  return fixed.slice(fixed.indexOf('\n', at) + 1, fixed.indexOf('\n}', at));
}

describe('TS/JS idioms', () => {
  it('fills the vector under the test of a conditional write before unconditional ones', async () => {
    assert.match((await findingIn('line')).message, /^up to 3 syscalls to fd can become one/);
    assert.equal(
      await fixedIn('line'),
      [
        // The comment on the first write is kept, above the gathered code.
        '  // expect: adjacent-writes 3',
        '  {',
        '    const iov: Uint8Array[] = [];',
        "    if (negated) iov.push(Buffer.from('^'));",
        "    iov.push(Buffer.from(hex), Buffer.from('\\n'));",
        '    writevInFull(fd, iov);',
        '  }',
      ].join('\n'),
    );
  });

  it('fills the vector under the test of a conditional write after unconditional ones', async () => {
    assert.equal(
      await fixedIn('record'),
      [
        '  // expect: adjacent-writes 3',
        '  {',
        '    const iov: Uint8Array[] = [];',
        '    iov.push(head, body);',
        '    if (trailer) iov.push(trailer);',
        '    writevInFull(fd, iov);',
        '  }',
      ].join('\n'),
    );
  });

  it('corks a stream around writes of which one is conditional, uncorking in a finally', async () => {
    // `title` may be anything at run time: a write of it may throw, and uncork() must still run.
    assert.equal(
      await fixedIn('heading'),
      [
        '  out.cork();',
        '  try {',
        "    out.write('<h1>'); // expect: adjacent-writes 4",
        '    if (title) out.write(title);',
        "    out.write('</h1>');",
        '    out.write(body);',
        '  } finally {',
        '    out.uncork();',
        '  }',
      ].join('\n'),
    );
  });

  it('reports writes checked in one condition without a fix, and says why', async () => {
    for (const fn of ['chained', 'chainedOr']) {
      const f = await findingIn(fn);
      assert.equal(f.fix, undefined, fn);
      assert.match(f.message, /no automatic fix: each write is checked on its own in one condition/);
      // One related location per write call in the condition.
      assert.equal(f.related.length, f.syscalls, fn);
    }
  });

  it('reports writes around an early exit without a fix, and says why', async () => {
    const f = await findingIn('early');
    assert.equal(f.fix, undefined);
    assert.match(f.message, /^up to 2 syscalls .*no automatic fix: an early exit/);
  });

  it('gathers writes to a member descriptor', async () => {
    assert.equal(
      await fixedIn('counted'),
      ['  // expect: adjacent-writes 2', '  writevInFull(ctx.fd, [head, body]);', '  ctx.sent++;'].join('\n'),
    );
    // (A method: the slice runs to the class's end.)
    assert.equal(
      await fixedIn('send'),
      '    // expect: adjacent-writes 2\n    writevInFull(this.sock.fd, [head, body]);\n  }',
    );
  });

  it('fills the vector in the arms of an if/else where each write stands', async () => {
    const a = await analyzer();
    const path = join(FIXTURES, 'arms.ts');
    const text = [
      "import { writeInFull } from '@writev/runtime';",
      'export function arms(fd: number, a: Uint8Array, b: Uint8Array, x: boolean): void {',
      '  writeInFull(fd, a);',
      '  if (x) writeInFull(fd, b);',
      '  else writeInFull(fd, a);',
      '  writeInFull(fd, b);',
      '}',
      '',
    ].join('\n');
    const [finding, ...rest] = a.analyze(path, text, DEFAULT_SETTINGS);
    assert.deepEqual(rest, []);
    assert.ok(finding?.fix);
    assert.equal(
      applyEdits(text, a.fixEdits(path, text, finding) ?? [])
        .split('\n')
        .slice(2, 10)
        .join('\n'),
      [
        '  {',
        '    const iov: Uint8Array[] = [];',
        '    iov.push(a);',
        '    if (x) iov.push(b);',
        '    else iov.push(a);',
        '    iov.push(b);',
        '    writevInFull(fd, iov);',
        '  }',
      ].join('\n'),
    );
  });

  it('gives no fix when an arm computes between its writes, and says why', async () => {
    const a = await analyzer();
    const path = join(FIXTURES, 'arms.ts');
    const text = [
      "import { writeInFull } from '@writev/runtime';",
      'export function arms(fd: number, a: Uint8Array, b: Uint8Array, x: boolean): number {',
      '  let n = 0;',
      '  writeInFull(fd, a);',
      '  if (x) {',
      '    n++;',
      '    writeInFull(fd, b);',
      '  } else writeInFull(fd, a);',
      '  writeInFull(fd, b);',
      '  return n;',
      '}',
      '',
    ].join('\n');
    const [finding, ...rest] = a.analyze(path, text, DEFAULT_SETTINGS);
    assert.deepEqual(rest, []);
    assert.ok(finding);
    assert.equal(finding.fix, undefined);
    assert.match(finding.message, /no automatic fix: some writes are in the arms of an if/);
  });

  it('the fixed functions send the same bytes as the originals, on every path', async () => {
    const text = fixture(NAME);
    const a = await analyzer();
    const found = await analyzeFixture(NAME);
    const fixedText = a.fixAll(join(FIXTURES, NAME), text, found, true) ?? text;
    assert.notEqual(fixedText, text);
    const before = load('before', text);
    const fixed = load('fixed', fixedText);
    const [h, b, t] = [Buffer.from('HEAD'), Buffer.from('body\u00e9'), Buffer.from('END')];
    const calls: [string, unknown[]][] = [
      ['line', [true, 'c0ffee']],
      ['line', [false, 'c0ffee']],
      ['record', [h, b, t]],
      ['record', [h, b, undefined]],
      ['sized', [true, h, b]],
      ['sized', [false, h, b]],
      ['straddle', [true, h, b, t]],
      ['straddle', [false, h, b, t]],
      ['checked', [() => true, h, b]],
      ['checked', [() => false, h, b]],
    ];
    for (const [fn, args] of calls) {
      const want = bytesTo((fd) => before[fn]!(fd, ...args));
      assert.ok(want.length > 0);
      assert.equal(
        bytesTo((fd) => fixed[fn]!(fd, ...args)),
        want,
        `${fn}(${String(args[0])})`,
      );
    }
    const send = (m: Module) => bytesTo((fd) => new m.Connection({ fd }).send(h, b));
    assert.equal(send(fixed), send(before));
    const counted = (m: Module) => {
      const ctx = { fd: -1, sent: 0 };
      const bytes = bytesTo((fd) => m.counted!(Object.assign(ctx, { fd }), h, b));
      return `${bytes} ${ctx.sent}`;
    };
    assert.equal(counted(fixed), counted(before));
    for (const title of ['Title', undefined]) {
      const [was, now] = [new Recorder(), new Recorder()];
      before.heading!(was, title, 'text');
      fixed.heading!(now, title, 'text');
      assert.equal(now.data, was.data);
      // Corked, the stream gets every chunk in one call.
      assert.equal(now.calls, 1);
      assert.ok(was.calls > 1);
    }
  });
});
