// The C front end's entry: parse (incrementally when keyed), find wrappers, read blocks, find shapes,
// build fixes.
import { memberParameterLookup, type MemberParameterMap } from './memberParameters';
import { writingOrChecking } from './checkMacros';
import { declaredPureFunctions } from './declaredPure';
import {
  C_STREAM_FUNCTIONS,
  C_TREE_OVERRIDABLE,
  cPureFunctions,
  cQuietFunction,
  cWriteFunctions,
  cWriteFunctionsFor,
  knownEffects,
  settingWrappers,
  type CWriteFunction,
} from '../catalogue';
import { respelledNames } from './conditionalDefines';
import { staticReturningWith } from './staticReturns';
import { staticSenders, withSenders } from './staticSenders';
import { handedOnWrappers } from './messageHelpers';
import { markedFileStatics } from './fileStatics';
import { messageRedirects } from './messageRedirects';
import type { Node } from 'web-tree-sitter';
import { cFix, includeEdit } from '../fixes/cFix';
import type { Block, Finding, Fix, TextEdit } from '../model';
import { loopFinding, sequenceFinding } from '../shapes/findings';
import { findLoopWrites } from '../shapes/loops';
import { Budget, BudgetExceeded } from '../shapes/budget';
import { withoutNested } from '../shapes/nestedFindings';
import { findRuns } from '../shapes/sequences';
import { maySendOneIovec } from './iovecHelpers';
import type { AnalyzerSettings } from '../settings';
import { blankMacros, macroPattern, type CParser } from './parser';
import { BlankedTexts } from './blankedTexts';
import { joinAdjacentMacros } from './adjacentMacros';
import { constantNames } from './constantNames';
import { FunctionMemo, shiftFinding, type MemoUse } from './memo';
import { definedMacros, fileMacros, type CMacro } from './macros';
import { expandFunction, MacroExpander } from './macroExpansions';
import { interestingParts, type FileSyntax } from './partSyntax';
import { streamGlobals, streamParameters, type FileStreams } from './origins';
import { localShadows } from './localShadows';
import { deviceMacros, NO_DEVICES } from './deviceMacros';
import { closedAssignments, sortedNames } from './assignedGlobals';
import { addrinfoStreams } from './socketTypes';
import {
  isOpener,
  mayReturnDescriptor,
  NO_RETURNED,
  othersReturned,
  returnedKinds,
  type ReturnedKinds,
} from './returnedKinds';
import { gateMacro, macroStatementKinds } from './macroStatements';
import { definedName, functionLikeDefines } from '../headerIncludes';
import { helperMacros } from './helperMacros';
import { canonicalJson } from '../canonicalJson';
import { plainWritePattern, readFunction } from './steps';
import { readingObserver } from './readings';
import { bodiesOf, fileWrappers, WrapperMemo, type FunctionBody } from './wrapperChains';
import { boundContext, boundWriters, type BoundWriter } from './boundWriters';
import { messageParameters } from './messageParameters';
import { NO_TREE_BOUND, type TreeBound } from './handedWriters';
import { fileHandedMessages, NO_HANDED, withHanded, type HandedMessages } from './handedMessages';
import { waitingFunctions } from './waitingFunctions';
import { writableWaitIndex } from './waitingHelpers';
import { readingFunctions } from './awaitedReplies';
import { functionName } from './syntax';
import { openerName } from './typedSockets';
import { memberStreams } from './memberOrigins';
import {
  messageDescriptors,
  withGlobals,
  withMembers,
  withReturning,
  type MessageDescriptors,
} from './messageDescriptors';
import { globalsElsewhere, isGlobalFact } from './messageGlobals';
import {
  cFunctionFacts,
  libraryQuiet,
  pureFunctions,
  quietFunctions,
  type CFunctionFact,
} from './functionFacts';
import { settingWrapper } from './wrappers';
import { descriptorMacros, type CContext, type CWrapper } from './writes';
import { callSiteWriters } from './callSiteWriters';
import { KeptFacts } from './keptFacts';
import { TextChanges } from './textChanges';
import { mayHoldWrites } from './fewWrites';
import { streamPairArrays } from './pairArrays';
import { statusConstants } from './statusConstants';
import { memberCallee, type Implementations } from './memberWriters';

export type { CWrapper } from './writes';

const NO_NAMES: ReadonlySet<string> = new Set();

/** No function changes anything beyond its arguments (see assignedGlobals.ts). */
const NO_ASSIGNS: ReadonlyMap<string, ReadonlySet<string>> = new Map();
const NO_MEMBER_PARAMS: MemberParameterMap = new Map();

/** No named status codes. */
const NO_CODES: ReadonlyMap<string, number> = new Map();

const NO_IMPLEMENTATIONS: Implementations = new Map();

/** The members of `implementations` that hold write helpers only, as `->m`. */
function implementedMembers(implementations: Implementations): string[] {
  const names: string[] = [];
  for (const [member, writers] of implementations) if (writers?.length) names.push(memberCallee(member));
  return names;
}

/** A call through one of `members` (`->m`), or undefined for none. */
function memberCallPattern(members: readonly string[]): RegExp | undefined {
  if (members.length === 0) return undefined;
  const words = members.map((m) => m.replace(/^->/, ''));
  return new RegExp(`(?:->|\\.)\\s*(?:${words.join('|')})\\s*\\(`);
}

/**
 * The catalogue's write functions that the code defines itself: in the file (`functions`), or, for a
 * helper name (see C_TREE_OVERRIDABLE), as another file's wrapper (`external`) or an exported
 * definition elsewhere in the tree (`elsewhere`). Not a function that takes an iovec (the project's own
 * is the twin a fix calls), nor a name whose gathered twin the code defines too: a project with its own
 * `xwrite()` and `xwritev()` has the catalogue's pair, and the catalogue's fix names one that exists.
 * Most files get the shared empty set.
 */
function redefinedWriters(
  settings: AnalyzerSettings,
  functions: readonly CFunctionFact[],
  external: ReadonlyMap<string, CWrapper>,
  elsewhere: ReadonlySet<string>,
): ReadonlySet<string> {
  // A macro of another platform's spelling (`#ifdef _WIN32 #define write(...)`) leaves the C library's
  // name to every build where its condition is false (see conditionalDefines.ts); two such definitions
  // (`#ifdef A ... #else ...`) may leave it to none.
  const mine = (name: string) => {
    const defs = functions.filter((f) => f.name === name);
    return defs.length > 1 || defs.some((f) => !f.conditional);
  };
  const tree = (name: string) => C_TREE_OVERRIDABLE.has(name) && (external.has(name) || elsewhere.has(name));
  let found: Set<string> | undefined;
  for (const [name, fn] of cWriteFunctions(settings)) {
    if (fn.gathered || !(mine(name) || tree(name))) continue;
    const twin = fn.gatheredName;
    if (twin && twin !== name && (mine(twin) || tree(twin))) continue;
    (found ??= new Set()).add(name);
  }
  return found ?? NO_NAMES;
}

/**
 * `functions` with the names `text` redefines for another platform under a condition marked (see
 * conditionalDefines.ts); `functions` itself when there is none. Does not modify `functions`.
 */
function respelledWriters(
  text: string,
  functions: Map<string, CWriteFunction>,
): ReadonlyMap<string, CWriteFunction> {
  if (!text.includes('#')) return functions;
  const respelled = respelledNames(text, new Set(functions.keys()));
  if (respelled.size === 0) return functions;
  const marked = new Map(functions);
  for (const name of respelled) marked.set(name, { ...functions.get(name)!, respelled: true });
  return marked;
}

/** Entries of each pattern cache before it starts again. */
const PATTERN_CACHE_SIZE = 256;

/** Analyses C text with a shared {@link CParser}. One instance per process (or worker) is enough. */
/**
 * The read-only parameters of the file's own functions, by name. A name defined twice (under #if
 * alternatives) keeps only what both definitions promise.
 */
function readOnlyLookup(
  facts: readonly CFunctionFact[],
): (callee: string) => ReadonlySet<number> | undefined {
  const byName = new Map<string, Set<number>>();
  for (const f of facts) {
    const mine = new Set(f.readOnly ?? []);
    const before = byName.get(f.name);
    byName.set(f.name, before ? new Set([...before].filter((k) => mine.has(k))) : mine);
  }
  return (callee) => byName.get(callee);
}

export class CAnalyzer {
  private patterns = new Map<string, RegExp | undefined>();
  private writers = new Map<string, RegExp>();
  private readonly wrapperMemo = new WrapperMemo();
  private readonly findingMemo = new FunctionMemo<{
    findings: Finding[];
    loud: string[];
    assumed: string[];
  }>();
  private readonly keptFacts = new KeptFacts();
  /** A batch run's blanked texts, for a later pass over the same text (see blankedTexts.ts). */
  private readonly blankedTexts = new BlankedTexts();
  /** The kept documents' texts as last analysed: the memos find unchanged functions by position. */
  private readonly textChanges = new TextChanges();
  /**
   * The findings last placed from each findings-memo value, by the value, and where: a function the
   * edit left in place gets the very objects of the analysis before (which the language server's
   * diagnostics are kept by), not a copy of each made again at every keystroke.
   */
  private readonly placed = new WeakMap<object, { start: number; findings: readonly Finding[] }>();
  /** Each placed finding with a fix as last given the include its fix needs (see withInclude). */
  private readonly included = new WeakMap<Finding, { include: TextEdit; finding: Finding }>();

  constructor(private readonly parser: CParser) {}

  private blanked(text: string, settings: AnalyzerSettings): string {
    const key = settings.attributeMacros.join(',');
    if (!this.patterns.has(key)) {
      if (this.patterns.size >= PATTERN_CACHE_SIZE) this.patterns.clear();
      this.patterns.set(key, macroPattern(settings.attributeMacros));
    }
    // A lone `\r` ends a line for C compilers, but not for the grammar: a `//` comment would run on
    // to the next `\n`, and a file of old Mac line endings has none. The same length keeps offsets.
    const lines = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
    return joinAdjacentMacros(blankMacros(lines, this.patterns.get(key)));
  }

  private context(
    text: string,
    settings: AnalyzerSettings,
    wrappers: ReadonlyMap<string, CWrapper>,
    macros?: ReadonlyMap<string, CMacro>,
    facts?: (name: string) => boolean,
    redefined: ReadonlySet<string> = NO_NAMES,
    included?: string,
    codes: ReadonlyMap<string, number> = NO_CODES,
    implementations: Implementations = NO_IMPLEMENTATIONS,
    leaving: ReadonlySet<string> = NO_NAMES,
  ): CContext {
    const named = cQuietFunction(settings);
    return {
      text,
      ...(included !== undefined && { included }),
      ...(leaving.size > 0 && { leaving }),
      ...(codes.size > 0 && { codes }),
      ...(implementations.size > 0 && { implementations }),
      functions: respelledWriters(text, cWriteFunctionsFor(settings, redefined)),
      wrappers,
      pure: cPureFunctions(settings),
      // The catalogue and the presets name some; the fact base reads the project's own bodies.
      quiet: facts ? (name) => named(name) || facts(name) : named,
      macros,
      assumeStreams: settings.unknownDescriptors === 'report',
      descriptorMacros: descriptorMacros(text),
    };
  }

  /**
   * What the file says about where descriptors come from (only read when it has plain writes).
   * `openers`: the functions whose result is a byte stream (see streamOpeners); `returned`: what the
   * file's own functions return (see returnedKinds.ts); `others`: what other files' exported functions
   * do, less the names the file defines.
   */
  private fileStreams(
    text: string,
    bodies: readonly { fn: Node; text: string }[],
    plainWrites: RegExp,
    openers: ReadonlySet<string>,
    returned: ReturnedKinds,
    others: ReturnedKinds,
    devices: ReadonlySet<string>,
    handedHere: HandedMessages = NO_HANDED,
  ): FileStreams {
    const functions = new Set([...openers, ...returned.stream]);
    if (!plainWrites.test(text)) return { functions, globals: new Set() };
    const hints = addrinfoStreams(text);
    const file = {
      functions,
      // A local or parameter of a global's name assigns no global (see localShadows.ts).
      globals: streamGlobals(text, functions, devices, localShadows(bodies.map((b) => b.fn))),
      hints,
      ...(devices.size > 0 && { devices }),
    };
    const messages = withReturning(
      messageDescriptors(text, devices),
      text,
      new Set([...returned.message, ...others.message]),
      devices,
    );
    const redirected = messageRedirects(text, messages);
    const handed = messageParameters(bodies, messages, text, plainWrites, handedHere);
    return {
      ...file,
      parameters: streamParameters(bodies, file, text, plainWrites),
      messages,
      ...(handed.size > 0 && { messageParameters: handed }),
      members: memberStreams(text, functions, devices),
      pairArrays: streamPairArrays(text),
      ...(redirected.size > 0 && { redirected }),
    };
  }

  /**
   * The file's functions among `bodies` that return a descriptor of a known kind, when `text` calls an
   * opener at all (`openers`: see streamOpeners and returnedKinds.ts).
   */
  private returned(
    text: string,
    bodies: readonly { fn: Node; text: string }[],
    openers: ReadonlySet<string>,
    devices: ReadonlySet<string>,
  ): ReturnedKinds {
    return mayReturnDescriptor(text, openers)
      ? returnedKinds(bodies, openers, addrinfoStreams(text), text, devices)
      : NO_RETURNED;
  }

  /** The syntax of the whole `text`, incrementally reparsed when `key` is given. */
  private withTree<T>(
    text: string,
    settings: AnalyzerSettings,
    key: string,
    use: (syntax: FileSyntax) => T,
  ): T {
    const blanked = this.blanked(text, settings);
    const tree = this.parser.parse(blanked, key);
    let parsed: ReturnType<CParser['functions']> | undefined;
    try {
      // Function definitions only when needed: with errors, finding them parses again.
      return use({
        functions: () => (parsed ??= this.parser.functions(tree, blanked)).functions,
        macros: () => fileMacros(tree.rootNode, cWriteFunctions(settings)),
      });
    } finally {
      parsed?.release();
    }
  }

  /**
   * The syntax of the parts of `text` that can hold something to find (a batch run): see
   * {@link interestingParts}, those calling one of `wanted` (default: `known`). The findings and wrappers are those of the whole file's parse.
   */
  private withParts<T>(
    text: string,
    settings: AnalyzerSettings,
    known: ReadonlyMap<string, CWrapper>,
    use: (syntax: FileSyntax) => T,
    wanted: ReadonlyMap<string, CWrapper>,
    filePure: ReadonlySet<string>,
    redefined: ReadonlySet<string> = NO_NAMES,
    headerWriters?: ReadonlySet<string>,
    quiet?: (name: string) => boolean,
    codes: ReadonlyMap<string, number> = NO_CODES,
    included?: string,
    headerMacros?: ReadonlyMap<string, CMacro>,
    openers: ReadonlySet<string> = C_STREAM_FUNCTIONS,
    implementations: Implementations = NO_IMPLEMENTATIONS,
    readsReply?: (name: string) => boolean,
    unread?: (name: string) => boolean,
    overHelpers: readonly CWrapper[] = [],
    throughParameter = false,
  ): T {
    const blanked = this.blankedTexts.get(text, settings.attributeMacros.join(','), () =>
      this.blanked(text, settings),
    );
    const parsed = interestingParts(text, blanked, this.parser, {
      settings,
      settingWrappers: wanted,
      openers,
      throughParameter,
      ...(implementations.size > 0 && { members: implementedMembers(implementations) }),
      ...(headerWriters && headerWriters.size > 0 && { headerWriters }),
      wrappersOf: (bodies, macros) =>
        this.ownWrappers(
          text,
          settings,
          bodies,
          macros,
          known,
          filePure,
          quiet,
          redefined,
          codes,
          included,
          headerMacros,
          implementations,
          readsReply,
          unread,
          overHelpers,
        ).own,
    });
    try {
      return use({ functions: () => parsed.functions, macros: () => parsed.macros });
    } finally {
      parsed.release();
    }
  }

  /**
   * The helpers the file calls as writers (see callSiteWriters), unless they are defined in the file,
   * in `elsewhere` (the tree's other files), by `external`, the settings or the library.
   */
  private callSiteWriters(
    text: string,
    settings: AnalyzerSettings,
    external: ReadonlyMap<string, CWrapper>,
    functions: readonly CFunctionFact[],
    elsewhere: ReadonlySet<string>,
  ): CWrapper[] {
    const own = new Set(functions.map((f) => f.name));
    const writeFunctions = cWriteFunctions(settings);
    const configured = new Set(settingWrappers(settings).map((w) => w.name));
    return callSiteWriters(
      text,
      (name) =>
        own.has(name) ||
        elsewhere.has(name) ||
        external.has(name) ||
        writeFunctions.has(name) ||
        configured.has(name) ||
        libraryQuiet(name),
      () => descriptorMacros(text),
    );
  }

  /** `external` with the settings' C wrappers over it. */
  private settingWrappers(
    settings: AnalyzerSettings,
    external: ReadonlyMap<string, CWrapper>,
  ): Map<string, CWrapper> {
    const wrappers = new Map(external);
    for (const w of settingWrappers(settings)) {
      if (w.language === 'c') wrappers.set(w.name, settingWrapper(w, 'writev_in_full'));
    }
    return wrappers;
  }

  /** The wrappers `bodies` define, over the `known` ones (from {@link settingWrappers}). */
  private ownWrappers(
    text: string,
    settings: AnalyzerSettings,
    bodies: readonly FunctionBody[],
    macros: ReadonlyMap<string, CMacro>,
    known: ReadonlyMap<string, CWrapper>,
    filePure: ReadonlySet<string>,
    quiet?: (name: string) => boolean,
    redefined: ReadonlySet<string> = NO_NAMES,
    codes: ReadonlyMap<string, number> = NO_CODES,
    included?: string,
    headerMacros?: ReadonlyMap<string, CMacro>,
    implementations: Implementations = NO_IMPLEMENTATIONS,
    readsReply?: (name: string) => boolean,
    unread?: (name: string) => boolean,
    overHelpers: readonly CWrapper[] = [],
  ): { own: CWrapper[]; writers: RegExp; loud: string[] } {
    // The included headers' one-write macros are read as the file's own where it defines no such name.
    if (headerMacros && headerMacros.size > 0) macros = new Map([...headerMacros, ...macros]);
    const writers = this.writerPattern(settings, known, macros);
    // Macros over a known helper are that helper in a helper's body (see helperMacros.ts); a write's
    // own statement reads their uses as their expansions, so the pattern returned leaves them out.
    if (overHelpers.length > 0) known = new Map([...overHelpers.map((w) => [w.name, w] as const), ...known]);
    const reading = overHelpers.length > 0 ? this.writerPattern(settings, known, macros) : writers;
    // The headers' macros tell what a call in a helper's body expands to (see silentCalls.ts); the
    // file's own write macros are the writes they expand to (`sock_send(fd, p, n)` in a write loop).
    const context = this.context(
      text,
      settings,
      known,
      macros,
      undefined,
      redefined,
      included,
      codes,
      implementations,
    );
    // A helper's body may convert with the file's own pure functions (`hton64(v)` defined above it).
    const pured = filePure.size > 0 ? { ...context, pure: new Set([...context.pure, ...filePure]) } : context;
    const replies = readsReply ? { ...pured, readsReply } : pured;
    // A name no file defines and no table knows, as a later write's arguments may call one (see
    // CContext.unread): what a helper formats may come from one (see formattedArms.ts).
    const base = unread ? { ...replies, unread } : replies;
    // The presets change which calls are pure or quiet, which decides what a helper's body is.
    const memoKey = [
      ...base.functions.keys(),
      '|',
      ...known.keys(),
      '|',
      ...settings.presets,
      '|',
      ...[...filePure].sort(),
      '|',
      // A helper returning a named code is read with the names' values.
      ...[...codes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, v]) => `${n}=${v}`),
      '|',
      ...[...macros.values()].map(
        (m) =>
          `${m.name}(${m.params.join(' ')})=${m.callee}(${m.args.join(' ')})${m.checked ? '?' : ''}${m.body ? '+' : ''}`,
      ),
      '|',
      ...overHelpers.map((w) => canonicalJson(w)),
    ].join(',');
    const { own, loud } = fileWrappers(bodies, base, reading, this.wrapperMemo, memoKey, quiet);
    return { own, writers, loud };
  }

  /** The wrapper functions `text` defines (for the workspace index). */
  wrappers(text: string, settings: AnalyzerSettings): CWrapper[] {
    return this.analyze(text, settings).wrappers;
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
    onLimit: (message: string) => void = () => {},
    quietElsewhere: ReadonlySet<string> = new Set(),
    definedElsewhere: ReadonlySet<string> = new Set(),
    pureElsewhere: ReadonlySet<string> = new Set(),
    membersElsewhere: ReadonlySet<string> = new Set(),
    overriddenElsewhere: ReadonlySet<string> = new Set(),
    includedDefines: readonly string[] = [],
    includedCodes: readonly (readonly [string, number])[] = [],
    returnedElsewhere: ReturnedKinds = NO_RETURNED,
    implementations: Implementations = NO_IMPLEMENTATIONS,
    readersElsewhere: ReadonlySet<string> = NO_NAMES,
    staticElsewhere: ReadonlySet<string> = NO_NAMES,
    read?: CFunctionFact[],
    replaced: ReadonlySet<string> = NO_NAMES,
    waitersElsewhere: ReadonlySet<string> = NO_NAMES,
    includedDevices: readonly string[] = [],
    assignsElsewhere: ReadonlyMap<string, ReadonlySet<string>> = NO_ASSIGNS,
    opaqueElsewhere: ReadonlySet<string> = NO_NAMES,
    memberParamsElsewhere: MemberParameterMap = NO_MEMBER_PARAMS,
    includedObjects: readonly string[] = [],
    includedConstants: readonly string[] = [],
    handedElsewhere: HandedMessages = NO_HANDED,
    boundElsewhere: TreeBound = NO_TREE_BOUND,
    leavingElsewhere: ReadonlySet<string> = NO_NAMES,
  ): {
    findings: Finding[];
    wrappers: CWrapper[];
    functions: CFunctionFact[];
    loud: string[];
    /** The calls the readings of the file's helpers were not told are quiet (see FileWrappers.helperLoud). */
    helperLoud: string[];
    inferred: string[];
    /** The file's exported functions that return a descriptor of a known kind (see returnedKinds.ts). */
    returned?: { stream: string[]; message: string[] };
    /** The first look found no call that may write (see FileWrappers.noWriteCall). */
    noWriteCall?: true;
    /** No write's descriptor was asked its kind without being shown a stream (see FileWrappers.noKindAsked). */
    noKindAsked?: true;
  } {
    // What the file's functions call, for the fact base: every file, whatever it writes. A kept
    // document's definitions are read again only where it changed; a batch run reads each once.
    // `read`: the facts of this text, read already (a batch run reads them before the analysis).
    const allFunctions = key === undefined ? (read ?? cFunctionFacts(text)) : this.keptFacts.facts(key, text);
    // A weak definition another file replaces is not what a call here reaches (see weakDefinitions.ts):
    // the file is read as if it did not define it, and that file's body decides. The fact base still
    // gets every definition, the weak one marked.
    const functions =
      replaced.size > 0 ? allFunctions.filter((f) => !(f.weak && replaced.has(f.name))) : allFunctions;
    // A helper writing through a function it is given names no write function (see wrapperChains.ts).
    const throughParameter = allFunctions.some((f) => f.callsParameterWithThree);
    const own = new Set(functions.map((f) => f.name));
    const others = othersReturned(returnedElsewhere, own);
    // The macros naming a device's path, the file's own and its headers' (see deviceMacros.ts).
    const ownDevices = deviceMacros(text);

    const devices =
      ownDevices.length + includedDevices.length > 0
        ? new Set([...ownDevices, ...includedDevices])
        : NO_DEVICES;
    // A file whose exported functions open descriptors is read for what they return, whatever it writes.
    const openers = streamOpeners(settings, others);
    const opens = functions.some((f) => f.exported && f.calls.some((c) => isOpener(c, openers)));
    // The file's own pure functions as the library's make them (not other files': the first pass
    // reads helpers before the tree's facts exist, and both passes must read them alike).
    const filePure = pureFunctions(functions, (n) => cPureFunctions(settings).has(n));
    // Helpers read from their calls alone: kept apart from the wrappers, whose first-look patterns
    // are shared by every file of a tree (these differ from file to file).
    const callSite = this.callSiteWriters(text, settings, external, functions, definedElsewhere);
    // Catalogue names the project defines itself: its bodies decide what their calls do.
    const redefined = redefinedWriters(settings, functions, external, overriddenElsewhere);
    const inferred = callSite.map((w) => w.name);
    // The answer for a file with nothing to report: its facts still go to the fact base.
    const nothingFound = () => ({
      findings: [] as Finding[],
      wrappers: [] as CWrapper[],
      functions: allFunctions,
      loud: [] as string[],
      helperLoud: [] as string[],
      inferred,
    });
    // The names the rules asked about and were told may do output: only a change of one of those
    // answers can change the findings (see FileWrappers.loud).
    const loud = new Set<string>();
    // The names a later write's arguments call that were taken to do no output, no body being read.
    const assumed = new Set<string>();
    // The included headers' macro definitions, as one text (see CContext.included). A name one of
    // whose definitions writes (under `#ifdef DEBUG` or in another header) is left out: unread, its
    // statement ends a run, as the write it may make to the run's descriptor must (a file's own such
    // macro is read as that write instead). The expansion reads them all (a name defined twice it
    // does not expand, as with the file's own): a use of a header's `SEND(fd, x)` is its write.
    const writes = this.writerPattern(settings, external, undefined, true);
    const { writing, included, expandable, headerMacros } = includedDefinesReading(
      includedDefines,
      writes,
      settings,
    );
    // The headers' macros and the file's own over another file's helper (or a setting's): a helper of
    // this file calling one writes through that helper (see helperMacros.ts). Only where some macro of
    // a header, or the file's text, calls a writer can one be.
    // Asked twice below, of the whole text: searched once.
    let writesHere: boolean | undefined;
    const callsWriter = () => (writesHere ??= writes.test(text));
    const ownDefines = text.includes('define') && callsWriter() ? functionLikeDefines(text) : [];
    const knownWrappers =
      writing.size > 0 || ownDefines.length > 0 ? this.settingWrappers(settings, external) : undefined;
    const overHelpers = knownWrappers
      ? helperMacros(
          [...includedDefines, ...ownDefines],
          knownWrappers,
          ownFunctions(own, ownDefines),
          writes,
        )
      : [];
    // A use of a header macro that writes (a macro over one included): the file shows no write call
    // of its own.
    const usedMacros = [...writing, ...overHelpers.map((w) => w.name)];
    const usesWriting =
      usedMacros.length > 0 ? new RegExp(`\\b(?:${[...new Set(usedMacros)].join('|')})\\s*\\(`) : undefined;
    // A call through a member other files store write helpers in (see memberWriters.ts).
    const memberCalls = memberCallPattern(implementedMembers(implementations));
    // The first look before the parse in a batch run (no key): most files of a tree call no write
    // function, and parsing is most of the time spent on them. A same-file macro that writes has the
    // call in its body, which this also sees (through a line continuation, hence `loose`).
    if (
      key === undefined &&
      callSite.length === 0 &&
      !opens &&
      !callsWriter() &&
      !usesWriting?.test(text) &&
      !memberCalls?.test(text) &&
      !throughParameter &&
      !maySendOneIovec(text)
    )
      return { ...nothingFound(), noWriteCall: true };
    // The named status codes of the included headers, and the file's own over them.
    const fileCodes = statusConstants(text);
    const codes = includedCodes.length > 0 ? new Map([...includedCodes, ...fileCodes]) : fileCodes;
    const known = knownWrappers ?? this.settingWrappers(settings, external);
    // A name no file defines and no table knows, for the readings of the file's helpers (see
    // CContext.unread; the findings' own reading below also notes what it assumed).
    const helperUnread = (name: string) =>
      !own.has(name) && !definedElsewhere.has(name) && !opaqueElsewhere.has(name) && !knownEffects(name);
    // The file's own definitions first; then what other files' bodies and the library say. The parts
    // worth parsing are chosen with the same answers, so a helper that only computes a checksum after
    // its write (a library's `crc32()`, no body read) is found in both looks alike.
    const elsewhere = (name: string) => quietElsewhere.has(name) || libraryQuiet(name);
    // The macros of the headers the file includes are read as its own, where it defines none of
    // that name: `DBG(...)` empty in a header is as quiet as the same definition in the file.
    const headerFacts = includedMacroFacts(included, own);
    const readFacts = headerFacts.length > 0 ? [...functions, ...headerFacts] : functions;
    const readNames = headerFacts.length > 0 ? new Set(readFacts.map((f) => f.name)) : own;
    let ownQuiet: ReadonlySet<string> | undefined;
    const quiet = (name: string) =>
      readNames.has(name) ? (ownQuiet ??= quietFunctions(readFacts, elsewhere)).has(name) : elsewhere(name);
    // A function that reads, its body here or in another file of the tree: a helper handing it the
    // descriptor after its write awaits a reply (see awaitedReplies.ts).
    let ownReaders: ReadonlySet<string> | undefined;
    const readsReply = (name: string) =>
      readNames.has(name)
        ? (ownReaders ??= readingFunctions(readFacts, (n) => readersElsewhere.has(n))).has(name)
        : readersElsewhere.has(name);
    const analyse = (syntax: FileSyntax) => {
      const macros = /#\s*define\s+\w+\(/.test(text) ? syntax.macros() : new Map<string, CMacro>();
      if (
        key === undefined &&
        callSite.length === 0 &&
        !this.writerPattern(settings, known, macros).test(text) &&
        !usesWriting?.test(text) &&
        !memberCalls?.test(text) &&
        !throughParameter &&
        !maySendOneIovec(text)
      ) {
        const returned = opens
          ? exportedReturns(
              this.returned(
                text,
                linkedBodies(bodiesOf(syntax.functions(), text), replaced),
                openers,
                devices,
              ),
              functions,
            )
          : undefined;
        // No function read: no descriptor's kind asked.
        return { ...nothingFound(), ...(returned && { returned }), noKindAsked: true as const };
      }
      const bodies = linkedBodies(bodiesOf(syntax.functions(), text), replaced);
      const returned = this.returned(text, bodies, openers, devices);
      const {
        own: ownWrappers,
        writers,
        loud: helperLoud,
      } = this.ownWrappers(
        text,
        settings,
        bodies,
        macros,
        known,
        filePure,
        quiet,
        redefined,
        codes,
        included,
        headerMacros,
        implementations,
        readsReply,
        helperUnread,
        overHelpers,
      );
      const wrappers = new Map(known);
      for (const w of ownWrappers) wrappers.set(w.name, w);
      // Functions that call a write function, or a wrapper (this file's own included).
      const writing = ownWrappers.length > 0 ? this.writerPattern(settings, wrappers, macros) : writers;
      const helpers = callSite.filter((w) => !wrappers.has(w.name));
      for (const w of helpers) wrappers.set(w.name, w);
      const called =
        helpers.length > 0 ? new RegExp(`\\b(?:${helpers.map((w) => w.name).join('|')})\\s*\\(`) : undefined;
      // Uses of macros that expand to writes are read as their expansions (see macroExpansions.ts).
      const expander = new MacroExpander(
        text,
        expandable,
        (name) => macros.has(name) || gateMacro(name, text, included) !== undefined,
      );
      const expanding = expander.matching(writing);
      const expands = expanding.length > 0 ? new RegExp(`\\b(?:${expanding.join('|')})\\s*\\(`) : undefined;
      // Uses of check-only macros are read as their tests too (see checkMacros.ts).
      const expansion = expander.uses() && { expander, wanted: writingOrChecking(writing) };
      // Functions that call a writer, less those whose text shows they cannot hold a finding (a
      // function using a macro that expands to writes is read whole: its expansion may hold more).
      const writerCalls = [writing, ...(called ? [called] : [])].map((p) => new RegExp(p.source, 'g'));
      const syscalls = (name: string) => {
        const w = wrappers.get(name) ?? wrappers.get(`->${name}`);
        const macro = macros.get(name);
        const several = macro && (macro.body || (wrappers.get(macro.callee)?.syscalls ?? 1) > 1);
        return several ? 2 : (w?.syscalls ?? 1);
      };
      // Function-pointer parameters every call of the file binds to one write helper (boundWriters.ts).
      const bound = throughParameter
        ? boundWriters(bodies, text, wrappers, cWriteFunctionsFor(settings, redefined), boundElsewhere)
        : new Map<Node['id'], BoundWriter[]>();
      const targetBodies = bodies.filter(
        (b) =>
          bound.has(b.fn.id) ||
          expands?.test(b.text) ||
          ((writing.test(b.text) || called?.test(b.text)) &&
            mayHoldWrites(text.slice(b.fn.startIndex, b.end), writerCalls, syscalls)),
      );
      let asking = loud;
      let assuming = assumed;
      const base = this.context(
        text,
        settings,
        wrappers,
        macros,
        (name) => {
          const answer = quiet(name);
          if (!answer) asking.add(name);
          return answer;
        },
        redefined,
        included,
        codes,
        implementations,
        leavingElsewhere,
      );
      // A name no file defines and no table knows (see CContext.unread); a body elsewhere overrules.
      const unread = (name: string) => {
        // A body elsewhere that calls through a pointer is read too (see opaqueDefinitions.ts).
        const answer =
          !own.has(name) && !definedElsewhere.has(name) && !opaqueElsewhere.has(name) && !knownEffects(name);
        if (answer) assuming.add(name);
        return answer;
      };
      // Pure calls (the same value twice, nothing changed): the library's, the file's own accessors
      // and other files' (a descriptor spelled `lock_fd(&lk)` in each write is one descriptor),
      // and the functions this file declares `const` or `pure` (see declaredPure.ts). The macros of
      // the headers it includes are read as its own (`#define text_len(s) strlen((char *)(s))` is as
      // pure as strlen), as they are for what does no output: a name two headers of the tree define
      // otherwise is the one this file's includes give it.
      const declared = declaredPureFunctions(text);
      const ownPure = pureFunctions(
        readFacts,
        (n) => base.pure.has(n) || pureElsewhere.has(n) || declared.includes(n),
      );
      for (const n of declared) ownPure.add(n);
      // Each name once, in the order the calls stand (flatMap built an array of every call first).
      const calledNames = new Set<string>();
      for (const f of functions) for (const c of f.calls) calledNames.add(c);
      // Of the headers' macros, those the file calls (the headers of a tree define thousands); of the
      // members the tree stores only pure getters in, those the file names (see pureMembers.ts).
      const learntPure = [
        ...[...ownPure].filter((n) => own.has(n) || !readNames.has(n) || calledNames.has(n)),
        ...[...pureElsewhere].filter(
          (n) =>
            !readNames.has(n) &&
            (calledNames.has(n) || (n.startsWith('->') && text.includes(n.slice(2)))) &&
            !base.pure.has(n),
        ),
      ].sort();
      // The file's own helpers that send such storage count as such functions (see staticSenders.ts).
      const statics = staticReturningWith(functions, own, staticElsewhere);
      const senders = staticSenders(statics, functions, (n) => ownWrappers.find((w) => w.name === n));
      // The file's functions that only wait end a run between writes, as a library wait does, and so
      // do other files' (see waitingHelpers.ts).
      const elsewhereWaits = (name: string) =>
        !readNames.has(name) && waitersElsewhere.has(name) && !name.includes('#');
      // Which parameter's output each writable wait waits for, the file's own or another file's.
      const writable = writableWaitIndex(readFacts, readNames, waitersElsewhere);
      const ownWaiting = waitingFunctions(readFacts, quiet, elsewhereWaits);
      const waiting =
        waitersElsewhere.size > 0
          ? new Set([...ownWaiting, ...[...waitersElsewhere].filter(elsewhereWaits)])
          : ownWaiting;
      // What a call changes beyond its arguments: the file's own functions', then other files' (see
      // assignedGlobals.ts).
      const ownAssigns = closedAssignments(functions, (name) => assignsElsewhere.get(name));
      const assigns = (name: string) =>
        ownAssigns.get(name) ?? (own.has(name) ? undefined : assignsElsewhere.get(name));
      // Whether some write's descriptor was not shown a byte stream by the file's streams (see
      // FileWrappers.noKindAsked).
      let kindAsked = false;
      // The constants a test may compare with, the file's and its headers' (read at the first ask).
      let constants: ReadonlySet<string> | undefined;
      const ctx = {
        ...base,
        pure: learntPure.length > 0 ? new Set([...base.pure, ...learntPure]) : base.pure,
        plainWrites: plainWritePattern(base),
        readOnly: readOnlyLookup(functions),
        memberParams: memberParameterLookup(functions, memberParamsElsewhere),
        unread,
        staticReturns: withSenders(statics, senders),
        ...(senders.size > 0 && { staticSenders: senders }),
        ...(waiting.size > 0 && { waits: (name: string) => waiting.has(name) }),
        ...(writable.size > 0 && { writableWaits: (name: string) => writable.get(name) }),
        ...((ownAssigns.size > 0 || assignsElsewhere.size > 0) && { assigns }),
        kindAsked: () => {
          kindAsked = true;
        },
        constant: (name: string) => (constants ??= fileConstants(text, includedConstants)).has(name),
      };
      // The parameters callers anywhere hand a message socket, this file's calls too (handedMessages.ts).
      const handedHere = withHanded(handedElsewhere, fileHandedMessages(text, functions));
      const read = this.fileStreams(
        text,
        bodies,
        ctx.plainWrites,
        openers,
        returned,
        others,
        devices,
        handedHere,
      );
      // Members another file assigns a message descriptor, as far as this file names them.
      const named = new Set(
        [...membersElsewhere].filter((m) => !isGlobalFact(m) && text.includes(m.replace(/@.*/, ''))),
      );
      // And variables another file defines and opens as message descriptors (see messageGlobals.ts).
      const globals = globalsElsewhere(membersElsewhere, text, known.values());
      const streams = read.messages
        ? { ...read, messages: withGlobals(withMembers(read.messages, named, includedObjects), globals) }
        : read;
      readingObserver()?.file?.({ ctx, streams });
      const findings: Finding[] = [];
      // One function's findings, with what its calls bind its pointer parameters to.
      const findingsOf = (fn: Node): Finding[] =>
        this.functionFindings(fn, boundContext(ctx, bound.get(fn.id)), settings, streams, onLimit, expansion);
      // A batch run (no key) reads each function once: a memo there only copied every function's
      // text and findings, as its context changes with every file.
      if (key === undefined) {
        // Through shiftFinding as the memo's are, so that both have the same shape.
        for (const { fn } of targetBodies) for (const f of findingsOf(fn)) findings.push(shiftFinding(f, 0));
        // The file's own functions returning a message descriptor may lose that answer when other
        // files' functions show one of them to return a stream too (returnedKinds leaves a name
        // found both ways out of both): the file's messages are then read anew.
        const shown = !kindAsked && returned.message.size === 0;
        return {
          ...finish(
            findings,
            markedFileStatics(handedOnWrappers(ownWrappers, streams, text, bodies), text),
            helperLoud,
            returned,
          ),
          ...(shown && { noKindAsked: true as const }),
        };
      }
      // A function's findings depend on which of the names it calls do no output: the answers for
      // every name the file's functions call (read from the facts: naming each target function
      // walked its syntax tree, a tenth of an edit's analysis in a file of many).
      // Each called name asked once (both lists are sorted into the key).
      const asked = new Set<string>();
      const elsewhereDefined = new Set<string>();
      for (const c of calledNames) {
        if (quiet(c)) asked.add(c);
        if (definedElsewhere.has(c)) elsewhereDefined.add(c);
      }
      const context = JSON.stringify([
        [...asked].sort(),
        [...elsewhereDefined].sort(),
        // What the file's own functions leave unchanged of their arguments (a `const` dropped changes it).
        functions.flatMap((f) => (f.readOnly ? [[f.name, ...f.readOnly]] : [])),
        // And what they reach of their pointer parameters (see memberParameters.ts), other files'
        // functions' too where the file calls them.
        functions.flatMap((f) => (f.memberParams ? [[f.name, f.memberParams]] : [])),
        [...calledNames]
          .filter((c) => !own.has(c) && memberParamsElsewhere.has(c))
          .sort()
          .map((c) => [c, ...memberParamsElsewhere.get(c)!]),
        settings,
        [...wrappers.values()],
        [...macros.values()],
        [...ctx.descriptorMacros!],
        [...streams.functions],
        [...streams.globals],
        [...(streams.members ?? [])],
        [...(streams.pairArrays ?? [])],
        [...(streams.redirected ?? [])],
        [...(streams.devices ?? [])],
        [...(streams.parameters ?? [])].map(([fn, params]) => [fn, ...params]),
        [...(streams.messageParameters ?? [])].map(([fn, params]) => [fn, ...params]),
        messagesKey(streams.messages),
        !!streams.hints,
        learntPure,
        // A macro statement's answer comes from its definition anywhere in the file.
        macroStatementKinds(text),
        // And from the included headers' definitions (see CContext.included).
        included ?? '',
        // A check of a named code reads its value.
        [...codes],
        // An early exit's test reads what is not a constant (see constantNames.ts).
        [...(constants ??= fileConstants(text, includedConstants))].sort(),
        [...waiting],
        // What the calls change (see assignedGlobals.ts).
        [...calledNames]
          .filter((c) => assigns(c))
          .sort()
          .map((c) => [c, ...sortedNames(assigns(c)!)]),
        // A use of a macro is read as its expansion.
        expansion ? expander.fingerprint() : '',
        // What every call binds a function's pointer parameters to (see boundWriters.ts).
        [...bound.values()].flatMap((list) => list.map((b) => [b.param, b.writer.noFix])),
      ]);
      for (const { fn, end } of targetBodies) {
        const found = this.findingMemo.get(
          context,
          text.slice(fn.startIndex, end),
          () => {
            asking = new Set();
            assuming = new Set();
            const reported = findingsOf(fn);
            return {
              findings: reported.map((f) => shiftFinding(f, -fn.startIndex)),
              loud: [...asking],
              assumed: [...assuming],
            };
          },
          { start: fn.startIndex },
        );
        for (const name of found.loud) loud.add(name);
        for (const name of found.assumed) assumed.add(name);
        for (const f of this.placedFindings(found, fn.startIndex)) findings.push(f);
      }
      return finish(
        findings,
        markedFileStatics(handedOnWrappers(ownWrappers, streams, text, bodies), text),
        helperLoud,
        returned,
      );
    };
    const finish = (
      findings: Finding[],
      ownWrappers: CWrapper[],
      helperLoud: string[],
      returned: ReturnedKinds,
    ) => {
      const include = findings.some((f) => f.fix) ? includeEdit(text) : undefined;
      const withInclude = include
        ? findings.map((f) => (f.fix ? this.withInclude(f, f.fix, include) : f))
        : findings;
      return {
        findings: withInclude.sort((a, b) => a.span.start - b.span.start),
        wrappers: ownWrappers,
        functions: allFunctions,
        loud: [...loud],
        helperLoud,
        inferred: [...inferred, ...[...assumed].filter((n) => !inferred.includes(n))],
        ...exportedReturnsField(returned, functions),
      };
    };
    if (key === undefined) {
      // The parts worth parsing are those that call a writer, the helpers read from calls included.
      const wanted =
        callSite.length > 0 ? new Map([...callSite.map((w) => [w.name, w] as const), ...known]) : known;
      return this.withParts(
        text,
        settings,
        known,
        analyse,
        wanted,
        filePure,
        redefined,
        overHelpers.length > 0 ? new Set(usedMacros) : writing,
        quiet,
        codes,
        included,
        headerMacros,
        openers,
        implementations,
        readsReply,
        helperUnread,
        overHelpers,
        throughParameter,
      );
    }
    // The memos keep what this document's latest analyses used, until it is closed (forget).
    const change = this.textChanges.next(key, text);
    this.findingMemo.begin(key, change);
    this.wrapperMemo.begin(key, change);
    try {
      return this.withTree(text, settings, key, analyse);
    } finally {
      this.findingMemo.end();
      this.wrapperMemo.end();
    }
  }

  /**
   * `found`'s findings (relative to their function) placed at `start`: those placed there last time
   * when the memo gave the same value, else shifted anew (see {@link CAnalyzer.placed}).
   */
  private placedFindings(found: { findings: readonly Finding[] }, start: number): readonly Finding[] {
    const last = this.placed.get(found);
    if (last?.start === start) return last.findings;
    const findings = found.findings.map((f) => shiftFinding(f, start));
    this.placed.set(found, { start, findings });
    return findings;
  }

  /**
   * `f` (whose fix is `fix`) with `include` first among its fix's edits: the object made last time when
   * the include is the same, so that a finding kept in place stays the same object (see `placed`).
   */
  private withInclude(f: Finding, fix: Fix, include: TextEdit): Finding {
    const last = this.included.get(f);
    if (
      last &&
      last.include.span.start === include.span.start &&
      last.include.span.end === include.span.end &&
      last.include.newText === include.newText
    )
      return last.finding;
    const finding = { ...f, fix: { ...fix, edits: [include, ...fix.edits] } };
    this.included.set(f, { include, finding });
    return finding;
  }

  /** The findings of one function (absolute offsets). */
  private functionFindings(
    fn: Node,
    ctx: CContext,
    settings: AnalyzerSettings,
    streams: FileStreams,
    onLimit: (message: string) => void,
    expansion?: { expander: MacroExpander; wanted: RegExp },
    mark?: (blocks: readonly Block[]) => void,
  ): Finding[] {
    const expanded =
      expansion &&
      expandFunction(fn, ctx.text, expansion.expander, expansion.wanted, (text, range) =>
        // An expansion may bring attribute-like macros the file's blanking did not see (`UNUSED ssize_t
        // r = (call);` in a statement macro's body): the function's range is blanked again.
        this.parser.parseRanges(
          text.slice(0, range[0]) +
            this.blanked(text.slice(range[0], range[1]), settings) +
            text.slice(range[1]),
          [range],
        ),
      );
    if (expanded) {
      try {
        const { fn: copy, text } = expanded;
        const mark = (blocks: readonly Block[]) => expanded.mark(blocks);
        const found = this.functionFindings(
          copy,
          { ...ctx, text },
          settings,
          streams,
          onLimit,
          undefined,
          mark,
        );
        // A run the uses show as well is reported as read there: its fix copies the uses as written.
        // A run read only there stays too (a rule may know a use, `unlikely(...)`, better than its
        // expansion), unless the expansion shows a run over the same statements.
        const plain = this.functionFindings(fn, ctx, settings, streams, onLimit);
        const read = found.map((f) => {
          const at = expanded.mapFinding(f);
          return plain.find((p) => sameRun(p, at)) ?? at;
        });
        const overlaps = (p: Finding) =>
          read.some((f) => f.span.start < p.span.end && p.span.start < f.span.end);
        return [...read, ...plain.filter((p) => !overlaps(p))].sort((a, b) => a.span.start - b.span.start);
      } finally {
        expanded.release();
      }
    }
    const findings: Finding[] = [];
    const blocks = readFunction(fn, ctx, streams);
    mark?.(blocks);
    for (const block of blocks) {
      let runs;
      try {
        runs = findRuns(block, settings.minSequenceLength, Budget.forBlock(block));
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        const line = ctx.text.slice(0, fn.startIndex).split('\n').length;
        onLimit(
          `function ${functionName(fn) ?? '(unnamed)'} at line ${line}: ${error.message}; no findings reported for it`,
        );
        return [];
      }
      for (const run of runs) {
        const result = cFix(run, ctx.text);
        findings.push(sequenceFinding(run, settings, 'fix' in result ? result.fix : undefined, result));
      }
      for (const loop of findLoopWrites(block)) findings.push(loopFinding(loop, settings));
    }
    return withoutNested(findings);
  }

  /**
   * The cheap first look: a call to any write function or wrapper name. Text without one holds nothing
   * to find and no wrapper to index, so a batch run skips its parse and every run skips such functions.
   * Over-approximates (`ops->write(` passes), never under. `loose` also lets a line continuation
   * stand between the name and its `(` (as in a macro body).
   */
  private writerPattern(
    settings: AnalyzerSettings,
    external: ReadonlyMap<string, CWrapper>,
    macros: ReadonlyMap<string, CMacro> = new Map(),
    loose = false,
  ): RegExp {
    const names = [
      ...cWriteFunctions(settings).keys(),
      ...external.keys(),
      ...settingWrappers(settings).map((w) => w.name),
      ...macros.keys(),
    ].map((n) => n.replace(/^->/, ''));
    const key = `${loose ? 'loose:' : ''}${names.join('|')}`;
    let pattern = this.writers.get(key);
    if (!pattern) {
      const space = loose ? '[\\s\\\\]*' : '\\s*';
      pattern = new RegExp(`\\b(?:${names.filter((n) => /^\w+$/.test(n)).join('|')})${space}\\(`);
      // Each file's macros make a key of their own (each keystroke of a new #define name, in the
      // editor): the cache is bounded, as every cache a long editing session feeds must be.
      if (this.writers.size >= PATTERN_CACHE_SIZE) this.writers.clear();
      this.writers.set(key, pattern);
    }
    return pattern;
  }

  /** Forgets the tree kept for `key`, and what the memos keep only for it. */
  forget(key: string): void {
    this.parser.forget(key);
    this.findingMemo.forget(key);
    this.wrapperMemo.forget(key);
    this.keptFacts.forget(key);
    this.textChanges.forget(key);
  }

  /** What the function memos hold: the findings memo, then each wrapper round's. */
  memoUse(): MemoUse[] {
    return [this.findingMemo.use(), ...this.wrapperMemo.use()];
  }
}

/** True when `a` and `b` report the same run: the same statements, writes and syscalls. */
function sameRun(a: Finding, b: Finding): boolean {
  return (
    a.code === b.code &&
    a.syscalls === b.syscalls &&
    a.span.start === b.span.start &&
    a.span.end === b.span.end &&
    a.related.length === b.related.length &&
    a.related.every(
      (r, i) => r.span.start === b.related[i]!.span.start && r.span.end === b.related[i]!.span.end,
    )
  );
}

/**
 * The facts of the function-like macros in `included` (the included headers' definitions) that the
 * file does not define itself (`own`): read as the file's own macros are (see macroFacts).
 */
function includedMacroFacts(included: string | undefined, own: ReadonlySet<string>): CFunctionFact[] {
  if (included === undefined) return [];
  // Files that include the same headers have the same text of their definitions: read once for all.
  // A tree's files take turns with a few sets of headers (a folder's own, another's), so the last
  // few texts are kept, not the last one only.
  let facts = includedFacts.get(included);
  if (!facts) {
    if (includedFacts.size >= INCLUDED_KEPT) includedFacts.clear();
    includedFacts.set(included, (facts = cFunctionFacts(included)));
  }
  return facts.filter((f) => !own.has(f.name));
}

/** {@link includedMacroFacts}'s last headers' texts and their facts (which no reader changes). */
const includedFacts = new Map<string, readonly CFunctionFact[]>();

/** How many headers' texts {@link includedFacts} keeps. */
const INCLUDED_KEPT = 16;

/** What a file's analysis reads of its included headers' macro definitions (see {@link includedDefinesReading}). */
interface IncludedDefinesReading {
  /** The names one of whose definitions calls a writer (`writes`). */
  readonly writing: ReadonlySet<string>;
  /** The other definitions, as one text (CContext.included); undefined when there are none. */
  readonly included: string | undefined;
  /** Every definition, as one text, for the macro expansion. */
  readonly expandable: string | undefined;
  /** The writing names' macros, when they have one definition each (see definedMacros). */
  readonly headerMacros: ReadonlyMap<string, CMacro> | undefined;
}

/**
 * The included headers' definitions `defines` read against `writes` (the loose writer pattern) and
 * the write functions of `settings`. Kept by the list itself: the tree's index gives every file that
 * includes the same headers the same list (WrapperIndex.cIncludedDefines), and reading a list of
 * thousands of definitions again for each of its files was a visible part of a tree's analysis.
 */
function includedDefinesReading(
  defines: readonly string[],
  writes: RegExp,
  settings: AnalyzerSettings,
): IncludedDefinesReading {
  const kept = includedReadings.get(defines);
  if (kept && kept.writes === writes.source && kept.settings === settings) return kept.reading;
  const writing = new Set(defines.filter((d) => writes.test(d)).map(definedName));
  const quietDefines = writing.size > 0 ? defines.filter((d) => !writing.has(definedName(d))) : defines;
  const included = quietDefines.length > 0 ? quietDefines.join('\n') : undefined;
  const reading: IncludedDefinesReading = {
    writing,
    included,
    expandable: writing.size > 0 ? defines.join('\n') : included,
    headerMacros:
      writing.size > 0
        ? definedMacros(
            defines.filter((d) => writing.has(definedName(d))),
            cWriteFunctions(settings),
          )
        : undefined,
  };
  includedReadings.set(defines, { writes: writes.source, settings, reading });
  return reading;
}

/** The constants `text` defines (see constantNames.ts), with those its headers define (`included`). */
function fileConstants(text: string, included: readonly string[]): ReadonlySet<string> {
  if (included.length === 0) return constantNames(text);
  const known = new Set(included);
  for (const name of constantNames(text, known)) known.add(name);
  return known;
}

/** {@link includedDefinesReading}'s answers, by the list read (a list no file holds is let go). */
const includedReadings = new WeakMap<
  readonly string[],
  { writes: string; settings: AnalyzerSettings; reading: IncludedDefinesReading }
>();

/** The functions whose result is a byte stream: the catalogue's, the user's, other files' (see returnedKinds.ts). */
function streamOpeners(settings: AnalyzerSettings, others: ReturnedKinds): Set<string> {
  return new Set([...C_STREAM_FUNCTIONS, ...settings.streamFunctions, ...others.stream]);
}

/**
 * The memo key's part for a file's message descriptors, field by field: a field added to
 * MessageDescriptors must be added here, or the type check fails (a spread of `Object.values` once read
 * a new field of another shape as a set, and threw at every edit).
 */
function messagesKey(m: MessageDescriptors | undefined): Record<keyof MessageDescriptors, string[]> | null {
  if (!m) return null;
  const list = (set: ReadonlySet<string> | undefined) => (set ? [...set].sort() : []);
  return {
    targets: list(m.targets),
    members: list(m.members),
    arrays: list(m.arrays),
    keys: list(m.keys),
    elsewhere: list(m.elsewhere),
    declarations: list(m.declarations),
    globals: list(m.globals),
    globalArrays: list(m.globalArrays),
    returning: list(m.returning),
    otherStructs: list(m.otherStructs),
    devices: list(m.devices),
  };
}

/** The names of `returned` that `functions` define exported (another file can call only those). */
function exportedReturns(
  returned: ReturnedKinds,
  functions: readonly CFunctionFact[],
): { stream: string[]; message: string[] } | undefined {
  if (returned.stream.size === 0 && returned.message.size === 0) return undefined;
  const exported = new Set(functions.filter((f) => f.exported).map((f) => f.name));
  const stream = [...returned.stream].filter((n) => exported.has(n)).sort();
  const message = [...returned.message].filter((n) => exported.has(openerName(n))).sort();
  return stream.length > 0 || message.length > 0 ? { stream, message } : undefined;
}

/** {@link exportedReturns} as an optional result field. */
function exportedReturnsField(returned: ReturnedKinds, functions: readonly CFunctionFact[]) {
  const found = exportedReturns(returned, functions);
  return found ? { returned: found } : {};
}

/** `bodies` less the definitions of `replaced` names (weak ones another file replaces). */
function linkedBodies(bodies: FunctionBody[], replaced: ReadonlySet<string>): FunctionBody[] {
  if (replaced.size === 0) return bodies;
  return bodies.filter((b) => !replaced.has(functionName(b.fn) ?? ''));
}

/**
 * The names of `own` (the file's function facts, its function-like macros among them) that the file
 * defines as functions: not those `defines` (its own macro definitions) name.
 */
function ownFunctions(own: ReadonlySet<string>, defines: readonly string[]): ReadonlySet<string> {
  if (defines.length === 0) return own;
  const macros = new Set(defines.map(definedName));
  return new Set([...own].filter((n) => !macros.has(n)));
}
