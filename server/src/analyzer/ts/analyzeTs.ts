// The TS/JS front end's entry: parse with the TypeScript compiler API, resolve imports, find wrappers,
// read blocks, find shapes, build fixes.
import { dirname, resolve } from 'node:path';
import * as ts from 'typescript';
import { TS_WRITE_FUNCTIONS, tsWriteFunctions } from '../catalogue';
import { tsFixFor } from '../fixes/tsFix';
import type { Finding } from '../model';
import { loopFinding, sequenceFinding } from '../shapes/findings';
import { findLoopWrites } from '../shapes/loops';
import { Budget, BudgetExceeded } from '../shapes/budget';
import { findRuns } from '../shapes/sequences';
import type { AnalyzerSettings } from '../settings';
import { moduleKey } from '../wrapper';
import { readBindings } from './bindings';
import { readBlocks } from './steps';
import { findWrappers, settingWrapper } from './wrappers';
import type { TsContext, TsWrapper } from './writes';

export type { TsWrapper } from './writes';

/** Looks up an exported wrapper of another workspace file: module path without extension, export name. */
export type TsWrapperLookup = (modulePath: string, exportName: string) => TsWrapper | undefined;

const firstLooks = new Map<string, RegExp>();

/**
 * Text that can hold a write: a catalogue function's name, `.write(`, or a user-declared name. Without
 * one, a file has nothing to find and no wrapper to define. Over-approximates, never under.
 */
function mayWrite(settings: AnalyzerSettings): RegExp {
  const names = [
    ...TS_WRITE_FUNCTIONS.map((fn) => fn.qualified.replace(/^.*\./, '')),
    ...settings.writeFunctions.filter((fn) => fn.language === 'ts').map((fn) => fn.name.replace(/^.*\./, '')),
    ...settings.wrappers.filter((w) => w.language === 'ts').map((w) => w.name),
  ].filter((n) => /^[\w$]+$/.test(n));
  const key = names.join('|');
  let pattern = firstLooks.get(key);
  if (!pattern) {
    pattern = new RegExp(`\\.write\\s*\\(|\\b(?:${names.map((n) => n.replace(/\$/g, '\\$')).join('|')})\\b`);
    firstLooks.set(key, pattern);
  }
  return pattern;
}

function scriptKind(path: string): ts.ScriptKind {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function contextFor(path: string, text: string, settings: AnalyzerSettings): TsContext {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, scriptKind(path));
  return {
    file,
    text,
    bindings: readBindings(file),
    functions: tsWriteFunctions(settings),
    wrappers: new Map(),
  };
}

/** The wrappers a TS/JS file defines (for the workspace index). */
export function tsWrappers(path: string, text: string, settings: AnalyzerSettings): TsWrapper[] {
  return findWrappers(contextFor(path, text, settings));
}

/** The findings in a TS/JS file and the wrappers it defines; `lookup` finds other files' exported wrappers. */
export function analyzeTs(
  path: string,
  text: string,
  settings: AnalyzerSettings,
  lookup?: TsWrapperLookup,
  onLimit: (message: string) => void = () => {},
): { findings: Finding[]; wrappers: TsWrapper[] } {
  // Without a workspace index no name from elsewhere can write: a first look decides if parsing pays.
  if (!lookup && !mayWrite(settings).test(text)) return { findings: [], wrappers: [] };
  const base = contextFor(path, text, settings);
  const wrappers = new Map<string, TsWrapper>();
  for (const w of settings.wrappers) if (w.language === 'ts') wrappers.set(w.name, settingWrapper(w));
  if (lookup) {
    for (const [local, b] of base.bindings.imports) {
      if (!b.name || !b.module.startsWith('.')) continue;
      const found = lookup(moduleKey(resolve(dirname(path), b.module)), b.name);
      if (found) wrappers.set(local, { ...found, name: local });
    }
  }
  const own = findWrappers(base);
  for (const w of own) wrappers.set(w.name, w);
  const ctx: TsContext = { ...base, wrappers };
  const fixCtx = { text, bindings: ctx.bindings, javascript: /\.[mc]?jsx?$/.test(path) };
  const findings: Finding[] = [];
  for (const block of readBlocks(ctx)) {
    let runs;
    try {
      runs = findRuns(block, settings.minSequenceLength, Budget.forBlock(block));
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      const line = text.slice(0, block.steps[0]?.span.start ?? 0).split('\n').length;
      onLimit(`the block at line ${line}: ${error.message}; no findings reported for it`);
      continue;
    }
    for (const run of runs) {
      const { fix, reason } = tsFixFor(run, fixCtx);
      findings.push(sequenceFinding(run, settings, fix, { reason }));
    }
    for (const loop of findLoopWrites(block)) findings.push(loopFinding(loop, settings));
  }
  return { findings: findings.sort((a, b) => a.span.start - b.span.start), wrappers: own };
}
