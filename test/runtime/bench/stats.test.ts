import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  formatCase,
  formatCaseMarkdown,
  formatTime,
  median,
  percentile,
  speedRatio,
  summarize,
  type CaseResult,
} from '@writev/runtime';

describe('benchmark statistics', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.throws(() => median([]), RangeError);
  });

  it('summarises with the sample standard deviation', () => {
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
    assert.equal(s.mean, 5);
    assert.ok(Math.abs(s.stddev - 2.138) < 1e-3);
    assert.deepEqual([s.min, s.max, s.median, s.runs], [2, 9, 4.5, 8]);
    assert.equal(summarize([1.5]).stddev, 0);
  });

  it('propagates the spread of both sides into a ratio, as hyperfine does', () => {
    const r = speedRatio({ mean: 2, stddev: 0.2 }, { mean: 1, stddev: 0.1 });
    assert.equal(r.ratio, 2);
    assert.ok(Math.abs(r.stddev - 2 * Math.sqrt(0.01 + 0.01)) < 1e-12);
  });
});

describe('benchmark formatting', () => {
  const result: CaseResult = {
    suite: 'writev',
    case: 'side-band',
    title: '1 MiB',
    references: ['two writes'],
    results: [
      {
        command: 'two writes',
        mean: 0.3,
        stddev: 0.03,
        median: 0.3,
        min: 0.25,
        max: 0.35,
        user: 0.1,
        system: 0.2,
        times: [0.25, 0.3, 0.35],
        syscalls: { write: 2000, writev: 0 },
      },
      {
        command: 'batched',
        mean: 0.1,
        stddev: 0.01,
        median: 0.1,
        min: 0.09,
        max: 0.11,
        user: 0.05,
        system: 0.05,
        times: [0.09, 0.1, 0.11],
        syscalls: { writev: 2 },
      },
    ],
  };

  it('picks the unit hyperfine would', () => {
    assert.equal(formatTime(1.5), '1.500 s');
    assert.equal(formatTime(0.0123), '12.3 ms');
    assert.equal(formatTime(0.0000123), '12.3 µs');
  });

  it("prints a case in hyperfine's layout with syscalls and the summary", () => {
    const text = formatCase(result);
    assert.match(
      text,
      /Benchmark 1: two writes\n {2}Time \(mean ± σ\): +300\.0 ms ± +30\.0 ms +\[User: 100\.0 ms, System: 200\.0 ms\]/,
    );
    assert.match(text, /Range \(min … max\): +250\.0 ms … +350\.0 ms +3 runs/);
    assert.match(text, /Syscalls: write 2,000\n/);
    assert.match(text, /'batched' ran\n +3\.00 ± 0\.42 times faster than 'two writes'/);
  });

  it('renders Markdown with a ratio column per reference', () => {
    const md = formatCaseMarkdown(result);
    assert.match(md, /\| Mode \| Mean ± σ \| Median \| Min … Max \| Syscalls \| vs two writes \|/);
    assert.match(md, /\| `batched` \| 100\.0 ms ± 10\.0 ms \| .* \| 3\.00 ± 0\.42 \|/);
  });
});

describe('percentile', () => {
  it('takes the nearest observed rank', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    assert.equal(percentile(values, 50), 5);
    assert.equal(percentile(values, 95), 10);
    assert.equal(percentile(values, 0), 1);
    assert.throws(() => percentile([], 50), RangeError);
  });
});
