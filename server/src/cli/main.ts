// writev-lint: the code-review face of the analyzer. Finds the files, lints them in two passes (the
// second only where a wrapper from another file is called), optionally fixes, keeps what the review asks
// for (review.ts), prints, exits 0/1/2.
import { relative, resolve } from 'node:path';
// Not the library index: that loads the analyzer, which only the worker threads need.
import { DEFAULT_SETTINGS, SettingsError, type AnalyzerSettings } from '../analyzer/settings';
import { exportedDefiners, WrapperIndex, type FileWrappers } from '../analyzer/wrapperIndex';
import type { CWrapper } from '../analyzer/wrapper';
import type { CFunctionFact } from '../analyzer/c/functionFacts';
import { isHeader } from '../analyzer/headerIncludes';
import { isGlobalFact, namesGlobalFact } from '../analyzer/c/messageGlobals';
import { openerName } from '../analyzer/c/typedSockets';
import { includedSources, isShared } from '../analyzer/sourceIncludes';
import { canonicalJson } from '../analyzer/canonicalJson';
import { cWriteFunctions, settingWrappers } from '../analyzer/catalogue';
import { ConfigLookup } from '../config/configFile';
import { parseArgs, USAGE, UsageError, type CliOptions, type Format } from './args';
import { collect } from './collect';
import { useColor } from './colors';
import { formatGithub, formatJson, formatText } from './formats';
import { formatJunit } from './junit';
import { formatFull } from './fullText';
import { formatGitlab } from './gitlab';
import { formatCheckstyle } from './checkstyle';
import { formatStatistics } from './statistics';
import { diffOutput, fixableLine } from './fixReport';
import { writeAtomically } from './writeAtomically';
import { factBasePass, toldFacts, type ToldFacts } from './factBase';
import type { HandedMessage } from '../analyzer/c/handedMessages';
import { treeBound, type HandedWriter } from '../analyzer/c/handedWriters';
import { indexesByName } from '../analyzer/c/parameterIndexes';
import { languageOf } from '../analyzer/languageOf';
import { membersStoring, treeMemberFacts } from './memberFacts';
import type { FileResult, LintJob } from './lintFile';
import { DEFAULT_MAX_FILE_BYTES } from '../workspace/sourceFile';
import { ignoredSourcesNote, type IgnoredSources } from '../workspace/files';
import { keepFreedMemory } from '@writev/runtime/dist/keepFreedMemory';
import { LintPool, workerLimit } from './pool';
import { formatRdjson } from './rdjson';
import { fingerprintsOf, textsOf, type Report } from './report';
import { review, exitStatus } from './review';
import { explainRule } from './rules';
import { sarifLog } from './sarif';
import { lintText, readStandardInput } from './stdin';
import { joinTrace } from './traceJoin';
import { openSession, type LintSession } from './session';
import { watch } from './watch';
import { readTraceFile, TraceFormatError, type TraceFile } from '@writev/runtime/dist/trace/traceFile';

/** Where the CLI reads and writes; tests pass their own. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Standard output is a terminal (colours by default). */
  readonly isTTY?: boolean;
  /** Writes bytes to standard output (the fixed text of --stdin --fix, in the input's encoding). */
  readonly outBytes?: (bytes: Uint8Array) => void;
  /** Reads standard input whole, at most `maxBytes` + 1 bytes of it (--stdin). */
  readonly readStdin?: (maxBytes: number) => Promise<Buffer | string>;
}

const processOutput: Output = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  outBytes: (b) => process.stdout.write(b),
  isTTY: process.stdout.isTTY,
  readStdin: readStandardInput,
};

const FORMATTERS: Record<Format, (report: Report) => string> = {
  text: formatFull,
  concise: formatText,
  full: formatFull,
  json: formatJson,
  gitlab: formatGitlab,
  checkstyle: formatCheckstyle,
  sarif: (report) => `${JSON.stringify(sarifLog(report), null, 2)}\n`,
  github: formatGithub,
  rdjson: formatRdjson,
  junit: formatJunit,
};

function loadTrace(path: string): TraceFile {
  try {
    return readTraceFile(path);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(
      error instanceof TraceFormatError ? message : `cannot read the trace ${path}: ${message}`,
    );
  }
}

/** How each file's settings are found: --config, the nearest .writev-lint.json, or the defaults. */
function configLookup(options: CliOptions, cwd: string): ConfigLookup | undefined {
  if (options.noConfigLookup && options.config === undefined && !options.reportUnusedDirectives)
    return undefined;
  return new ConfigLookup({
    explicit: options.config,
    lookup: !options.noConfigLookup,
    cwd,
    adjust: options.reportUnusedDirectives ? (s) => ({ ...s, reportUnusedDirectives: true }) : undefined,
  });
}

/**
 * Lints with the options given. Files take `settings`, or where `lookup` finds a config file for
 * them, its settings. Exposed for the benchmark.
 */
export async function lint(
  options: Pick<CliOptions, 'paths' | 'fix' | 'jobs' | 'maxFileSize'> &
    Partial<Pick<CliOptions, 'diff' | 'unsafeFixes' | 'noRespectGitignore'>> & {
      /** Hears of folders of sources that .gitignore files left out outside a git work tree. */
      readonly onIgnoredSources?: (found: IgnoredSources) => void;
    },
  settings: AnalyzerSettings,
  lookup?: ConfigLookup,
  session?: LintSession,
): Promise<FileResult[]> {
  keepFreedMemory();
  // No worker before the walk has found enough source to pay for one: a worker's start (its own
  // analyzer and grammar) costs more CPU than a small tree's whole lint, and this thread starts on the
  // files at once while the workers boot.
  const pool = session?.pool ?? new LintPool(options.jobs);
  const cache = session?.cache;
  // With a cache, what is left to analyse is known only after the walk: no worker ahead of it.
  const { files, groups, skipped } = await collect(
    options.paths,
    settings,
    lookup,
    cache ? undefined : (found, path) => pool.prepare(found, path),
    { respectGitignore: !options.noRespectGitignore, onIgnoredSources: options.onIgnoredSources },
  ).catch(async (error: unknown) => {
    if (pool !== session?.pool) await pool.close();
    throw error;
  });
  const maxFileBytes = options.maxFileSize;
  const cached = cache?.plan(groups, maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  let analysed = 0;
  // Each pass runs once per group of files sharing settings (one group unless config files differ),
  // over the files `only` keeps (all without a cache).
  const pass = async (job: Omit<LintJob, 'settings' | 'maxFileBytes'>, only?: (file: string) => boolean) => {
    const results: FileResult[] = [];
    for (const [groupSettings, group] of groups) {
      const some = only ? group.filter(only) : group;
      if (some.length === 0) continue;
      const full = { ...job, settings: groupSettings, maxFileBytes, hashContent: cached !== undefined };
      results.push(...(await pool.run(some, full)));
    }
    analysed += results.filter((r) => !r.skipped && !r.error).length;
    return results;
  };
  try {
    // Without a cache or a fix, the tree's function facts are worked out from the files' text first
    // (no parse), and the first pass is told them: a second pass then reads again only the files
    // that call another file's helpers or ask what only the analysed files tell (see toldFacts).
    const told = cached || options.fix ? undefined : await toldPass(pass);
    analysed = 0;
    const first = await pass(told ? { fix: false, ...told.job } : { fix: false }, cached?.missed);
    // A told first pass sends no function facts back: each file's are those the facts pass read.
    const firstWrappers = (r: FileResult): FileWrappers | undefined => {
      const functions = told?.functions.get(r.path);
      return r.wrappers && functions ? { ...r.wrappers, functions } : r.wrappers;
    };
    const all: [string, FileWrappers][] = cached
      ? cached.wrappers(files, first)
      : first.flatMap((r) => {
          const w = firstWrappers(r);
          return w &&
            (w.c.length > 0 ||
              w.ts.length > 0 ||
              w.functions?.length ||
              w.returnsStream?.length ||
              w.returnsMessage?.length ||
              w.messageHanded?.length ||
              w.includes?.length ||
              w.sources?.length ||
              w.deviceDefines?.length ||
              w.objects?.length ||
              w.constants?.length ||
              w.bracing?.length ||
              w.codes?.length ||
              w.memberFunctions?.length)
            ? [[r.path, w] as [string, FileWrappers]]
            : [];
        });
    // A told first pass read every file with the tree's facts already: its wrappers add nothing they
    // are worked out from (each file's function facts are those of its text), and the files it must
    // read again are found below. Worked out again, they held the worker threads between the passes.
    const facts = told
      ? { ...told.facts, redo: [] }
      : factBasePass(
          // A header of named codes alone has no functions, but its includers may ask for its codes.
          all.filter(([, w]) => w.functions?.length || w.codes?.length),
          [...groups.keys()],
        );
    // What the files store in the members some write helper is stored in (see memberFacts.ts).
    const memberFacts = treeMemberFacts(all);
    // The C sources another file includes: their static helpers are the includer's (sourceIncludes.ts).
    const included = includedSources(all);
    const shared = (path: string) => isShared(path, included);
    // The second pass gets the wrappers; of the function facts, only what the fact base concluded.
    const index: [string, FileWrappers][] = all
      .filter(
        ([path, w]) =>
          w.c.length > 0 ||
          w.ts.length > 0 ||
          memberFacts.has(path) ||
          w.sources?.length ||
          carriedHeader(path, w),
      )
      .map(([path, w]) => {
        const stored = memberFacts.get(path);
        return [
          path,
          {
            c: w.c,
            ts: w.ts,
            ...(w.includes && { includes: w.includes }),
            ...(w.sources && { sources: w.sources }),
            ...(w.defines && { defines: w.defines }),
            ...(w.deviceDefines && { deviceDefines: w.deviceDefines }),
            ...(w.objects && { objects: w.objects }),
            ...(w.constants && { constants: w.constants }),
            ...(w.bracing && { bracing: w.bracing }),
            ...(w.codes && { codes: w.codes }),
            ...(stored && { memberFunctions: stored }),
          },
        ];
      });
    const names = [
      ...new Set([
        ...index.flatMap(([path, w]) => [
          // A header's static helpers too (an included source's): its includers call them as their own.
          ...w.c.filter((x) => x.exported || shared(path)).map((x) => x.name),
          ...w.ts.filter((x) => x.exported).map((x) => x.name),
        ]),
        // The members a write helper is stored in: a call through one, in any file, may be a write.
        ...implementedMembers(index, facts.quiet),
      ]),
    ];
    const byPath = new Map(first.map((r) => [r.path, r]));
    let second: FileResult[] = [];
    // Members other files assign datagram or device descriptors: a file whose first pass took a write
    // to one for a byte stream of unknown kind is analysed again with them.
    const membersOf = new Map(
      all.flatMap(([path, w]) => (w.messageMembers?.length ? [[path, w.messageMembers]] : [])),
    );
    const messageMembers = [...new Set([...membersOf.values()].flat())].sort();
    // Functions other files show to return a known kind of descriptor: a file whose first pass wrote to
    // a descriptor of unknown kind may have called one (see returnedKinds.ts).
    const returned = treeReturned(all);
    // Calls handing another file's function a message socket (see handedMessages.ts).
    const messageHanded = treeHanded(all);
    // Writers every call in the tree hands a taker (see handedWriters.ts): only a told first pass
    // read every file knowing the takers.
    const bound = told ? boundList(all) : [];
    // The first-pass findings of every file, the cache's unchanged ones too: an unchanged file whose
    // facts from other files changed is read again only when its findings ask about them (the second
    // pass leaves out an unchanged file whose facts are unchanged whatever the list says).
    const firstFindings = cached ? [...first, ...cached.hitResults()] : first;
    const redo = [
      ...(told ? callingReturned(all, returned) : facts.redo),
      ...(cached?.stale ?? []),
      ...askedMembers(firstFindings, membersOf),
      ...askedKinds(firstFindings, returned),
      ...handedDefiners(firstFindings, all, messageHanded),
      ...takingDefiners(all, bound, [...groups.keys()]),
    ];
    if (names.length > 0 || options.fix || redo.length > 0) {
      // Second pass: files that call a wrapper defined elsewhere, or a function the fact base found
      // quiet (or all, to fix them), with the index. A file whose own wrappers grow once it is read
      // with the index (a helper built on another file's helper) lends them to the index, and the
      // files that call them are read again, until no wrapper changes.
      const wrappersOf = new Map(index);
      const job = {
        fix: options.fix,
        diff: options.diff,
        unsafeFixes: options.unsafeFixes,
        quiet: facts.quiet,
        defined: facts.defined,
        opaque: facts.opaque,
        pure: facts.pure,
        readers: facts.readers,
        waiters: facts.waiters,
        assigns: facts.assigns,
        statics: facts.statics,
        leaving: facts.leaving,
        memberParams: facts.memberParams,
        messageMembers,
        ...(messageHanded.length > 0 && { messageHanded }),
        ...(bound.length > 0 && { treeBound: bound }),
        returned,
        // Of the function facts the index leaves out: which exported names two files define.
        definers: exportedDefiners(all),
        overridden: facts.overridden,
        replaced: facts.replaced,
        // The threads read the text their facts pass kept (see LintJob.keptText).
        ...(told && { keptText: true }),
      };
      let round = await pass(
        { ...job, index, names: options.fix ? undefined : names, redo },
        cached?.again(options.fix),
      );
      const latest = new Map<string, FileResult>();
      for (let rounds = 1; ; rounds++) {
        for (const r of round) {
          const before = latest.get(r.path);
          latest.set(r.path, before?.fixed ? { ...r, fixed: true } : r);
        }
        const changed = chainedChanges(round, wrappersOf, shared);
        if (changed.names.length === 0 || rounds === MAX_CHAIN_ROUNDS) break;
        for (const path of changed.paths) cached?.chain(path, (wrappersOf.get(path) as FileWrappers).c);
        round = await pass({ ...job, index: [...wrappersOf], names: changed.names });
      }
      second = [...latest.values()];
      for (const r of second) byPath.set(r.path, r);
    }
    const results = cached
      ? cached.finish(files, first, second)
      : files.map((f) => byPath.get(f) as FileResult);
    await cache?.save();
    session?.counted({ files: files.length, fromCache: cached?.unchanged ?? 0, analysed });
    return [...skipped, ...results];
  } finally {
    // Not awaited: the workers are idle and unreferenced, and the report need not wait for their end.
    // A session's threads live on for its next run.
    if (pool !== session?.pool) void pool.close();
  }
}

/**
 * The tree's function facts from its C files' text (see toldFacts), and the first pass's job fields
 * that tell them: the facts, and an index of the headers' includes, macros and codes; and each file's
 * function facts, by path.
 */
async function toldPass(
  pass: (
    job: Omit<LintJob, 'settings' | 'maxFileBytes'>,
    only?: (file: string) => boolean,
  ) => Promise<FileResult[]>,
): Promise<{ facts: ToldFacts; job: Partial<LintJob>; functions: Map<string, readonly CFunctionFact[]> }> {
  const read = await pass({ fix: false, factsOnly: true }, (file) => languageOf(file) === 'c');
  const all = read.flatMap((r) => (r.wrappers ? [[r.path, r.wrappers] as [string, FileWrappers]] : []));
  const functions = new Map(all.flatMap(([path, w]) => (w.functions ? [[path, w.functions] as const] : [])));
  const facts = toldFacts(all.filter(([, w]) => w.functions?.length || w.codes?.length));
  const headers: [string, FileWrappers][] = all
    .filter(([path, w]) => carriedHeader(path, w))
    .map(([path, w]) => [
      path,
      {
        c: [],
        ts: [],
        ...(w.includes && { includes: w.includes }),
        ...(w.defines && { defines: w.defines }),
        ...(w.deviceDefines && { deviceDefines: w.deviceDefines }),
        ...(w.objects && { objects: w.objects }),
        ...(w.constants && { constants: w.constants }),
        ...(w.bracing && { bracing: w.bracing }),
        ...(w.codes && { codes: w.codes }),
      },
    ]);
  // The takers of a writer, whose mentions the first pass reads in every file (see handedWriters.ts).
  const writerTakers = all.flatMap(([, w]) => w.writerTakers ?? []);
  return {
    facts,
    job: { told: true, index: headers, ...facts, ...(writerTakers.length > 0 && { writerTakers }) },
    functions,
  };
}

/**
 * Whether `path` is a header whose wrappers `w` hold something its includers read (its own includes,
 * macro definitions, device paths or named codes): the passes carry such a header to every thread
 * even when it defines no function.
 */
function carriedHeader(path: string, w: FileWrappers): boolean {
  return (
    isHeader(path) &&
    !!(
      w.includes?.length ||
      w.defines?.length ||
      w.deviceDefines?.length ||
      w.objects?.length ||
      w.constants?.length ||
      w.bracing?.length ||
      w.codes?.length
    )
  );
}

/**
 * The files of `first` with a finding on a member descriptor whose name another file (`membersOf`)
 * assigns a message descriptor, in some struct: the second pass reads them with the keyed facts.
 */
function askedMembers(
  first: readonly FileResult[],
  membersOf: ReadonlyMap<string, readonly string[]>,
): string[] {
  if (membersOf.size === 0) return [];
  const asked: string[] = [];
  const globals = [...membersOf].flatMap(([path, names]) => names.filter(isGlobalFact).map((n) => [path, n]));
  for (const r of first) {
    // A finding at a variable another file defines and opens as a message descriptor (messageGlobals.ts).
    const keys = globals.flatMap(([path, n]) => (path !== r.path ? [n!] : []));
    if (
      keys.length > 0 &&
      r.findings.some((f) => f.target !== undefined && namesGlobalFact(f.target, keys))
    ) {
      asked.push(r.path);
      continue;
    }
    const members = r.findings.flatMap((f) => {
      // Any finding at a member: one the file itself fills with streams is reported as a stream too.
      const m = /(?:->|\.)\s*(\w+)$/.exec(f.target ?? '');
      return m ? [m[1]!] : [];
    });
    if (members.length === 0) continue;
    // The facts are keyed by struct (`fd@conn`): a file is read again for any fact at its member names.
    const elsewhere = [...membersOf].some(
      ([path, names]) =>
        path !== r.path && members.some((m) => names.some((n) => n.replace(/@.*/, '') === m)),
    );
    if (elsewhere) asked.push(r.path);
  }
  return asked;
}

/**
 * The files of `all` that call a function another file shows to return a known kind of descriptor
 * (`returned`): a first pass told the function facts still read its result as a descriptor of unknown
 * kind, and a loop of writes to one is no finding. Not a file whose first look found no write call
 * (FileWrappers.noWriteCall): most files calling a project's `xopen()` write nothing to its descriptor.
 * Nor, for the functions returning byte streams, a file that asked no write's descriptor a kind its
 * streams did not show (FileWrappers.noKindAsked): most files calling a function that opens a
 * listening socket write to no descriptor of unknown kind.
 */
function callingReturned(
  all: readonly [string, FileWrappers][],
  returned: { stream: readonly string[]; message: readonly string[] },
): string[] {
  if (returned.stream.length === 0 && returned.message.length === 0) return [];
  // An opener keyed by its type parameter is called by its name (see typedSockets.ts).
  const kinds = new Set([...returned.stream, ...returned.message.map(openerName)]);
  const messages = new Set(returned.message.map(openerName));
  return all
    .filter(([, w]) => {
      // A file the first look found no write in reads no descriptor's kind (see noWriteCall).
      if (w.noWriteCall) return false;
      const asked = w.noKindAsked ? messages : kinds;
      if (asked.size === 0) return false;
      const functions = w.functions ?? [];
      // The file's own names only for a file that calls one of them: most call none.
      let own: Set<string> | undefined;
      return functions.some((f) =>
        f.calls.some((c) => asked.has(c) && !(own ??= new Set(functions.map((g) => g.name))).has(c)),
      );
    })
    .map(([path]) => path);
}

/**
 * The exported functions the files of `all` show to return a byte stream, and a message descriptor,
 * as the index reads them (through functions that return another's result; a name found both ways is
 * left out of both).
 */
function treeReturned(all: readonly [string, FileWrappers][]): { stream: string[]; message: string[] } {
  const index = new WrapperIndex();
  for (const [path, w] of all)
    if (w.returnsStream || w.returnsMessage || w.functions?.some((f) => f.returnsCall !== undefined))
      index.set(path, { c: [], ts: [], ...(w.functions && { functions: w.functions }), ...returnedOnly(w) });
  const kinds = index.cReturnedFor('');
  return { stream: [...kinds.stream].sort(), message: [...kinds.message].sort() };
}

function returnedOnly(w: FileWrappers): Pick<FileWrappers, 'returnsStream' | 'returnsMessage'> {
  return {
    ...(w.returnsStream && { returnsStream: w.returnsStream }),
    ...(w.returnsMessage && { returnsMessage: w.returnsMessage }),
  };
}

/**
 * The files of `first` with a finding on a descriptor of unknown kind, when some file returns a
 * known kind: the second pass reads them with what those functions return.
 */
function askedKinds(
  first: readonly FileResult[],
  returned: { stream: readonly string[]; message: readonly string[] },
): string[] {
  if (returned.stream.length === 0 && returned.message.length === 0) return [];
  return first
    .filter((r) => r.findings.some((f) => f.code === 'adjacent-writes-unknown-fd'))
    .map((r) => r.path);
}

/**
 * The files of `first` with findings that define, visible to other files, a function some file of
 * `all` hands a message socket (`handed`): the second pass reads them with those parameters as message
 * descriptors, whose writes its first pass may have found a run of.
 */
function handedDefiners(
  first: readonly FileResult[],
  all: readonly (readonly [string, FileWrappers])[],
  handed: readonly HandedMessage[],
): string[] {
  if (handed.length === 0) return [];
  const names = new Set(handed.map(([name]) => name));
  const found = new Set(first.filter((r) => r.findings.length > 0).map((r) => r.path));
  return all
    .filter(([path, w]) => found.has(path) && w.functions?.some((f) => f.exported && names.has(f.name)))
    .map(([path]) => path);
}

/**
 * The calls the files of `all` tell they hand a message socket (see handedMessages.ts), of the
 * functions some file of `all` defines visible to others: the library's calls (`close(s)`) are no
 * parameter of the tree's.
 */
function treeHanded(all: readonly (readonly [string, FileWrappers])[]): HandedMessage[] {
  const handed = all.flatMap(([, w]) => w.messageHanded ?? []);
  if (handed.length === 0) return handed;
  const defined = new Set(
    all.flatMap(([, w]) => (w.functions ?? []).filter((f) => f.exported).map((f) => f.name)),
  );
  return handed.filter(([name]) => defined.has(name));
}

/** What every call in the tree binds takers' parameters to, as the files of `all` tell it. */
function boundList(all: readonly (readonly [string, FileWrappers])[]): HandedWriter[] {
  const takers = indexesByName(all.flatMap(([, w]) => w.writerTakers ?? []));
  if (takers.size === 0) return [];
  return [
    ...treeBound(
      all.map(([, w]) => w),
      takers,
    ),
  ].flatMap(([name, byIndex]) => [...byIndex].map(([index, helper]) => [name, index, helper] as const));
}

/**
 * The files of `all` defining a taker `bound` binds to something that may be a write helper: the second
 * pass reads them with it bound. A parameter is bound only to a helper the taker's file knows as a
 * wrapper (see boundWriters.ts), and every such helper is named somewhere in the tree's facts: a
 * function or macro some file defines, a wrapper some file reads, a helper some file reads from its
 * calls, or one the catalogue or the settings (`settings`, each group's) know. A name none of them holds
 * (a caller's own function-pointer parameter handed on, as a checksum's inner loop hands its step
 * function) binds nothing, and its file's first-pass result stands.
 */
function takingDefiners(
  all: readonly (readonly [string, FileWrappers])[],
  bound: readonly HandedWriter[],
  settings: readonly AnalyzerSettings[],
): string[] {
  if (bound.length === 0) return [];
  const known = new Set<string>();
  for (const s of settings) {
    for (const name of cWriteFunctions(s).keys()) known.add(name);
    for (const w of settingWrappers(s)) known.add(w.name);
  }
  for (const [, w] of all) {
    for (const f of w.functions ?? []) known.add(f.name);
    for (const x of w.c) known.add(x.name);
    for (const name of w.inferred ?? []) known.add(name);
  }
  const names = new Set(bound.filter(([, , helper]) => known.has(helper)).map(([name]) => name));
  if (names.size === 0) return [];
  return all.filter(([, w]) => w.writerTakers?.some(([name]) => names.has(name))).map(([path]) => path);
}

/**
 * The members some write helper of `index` is stored in (see WrapperIndex.cImplementedMembers), by
 * name: the words a call through one is found by.
 */
function implementedMembers(
  index: readonly (readonly [string, FileWrappers])[],
  quiet: readonly string[],
): string[] {
  if (!index.some(([, w]) => w.memberFunctions?.length)) return [];
  const members = new WrapperIndex();
  for (const [path, w] of index) if (w.memberFunctions?.length) members.set(path, w);
  // Exported wrappers of files that store nothing are stored by others.
  for (const [path, w] of index)
    if (!w.memberFunctions?.length && w.c.some((x) => x.exported)) members.set(path, w);
  members.presetQuiet(quiet);
  return members.cImplementedMembers();
}

/** Passes with the index at most: each reads a chain of helpers across files one file deeper. */
const MAX_CHAIN_ROUNDS = 8;

/**
 * The files of `round` whose exported C wrappers, read with the index, differ from what `wrappersOf`
 * holds for them, and the names that differ: `wrappersOf` takes the new wrappers.
 */
function chainedChanges(
  round: readonly FileResult[],
  wrappersOf: Map<string, FileWrappers>,
  shared: (path: string) => boolean,
): { names: string[]; paths: string[] } {
  const names = new Set<string>();
  const paths: string[] = [];
  for (const r of round) {
    if (!r.chained || r.error || r.skipped) continue;
    const had = wrappersOf.get(r.path);
    // A static function the file stores in a member is read by the calls through it too.
    const stored = new Set((had?.memberFunctions ?? []).filter((f) => f.own).map((f) => f.fn));
    // A header's `static inline` helper is its includers' own (see WrapperIndex.cWrappersFor): one built
    // on another file's helper (`conn_resp(r)` calling `conn_printf()`) is found only once the header
    // is read with the index, and its includers must then be read with it.
    const header = shared(r.path);
    const exported = (list: readonly CWrapper[]) =>
      new Map(
        list.filter((w) => w.exported || header || stored.has(w.name)).map((w) => [w.name, canonicalJson(w)]),
      );
    const before = exported(had?.c ?? []);
    const after = exported(r.chained);
    const differ = [...new Set([...before.keys(), ...after.keys()])].filter(
      (name) => before.get(name) !== after.get(name),
    );
    if (differ.length === 0) continue;
    for (const name of differ) names.add(name);
    wrappersOf.set(r.path, { ts: [], ...had, c: r.chained });
    paths.push(r.path);
  }
  // The members those wrappers are stored in: a call through one reads them anew.
  for (const m of membersStoring([...names], wrappersOf)) names.add(m);
  return { names: [...names], paths };
}

/** writev-lint's version, from its package.json. */
export function version(): string {
  try {
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * Runs writev-lint with `argv`; resolves to the exit status (0 clean, 1 findings, 2 usage or I/O error).
 * `session`: what a --watch round shares with the rounds before it (none: a run of its own).
 */
export async function main(
  argv: readonly string[],
  output: Output = processOutput,
  cwd = process.cwd(),
  session?: LintSession,
): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
    if (options.help) {
      output.out(`${USAGE}\n`);
      return 0;
    }
    if (options.version) {
      output.out(`${version()}\n`);
      return 0;
    }
    if (options.explain !== undefined) {
      output.out(explainRule(options.explain));
      return 0;
    }
    const warn = (line: string) => output.err(`writev-lint: ${line}\n`);
    if (options.watch && session === undefined) {
      const rounds = openSession(options, cwd, warn, version(), new LintPool(options.jobs));
      return await watch(options, output, cwd, (round) => main(argv, output, cwd, round), rounds);
    }
    const fallback = options.reportUnusedDirectives
      ? { ...DEFAULT_SETTINGS, reportUnusedDirectives: true }
      : DEFAULT_SETTINGS;
    const lookup = configLookup(options, cwd);
    if (options.jobs !== undefined && options.jobs > workerLimit())
      output.err(
        `writev-lint: --jobs ${options.jobs}: using ${workerLimit()} (one worker per core at most)\n`,
      );
    let results: FileResult[];
    let fixedText: { text: string; bytes?: Buffer } | undefined;
    const known = new Map<string, string>();
    const walkNotes: string[] = [];
    if (options.stdin) {
      const limit = options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES;
      const input = await (output.readStdin ?? readStandardInput)(limit);
      const name = options.stdinFilename as string;
      const settings = (await lookup?.forPath(resolve(cwd, name)))?.settings ?? fallback;
      const linted = await lintText(input, name, cwd, settings, options.fix, limit, options);
      results = [linted.result];
      known.set(linted.result.path, linted.text);
      if (options.fix && !options.diff) fixedText = { text: linted.text, bytes: linted.output };
    } else {
      const onIgnoredSources = (found: IgnoredSources) =>
        walkNotes.push(`note: ${ignoredSourcesNote(found, cwd)} (--no-respect-gitignore reads them)`);
      results = await lint(
        { ...options, onIgnoredSources },
        fallback,
        lookup,
        session ?? openSession(options, cwd, warn, version()),
      );
    }
    if (options.trace) {
      // One threshold for the run: the settings that apply to the working folder.
      const here = (await lookup?.forPath(cwd, true))?.settings ?? fallback;
      results = joinTrace(results, loadTrace(options.trace), here.measuredWrites);
    }
    const texts = await textsOf(results, known);
    const reviewed = await review(results, texts, options);
    const errors = results.filter((r) => r.error);
    for (const r of errors) output.err(`writev-lint: ${r.error}\n`);
    // A skipped file or folder makes the run incomplete: "0 findings" would claim more than was read.
    const skipped = results.filter((r) => r.skipped);
    for (const r of skipped)
      output.err(`writev-lint: skipped ${relative(cwd, r.path) || '.'}: ${r.skipped}\n`);
    for (const note of [...walkNotes, ...reviewed.notes]) output.err(`writev-lint: ${note}\n`);
    // "0 findings" from no file at all is worth a word: an exclude may have left out everything.
    if (!options.stdin && results.length === skipped.length)
      for (const path of options.paths)
        output.err(`writev-lint: ${await nothingLinted(path, cwd, lookup)}\n`);
    if (options.updateBaseline) return errors.length > 0 || skipped.length > 0 ? 2 : 0;
    if (options.diff) {
      // As ruff's --diff: the diff alone on standard output, exit 1 when there is one.
      const shown = diffOutput(results, cwd, options.unsafeFixes);
      output.out(shown.diff);
      output.err(`writev-lint: ${shown.summary}\n`);
      return errors.length > 0 || skipped.length > 0 ? 2 : shown.files > 0 ? 1 : 0;
    }
    const report: Report = {
      results: reviewed.results,
      cwd,
      texts,
      fingerprints: fingerprintsOf(results, texts, cwd),
      version: version(),
      unsafeFixes: options.unsafeFixes,
      color:
        isText(options.format) &&
        options.outputFile === undefined &&
        useColor(fixedText === undefined ? output.isTTY : false, process.env),
    };
    const formatted = options.statistics ? formatStatistics(report) : FORMATTERS[options.format](report);
    // With --stdin --fix, standard output is the fixed text: the report goes beside it, on stderr.
    if (fixedText !== undefined) {
      // Bytes where the output takes them: a Latin-1 input must come back as Latin-1.
      if (fixedText.bytes && output.outBytes) output.outBytes(fixedText.bytes);
      else if (fixedText.bytes) output.out(fixedText.text);
    }
    if (options.outputFile !== undefined) {
      const file = resolve(cwd, options.outputFile);
      await writeAtomically(file, formatted).catch((error: unknown) => {
        throw new UsageError(`cannot write the report to ${options.outputFile}: ${(error as Error).message}`);
      });
    } else if (fixedText !== undefined) output.err(formatted);
    else output.out(formatted);
    const count = reviewed.results.reduce((n, r) => n + r.findings.length, 0);
    if (session?.last) session.last.findings = count;
    const fixed = results.filter((r) => r.fixed).length;
    if (isText(options.format)) {
      output.err(
        `writev-lint: ${counted(count, 'finding')} in ${counted(results.length - skipped.length - errors.length, 'file')}` +
          `${fixed ? `, ${counted(fixed, 'file')} fixed` : ''}${skipped.length ? `, ${skipped.length} skipped (incomplete)` : ''}` +
          // A file that could not be read, analysed or written back is no file the findings cover.
          `${errors.length ? `, ${counted(errors.length, 'error')} (incomplete)` : ''}\n`,
      );
      const fixes = fixableLine(reviewed.results, options.unsafeFixes);
      if (fixes) output.err(`writev-lint: ${fixes}\n`);
    }
    const status = exitStatus(reviewed.results, options, fixed);
    if (status.message) output.err(`writev-lint: ${status.message}\n`);
    return errors.length > 0 || skipped.length > 0 ? 2 : status.code;
  } catch (error) {
    if (error instanceof UsageError || error instanceof SettingsError) {
      // One line per problem (a config file may have several), each led by the tool's name.
      const lines = error.message.split('\n').map((line) => `writev-lint: ${line}\n`);
      output.err(`${lines.join('')}${argv.length === 0 ? `${USAGE}\n` : ''}`);
      return 2;
    }
    output.err(`writev-lint: ${(error as Error).stack ?? String(error)}\n`);
    return 2;
  }
}

/** The formats for people (with the summary line on stderr, colours on a terminal). */
function isText(format: Format): boolean {
  return format === 'text' || format === 'concise' || format === 'full';
}

/** Why no file under `path` was linted, as far as the settings tell: the exclude that applies there. */
async function nothingLinted(path: string, cwd: string, lookup: ConfigLookup | undefined): Promise<string> {
  const abs = resolve(cwd, path);
  const config = await lookup?.forPath(abs, true);
  const where = `0 files linted under ${relative(cwd, abs) || '.'}`;
  return config && config.settings.exclude.length > 0
    ? `${where}: the exclude setting of ${config.path} applies there`
    : where;
}

/** `1 file`, `2 files`: a count with its noun, for the summary line. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
