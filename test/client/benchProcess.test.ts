import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchEvent } from '@writev/runtime';
import {
  benchArgs,
  listSuitesText,
  runBench,
  type BenchCommand,
} from '@writev/client/out/bench/benchProcess';
import { BenchProtocolError } from '@writev/client/out/bench/jsonLines';
import { parseSuiteList } from '@writev/client/out/bench/suiteList';
import { progressText } from '@writev/client/out/bench/progressText';
import { ROOT } from './helpers';

// The bundled CLI the installed extension runs, with scratch files in a folder of this test.
const scratch = mkdtempSync(join(tmpdir(), 'writev-benchproc-'));
const command: BenchCommand = {
  node: process.execPath,
  cli: join(ROOT, 'dist', 'bench', 'bin', 'writev-bench.js'),
  env: { TMPDIR: scratch },
};
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Processes whose command line mentions `text` (the drainers name their FIFO under TMPDIR). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) pids.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

describe('benchArgs', () => {
  it('asks for JSON lines, the size, each suite and the runs', () => {
    assert.deepEqual(benchArgs({ suites: ['writev', 'input-buffer'], size: 'tiny', runs: 3 }), [
      '--jsonl',
      '--size',
      'tiny',
      '--suite',
      'writev',
      '--suite',
      'input-buffer',
      '--runs',
      '3',
    ]);
    assert.deepEqual(benchArgs({ suites: [], size: 'quick' }), ['--jsonl', '--size', 'quick']);
  });
});

describe('parseSuiteList', () => {
  it('reads id, title and description; the description may contain colons', () => {
    const text =
      'writev         write vs writev: Header + payload: two writes.\ninput-buffer   input buffer 4 KiB vs 128 KiB: A pack.\n';
    assert.deepEqual(parseSuiteList(text), [
      { id: 'writev', title: 'write vs writev', description: 'Header + payload: two writes.' },
      { id: 'input-buffer', title: 'input buffer 4 KiB vs 128 KiB', description: 'A pack.' },
    ]);
  });

  it('lists the suites of the bundled benchmark CLI', async () => {
    const ids = parseSuiteList(await listSuitesText(command)).map((s) => s.id);
    assert.ok(ids.includes('writev') && ids.includes('input-buffer'), ids.join(', '));
  });
});

describe('runBench', () => {
  it('streams every event of a run in a child process, results included', async () => {
    const events: BenchEvent[] = [];
    const outcome = await runBench(command, { suites: ['writev'], size: 'tiny', runs: 1 }, (e) =>
      events.push(e),
    );
    assert.deepEqual(outcome, { cancelled: false, status: 0, stderr: '' });
    assert.equal(events[0]?.type, 'suite');
    assert.equal(events.at(-1)?.type, 'done');
    const results = events.filter((e) => e.type === 'result');
    assert.ok(results.length >= 1);
    assert.ok(events.some((e) => e.type === 'progress' && progressText(e)?.includes('run 1 of 1')));
  });

  it('stops the child and its helpers when cancelled', async () => {
    const controller = new AbortController();
    const outcome = await runBench(
      command,
      { suites: ['writev'], size: 'quick', runs: 50 },
      (e) => {
        if (e.type === 'progress') controller.abort();
      },
      controller.signal,
    );
    assert.equal(outcome.cancelled, true);
    const deadline = Date.now() + 5000;
    while (processesMentioning(scratch).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(processesMentioning(scratch), []);
  });

  it('rejects a child that prints something other than events', async () => {
    const script = join(scratch, 'chatty.js');
    writeFileSync(script, "console.log('hello'); setTimeout(() => {}, 10000);\n");
    await assert.rejects(
      runBench({ ...command, cli: script }, { suites: [], size: 'tiny' }, () => undefined),
      (err: unknown) => err instanceof BenchProtocolError && /not JSON: hello/.test(err.message),
    );
  });

  it('resolves with the status of a child that fails', async () => {
    const script = join(scratch, 'failing.js');
    writeFileSync(script, "process.stderr.write('no such suite'); process.exit(2);\n");
    const outcome = await runBench(
      { ...command, cli: script },
      { suites: [], size: 'tiny' },
      () => undefined,
    );
    assert.deepEqual(outcome, { cancelled: false, status: 2, stderr: 'no such suite' });
  });
});

describe('progressText', () => {
  it('names the suite, case, mode and run', () => {
    assert.equal(
      progressText({
        type: 'progress',
        suite: 'writev',
        case: 'side-band',
        mode: 'one writev',
        run: 2,
        runs: 5,
      }),
      'writev / side-band: one writev, run 2 of 5',
    );
    assert.equal(progressText({ type: 'done', suite: 'writev' }), undefined);
  });
});
