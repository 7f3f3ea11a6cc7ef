// Scores the analyzer on the labelled corpus of real C files (test/server/corpus): every write call site
// of the chosen files was labelled by reading the code, as a positive run (writes one gathered write
// could replace) or a negative (writes that must not be reported). The analyzer runs through the CLI's
// engine (`lint`), project by project with the settings a user of that project would give it, and
// its sequence findings are matched to the labels by line.
import { readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { lint } from '../cli/main';
import { parseSettings, type AnalyzerSettings } from '../analyzer/settings';

/** One project of the corpus: where its files come from and how its users configure writev. */
export interface CorpusProject {
  readonly name: string;
  readonly repository: string;
  readonly commit: string;
  /** Licence files copied beside the sources (paths inside the project folder). */
  readonly licence: readonly string[];
  /** Source files of the corpus, as paths in the repository (and in the project folder). */
  readonly files: readonly string[];
  /** Raw `writev` settings (the project's own write helpers); absent: the defaults. */
  readonly settings?: unknown;
}

/** One labelled site: a run of writes (positive) or writes that must not be reported (negative). */
export interface CorpusSite {
  readonly project: string;
  readonly file: string;
  /** 1-based lines of the calls' names, in source order. */
  readonly lines: readonly number[];
  readonly verdict: 'positive' | 'negative';
  readonly idiom: string;
  readonly reason: string;
}

/**
 * The projects of each half, drawn before any tuning: the analyzer is built while looking at the
 * development half only, and the test half measures how it does on code nobody tuned it on.
 */
export interface CorpusSplit {
  readonly development: readonly string[];
  readonly test: readonly string[];
}

/** The labels file. */
export interface Corpus {
  readonly projects: readonly CorpusProject[];
  readonly sites: readonly CorpusSite[];
  readonly split?: CorpusSplit;
}

/** The corpus folder or labels file is missing or malformed; the message names the place. */
export class CorpusError extends Error {
  readonly code = 'EWRITEVCORPUS';
  constructor(message: string) {
    super(message);
    this.name = 'CorpusError';
  }
}

/** A sequence the analyzer reported, by the lines of its writes. */
export interface FoundRun {
  readonly project: string;
  readonly file: string;
  readonly lines: readonly number[];
  readonly code: string;
  readonly message: string;
}

/** Counts for one row of a table (a project, an idiom, or everything). */
export interface ScoreRow {
  readonly key: string;
  /** Labelled positive runs, and how many a finding covers entirely. */
  readonly positives: number;
  readonly found: number;
  /** Labelled negatives, and how many a finding covers (false positives). */
  readonly negatives: number;
  readonly flagged: number;
  /** Sequence findings that cover a positive, that cover a negative, that cover no label. */
  readonly truePositives: number;
  readonly falsePositives: number;
  /** Findings that cover part of a positive run but no whole label (incomplete, not wrong). */
  readonly partial: number;
  readonly unlabelled: number;
}

/** The whole score with the details a reviewer needs. */
export interface CorpusScore {
  readonly total: ScoreRow;
  /** The development half and the test half (empty when the labels record no split). */
  readonly halves: readonly ScoreRow[];
  /** The per-idiom rows of each half, when the labels record a split. */
  readonly idiomsByHalf?: { readonly development: readonly ScoreRow[]; readonly test: readonly ScoreRow[] };
  readonly byProject: readonly ScoreRow[];
  readonly byIdiom: readonly ScoreRow[];
  /** Positives no finding covers entirely, with the findings that cover part of them. */
  readonly missed: readonly { readonly site: CorpusSite; readonly partial: readonly FoundRun[] }[];
  /** Findings that cover a labelled negative (with it), or span two labelled sites (with them). */
  readonly falsePositives: readonly { readonly run: FoundRun; readonly sites: readonly CorpusSite[] }[];
  /** Sequence findings that match no label and touch no positive: the labels may need a review. */
  readonly unlabelled: readonly FoundRun[];
  /** Loop findings, not scored: a different shape from the labelled runs. */
  readonly loops: readonly FoundRun[];
  /** Files and lines analysed. */
  readonly files: number;
  readonly lines: number;
}

/** Recall: the share of labelled positive runs found (1 when there are none). */
export function recall(row: ScoreRow): number {
  return row.positives === 0 ? 1 : row.found / row.positives;
}

/** Precision: the share of labelled findings that are right (1 when there are none). */
export function precision(row: ScoreRow): number {
  const judged = row.truePositives + row.falsePositives;
  return judged === 0 ? 1 : row.truePositives / judged;
}

function fail(where: string, what: string): never {
  throw new CorpusError(`${where}: ${what}`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') fail(where, 'expected a non-empty string');
  return value;
}

function texts(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) fail(where, 'expected a list of strings');
  return value.map((v, i) => text(v, `${where}[${i}]`));
}

/** Reads and checks `labels.json` in `dir`: every site names a known project and file, lines ascend. */
export async function loadCorpus(dir: string): Promise<Corpus> {
  const path = join(dir, 'labels.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CorpusError(`${path}: cannot read the labels: ${(error as Error).message}`);
  }
  const doc = (raw ?? {}) as { projects?: unknown; sites?: unknown; split?: unknown };
  if (!Array.isArray(doc.projects)) fail(path, '"projects" must be a list');
  if (!Array.isArray(doc.sites)) fail(path, '"sites" must be a list');
  const projects = doc.projects.map((p: Record<string, unknown>, i): CorpusProject => {
    const where = `${path}: projects[${i}]`;
    return {
      name: text(p.name, `${where}.name`),
      repository: text(p.repository, `${where}.repository`),
      commit: text(p.commit, `${where}.commit`),
      licence: texts(p.licence, `${where}.licence`),
      files: texts(p.files, `${where}.files`),
      settings: p.settings,
    };
  });
  const files = new Map(projects.map((p) => [p.name, new Set(p.files)]));
  const sites = doc.sites.map((s: Record<string, unknown>, i): CorpusSite => {
    const where = `${path}: sites[${i}]`;
    const project = text(s.project, `${where}.project`);
    const file = text(s.file, `${where}.file`);
    if (!files.get(project)?.has(file)) fail(where, `${project}/${file} is not a file of a listed project`);
    const lines = s.lines;
    if (
      !Array.isArray(lines) ||
      lines.length === 0 ||
      !lines.every((l, k) => Number.isInteger(l) && l > 0 && (k === 0 || l > lines[k - 1]))
    ) {
      fail(where, 'lines must be ascending 1-based line numbers');
    }
    if (s.verdict !== 'positive' && s.verdict !== 'negative')
      fail(where, 'verdict must be positive or negative');
    if (s.verdict === 'positive' && lines.length < 2) fail(where, 'a positive run needs two writes or more');
    return {
      project,
      file,
      lines: lines as number[],
      verdict: s.verdict,
      idiom: text(s.idiom, `${where}.idiom`),
      reason: text(s.reason, `${where}.reason`),
    };
  });
  const split = doc.split === undefined ? undefined : loadSplit(doc.split, projects, `${path}: split`);
  for (const p of projects) {
    for (const f of [...p.files, ...p.licence]) {
      if (!(await stat(join(dir, p.name, f)).catch(() => undefined))) fail(path, `${p.name}/${f} is missing`);
    }
  }
  return { projects, sites, ...(split ? { split } : {}) };
}

/** The split of `labels.json`: every project in exactly one half. */
function loadSplit(raw: unknown, projects: readonly CorpusProject[], where: string): CorpusSplit {
  const doc = (raw ?? {}) as Record<string, unknown>;
  const development = texts(doc.development, `${where}.development`);
  const test = texts(doc.test, `${where}.test`);
  const names = projects.map((p) => p.name);
  for (const name of [...development, ...test]) {
    if (!names.includes(name)) fail(where, `${name} is not a listed project`);
  }
  for (const name of names) {
    const count = [...development, ...test].filter((n) => n === name).length;
    if (count !== 1) fail(where, `${name} must be in exactly one half (found in ${count})`);
  }
  return { development, test };
}

/** Settings of one project: its raw settings over the defaults. */
export function projectSettings(project: CorpusProject): AnalyzerSettings {
  try {
    return parseSettings(project.settings ?? {});
  } catch (error) {
    throw new CorpusError(`project ${project.name}: ${(error as Error).message}`);
  }
}

/**
 * Runs the analyzer (the CLI's engine) over one project folder; returns its findings and size. With
 * `tree`, the project's whole checkout at the pinned commit is linted, as a user would lint it, and
 * only the labelled files' results are kept: their facts may come from any file of the tree.
 */
async function runProject(
  dir: string,
  project: CorpusProject,
  tree?: string,
): Promise<{ runs: FoundRun[]; files: number; lines: number }> {
  const root = tree ?? join(dir, project.name);
  if (tree) await sameFiles(dir, project, tree);
  const labelled = new Set(project.files);
  const all = await lint({ paths: [root], fix: false, jobs: 1 }, projectSettings(project));
  const results = tree ? all.filter((r) => labelled.has(relative(root, r.path).split(sep).join('/'))) : all;
  const runs: FoundRun[] = [];
  for (const r of results) {
    if (r.error) throw new CorpusError(`project ${project.name}: ${r.error}`);
    const file = relative(root, r.path).split(sep).join('/');
    for (const f of r.findings) {
      const lines = [...new Set(f.related.map((x) => x.start.line + 1))].sort((a, b) => a - b);
      runs.push({ project: project.name, file, lines, code: f.code, message: f.message });
    }
  }
  return { runs, files: results.length, lines: results.reduce((n, r) => n + r.lines, 0) };
}

/** A tree's copy of each labelled file must be the corpus's, or its lines would not be the labels'. */
async function sameFiles(dir: string, project: CorpusProject, tree: string): Promise<void> {
  for (const file of project.files) {
    const [ours, theirs] = await Promise.all([
      readFile(join(dir, project.name, file)),
      readFile(join(tree, file)).catch(() => undefined),
    ]);
    if (!theirs || !ours.equals(theirs))
      throw new CorpusError(
        `project ${project.name}: ${join(tree, file)} ${theirs ? 'differs from' : 'is missing for'} the corpus's ${file} (check the tree out at ${project.commit.slice(0, 12)} with node scripts/corpus-trees.js)`,
      );
  }
}

function covers(run: FoundRun, site: CorpusSite): boolean {
  return run.file === site.file && site.lines.every((l) => run.lines.includes(l));
}

function touches(run: FoundRun, site: CorpusSite): boolean {
  return run.file === site.file && site.lines.some((l) => run.lines.includes(l));
}

/** What one finding is worth against the labels of its project. */
export interface Verdict {
  /**
   * `true`: it covers a positive run and spans no barrier; `false`: it covers a negative, or gathers
   * across a barrier (it touches two positive runs that share no write, and covers one of them);
   * `partial`: it covers part of a positive only; `unlabelled`: it touches no positive.
   */
  readonly kind: 'true' | 'false' | 'partial' | 'unlabelled';
  /** The positive runs it finds (`true`), or the sites it wrongly covers or spans (`false`). */
  readonly sites: readonly CorpusSite[];
}

/**
 * Judges one finding. Positives that share a write are one run labelled path by path (the arms of an
 * if), and a finding may find them together; positives that share none were labelled apart because
 * something between them must not be crossed. A finding that covers one of them and reaches into the
 * other earns no credit for either, and counts against precision: the old count of two hits for one
 * such finding is what this replaces.
 */
export function judge(run: FoundRun, sites: readonly CorpusSite[]): Verdict {
  const mine = sites.filter((s) => s.project === run.project && touches(run, s));
  const negatives = mine.filter((s) => s.verdict === 'negative' && covers(run, s));
  if (negatives.length > 0) return { kind: 'false', sites: negatives };
  const positives = mine.filter((s) => s.verdict === 'positive');
  if (positives.length === 0) return { kind: 'unlabelled', sites: [] };
  const covered = positives.filter((s) => covers(run, s));
  const apart = positives.some((a, i) =>
    positives.slice(i + 1).some((b) => !a.lines.some((l) => b.lines.includes(l))),
  );
  if (covered.length === 0) return { kind: 'partial', sites: positives };
  return apart ? { kind: 'false', sites: positives } : { kind: 'true', sites: covered };
}

function row(key: string, sites: readonly CorpusSite[], runs: readonly FoundRun[]): ScoreRow {
  const positives = sites.filter((s) => s.verdict === 'positive');
  const negatives = sites.filter((s) => s.verdict === 'negative');
  const verdicts = runs.map((run) => judge(run, sites));
  const count = (kind: Verdict['kind']) => verdicts.filter((v) => v.kind === kind).length;
  const credited = new Set(verdicts.filter((v) => v.kind === 'true').flatMap((v) => v.sites));
  const wronged = new Set(verdicts.filter((v) => v.kind === 'false').flatMap((v) => v.sites));
  return {
    key,
    positives: positives.length,
    found: positives.filter((s) => credited.has(s)).length,
    negatives: negatives.length,
    flagged: negatives.filter((s) => wronged.has(s)).length,
    truePositives: count('true'),
    falsePositives: count('false'),
    partial: count('partial'),
    unlabelled: count('unlabelled'),
  };
}

/**
 * Scores the analyzer on the corpus in `dir`. A finding matches a positive when its writes include
 * every labelled line of the run; it is a false positive when its writes include every line of a
 * labelled negative (a finding that also covers a positive still counts as false); a finding that
 * matches no label is listed as unlabelled and left out of precision. Projects are analysed one after
 * the other on this thread. `treeOf` gives a project's whole checkout, when there is one: the labelled
 * files are then linted within it (see `runProject`).
 */
export async function scoreCorpus(
  dir: string,
  treeOf?: (project: CorpusProject) => string | undefined,
): Promise<CorpusScore> {
  const corpus = await loadCorpus(dir);
  const all: FoundRun[] = [];
  let files = 0;
  let lines = 0;
  for (const project of corpus.projects) {
    const result = await runProject(dir, project, treeOf?.(project));
    all.push(...result.runs);
    files += result.files;
    lines += result.lines;
  }
  const runs = all.filter((r) => r.code.startsWith('adjacent-writes'));
  const sitesOf = (f: (s: CorpusSite) => boolean) => corpus.sites.filter(f);
  const runsOf = (project?: string) => runs.filter((r) => project === undefined || r.project === project);
  const idioms = [...new Set(corpus.sites.map((s) => s.idiom))].sort();
  const verdicts = new Map(runs.map((r) => [r, judge(r, corpus.sites)]));
  const matches = (run: FoundRun, s: CorpusSite) =>
    verdicts.get(run)!.kind === 'true' && verdicts.get(run)!.sites.includes(s);
  // Per idiom, findings are counted only where their verdict names a site of that idiom.
  const idiomRows = (projects?: readonly string[]) =>
    idioms.flatMap((idiom) => {
      const sites = sitesOf((s) => s.idiom === idiom && (!projects || projects.includes(s.project)));
      if (sites.length === 0) return [];
      const involved = runs.filter((r) => verdicts.get(r)!.sites.some((s) => sites.includes(s)));
      return [row(idiom, sites, involved)];
    });
  const half = (name: keyof CorpusSplit) => {
    const names = new Set(corpus.split?.[name] ?? []);
    return row(
      name,
      sitesOf((s) => names.has(s.project)),
      runs.filter((r) => names.has(r.project)),
    );
  };
  return {
    halves: corpus.split ? [half('development'), half('test')] : [],
    total: row('all', corpus.sites, runs),
    byProject: corpus.projects.map((p) =>
      row(
        p.name,
        sitesOf((s) => s.project === p.name),
        runsOf(p.name),
      ),
    ),
    byIdiom: idiomRows(),
    idiomsByHalf: corpus.split
      ? { development: idiomRows(corpus.split.development), test: idiomRows(corpus.split.test) }
      : undefined,
    missed: corpus.sites
      .filter((s) => s.verdict === 'positive' && !runs.some((r) => matches(r, s)))
      .map((site) => ({
        site,
        partial: runs.filter((r) => r.project === site.project && touches(r, site)),
      })),
    falsePositives: runs
      .filter((run) => verdicts.get(run)!.kind === 'false')
      .map((run) => ({ run, sites: verdicts.get(run)!.sites })),
    unlabelled: runs.filter((r) => verdicts.get(r)!.kind === 'unlabelled'),
    loops: all.filter((r) => !r.code.startsWith('adjacent-writes')),
    files,
    lines,
  };
}
