import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { BenchEvent, CaseResult } from '@writev/runtime';
import { sidebandSuite } from '@writev/runtime/dist/bench/suites/sideband';
import { V2_DEPTH_1_CLONE, V2_FULL_CLONE, V2_MODES } from '@writev/runtime/dist/bench/suites/sidebandV2';
import { Scratch } from './helpers/gitRepo';

describe('the sideband benchmark suite', () => {
  it('runs at the tiny size: five modes and node -e 0 per framing, streaming and syscalls for ours, targets shown but not judged', async () => {
    const scratch = new Scratch();
    try {
      const events: BenchEvent[] = [];
      const cases: CaseResult[] = await sidebandSuite.run({
        size: 'tiny',
        runs: 1,
        cacheDir: scratch.dir,
        cases: ['side-band', 'side-band-64k'],
        emit: (e) => events.push(e),
      });
      assert.deepEqual(
        cases.map((c) => c.case),
        ['side-band', 'side-band-64k'],
      );
      for (const result of cases) {
        assert.deepEqual(
          result.results.map((m) => m.command),
          ['git upload-pack (hook)', 'two writes', 'one writev', 'batched', 'cat (floor)', 'node -e 0'],
        );
        const [, two, one, batched] = result.results;
        for (const ours of [two!, one!, batched!]) {
          assert.ok(ours.extra!.streaming! > 0 && ours.extra!.startup! > 0);
        }
        const calls = (m: typeof two) => m!.syscalls!.write! + (m!.syscalls!.writev ?? 0);
        assert.ok(calls(batched) < calls(one) && calls(one) < calls(two), 'batching saves syscalls');
        // Node's start-up is measured in the case itself, and the target that subtracts it says so.
        assert.ok(result.results[5]!.median > 0);
        // The targets are set for the full size: at tiny each shows its figure and no verdict.
        const targets = Object.entries(result.parameters!).filter(([k]) => k.startsWith('target '));
        assert.ok(targets.length >= 3);
        for (const [, line] of targets) {
          assert.match(String(line), /^not judged at --size tiny \(set for --size full\): .+\(target [<>]= /);
        }
        assert.ok(targets.some(([, v]) => /\): \(batched whole process - node -e 0\)/.test(String(v))));
        assert.deepEqual(result.headline, { mode: 'one writev', reference: 'two writes' });
      }
      const logs = events.flatMap((e) => (e.type === 'log' ? [e.message] : []));
      assert.ok(logs.some((m) => /target/.test(m)));
      assert.ok(!logs.some((m) => /\bmet\b/.test(m)), 'no verdict at tiny: "met" or "NOT met" in a log line');
    } finally {
      scratch.dispose();
    }
  });

  it('runs the v2 full and --depth 1 clone cases at the tiny size: over a pipe and over HTTP, ours from the cache, against git', async () => {
    const scratch = new Scratch();
    try {
      const events: BenchEvent[] = [];
      const results = await sidebandSuite.run({
        size: 'tiny',
        runs: 1,
        cacheDir: scratch.dir,
        cases: [V2_FULL_CLONE, V2_DEPTH_1_CLONE],
        emit: (e) => events.push(e),
      });
      assert.deepEqual(
        results.map((r) => r.case),
        [V2_FULL_CLONE, V2_DEPTH_1_CLONE],
      );
      const [full, shallow] = results;
      // The depth-1 clone sends a part of the full clone's objects: a smaller pack.
      assert.ok(shallow!.parameters!.packBytes! < full!.parameters!.packBytes!, 'a smaller pack');
      for (const result of results) {
        assert.deepEqual(
          result.results.map((m) => m.command),
          Object.values(V2_MODES),
        );
        for (const m of result.results) assert.ok(m.median > 0, m.command);
        // Ours report their serve: a cache hit (checked in each run), start-up and streaming.
        for (const ours of [V2_MODES.oursPipe, V2_MODES.oursHttp]) {
          const extra = result.results.find((m) => m.command === ours)!.extra!;
          assert.ok(extra.streaming! > 0 && extra.startup! > 0, ours);
        }
        assert.deepEqual(result.references, [V2_MODES.gitPipe, V2_MODES.gitHttp]);
        assert.deepEqual(result.headline, { mode: V2_MODES.oursHttp, reference: V2_MODES.gitHttp });
        assert.match(String(result.parameters!['target 1']), /^not judged at --size tiny .+ pipe: \d/);
      }
      const logs = events.flatMap((e) => (e.type === 'log' ? [e.message] : []));
      for (const id of [V2_FULL_CLONE, V2_DEPTH_1_CLONE]) {
        assert.ok(
          logs.some((m) => m === `${id}: the same pack, byte for byte, from all 4 modes`),
          id,
        );
      }
    } finally {
      scratch.dispose();
    }
  });
});
