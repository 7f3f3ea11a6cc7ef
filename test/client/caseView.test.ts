import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { formatCase } from '@writev/runtime';
import { caseView } from '@writev/client/out/bench/caseView';
import { recordedResults, sampleCase } from './helpers';

describe('caseView', () => {
  it('formats each mode as hyperfine does: mean ± σ, min … max, runs', () => {
    const view = caseView(sampleCase());
    assert.deepEqual(view.rows[0], {
      command: 'two writes',
      mean: '20.0 ms',
      stddev: '2.0 ms',
      median: '20.0 ms',
      min: '18.0 ms',
      max: '22.0 ms',
      runs: 3,
      syscalls: 'write 2,098',
      fastest: false,
    });
    assert.equal(view.rows[1]!.fastest, true);
    assert.equal(view.parameters, 'bytes=1048576, records=1049');
    assert.equal(view.key, 'writev/side-band');
  });

  it('says how many times faster the fastest mode ran, with the propagated spread', () => {
    const view = caseView(sampleCase());
    assert.equal(view.fastest, 'one writev');
    // 0.02 / 0.01 = 2, spread 2 * sqrt(0.1² + 0.1²) = 0.28
    assert.deepEqual(view.ratios, [{ ratio: '2.00', stddev: '0.28', than: 'two writes' }]);
  });

  it('prints the same ratios as the terminal output of the runtime', () => {
    for (const result of recordedResults()) {
      const text = formatCase(result);
      for (const r of caseView(result).ratios) {
        assert.ok(
          text.includes(`${r.ratio} ± ${r.stddev} times faster than '${r.than}'`),
          `${r.than} in ${text}`,
        );
      }
    }
  });

  it('charts times in one readable unit and syscalls per name for every mode', () => {
    const view = caseView(sampleCase());
    assert.equal(view.chart.timeUnit, 'ms');
    assert.deepEqual(view.chart.modes, ['two writes', 'one writev']);
    assert.deepEqual(
      view.chart.mean.map((v) => Math.round(v)),
      [20, 10],
    );
    assert.deepEqual(view.chart.syscalls, [
      { name: 'write', counts: [2098, 0] },
      { name: 'writev', counts: [0, 1049] },
    ]);
  });

  it('has no fastest mode and no ratios for a single-mode case', () => {
    const one = sampleCase();
    one.results = one.results.slice(0, 1);
    const view = caseView(one);
    assert.equal(view.fastest, undefined);
    assert.deepEqual(view.ratios, []);
    assert.equal(view.rows[0]!.fastest, false);
  });

  it('does not modify the result it formats', () => {
    const result = sampleCase();
    const copy = structuredClone(result);
    caseView(result);
    assert.deepEqual(result, copy);
  });
});
