import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { targetLine, type Target } from '@writev/runtime/dist/bench/targets';

describe('benchmark targets', () => {
  const met: Target = { description: 'git / batched: 1.62x (target >= 1.5x)', met: true, size: 'full' };
  const missed: Target = { description: 'git / batched: 1.12x (target >= 1.5x)', met: false, size: 'full' };

  it('gives a verdict at the size the target was set for', () => {
    assert.equal(targetLine(met, 'full'), 'met: git / batched: 1.62x (target >= 1.5x)');
    assert.equal(targetLine(missed, 'full'), 'NOT met: git / batched: 1.12x (target >= 1.5x)');
  });

  it('shows the figure without a verdict at any other size, met or not', () => {
    for (const size of ['tiny', 'quick'] as const) {
      for (const target of [met, missed]) {
        assert.equal(
          targetLine(target, size),
          `not judged at --size ${size} (set for --size full): ${target.description}`,
        );
      }
    }
  });
});
