// Shared helpers for the server tests: one analyzer per process, fixtures, expectation markers.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Analyzer,
  DEFAULT_SETTINGS,
  LineIndex,
  parseSettings,
  WrapperIndex,
  type AnalyzerSettings,
  type Finding,
} from 'writev-lint';

/** The repository root (tests run from out/test/server). */
export const REPO = join(__dirname, '..', '..', '..');
/** The fixtures folder in the source tree. */
export const FIXTURES = join(REPO, 'test', 'server', 'fixtures');

let shared: Promise<Analyzer> | undefined;

/** One analyzer for the whole test file (loading the grammar takes a moment). */
export function analyzer(): Promise<Analyzer> {
  shared ??= Analyzer.create();
  return shared;
}

/** The text of a fixture, by path under fixtures/. */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Fixture names under `dir` ending with one of `exts`. */
export function fixtures(dir: string, ...exts: string[]): string[] {
  return readdirSync(join(FIXTURES, dir))
    .filter((f) => exts.some((ext) => f.endsWith(ext)))
    .map((f) => `${dir}/${f}`);
}

/** A wrapper index over every fixture of a language folder (as the server's workspace index is). */
export async function indexOf(dir: string, settings = DEFAULT_SETTINGS): Promise<WrapperIndex> {
  const a = await analyzer();
  const index = new WrapperIndex();
  for (const name of fixtures(dir, '.c', '.ts', '.js'))
    index.set(join(FIXTURES, name), a.wrappers(join(FIXTURES, name), fixture(name), settings));
  return index;
}

/**
 * The settings a fixture states in a comment (`writev-settings: {"presets": ["openssh"]}`, as a
 * `.writev-lint.json` would hold them), or the defaults.
 */
export function fixtureSettings(name: string): AnalyzerSettings {
  const stated = /\bwritev-settings: (\{.*\})/.exec(fixture(name));
  return stated?.[1] ? parseSettings(JSON.parse(stated[1]), { source: name }) : DEFAULT_SETTINGS;
}

/** Analyses a fixture with the workspace index of its folder, with the settings it states. */
export async function analyzeFixture(
  name: string,
  settings: AnalyzerSettings = fixtureSettings(name),
): Promise<Finding[]> {
  const a = await analyzer();
  const dir = name.split('/')[0]!; // split always yields at least one part
  return a.analyze(join(FIXTURES, name), fixture(name), settings, {
    index: await sharedIndex(dir, settings),
  });
}

/**
 * The index {@link analyzeFixture} reads, built once per folder and settings: the fixtures do not change
 * while the tests run, and building it read every fixture of the folder again for each one analysed.
 * Never handed out: a test that changes an index builds its own with {@link indexOf}.
 */
function sharedIndex(dir: string, settings: AnalyzerSettings): Promise<WrapperIndex> {
  const key = `${dir}\0${JSON.stringify(settings, (_, v: unknown) => (v instanceof Set || v instanceof Map ? [...v] : v))}`;
  let index = sharedIndexes.get(key);
  if (!index) sharedIndexes.set(key, (index = indexOf(dir, settings)));
  return index;
}

const sharedIndexes = new Map<string, Promise<WrapperIndex>>();

/**
 * The findings that start inside the body of the function `fn` defined in `text` (its definition: a
 * line at the margin naming `fn(` whose parameter list is followed by `{`; the body ends at the next `}`
 * at the margin). Fails the test when `text` defines no such function.
 */
export function inFunction(found: readonly Finding[], text: string, fn: string): Finding[] {
  const head = new RegExp(`^\\w[^\\n;]*\\b${fn}\\([^;{]*\\)\\s*\\{`, 'm').exec(text);
  if (!head) throw new Error(`the fixture defines no function ${fn}`);
  const start = head.index;
  const end = text.indexOf('\n}', start);
  return found.filter((f) => f.span.start > start && f.span.start < end);
}

/** An expected finding: `expect: <code> <syscalls>` in a comment on the line where it starts. */
export interface Expectation {
  readonly line: number;
  readonly code: string;
  readonly syscalls: number;
}

/** The expectations written into a fixture. */
export function expectations(text: string): Expectation[] {
  return text.split('\n').flatMap((line, i) => {
    const m = /expect: (adjacent-writes-unknown-fd|adjacent-writes|loop-writes) (\d+)/.exec(line);
    return m ? [{ line: i, code: m[1]!, syscalls: Number(m[2]) }] : [];
  });
}

/** Findings as expectations (line of the start, code, syscalls), for comparing with the markers. */
export function observed(text: string, findings: readonly Finding[]): Expectation[] {
  const lines = new LineIndex(text);
  return findings.map((f) => ({
    line: lines.positionAt(f.span.start).line,
    code: f.code,
    syscalls: f.syscalls,
  }));
}
