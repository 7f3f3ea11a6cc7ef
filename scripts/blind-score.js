#!/usr/bin/env node
// The analyzer's score on a blind batch (test/server/blind/README.md): projects nobody on the team read
// before labelling them. `node scripts/blind-score.js --trees DIR [--batch N] [--misses] [--labels FILE]`
// (after `npm run build`; `--batch N` scores the projects of one draw, labels.json's `batch`; without it,
// all, with a line per batch). Each project's checkout DIR/<name> (its `.writev-commit` must name the
// labelled commit) is linted as a user lints it: `writev-lint --format json --exit-zero .` run from the
// project's root, with the config lookup on and no settings given. Its sequence findings are judged
// against the labels by the corpus's rules (server/src/bench/corpusScore.ts `judge`); the script prints
// found/positives and flagged/negatives per project and per class, and with --misses each missed run,
// each flagged negative and each finding in a labelled file that touches no label.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const root = path.join(__dirname, '..');

/**
 * The sequence findings of one project, as the corpus scorer's runs: the project, the file (relative to
 * the project's root, `/`-separated), the 1-based lines of the writes, the code and the message.
 */
function lintProject(name, tree) {
  const cli = path.join(root, 'server', 'bin', 'writev-lint.js');
  const out = spawnSync(process.execPath, [cli, '--format', 'json', '--exit-zero', '.'], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (out.status !== 0) throw new Error(`${name}: writev-lint exited ${out.status}: ${out.stderr.trim()}`);
  const report = JSON.parse(out.stdout);
  return report.findings
    .filter((f) => f.code.startsWith('adjacent-writes'))
    .map((f) => ({
      project: name,
      file: path.relative(tree, path.resolve(tree, f.path)).split(path.sep).join('/'),
      lines: [...new Set((f.related ?? []).map((r) => r.line))].sort((a, b) => a - b),
      code: f.code,
      message: f.message,
    }));
}

/**
 * Scores the runs found in each project against the labels. `judge` is the corpus's: a positive is
 * found when a finding covers all its lines and crosses no barrier; a negative is flagged when a finding
 * covers all of its lines. Returns rows per project and per class, and the details of each miss.
 */
function scoreBlind(labels, runsByProject, judge) {
  const sites = labels.sites.map((s) => ({ ...s, idiom: s.class }));
  const runs = [...runsByProject.values()].flat();
  const verdicts = runs.map((run) => ({ run, verdict: judge(run, sites) }));
  const credited = new Set(verdicts.filter((v) => v.verdict.kind === 'true').flatMap((v) => v.verdict.sites));
  const wronged = new Set(verdicts.filter((v) => v.verdict.kind === 'false').flatMap((v) => v.verdict.sites));
  const row = (key, of) => {
    const positives = of.filter((s) => s.verdict === 'positive');
    const negatives = of.filter((s) => s.verdict === 'negative');
    return {
      key,
      positives: positives.length,
      found: positives.filter((s) => credited.has(s)).length,
      negatives: negatives.length,
      flagged: negatives.filter((s) => wronged.has(s)).length,
    };
  };
  const scored = labels.projects.filter((p) => runsByProject.has(p.name)).map((p) => p.name);
  const mine = sites.filter((s) => scored.includes(s.project));
  const labelledFiles = new Set(labels.projects.flatMap((p) => p.files.map((f) => `${p.name}/${f}`)));
  return {
    total: row('all', mine),
    byProject: scored.map((name) => ({
      ...row(
        name,
        mine.filter((s) => s.project === name),
      ),
      findings: runsByProject.get(name).length,
    })),
    byClass: [...new Set(mine.map((s) => `${s.verdict} ${s.class}`))].sort().map((key) =>
      row(
        key,
        mine.filter((s) => `${s.verdict} ${s.class}` === key),
      ),
    ),
    missed: mine
      .filter((s) => s.verdict === 'positive' && !credited.has(s))
      .map((site) => ({
        site,
        partial: runs.filter(
          (r) =>
            r.project === site.project && r.file === site.file && site.lines.some((l) => r.lines.includes(l)),
        ),
      })),
    flagged: verdicts
      .filter((v) => v.verdict.kind === 'false')
      .map((v) => ({ run: v.run, sites: v.verdict.sites })),
    unlabelled: verdicts
      .filter((v) => v.verdict.kind === 'unlabelled' && labelledFiles.has(`${v.run.project}/${v.run.file}`))
      .map((v) => v.run),
  };
}

function main() {
  const { values } = parseArgs({
    options: {
      trees: { type: 'string' },
      labels: { type: 'string', default: path.join(root, 'test', 'server', 'blind', 'labels.json') },
      misses: { type: 'boolean', default: false },
      batch: { type: 'string' },
    },
  });
  if (!values.trees)
    throw new Error('usage: node scripts/blind-score.js --trees DIR [--batch N] [--misses] [--labels FILE]');
  const { judge } = require(path.join(root, 'server', 'out', 'bench', 'corpusScore.js'));
  const all = JSON.parse(fs.readFileSync(values.labels, 'utf8'));
  const labels =
    values.batch === undefined
      ? all
      : { ...all, projects: all.projects.filter((p) => String(p.batch) === values.batch) };
  if (labels.projects.length === 0) throw new Error(`no project of batch ${values.batch}`);
  const runsByProject = new Map();
  for (const project of labels.projects) {
    const tree = path.join(values.trees, project.name);
    const stamp = path.join(tree, '.writev-commit');
    const commit = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : undefined;
    if (commit !== project.commit) {
      console.log(`${project.name}: not scored (${tree} is ${commit ? `at ${commit}` : 'missing'})`);
      continue;
    }
    runsByProject.set(project.name, lintProject(project.name, tree));
  }
  const score = scoreBlind(labels, runsByProject, judge);
  const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
  const t = score.total;
  console.log(
    `blind: found ${t.found}/${t.positives} (${pct(t.found, t.positives)}), negatives flagged ${t.flagged}/${t.negatives}`,
  );
  const batches = [...new Set(labels.projects.map((p) => p.batch))].sort();
  if (batches.length > 1)
    console.log(
      `by batch: ${batches
        .map((b) => {
          const r = scoreBlind(
            { ...labels, projects: labels.projects.filter((p) => p.batch === b) },
            runsByProject,
            judge,
          ).total;
          return `${b} ${r.found}/${r.positives} (${pct(r.found, r.positives)}), ${r.flagged}/${r.negatives} flagged`;
        })
        .join('; ')}`,
    );
  console.log(
    `by project: ${score.byProject
      .map(
        (r) =>
          `${r.key} ${r.found}/${r.positives} (${r.flagged}/${r.negatives} flagged, ${r.findings} findings)`,
      )
      .join(', ')}`,
  );
  console.log(
    `by class: ${score.byClass
      .map((r) =>
        r.positives ? `${r.key} ${r.found}/${r.positives}` : `${r.key} ${r.flagged}/${r.negatives} flagged`,
      )
      .join(', ')}`,
  );
  if (!values.misses) return;
  const where = (x) => `${x.project}/${x.file}:${x.lines.join(',')}`;
  console.log('\nmissed runs:');
  for (const m of score.missed)
    console.log(
      `  ${where(m.site)} ${m.site.class}${m.partial.length ? ` (partly: ${m.partial.map((r) => r.lines.join(',')).join('; ')})` : ''}`,
    );
  console.log('flagged negatives:');
  for (const f of score.flagged)
    console.log(
      `  ${where(f.run)} ${f.run.code} over ${f.sites.map((s) => `${s.verdict} ${s.lines.join(',')}`).join('; ')}`,
    );
  console.log('findings in labelled files that touch no label:');
  for (const r of score.unlabelled) console.log(`  ${where(r)} ${r.code}`);
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(`blind-score: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}

module.exports = { scoreBlind };
