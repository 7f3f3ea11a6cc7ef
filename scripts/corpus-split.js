#!/usr/bin/env node
// Draws (or checks) the corpus's development/test split: `node scripts/corpus-split.js [--write]`.
// The projects tuned on before the split (labels.json's `split.tunedBefore`) stay in the development
// half; the others are shuffled by a seeded generator (mulberry32, Fisher-Yates over the sorted names)
// and the first half of them, at least ten, make the test half. The test half is never tuned on: the
// draw is recorded so anyone can repeat it, and the corpus test checks the labels still match it.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** A small seeded generator of numbers in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The split of `names` (sorted first) under `seed`, with `tunedBefore` kept for development. */
function draw(names, tunedBefore, seed) {
  const drawn = names.filter((n) => !tunedBefore.includes(n)).sort();
  const random = mulberry32(seed);
  for (let i = drawn.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [drawn[i], drawn[j]] = [drawn[j], drawn[i]];
  }
  const size = Math.max(10, Math.floor(drawn.length / 2));
  return {
    development: [...tunedBefore, ...drawn.slice(size)].sort(),
    test: drawn.slice(0, size).sort(),
  };
}

module.exports = { draw };

if (require.main === module) {
  const path = join(__dirname, '..', 'test', 'server', 'corpus', 'labels.json');
  const labels = JSON.parse(readFileSync(path, 'utf8'));
  const { seed, tunedBefore } = labels.split;
  const split = draw(
    labels.projects.map((p) => p.name),
    tunedBefore,
    seed,
  );
  if (process.argv.includes('--write')) {
    labels.split = { ...labels.split, ...split };
    writeFileSync(path, `${JSON.stringify(labels, null, 2)}\n`);
  }
  const same =
    JSON.stringify([labels.split.development, labels.split.test]) ===
    JSON.stringify([split.development, split.test]);
  console.log(`development (${split.development.length}): ${split.development.join(', ')}`);
  console.log(`test (${split.test.length}): ${split.test.join(', ')}`);
  if (!same) {
    console.error('labels.json records a different split: run with --write, before any tuning only');
    process.exitCode = 1;
  }
}
