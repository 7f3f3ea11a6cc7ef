#!/usr/bin/env node
// Draws (or checks) the corpus's development/test split: `node scripts/corpus-split.js [--write]`.
// The first draw: the projects tuned on before the split (labels.json's `split.tunedBefore`) stay in the
// development half; the others are shuffled by a seeded generator (mulberry32, Fisher-Yates over the
// sorted names) and the first half of them, at least ten, make the test half. Projects added later come
// in batches (`split.batches`: a seed and the batch's names), each drawn on its own with its own seed by
// the same shuffle, the first half (rounded down) to test: a new batch never moves a project drawn
// before it. The halves are the unions. The test half is never tuned on: the draws are recorded so anyone
// can repeat them, and the corpus test checks the labels still match them.
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

/** `names`, sorted, then shuffled (Fisher-Yates) under `seed`. */
function shuffled(names, seed) {
  const drawn = [...names].sort();
  const random = mulberry32(seed);
  for (let i = drawn.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [drawn[i], drawn[j]] = [drawn[j], drawn[i]];
  }
  return drawn;
}

/** The first draw: the split of `names` (sorted first) under `seed`, with `tunedBefore` kept for development. */
function draw(names, tunedBefore, seed) {
  const drawn = shuffled(
    names.filter((n) => !tunedBefore.includes(n)),
    seed,
  );
  const size = Math.max(10, Math.floor(drawn.length / 2));
  return {
    development: [...tunedBefore, ...drawn.slice(size)].sort(),
    test: drawn.slice(0, size).sort(),
  };
}

/** A later batch's split: its names shuffled under its own seed, the first half (rounded down) to test. */
function drawBatch(names, seed) {
  const drawn = shuffled(names, seed);
  const size = Math.floor(drawn.length / 2);
  return { development: drawn.slice(size).sort(), test: drawn.slice(0, size).sort() };
}

/**
 * The whole split of the projects `names` under labels.json's `split`: the first draw over the projects
 * in no batch, then each batch's own draw; the halves are the unions.
 */
function drawAll(names, split) {
  const batches = split.batches ?? [];
  const batched = batches.flatMap((b) => b.projects);
  for (const name of batched) {
    if (!names.includes(name)) throw new Error(`batch project ${name} is not a listed project`);
  }
  const first = draw(
    names.filter((n) => !batched.includes(n)),
    split.tunedBefore,
    split.seed,
  );
  const later = batches.map((b) => drawBatch(b.projects, b.seed));
  return {
    development: [...first.development, ...later.flatMap((b) => b.development)].sort(),
    test: [...first.test, ...later.flatMap((b) => b.test)].sort(),
  };
}

module.exports = { draw, drawBatch, drawAll };

if (require.main === module) {
  const path = join(__dirname, '..', 'test', 'server', 'corpus', 'labels.json');
  const labels = JSON.parse(readFileSync(path, 'utf8'));
  const split = drawAll(
    labels.projects.map((p) => p.name),
    labels.split,
  );
  if (process.argv.includes('--write')) {
    labels.split = { ...labels.split, ...split };
    writeFileSync(path, `${JSON.stringify(labels, null, 2)}\n`);
  }
  const same =
    JSON.stringify([labels.split.development, labels.split.test]) ===
    JSON.stringify([split.development, split.test]);
  for (const batch of labels.split.batches ?? []) {
    const { development, test } = drawBatch(batch.projects, batch.seed);
    console.log(`batch ${batch.seed}: development ${development.join(', ')}; test ${test.join(', ')}`);
  }
  console.log(`development (${split.development.length}): ${split.development.join(', ')}`);
  console.log(`test (${split.test.length}): ${split.test.join(', ')}`);
  if (!same) {
    console.error('labels.json records a different split: run with --write, before any tuning only');
    process.exitCode = 1;
  }
}
