#!/usr/bin/env node
// Where the run engine stops runs that a later write to the same descriptor follows: a census of the
// joiners for whoever changes one (a development tool; the analyzer's output is unchanged). After
// `npx tsc -b`:
//
//   node scripts/run-stops.js [--corpus [--labels]] [--json FILE] [--samples N] [--joiner NAME] [PATH...]
//
// Each PATH (a tree or a file) is linted as the CLI lints it (both passes, default settings); with
// --corpus, each development-half project of test/server/corpus is linted too, with its own settings
// (never a test-half project). For every run that stopped before its block's end (or a lone write that
// opened none) while a write step to the same descriptor follows later in the block, it records the
// file, the line of the run's last write and of that next write, the joiner and its reason (for the
// engine's own stop, the kind of step it stopped at). It prints the counts by joiner and reason, and
// with --samples N, up to N stops of each (--joiner: of that joiner only). The stops are seen through
// the engine's stop observer (server/src/analyzer/shapes/stops.ts), set only here. With --labels, each
// development-half stop is held against the labels: wrong when a positive site holds both its writes,
// right when a negative does (the test half is never linted, so never judged).
'use strict';
const { writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { parseArgs } = require('node:util');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    corpus: { type: 'boolean', default: false },
    json: { type: 'string' },
    samples: { type: 'string', default: '0' },
    joiner: { type: 'string' },
    labels: { type: 'boolean', default: false },
  },
});
const root = join(__dirname, '..');
const out = join(root, 'server', 'out');
const { lint } = require(join(out, 'cli', 'main.js'));
const { Analyzer } = require(join(out, 'analyzer', 'analyzer.js'));
const { FunctionMemo } = require(join(out, 'analyzer', 'c', 'memo.js'));
const { observeStops } = require(join(out, 'analyzer', 'shapes', 'stops.js'));
const { parseSettings } = require(join(out, 'analyzer', 'settings.js'));
const { loadCorpus, projectSettings } = require(join(out, 'bench', 'corpusScore.js'));
const { readStop, watchAnalyses } = require('./stop-records');

/** path -> the stops of its latest analysis, keyed so that a stop seen twice counts once. */
const byFile = new Map();
// Every function is read afresh on each pass, so that each pass's stops are the ones it saw; the file
// being read, for the stops' lines.
const current = watchAnalyses(
  { Analyzer, FunctionMemo },
  (path, text) => ({ path, text, stops: new Map(), lineStarts: undefined }),
  (path, record) => byFile.set(path, record),
);

function lineOf(file, offset) {
  if (!file.lineStarts) {
    file.lineStarts = [0];
    for (let i = 0; i < file.text.length; i++) if (file.text[i] === '\n') file.lineStarts.push(i + 1);
  }
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

let expanded = 0;
let observed = 0;
observeStops((stop) => {
  const file = current();
  if (!file) return;
  observed++;
  const read = readStop(stop);
  if (!read) return;
  const { prev, next, at } = read;
  // Spans into a macro-expanded copy of a function are not the file's: the plain reading reports it.
  const shows = (w) => w && file.text.slice(w.span.start, w.span.end).includes(w.callee.split('.').pop());
  if (!shows(next.write) || (prev && !shows(prev))) {
    expanded++;
    return;
  }
  const reason = read.why;
  const record = {
    file: file.path,
    line: prev ? lineOf(file, prev.span.start) : lineOf(file, stop.steps[stop.from].span.start),
    next: lineOf(file, next.write.span.start),
    nextIn: next.nesting,
    stopLine: at ? lineOf(file, at.span.start) : undefined,
    writes: stop.writes.length,
    target: stop.target,
    joiner: stop.ended.joiner,
    why: reason,
  };
  const key = `${record.line}:${record.next}:${record.joiner}:${record.why}`;
  if (!file.stops.has(key)) file.stops.set(key, record);
});

/**
 * With --labels, a development-half corpus stop against the labels: `wrong` when a positive site holds
 * both the last write and the next (the stop cut a labelled run), `right` when a negative does.
 */
function labelVerdict(stop, corpus, development) {
  const dir = join(root, 'test', 'server', 'corpus');
  const rel = relative(dir, stop.file).split('\\').join('/');
  const [project, ...rest] = rel.split('/');
  if (!development.has(project)) return undefined;
  const file = rest.join('/');
  const holds = (site) => site.lines.includes(stop.line) && site.lines.includes(stop.next);
  const sites = corpus.sites.filter((t) => t.project === project && t.file === file && holds(t));
  if (sites.some((t) => t.verdict === 'positive')) return 'wrong';
  if (sites.some((t) => t.verdict === 'negative')) return 'right';
  return 'unlabelled';
}

async function main() {
  const jobs = [];
  for (const p of positionals) jobs.push({ label: p, paths: [p], settings: parseSettings({}) });
  let corpus;
  let development = new Set();
  if (values.corpus) {
    const dir = join(root, 'test', 'server', 'corpus');
    corpus = await loadCorpus(dir);
    // The development half only, listed: never a test-half project's files.
    development = new Set(corpus.split?.development ?? []);
    for (const project of corpus.projects)
      if (development.has(project.name))
        jobs.push({
          label: project.name,
          paths: [join(dir, project.name)],
          settings: projectSettings(project),
        });
  }
  for (const job of jobs) {
    process.stderr.write(`run-stops: ${job.label}\n`);
    await lint({ paths: job.paths, fix: false, jobs: 1 }, job.settings);
  }
  const stops = [...byFile.values()].flatMap((f) =>
    [...f.stops.values()].map((s) => ({
      ...s,
      ...(values.labels && corpus && { label: labelVerdict(s, corpus, development) }),
      file: relative(process.cwd(), s.file),
    })),
  );
  if (values.json) writeFileSync(values.json, JSON.stringify(stops, null, 1));
  const counts = new Map();
  for (const s of stops) {
    const key = `${s.joiner}\t${s.why}`;
    const c = counts.get(key) ?? { all: 0, block: 0, wrong: 0, right: 0, samples: [] };
    c.all++;
    if (s.nextIn === 'block') c.block++;
    if (s.label === 'wrong') c.wrong++;
    if (s.label === 'right') c.right++;
    c.samples.push(s);
    counts.set(key, c);
  }
  console.log(
    `${stops.length} stops before a later write to the same descriptor, of ${observed} stops seen (${expanded} in expansions left out)`,
  );
  const labelled = values.labels && corpus;
  console.log(`count\tnext in block\t${labelled ? 'labelled wrong\tlabelled right\t' : ''}joiner\twhy`);
  const rows = [...counts].sort((a, b) => b[1].all - a[1].all);
  for (const [key, c] of rows)
    console.log(`${c.all}\t${c.block}\t${labelled ? `${c.wrong}\t${c.right}\t` : ''}${key}`);
  if (labelled) {
    console.log('\nstops inside a labelled positive (development half):');
    for (const s of stops.filter((x) => x.label === 'wrong'))
      console.log(`  ${s.file}:${s.line} -> ${s.next} ${s.joiner}: ${s.why}`);
  }
  const n = Number(values.samples);
  if (n > 0)
    for (const [key, c] of rows) {
      if (values.joiner && !key.startsWith(`${values.joiner}\t`)) continue;
      console.log(`\n== ${key.replace('\t', ': ')}`);
      // Spread over the files: every k-th stop rather than the first n of one file.
      const step = Math.max(1, Math.floor(c.samples.length / n));
      for (let i = 0; i < c.samples.length && i / step < n; i += step) {
        const s = c.samples[i];
        console.log(
          `  ${s.file}:${s.line} -> ${s.next} (${s.nextIn}; stop at ${s.stopLine}, ${s.writes} writes, fd ${s.target})`,
        );
      }
    }
}

main().catch((error) => {
  console.error(`run-stops: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(2);
});
