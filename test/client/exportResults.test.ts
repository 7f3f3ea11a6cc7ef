import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatCaseMarkdown } from '@writev/runtime';
import {
  exportJson,
  exportMarkdown,
  type BenchmarkExport,
  type MachineInfo,
} from '@writev/client/out/bench/exportResults';
import { recordedResults, ROOT, sampleCase } from './helpers';

const machine: MachineInfo = { node: 'v20.20.2', platform: 'linux-x64', cpus: 2, cpuModel: 'Test CPU' };

describe('exportJson', () => {
  it("writes every case in hyperfine's export layout", () => {
    const parsed = JSON.parse(exportJson(machine, 'tiny', [sampleCase()])) as BenchmarkExport;
    assert.deepEqual(parsed.machine, machine);
    assert.equal(parsed.size, 'tiny');
    const mode = parsed.cases[0]?.results[0];
    assert.ok(mode, 'a case with a result');
    for (const key of ['command', 'mean', 'stddev', 'median', 'user', 'system', 'min', 'max', 'times']) {
      assert.ok(key in mode, `results[].${key}`);
    }
    assert.deepEqual(mode.times, sampleCase().results[0]!.times);
  });

  it('has the same layout as writev-bench --json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-export-'));
    try {
      const file = join(dir, 'bench.json');
      const cli = join(ROOT, 'dist', 'bench', 'bin', 'writev-bench.js');
      const run = spawnSync(process.execPath, [
        cli,
        '--size',
        'tiny',
        '--suite',
        'writev',
        '--runs',
        '1',
        '--json',
        file,
      ]);
      assert.equal(run.status, 0, String(run.stderr));
      const fromCli = JSON.parse(readFileSync(file, 'utf8')) as BenchmarkExport;
      const ours = JSON.parse(exportJson(fromCli.machine, fromCli.size, fromCli.cases)) as unknown;
      assert.deepEqual(ours, fromCli);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('exportMarkdown', () => {
  it('names the machine and size, then gives each case as the runtime formats it', () => {
    const results = recordedResults();
    const text = exportMarkdown(machine, 'tiny', results);
    assert.match(text, /^writev benchmarks \(size tiny\) on Test CPU × 2, Node v20\.20\.2, linux-x64\n\n/);
    for (const r of results) assert.ok(text.includes(formatCaseMarkdown(r)));
    assert.ok(text.endsWith('\n'));
  });
});
