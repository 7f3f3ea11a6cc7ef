// The blind batch's record (test/server/blind) and its scorer (scripts/blind-score.js): the labels keep
// the corpus's rules, the draw is the seeded one the record shows, and the scorer credits and blames
// findings as the corpus's judge does. Fast: no project is linted here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { judge } from 'writev-lint/out/bench/corpusScore';
import { REPO } from './helpers';

const BLIND = join(REPO, 'test', 'server', 'blind');

interface Site {
  project: string;
  file: string;
  lines: number[];
  verdict: 'positive' | 'negative';
  class: string;
  reason: string;
}
interface Labels {
  projects: { name: string; repository: string; commit: string; files: string[]; batch: number }[];
  sites: Site[];
}
interface Run {
  project: string;
  file: string;
  lines: number[];
  code: string;
  message: string;
}
interface Row {
  key: string;
  positives: number;
  found: number;
  negatives: number;
  flagged: number;
}

const labels = JSON.parse(readFileSync(join(BLIND, 'labels.json'), 'utf8')) as Labels;
const { scoreBlind } = require(join(REPO, 'scripts', 'blind-score.js')) as {
  scoreBlind: (
    labels: Labels,
    runs: Map<string, Run[]>,
    j: typeof judge,
  ) => {
    total: Row;
    byProject: Row[];
    byClass: Row[];
    missed: { site: Site; partial: Run[] }[];
    flagged: { run: Run; sites: Site[] }[];
    unlabelled: Run[];
  };
};

test('the blind labels keep the corpus rules: eight projects in each batch (six in the fourth, where pool2 ran out), known projects and files, ascending lines, a positive of two writes or more, a class and a reason', () => {
  const files = new Map(labels.projects.map((p) => [p.name, new Set(p.files)]));
  const batches = new Map<number, number>();
  for (const p of labels.projects) batches.set(p.batch, (batches.get(p.batch) ?? 0) + 1);
  assert.deepEqual(
    [...batches],
    [
      [1, 8],
      [2, 8],
      [3, 8],
      [4, 6],
    ],
  );
  for (const p of labels.projects) assert.match(p.commit, /^[0-9a-f]{40}$/, p.name);
  for (const s of labels.sites) {
    const where = `${s.project}/${s.file}:${s.lines.join(',')}`;
    assert.ok(files.get(s.project)?.has(s.file), `${where}: a file of a listed project`);
    assert.ok(
      s.lines.every((l, i) => Number.isInteger(l) && l > 0 && (i === 0 || l > (s.lines[i - 1] ?? 0))),
      `${where}: ascending lines`,
    );
    assert.ok(s.verdict === 'positive' || s.verdict === 'negative', `${where}: verdict`);
    assert.ok(s.lines.length >= 2, `${where}: a labelled run or a hard negative holds two writes or more`);
    assert.ok(s.class !== '' && s.reason !== '', `${where}: class and reason`);
  }
});

test('draw.txt records the seeded orders of pool.txt and pool2.txt that draw.js prints', () => {
  const out = spawnSync(process.execPath, [join(BLIND, 'draw.js')], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const recorded = readFileSync(join(BLIND, 'draw.txt'), 'utf8');
  assert.ok(recorded.startsWith(out.stdout), 'draw.txt opens with the output of draw.js');
  const second = spawnSync(process.execPath, [join(BLIND, 'draw.js'), '--pool', 'pool2.txt', '51'], {
    encoding: 'utf8',
  });
  assert.equal(second.status, 0, second.stderr);
  assert.ok(recorded.includes(second.stdout), 'draw.txt holds the seed-51 order of pool2.txt');
  const taken = [...recorded.matchAll(/ TAKEN as (\S+) +([0-9a-f]{40})/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(
    taken,
    labels.projects.map((p) => [p.name, p.commit]),
  );
});

test('blind-score credits a finding over a whole positive, blames one over a negative, and lists the partial and the unlabelled', () => {
  const positive = labels.sites.find((s) => s.verdict === 'positive' && s.lines.length >= 3)!;
  const negative = labels.sites.find((s) => s.verdict === 'negative' && s.project !== positive.project)!;
  const other = labels.sites.find(
    (s) =>
      s.verdict === 'positive' &&
      s !== positive &&
      s.project === positive.project &&
      s.file === positive.file,
  )!;
  const run = (site: Site, lines: number[]): Run => ({
    project: site.project,
    file: site.file,
    lines,
    code: 'adjacent-writes',
    message: '',
  });
  const runs = new Map<string, Run[]>(labels.projects.map((p) => [p.name, []]));
  runs.get(positive.project)!.push(run(positive, positive.lines));
  runs.get(other.project)!.push(run(other, other.lines.slice(0, 1)));
  runs.get(negative.project)!.push(run(negative, negative.lines));
  runs.get(positive.project)!.push(run(positive, [1, 2]));
  const score = scoreBlind(labels, runs, judge);
  const positives = labels.sites.filter((s) => s.verdict === 'positive').length;
  assert.deepEqual([score.total.found, score.total.positives, score.total.flagged], [1, positives, 1]);
  const key = (s: Site) => `${s.project}/${s.file}:${s.lines.join(',')}`;
  assert.ok(score.missed.some((m) => key(m.site) === key(other) && m.partial.length === 1));
  assert.deepEqual(
    score.flagged.map((f) => f.sites.map(key)),
    [[key(negative)]],
  );
  assert.deepEqual(
    score.unlabelled.map((r) => r.lines),
    [[1, 2]],
  );
  const byProject = score.byProject.find((r) => r.key === positive.project)!;
  assert.equal(byProject.found, 1);
});
