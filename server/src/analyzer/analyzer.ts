// The analyzer's front door: pick the language from the path, refuse what is not source text, and run
// the language's front end with the workspace's wrappers. No LSP here: the server, the CLI and the
// tests all use this.
import { headerObjects } from './c/headerObjects';
import { constantNames } from './c/constantNames';
import { bracingDefines, expandBracingMacros } from './c/bracingMacros';
import { CAnalyzer } from './c/analyzeC';
import { CParser, loadCLanguage } from './c/parser';
import { languageOf } from './languageOf';
import type { Finding, TextEdit } from './model';
import type { AnalyzerSettings } from './settings';
import { applySuppressions } from './suppressions';
import type * as TsFrontEnd from './ts/analyzeTs';
import type * as TsImports from './ts/imports';
import { applyEdits, fixAllEdits, inFileLineEndings } from './edits';
import type { FileWrappers, WrapperIndex } from './wrapperIndex';
import { messageMembers } from './c/messageDescriptors';
import { fileHandedMessages } from './c/handedMessages';
import { handedWriters, writerTakers } from './c/handedWriters';
import { messageGlobals } from './c/messageGlobals';
import { memberFunctions } from './c/memberWriters';
import { cFunctionFacts, type CFunctionFact } from './c/functionFacts';
import type { CWrapper } from './wrapper';
import { declaredPureFunctions } from './c/declaredPure';
import { codeUses, statusConstants } from './c/statusConstants';
import { functionLikeDefines, isHeader, projectIncludes } from './headerIncludes';
import { deviceMacros } from './c/deviceMacros';
import { sourceIncludes } from './sourceIncludes';

let tsFrontEnd: typeof TsFrontEnd | undefined;
let tsImportsModule: typeof TsImports | undefined;

/** The import tidier, loaded on first use (it needs the TypeScript compiler). */
function tsImports(): typeof TsImports {
  tsImportsModule ??= require('./ts/imports') as typeof TsImports;
  return tsImportsModule;
}

/** The TS/JS front end, loaded on first use: the TypeScript compiler takes a while to load. */
function tsEnd(): typeof TsFrontEnd {
  tsFrontEnd ??= require('./ts/analyzeTs') as typeof TsFrontEnd;
  return tsFrontEnd;
}

/** Files larger than this (UTF-16 code units, about 4 MB of ASCII) are not analysed: generated code. */
export const MAX_TEXT_LENGTH = 4 * 1024 * 1024;

export { languageOf } from './languageOf';

/**
 * Why a text is not analysed (longer than `maxLength` UTF-16 code units, binary), or undefined when it
 * is fine.
 */
export function skipReason(text: string, maxLength = MAX_TEXT_LENGTH): string | undefined {
  if (text.length > maxLength) return `larger than ${maxLength} characters`;
  if (text.slice(0, 65536).includes('\u0000')) return 'binary (contains NUL bytes)';
  return undefined;
}

/** Options for one analysis. */
export interface AnalyzeOptions {
  /** Keeps the C syntax tree under this key for an incremental reparse of the next version. */
  readonly key?: string;
  /** Wrappers defined elsewhere in the workspace. */
  readonly index?: WrapperIndex;
  /** Longer texts are not analysed (default {@link MAX_TEXT_LENGTH}). */
  readonly maxLength?: number;
  /**
   * Only the findings and the C wrappers are wanted of {@link Analyzer.inspect} (a batch run's later
   * pass: the file's other facts for the index were read in the first): the rest of `wrappers` is
   * left empty, and the whole-file scans that find it are not made.
   */
  readonly onlyChained?: boolean;
  /**
   * What {@link Analyzer.textFacts} gave for this very text (a batch run reads every file's facts
   * before analysing it): read again otherwise.
   */
  readonly textFacts?: FileWrappers;
}

/** Where the analyzer says that it gave up on part of a file: one line, naming the file. */
export type AnalyzerLog = (line: string) => void;

/** The default log: standard error, which the CLI prints and an editor shows in the server's output. */
const toStderr: AnalyzerLog = (line) => process.stderr.write(`writev: ${line}\n`);

/** Finds write sequences in C and TS/JS text. Create with {@link Analyzer.create}. */
export class Analyzer {
  private constructor(
    private readonly c: CAnalyzer,
    private readonly log: AnalyzerLog,
  ) {}

  /**
   * Loads the C grammar (once per process) and returns a ready analyzer. `log` receives a line for each
   * function whose analysis ran out of budget (an input shape that would take far too long), which
   * then reports nothing.
   */
  static async create(log: AnalyzerLog = toStderr): Promise<Analyzer> {
    return new Analyzer(new CAnalyzer(new CParser(await loadCLanguage())), log);
  }

  /** Whether settings enable analysis of `path` (its language is known and switched on). */
  enabled(path: string, settings: AnalyzerSettings): boolean {
    const language = languageOf(path);
    return language !== undefined && settings.languages[language];
  }

  /**
   * The findings in `text` (the content of `path`), sorted by position. Empty for disabled languages,
   * unknown file types, and text {@link skipReason} refuses.
   */
  analyze(path: string, text: string, settings: AnalyzerSettings, options: AnalyzeOptions = {}): Finding[] {
    // Only the findings are wanted: the whole-file scans for the index's other facts are not made
    // (each was a pass over the text at every keystroke in the editor).
    return this.inspect(path, text, settings, { ...options, onlyChained: true }).findings;
  }

  /** Like {@link Analyzer.analyze}, and also the wrappers the file defines, from the same parse. */
  inspect(
    path: string,
    text: string,
    settings: AnalyzerSettings,
    options: AnalyzeOptions = {},
  ): { findings: Finding[]; wrappers: FileWrappers } {
    const language = languageOf(path);
    if (!language || !this.enabled(path, settings) || skipReason(text, options.maxLength))
      return { findings: [], wrappers: { c: [], ts: [] } };
    // Suppression comments apply here, so every consumer (CLI, server, fix-all) sees the same findings.
    // A rule set to `off` reports nothing; after the suppressions, so a directive naming it still counts as used.
    const off = settings.off;
    const suppress = (found: Finding[]) => {
      const kept = applySuppressions(text, language, found, settings.reportUnusedDirectives);
      return off && off.length > 0 ? kept.filter((f) => !(off as readonly string[]).includes(f.code)) : kept;
    };
    const onLimit = (message: string) => this.log(`${path}: ${message}`);
    if (language === 'c') {
      const index = options.index;
      // A header's quoted includes are kept for its includers; a file's own are asked only when some
      // header of the workspace defines a wrapper.
      const read = options.textFacts;
      const includes =
        isHeader(path) ||
        index?.cHeaderWrapperNames().size ||
        index?.cHeaderMacroNames().size ||
        index?.cHeaderCodeNames().size ||
        index?.cHeaderDevices().size ||
        index?.cHeaderObjectsKnown() ||
        index?.cHeaderConstantsKnown() ||
        index?.cHeaderBracingKnown()
          ? projectIncludes(text)
          : [];
      // Definitions whose head or end a macro writes are read as the compiler reads them: the file's
      // uses of such macros expanded, and the findings mapped back (see bracingMacros.ts). The text as
      // written is what the fact base reads, in every pass alike.
      const braced = expandBracingMacros(text, index?.cIncludedBracing(path, includes) ?? []);
      const {
        findings,
        wrappers,
        functions,
        loud,
        helperLoud,
        inferred,
        returned,
        noWriteCall,
        noKindAsked,
      } = this.c.analyze(
        braced?.text ?? text,
        settings,
        options.key,
        index?.cWrappersFor(path, includes),
        onLimit,
        options.index?.cQuietFor(path),
        options.index?.cDefinedFor(path),
        options.index?.cPureFor(path),
        options.index?.cMessageMembersFor(path),
        options.index?.cOverriddenFor(path),
        index?.cIncludedDefines(path, includes),
        index?.cIncludedCodes(path, includes),
        index?.cReturnedFor(path),
        index?.cImplementationsFor(path),
        index?.cReadersFor(path),
        index?.cStaticFor(path),
        braced ? undefined : read?.functions?.slice(),
        index?.cReplacedFor(path),
        index?.cWaitersFor(path),
        index?.cIncludedDevices(path, includes),
        index?.cAssignsFor(path),
        options.index?.cOpaqueFor(path),
        index?.cMemberParamsFor(path),
        index?.cIncludedObjects(path, includes),
        index?.cIncludedConstants(path, includes),
        index?.cMessageHandedFor(path),
        index?.cTreeBoundFor(path),
        index?.cLeavingFor(path),
      );
      const mapped = braced ? findings.map((f) => braced.mapFinding(f)) : findings;
      if (options.onlyChained)
        return { findings: inFileLineEndings(suppress(mapped), text), wrappers: { c: wrappers, ts: [] } };
      const members = [...messageMembers(text), ...messageGlobals(text)];
      const written = braced ? (read?.functions ?? cFunctionFacts(text)) : functions;
      return {
        findings: inFileLineEndings(suppress(mapped), text),
        wrappers: {
          c: wrappers,
          ts: [],
          functions: written,
          loud,
          helperLoud,
          ...(inferred.length > 0 && { inferred }),
          ...(noWriteCall && { noWriteCall }),
          ...(noKindAsked && { noKindAsked }),
          ...(members.length > 0 && { messageMembers: members }),
          ...handedFacts(text, written),
          ...writerFacts(text, written, index?.cWriterTakersFor(path)),
          ...storedFunctions(text, written, wrappers, read),
          ...returnedFacts(returned),
          ...(read ? read.declaredPure && { declaredPure: read.declaredPure } : declaredPure(path, text)),
          ...(isHeader(path) && includes.length > 0 && { includes }),
          ...(read ? read.sources && { sources: read.sources } : includedFiles(path, text)),
          ...(read ? textOnly(read) : { ...headerDefines(path, text), ...namedCodes(path, text) }),
        },
      };
    }
    const index = options.index;
    const lookup = index ? (m: string, name: string) => index.tsWrapper(m, name) : undefined;
    const { findings, wrappers } = tsEnd().analyzeTs(path, text, settings, lookup, onLimit);
    return { findings: inFileLineEndings(suppress(findings), text), wrappers: { c: [], ts: wrappers } };
  }

  /**
   * What `text` tells the fact base without a parse (see CLI's factBase.ts): its functions' facts, and
   * a header's includes, macro definitions and named codes. The same fields {@link Analyzer.inspect}
   * gives them, so a tree's facts can be worked out before the files are analysed with them; but for a
   * file's uses of codes (FileWrappers.codeUses), which only a fact base worked out after the analysis
   * asks, and a first pass told the facts is read with the headers' codes already.
   */
  textFacts(path: string, text: string, settings: AnalyzerSettings, maxLength?: number): FileWrappers {
    if (languageOf(path) !== 'c' || !this.enabled(path, settings) || skipReason(text, maxLength))
      return { c: [], ts: [] };
    const includes = isHeader(path) ? projectIncludes(text) : [];
    const functions = cFunctionFacts(text);
    return {
      c: [],
      ts: [],
      functions,
      // What it stores in members, for the getters through them (see pureMembers.ts); which of those
      // functions write is the analysis's to say.
      ...storedFunctions(text, functions, []),
      ...declaredPure(path, text),
      ...writerFacts(text, functions),
      ...(includes.length > 0 && { includes }),
      ...includedFiles(path, text),
      ...headerDefines(path, text),
      ...(isHeader(path) && namedCodes(path, text)),
    };
  }

  /** The wrappers `text` defines, for the workspace index (empty when the file is not analysed). */
  wrappers(path: string, text: string, settings: AnalyzerSettings): FileWrappers {
    if (!this.enabled(path, settings) || skipReason(text)) return { c: [], ts: [] };
    if (languageOf(path) === 'c') {
      const { wrappers, functions, returned } = this.c.analyze(text, settings);
      const members = [...messageMembers(text), ...messageGlobals(text)];
      const includes = isHeader(path) ? projectIncludes(text) : [];
      return {
        c: wrappers,
        ts: [],
        functions,
        ...(members.length > 0 && { messageMembers: members }),
        ...handedFacts(text, functions),
        ...writerFacts(text, functions),
        ...storedFunctions(text, functions, wrappers),
        ...returnedFacts(returned),
        ...declaredPure(path, text),
        ...(includes.length > 0 && { includes }),
        ...includedFiles(path, text),
        ...headerDefines(path, text),
        ...namedCodes(path, text),
      };
    }
    return { c: [], ts: tsEnd().tsWrappers(path, text, settings) };
  }

  /**
   * `text` with the fixes in `findings` applied that do not overlap (those of {@link fixAllEdits}):
   * the safe ones, and with `unsafe` the unsafe ones too (see FixSafety); in TS/JS, the imports the
   * fixes left unused are removed. Undefined when there is nothing to fix.
   */
  fixAll(path: string, text: string, findings: readonly Finding[], unsafe = false): string | undefined {
    const edits = fixAllEdits(findings, unsafe);
    if (edits.length === 0) return undefined;
    const fixed = applyEdits(text, edits);
    return languageOf(path) === 'c' ? fixed : tsImports().pruneImports(path, text, fixed);
  }

  /**
   * The edits of one finding's fix, and in TS/JS also the removal of imports it leaves unused.
   * Undefined when the finding has no fix.
   */
  fixEdits(path: string, text: string, finding: Finding): readonly TextEdit[] | undefined {
    const edits = finding.fix?.edits;
    if (!edits || languageOf(path) === 'c') return edits;
    const main = [...edits].sort((a, b) => b.span.start - a.span.start)[0];
    if (main === undefined) return edits; // a fix without edits leaves every import in use
    const fixed = applyEdits(text, edits);
    const pruned = tsImports().pruneImports(path, text, fixed);
    if (pruned === fixed) return edits;
    // Everything before the sequence (the imports) becomes one edit; the sequence keeps its own.
    const before = text.slice(0, main.span.start);
    const after = pruned.slice(0, pruned.length - (main.newText.length + text.length - main.span.end));
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) start++;
    let tail = 0;
    while (
      tail < before.length - start &&
      tail < after.length - start &&
      before[before.length - 1 - tail] === after[after.length - 1 - tail]
    ) {
      tail++;
    }
    const head = {
      span: { start, end: before.length - tail },
      newText: after.slice(start, after.length - tail),
    };
    return [head, main];
  }

  /** Drops what is kept for `key` (a closed document). */
  forget(key: string): void {
    this.c.forget(key);
  }
}

/** The fields of {@link Analyzer.textFacts} after a header's includes, as {@link Analyzer.inspect} gives them. */
function textOnly(
  read: FileWrappers,
): Pick<
  FileWrappers,
  'defines' | 'deviceDefines' | 'objects' | 'constants' | 'bracing' | 'codes' | 'codeUses'
> {
  return {
    ...(read.defines && { defines: read.defines }),
    ...(read.objects && { objects: read.objects }),
    ...(read.constants && { constants: read.constants }),
    ...(read.bracing && { bracing: read.bracing }),
    ...(read.deviceDefines && { deviceDefines: read.deviceDefines }),
    ...(read.codes && { codes: read.codes }),
    ...(read.codeUses && { codeUses: read.codeUses }),
  };
}

/**
 * A header's named status codes, for its includers (see FileWrappers.codes); a file's uses of names it
 * does not define as codes, which another file's codes may give a value (see FileWrappers.codeUses).
 */
function namedCodes(path: string, text: string): { codes?: [string, number][]; codeUses?: string[] } {
  if (isHeader(path)) {
    const codes = [...statusConstants(text)];
    return codes.length > 0 ? { codes } : {};
  }
  const uses = codeUses(text);
  return uses.length > 0 ? { codeUses: uses } : {};
}

/**
 * The names a C file stores in struct members, for the index (see FileWrappers.memberFunctions);
 * `told`: the facts a first pass read of the same text, whose stored names are not searched for again.
 */
function storedFunctions(
  text: string,
  functions: readonly CFunctionFact[],
  wrappers: readonly CWrapper[],
  told?: FileWrappers,
): Pick<FileWrappers, 'memberFunctions'> {
  // A first pass that read the text's functions searched it for stored names (textFacts).
  const stored = memberFunctions(
    text,
    functions,
    new Set(wrappers.map((w) => w.name)),
    told?.functions ? (told.memberFunctions ?? []) : undefined,
  );
  return stored.length > 0 ? { memberFunctions: stored } : {};
}

/** A C source file's includes of other C source files, for the fact base (see FileWrappers.sources). */
function includedFiles(path: string, text: string): { sources?: string[] } {
  if (isHeader(path)) return {};
  const sources = sourceIncludes(text);
  return sources.length > 0 ? { sources } : {};
}

/**
 * A header's function-like macro definitions, the object-like ones naming a device's path, its
 * declarations of global objects, its constants and its macros that open or close a brace, for its
 * includers (see FileWrappers.defines, deviceDefines, objects, constants, bracing).
 */
function headerDefines(
  path: string,
  text: string,
): {
  defines?: string[];
  deviceDefines?: string[];
  objects?: string[];
  constants?: string[];
  bracing?: string[];
} {
  if (!isHeader(path)) return {};
  const defines = functionLikeDefines(text);
  const devices = deviceMacros(text);
  const objects = headerObjects(text);
  const constants = [...constantNames(text)];
  const bracing = bracingDefines(text);
  return {
    ...(defines.length > 0 && { defines }),
    ...(devices.length > 0 && { deviceDefines: devices }),
    ...(objects.length > 0 && { objects }),
    ...(constants.length > 0 && { constants }),
    ...(bracing.length > 0 && { bracing }),
  };
}

/** The index's fields for the exported functions a C file shows to return a descriptor of a known kind. */
function returnedFacts(
  returned: { stream: string[]; message: string[] } | undefined,
): Pick<FileWrappers, 'returnsStream' | 'returnsMessage'> {
  return {
    ...(returned?.stream.length && { returnsStream: returned.stream }),
    ...(returned?.message.length && { returnsMessage: returned.message }),
  };
}

/**
 * The functions `text` declares `const` or `pure` that other files can call (see declaredPure.ts), as a
 * FileWrappers field: a header's all (its `static inline` ones are every includer's), a source file's
 * not `static`.
 */
function declaredPure(path: string, text: string): { declaredPure?: string[] } {
  const names = declaredPureFunctions(text, !isHeader(path));
  return names.length > 0 ? { declaredPure: names } : {};
}

/** The calls of `text` handing another file's function a message socket, for the fact base. */
function handedFacts(text: string, functions: readonly CFunctionFact[]): Pick<FileWrappers, 'messageHanded'> {
  const handed = fileHandedMessages(text, functions);
  return handed.length > 0 ? { messageHanded: handed } : {};
}

/**
 * The file's takers of a writer (see handedWriters.ts), and what its mentions of those and of
 * `takers` (the tree's, as far as known) hand them, for the fact base.
 */
function writerFacts(
  text: string,
  functions: readonly CFunctionFact[],
  takers?: ReadonlyMap<string, ReadonlySet<number>>,
): Pick<FileWrappers, 'writerTakers' | 'writersHanded'> {
  const own = writerTakers(text, functions);
  const known = own.length > 0 ? withTakers(takers, own) : takers;
  const handed = known && known.size > 0 ? handedWriters(text, known) : [];
  return {
    ...(own.length > 0 && { writerTakers: own }),
    ...(handed.length > 0 && { writersHanded: handed }),
  };
}

/** `takers` with a file's `own`. */
function withTakers(
  takers: ReadonlyMap<string, ReadonlySet<number>> | undefined,
  own: readonly (readonly [string, number])[],
): ReadonlyMap<string, ReadonlySet<number>> {
  const byName = new Map([...(takers ?? [])].map(([name, set]) => [name, new Set(set)]));
  for (const [name, index] of own) byName.set(name, (byName.get(name) ?? new Set<number>()).add(index));
  return byName;
}
