#!/usr/bin/env node
// Times two builds of writev-lint over the corpus trees, interleaved (A, B, A, B...), each run a fresh
// process, reporting wall and CPU (user+sys) seconds per tree; with --diff, also checks that both
// report the same findings (fix edits included) on every tree.
// Usage: node scripts/tree-ab.js BASE_REPO NEW_REPO [--pairs 5] [--diff] [--jobs N] [--trees DIR]
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, writeFileSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir, loadavg } = require('node:os');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const valued = new Set(['--pairs', '--jobs', '--trees']);
const [baseRepo, newRepo] = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1]));
const pairs = Number(option('--pairs', 5));
const jobs = option('--jobs', undefined);
const diff = args.includes('--diff');
const here = join(__dirname, '..');
const trees = option('--trees', join(here, '.cache', 'corpus-trees'));
const labels = JSON.parse(readFileSync(join(here, 'test', 'server', 'corpus', 'labels.json'), 'utf8'));
const projects = (labels.projects ?? labels).filter((p) => existsSync(join(trees, p.name)));
const dir = mkdtempSync(join(tmpdir(), 'tree-ab-'));

function run(repo, project) {
  const config = join(dir, `${project.name}.json`);
  writeFileSync(config, JSON.stringify(project.settings ?? {}));
  const bin = join(repo, 'server', 'bin', 'writev-lint.js');
  const lintArgs = [
    bin,
    '--format',
    'json',
    '--config',
    config,
    ...(jobs ? ['--jobs', jobs] : []),
    join(trees, project.name),
  ];
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...lintArgs], {
    maxBuffer: 1 << 30,
    cwd: trees,
  });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${repo} ${project.name}: exit ${r.status}: ${r.stderr.toString()}`);
  const last = r.stderr.toString().trim().split('\n').pop();
  const [wall, user, sys] = last.split(' ').map(Number);
  return { wall, cpu: user + sys, out: r.stdout.toString() };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rows = [];
const loads = [loadavg()[0]];
let same = true;
for (const project of projects) {
  let findings = 0;
  const a = { wall: [], cpu: [] };
  const b = { wall: [], cpu: [] };
  for (let i = 0; i < pairs; i++) {
    const first = i % 2 === 0;
    const x = first ? run(baseRepo, project) : undefined;
    const y = run(newRepo, project);
    const x2 = first ? x : run(baseRepo, project);
    for (const [t, r] of [
      [a, x2],
      [b, y],
    ]) {
      t.wall.push(r.wall);
      t.cpu.push(r.cpu);
    }
    findings = JSON.parse(y.out).findings.length;
    if (diff && i === 0 && x2.out !== y.out) {
      same = false;
      writeFileSync(join(dir, `${project.name}.base.json`), x2.out);
      writeFileSync(join(dir, `${project.name}.new.json`), y.out);
      console.log(`${project.name}: findings DIFFER (see ${dir}/${project.name}.{base,new}.json)`);
    }
  }
  loads.push(loadavg()[0]);
  rows.push({ name: project.name, findings, a, b });
  const f = (xs) => `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;
  console.log(
    `${project.name.padEnd(11)} findings ${String(findings).padStart(4)}  wall base ${f(a.wall)} new ${f(b.wall)}  cpu base ${f(a.cpu)} new ${f(b.cpu)}  load ${loadavg()[0].toFixed(2)}`,
  );
}
const sum = (k, side) => rows.reduce((s, r) => s + median(r[side][k]), 0);
console.log(
  `total (sum of medians): wall base ${sum('wall', 'a').toFixed(2)} new ${sum('wall', 'b').toFixed(2)}; cpu base ${sum('cpu', 'a').toFixed(2)} new ${sum('cpu', 'b').toFixed(2)}; load 1-min ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
);
if (diff)
  console.log(same ? 'findings: identical on every tree (JSON report byte for byte)' : 'findings: DIFFER');
