#!/usr/bin/env node
// The runtime demo: sends the same 32 MiB of pkt-line-like records into a real `git hash-object`
// through a pipe, first with two writes per record (the old way), then gathered with writevInFull,
// and prints what each cost and the object id git computed, checked against our own.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const { closeSync, mkdtempSync, openSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const {
  IOV_MAX,
  createSys,
  formatSyscalls,
  formatTime,
  writeInFull,
  writevInFull,
} = require('@writev/runtime');

const PAYLOAD = 995; // a side-band packet's payload: 1000-byte pkt-lines
const RECORDS = 32 * 1024;

function records() {
  const pool = randomBytes(1 << 20);
  const list = [];
  for (let i = 0; i < RECORDS; i++) {
    const at = (i * 4099) % (pool.length - PAYLOAD);
    list.push([
      Buffer.from(`${(PAYLOAD + 5).toString(16).padStart(4, '0')}\x01`),
      pool.subarray(at, at + PAYLOAD),
    ]);
  }
  return list;
}

/** Runs `git hash-object --stdin` reading a FIFO, lets `send` write into it, returns git's id. */
async function intoGit(dir, send) {
  const fifo = join(dir, `fifo-${Math.random().toString(16).slice(2)}`);
  execFileSync('mkfifo', [fifo]);
  const git = spawn('sh', ['-c', 'exec git hash-object --stdin < "$1"', 'git', fifo], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let oid = '';
  git.stdout.setEncoding('utf8').on('data', (s) => (oid += s));
  const exited = new Promise((resolve) => git.once('close', resolve));
  const fd = openSync(fifo, 'w');
  const sys = createSys();
  const start = process.hrtime.bigint();
  send(fd, sys);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  closeSync(fd);
  const status = await exited;
  if (status !== 0) throw new Error(`git hash-object exited with ${status}`);
  return { oid: oid.trim(), sys, seconds };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'writev-demo-'));
  try {
    const recs = records();
    const all = recs.flat();
    const size = all.reduce((n, b) => n + b.length, 0);
    const hash = createHash('sha1').update(`blob ${size}\0`);
    for (const b of all) hash.update(b);
    const expected = hash.digest('hex');
    console.log(
      `writev demo: ${RECORDS.toLocaleString('en-US')} pkt-lines of ${PAYLOAD + 5} bytes (${(size / 2 ** 20).toFixed(1)} MiB) into \`git hash-object --stdin\` through a pipe\n`,
    );
    const ways = [
      [
        'two writes per pkt-line',
        (fd, sys) => recs.forEach(([h, p]) => (writeInFull(fd, h, { sys }), writeInFull(fd, p, { sys }))),
      ],
      ['one writev per pkt-line', (fd, sys) => recs.forEach((r) => writevInFull(fd, r, { sys }))],
      [
        `gathered, ${IOV_MAX / 2} pkt-lines per writev`,
        (fd, sys) => {
          for (let i = 0; i < all.length; i += IOV_MAX) writevInFull(fd, all.slice(i, i + IOV_MAX), { sys });
        },
      ],
    ];
    for (const [name, send] of ways) {
      const { oid, sys, seconds } = await intoGit(dir, send);
      const verdict = oid === expected ? 'matches' : `DIFFERS from ${expected}`;
      console.log(
        `${name.padEnd(36)} ${formatTime(seconds).padStart(9)}   ${formatSyscalls(sys.counts).padEnd(22)}   git: ${oid} (${verdict})`,
      );
      if (oid !== expected) process.exitCode = 1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`demo failed: ${err.stack ?? err}`);
  process.exit(1);
});
