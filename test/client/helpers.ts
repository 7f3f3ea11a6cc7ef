import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchEvent, CaseResult } from '@writev/runtime';

/** The repository root, from out/test/client/. */
export const ROOT = join(__dirname, '..', '..', '..');

/** The events of a recorded `writev-bench --size tiny --jsonl` run. */
export function recordedEvents(): BenchEvent[] {
  return readFileSync(join(ROOT, 'test', 'client', 'fixtures', 'tiny-run.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BenchEvent);
}

/** The case results of the recorded run. */
export function recordedResults(): CaseResult[] {
  return recordedEvents().flatMap((e) => (e.type === 'result' ? [e.result] : []));
}

/** A made-up case with round figures, for exact assertions. */
export function sampleCase(): CaseResult {
  const m = (command: string, mean: number, stddev: number, syscalls: Record<string, number>) => ({
    command,
    mean,
    stddev,
    median: mean,
    min: mean - stddev,
    max: mean + stddev,
    user: 0,
    system: 0,
    times: [mean - stddev, mean, mean + stddev],
    syscalls,
  });
  return {
    suite: 'writev',
    case: 'side-band',
    title: '1 MiB as 1000-byte records',
    parameters: { bytes: 1048576, records: 1049 },
    results: [m('two writes', 0.02, 0.002, { write: 2098 }), m('one writev', 0.01, 0.001, { writev: 1049 })],
  };
}
