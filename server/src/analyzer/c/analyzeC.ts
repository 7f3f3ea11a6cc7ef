// The C front end's entry: parse (incrementally when keyed), find wrappers, read blocks, find shapes,
// build fixes.
import type { Tree } from 'web-tree-sitter';
import { C_PURE_FUNCTIONS, C_WRITE_FUNCTIONS, type CWriteFunction } from '../catalogue';
import { cFix } from '../fixes/cFix';
import type { Finding } from '../model';
import { loopFinding, sequenceFinding } from '../shapes/findings';
import { findLoopWrites } from '../shapes/loops';
import { findRuns } from '../shapes/sequences';
import type { AnalyzerSettings } from '../settings';
import { blankMacros, macroPattern, type CParser } from './parser';
import { readBlocks } from './steps';
import { findWrappers, settingWrapper } from './wrappers';
import type { CContext, CWrapper } from './writes';

export type { CWrapper } from './writes';

/** The write functions in effect: the catalogue plus the user's own. */
function functionsFor(settings: AnalyzerSettings): Map<string, CWriteFunction> {
  const functions = new Map(C_WRITE_FUNCTIONS.map((fn) => [fn.name, fn]));
  for (const fn of settings.writeFunctions) {
    if (fn.language === 'c')
      functions.set(fn.name, {
        name: fn.name,
        fd: fn.fd,
        buf: fn.buf,
        len: fn.len,
        gatheredName: fn.gatheredName,
      });
  }
  return functions;
}

/** Analyses C text with a shared {@link CParser}. One instance per process (or worker) is enough. */
export class CAnalyzer {
  private patterns = new Map<string, RegExp | undefined>();

  constructor(private readonly parser: CParser) {}

  private blanked(text: string, settings: AnalyzerSettings): string {
    const key = settings.attributeMacros.join(',');
    if (!this.patterns.has(key)) this.patterns.set(key, macroPattern(settings.attributeMacros));
    return blankMacros(text, this.patterns.get(key));
  }

  private context(
    text: string,
    settings: AnalyzerSettings,
    wrappers: ReadonlyMap<string, CWrapper>,
  ): CContext {
    return { text, functions: functionsFor(settings), wrappers, pure: C_PURE_FUNCTIONS };
  }

  private withTree<T>(
    text: string,
    settings: AnalyzerSettings,
    key: string | undefined,
    use: (tree: Tree) => T,
  ): T {
    const tree = this.parser.parse(this.blanked(text, settings), key);
    try {
      return use(tree);
    } finally {
      if (key === undefined) tree.delete();
    }
  }

  /** The wrapper functions `text` defines (for the workspace index). */
  wrappers(text: string, settings: AnalyzerSettings): CWrapper[] {
    return this.withTree(text, settings, undefined, (tree) =>
      findWrappers(tree.rootNode, this.context(text, settings, new Map())),
    );
  }

  /**
   * The findings in `text`, and the wrappers it defines. `key` names the document whose tree is kept for an incremental reparse
   * next time; `external` holds wrappers defined elsewhere (workspace, settings), which the file's own
   * definitions override.
   */
  analyze(
    text: string,
    settings: AnalyzerSettings,
    key?: string,
    external: ReadonlyMap<string, CWrapper> = new Map(),
  ): { findings: Finding[]; wrappers: CWrapper[] } {
    return this.withTree(text, settings, key, (tree) => {
      const wrappers = new Map(external);
      for (const w of settings.wrappers) {
        if (w.language === 'c') wrappers.set(w.name, settingWrapper(w, 'writev_in_full'));
      }
      const base = this.context(text, settings, wrappers);
      const own = findWrappers(tree.rootNode, base);
      for (const w of own) wrappers.set(w.name, w);
      const ctx = this.context(text, settings, wrappers);
      const findings: Finding[] = [];
      for (const block of readBlocks(tree.rootNode, ctx)) {
        for (const run of findRuns(block, settings.minSequenceLength)) {
          findings.push(sequenceFinding(run, settings, cFix(run, text)));
        }
        for (const loop of findLoopWrites(block)) findings.push(loopFinding(loop, settings));
      }
      return { findings: findings.sort((a, b) => a.span.start - b.span.start), wrappers: own };
    });
  }

  /** Forgets the tree kept for `key`. */
  forget(key: string): void {
    this.parser.forget(key);
  }
}
