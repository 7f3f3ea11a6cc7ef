#!/usr/bin/env node
// The blind batch's draw: a seeded shuffle (mulberry32, seed 50) of pool.txt, printed one repository a
// line after the pool's sha256. Anyone can run it again and get the same order; draw.txt records it with
// what was taken and what was skipped (README.md). `node test/server/blind/draw.js [seed]`, or for another
// pool of this folder `node test/server/blind/draw.js --pool pool2.txt 51`.
'use strict';
const crypto = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');

/** mulberry32: a small seeded generator, uniform in [0, 1). */
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

const args = process.argv.slice(2);
const poolAt = args.indexOf('--pool');
// The pool file is named relative to this folder; the first pool stays the default so the recorded
// first draw reproduces with no arguments.
const poolName = poolAt === -1 ? 'pool.txt' : args.splice(poolAt, 2)[1];
const seed = Number(args[0] ?? 50);
const text = readFileSync(path.join(__dirname, poolName));
const pool = text
  .toString('utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const random = mulberry32(seed);
// Fisher-Yates from the end: each position takes one of the names not yet placed.
const order = [...pool];
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}
console.log(
  `${poolName} sha256 ${crypto.createHash('sha256').update(text).digest('hex')} (${pool.length} repositories)`,
);
console.log(`seed ${seed}`);
order.forEach((repo, i) => console.log(`${String(i + 1).padStart(2)} ${repo}`));
