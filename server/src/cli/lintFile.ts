// Lints one file: read, analyse, optionally fix in place. Runs in a worker thread or in the main
// thread; results are plain data (positions computed here, so the text never travels).
// The analyzer's own modules, not the library index: a worker thread loads this file, and the index
// also loads the settings validator (ajv), which doubled a worker's start-up.
import { skipReason, type Analyzer } from '../analyzer/analyzer';
import { languageOf } from '../analyzer/languageOf';
import type { Finding, FixSafety } from '../analyzer/model';
import { LineIndex, type Position } from '../analyzer/positions';
import type { AnalyzerSettings } from '../analyzer/settings';
import { WrapperIndex, type FileWrappers } from '../analyzer/wrapperIndex';
import type { HandedMessage } from '../analyzer/c/handedMessages';
import type { HandedWriter, WriterTaker } from '../analyzer/c/handedWriters';
import type { CWrapper } from '../analyzer/wrapper';
import {
  DEFAULT_MAX_FILE_BYTES,
  encodeSource,
  decodeSource,
  readRegularFileInto,
  readSourceFileSync,
  ReadBuffer,
  SkippedFileError,
  type SourceFile,
} from '../workspace/sourceFile';
import type * as ReplaceFileModule from './replaceFile';
import { calledNames, mayCall } from './calledNames';
import type { SecondPass } from './secondPass';

/** A finding with its positions (zero-based line, UTF-16 character). */
export interface ReportedFinding {
  /** The analyzer's code, or `measured-writes` for a hot traced line (`--trace`). */
  readonly code: Finding['code'] | 'measured-writes';
  readonly severity: Finding['severity'];
  readonly message: string;
  readonly syscalls: number;
  readonly target: string;
  readonly start: Position;
  readonly end: Position;
  readonly related: readonly { readonly start: Position; readonly end: Position; readonly message: string }[];
  /** What a traced run measured at the finding's writes (`--trace`). */
  readonly measured?: { readonly calls: number; readonly bytes: number };
  readonly fix?: {
    readonly title: string;
    /** Whether --fix applies it (`safe`) or only --fix --unsafe-fixes (`unsafe`). */
    readonly safety: FixSafety;
    readonly unsafeBecause?: string;
    readonly edits: readonly { readonly start: Position; readonly end: Position; readonly newText: string }[];
  };
}

/** The outcome for one file. */
export interface FileResult {
  readonly path: string;
  readonly findings: readonly ReportedFinding[];
  /** Lines in the file (for throughput figures). */
  readonly lines: number;
  /** Wrappers the file defines (first pass only). */
  readonly wrappers?: FileWrappers;
  /**
   * A later pass: the C wrappers the file defines as read with the other files' wrappers (a helper
   * built on another file's helper is one only then).
   */
  readonly chained?: readonly CWrapper[];
  /** Fixes were written to the file. */
  readonly fixed?: boolean;
  /**
   * --diff: the text as read and as --fix would write it (the file is left alone); `findings` are
   * those the fixed text still has, `fixed` how many fewer than before (at least 1).
   */
  readonly preview?: { readonly before: string; readonly after: string; readonly fixed: number };
  /** Why the file could not be read or written. */
  readonly error?: string;
  /** Why the file was deliberately not analysed (not a regular file, too large, binary). */
  readonly skipped?: string;
  /**
   * The {@link contentHash} of the bytes read, when the job asked for it (`--cache`) and `findings` are
   * theirs: absent when the findings are those of a fixed text.
   */
  readonly contentHash?: string;
}

/** What a lint job needs besides the file list (structured-clone friendly). */
export interface LintJob {
  readonly settings: AnalyzerSettings;
  /** Wrappers of the whole tree, by file (second pass). */
  readonly index?: readonly (readonly [string, FileWrappers])[];
  /**
   * Second pass: only files calling one of these names (defined in another file, see SecondPass) are
   * analysed again; others return nothing.
   */
  readonly names?: readonly string[];
  /**
   * Second pass: the exported C functions of the tree that do no output (the fact base, worked out
   * after the first pass), and the files analysed again because a function of theirs that writes calls
   * one of them.
   */
  readonly quiet?: readonly string[];
  readonly redo?: readonly string[];
  /**
   * Second pass: the helpers some file read as writers from their calls alone that another file
   * defines (their bodies decide what they are).
   */
  readonly defined?: readonly string[];
  /** The tree's C functions other files can call whose body calls through a pointer (opaqueDefinitions.ts). */
  readonly opaque?: readonly string[];
  /** Second pass: the exported pure C functions of the tree (the fact base's). */
  readonly pure?: readonly string[];
  /** Second pass: the tree's C functions that read, where other files' writing functions call them (the fact base's). */
  readonly readers?: readonly string[];
  /** Second pass: the tree's C functions other files can call that only wait (see waitingHelpers.ts). */
  readonly waiters?: readonly string[];
  /** Second pass: what the tree's C functions change beyond their arguments (see assignedGlobals.ts). */
  readonly assigns?: readonly (readonly [string, readonly string[]])[];
  /** Second pass: the tree's C functions returning static storage (see staticReturns.ts). */
  readonly statics?: readonly string[];
  /** Second pass: the tree's C functions other files can call that never return (see leavingFunctions.ts). */
  readonly leaving?: readonly string[];
  /**
   * Second pass: the tree's C functions other files can call that reach pointer parameters only
   * through members, with each such parameter's index and members (see memberParameters.ts).
   */
  readonly memberParams?: readonly (readonly [string, readonly (readonly [number, readonly string[]])[]])[];
  /** Second pass: the member names some file assigns a message descriptor (see messageMembers). */
  readonly messageMembers?: readonly string[];
  /** Second pass: the calls some file makes handing a message socket (see handedMessages.ts). */
  readonly messageHanded?: readonly HandedMessage[];
  /** First pass told the facts: the tree's takers of a writer (see handedWriters.ts). */
  readonly writerTakers?: readonly WriterTaker[];
  /** Second pass: what every call in the tree binds takers' parameters to (see handedWriters.ts). */
  readonly treeBound?: readonly HandedWriter[];
  /** Second pass: the exported functions of the tree returning a known kind of descriptor (returnedKinds.ts). */
  readonly returned?: { readonly stream: readonly string[]; readonly message: readonly string[] };
  /** Second pass: exported C functions two files or more define, with those files (exportedDefiners). */
  readonly definers?: readonly (readonly [string, readonly string[]])[];
  /** Second pass: catalogue helper names the tree defines and exports (the fact base's). */
  readonly overridden?: readonly string[];
  /** Weak definitions other files replace, by file (the fact base's: see WrapperIndex.cReplaced). */
  readonly replaced?: readonly (readonly [string, readonly string[]])[];
  /**
   * Only the facts a file's text gives without a parse ({@link Analyzer.textFacts}), as `wrappers`:
   * the pass that works out the tree's function facts before the first analysis.
   */
  readonly factsOnly?: boolean;
  /**
   * A first pass told the tree's function facts (`quiet`, `defined`, ...) and its headers' macros and
   * codes (`index`): the results are a first pass's (`wrappers`, not `chained`).
   */
  readonly told?: boolean;
  /**
   * A later pass of a run whose first pass was told (see `told`): a thread reads the text (and takes
   * the facts) its facts pass kept of a file, not the file again.
   */
  readonly keptText?: boolean;
  readonly fix: boolean;
  /** Fixing applies unsafe fixes too (--unsafe-fixes). */
  readonly unsafeFixes?: boolean;
  /** Fixing only computes the fixed text (--diff): nothing is written. */
  readonly diff?: boolean;
  /** Files larger than this many bytes are skipped (default {@link DEFAULT_MAX_FILE_BYTES}). */
  readonly maxFileBytes?: number;
  /**
   * Each result carries the hash of the bytes it was computed from: a cache keys it on those, not on
   * what the file held when the cache looked, which a save in between may have changed.
   */
  readonly hashContent?: boolean;
}

/** The hash by which `--cache` knows a file's content: SHA-256 of its bytes, in hex. */
export function contentHash(bytes: Uint8Array): string {
  // Loaded for a cached run only (see the fix below: module loading is paid in every worker).
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The analyzer's findings with line/character positions in `text` (the text they were found in), as
 * every output format and the --stdin path report them. Does not modify `findings`.
 */
export function reportedFindings(findings: readonly Finding[], text: string): ReportedFinding[] {
  // No line index where there is nothing to report: most files of a large tree have nothing.
  if (findings.length === 0) return [];
  const lines = new LineIndex(text);
  const at = (offset: number) => lines.positionAt(offset);
  return findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    message: f.message,
    syscalls: f.syscalls,
    target: f.target,
    start: at(f.span.start),
    end: at(f.span.end),
    related: f.related.map((r) => ({ start: at(r.span.start), end: at(r.span.end), message: r.message })),
    fix: f.fix && {
      title: f.fix.title,
      safety: f.fix.safety,
      ...(f.fix.unsafeBecause ? { unsafeBecause: f.fix.unsafeBecause } : {}),
      edits: f.fix.edits.map((e) => ({ start: at(e.span.start), end: at(e.span.end), newText: e.newText })),
    },
  }));
}

/** Lines of `text` for throughput figures: one more than its line feeds (without splitting it). */
export function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** Builds the wrapper index a job carries. */
export function indexOfJob(job: LintJob): WrapperIndex | undefined {
  if (!job.index) return undefined;
  const index = new WrapperIndex();
  for (const [path, wrappers] of job.index) index.set(path, wrappers);
  if (job.quiet) index.presetQuiet(job.quiet);
  if (job.defined) index.presetDefined(job.defined);
  if (job.opaque) index.presetOpaque(job.opaque);
  if (job.pure) index.presetPure(job.pure);
  if (job.readers) index.presetReaders(job.readers);
  if (job.waiters) index.presetWaiters(job.waiters);
  if (job.assigns) index.presetAssigns(job.assigns);
  if (job.statics) index.presetStatics(job.statics);
  if (job.leaving) index.presetLeaving(job.leaving);
  if (job.memberParams) index.presetMemberParams(job.memberParams);
  if (job.messageMembers) index.presetMessageMembers(job.messageMembers);
  if (job.messageHanded) index.presetMessageHanded(job.messageHanded);
  if (job.writerTakers) index.presetWriterTakers(job.writerTakers);
  if (job.treeBound) index.presetTreeBound(job.treeBound);
  if (job.returned) index.presetReturned(job.returned);
  if (job.definers) index.presetDefiners(job.definers);
  if (job.overridden) index.presetOverridden(job.overridden);
  if (job.replaced) index.presetReplaced(job.replaced);
  return index;
}

/**
 * The facts this thread read from each file's text before the first pass (see LintJob.factsOnly), with
 * the text, until the next facts pass: the first pass and the passes after it read that text and those
 * facts (one text for the whole run). At most {@link READ_KEPT} characters of text, the rest read again.
 */
const kept = new Map<string, KeptRead>();

/** A text a facts pass read, its facts, and the names it calls once a later pass asked (calledNames). */
interface KeptRead {
  readonly text: string;
  readonly facts: FileWrappers;
  /** Lines in `text` (see countLines): each later pass reports them again. */
  readonly lines: number;
  called?: string;
}
let keptLength = 0;
const READ_KEPT = 64 * 1024 * 1024;

/**
 * Forgets what the last facts pass kept: called as a facts pass starts, as its run's files may have
 * changed since the last one's (a --watch round), or gone.
 */
export function forgetRead(): void {
  kept.clear();
  keptLength = 0;
}

function keepRead(path: string, text: string, facts: FileWrappers, lines: number): void {
  const before = kept.get(path);
  if (before) keptLength -= before.text.length;
  if (keptLength + text.length > READ_KEPT) {
    kept.delete(path);
    return;
  }
  kept.set(path, { text, facts, lines });
  keptLength += text.length;
}

/** This thread's buffer for reading files (see ReadBuffer), made on the first read. */
let readBuffer: ReadBuffer | undefined;

/**
 * Lints `path`. Never throws: a file that cannot be read or written comes back with `error` set.
 * Returns undefined in a second pass for a file that calls no wrapper of another file (see
 * {@link SecondPass}).
 */
export async function lintFile(
  analyzer: Analyzer,
  path: string,
  job: LintJob,
  index: WrapperIndex | undefined,
  second: SecondPass | undefined,
): Promise<FileResult | undefined> {
  const limit = job.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  // A fix writes the file back: it must start from what is on disk now, with its stamp.
  let source: SourceFile | undefined;
  let text: string;
  let hash: string | undefined;
  const callers = second?.always(path) ? undefined : second?.forPath(path);
  // A first pass told the facts takes the text this thread read for them (and the facts) as it was:
  // the facts and the analysis then read one text. So do the later passes of that run, which would
  // otherwise read every file's bytes again only to find that most call no helper of another file
  // (the words of `callers` are ASCII: in the bytes as in the decoded text).
  const taken = job.told || job.keptText ? kept.get(path) : undefined;
  if (taken) {
    if (
      callers &&
      !(
        mayCall((taken.called ??= calledNames(taken.text)), callers.words) && callers.pattern.test(taken.text)
      )
    )
      return undefined;
    return analysed(analyzer, path, taken.text, job, index, taken.facts, undefined, undefined, taken.lines);
  }
  try {
    // Synchronously: this thread has nothing else to do meanwhile, and an asynchronous read's round
    // trips through the thread pool cost more than the read (see readRegularFileSync). Without a fix,
    // the bytes alone, through this thread's one buffer; a second pass decodes only the files whose
    // bytes name a wrapper it looks for (most do not).
    if (job.fix) {
      source = readSourceFileSync(path, limit);
      text = source.text;
      if (job.hashContent) hash = contentHash(source.bytes);
    } else {
      const bytes = readRegularFileInto(path, limit, (readBuffer ??= new ReadBuffer()));
      if (callers && !callers.words.some((word) => bytes.includes(word, 0, 'latin1'))) return undefined;
      text = decodeSource(bytes).text;
      if (job.hashContent) hash = contentHash(bytes);
    }
  } catch (error) {
    if (error instanceof SkippedFileError) return { path, findings: [], lines: 0, skipped: error.reason };
    return { path, findings: [], lines: 0, error: `cannot read ${path}: ${(error as Error).message}` };
  }
  if (callers && !callers.pattern.test(text)) return undefined;
  if (job.factsOnly) {
    const facts = analyzer.textFacts(path, text, job.settings, limit);
    const lines = countLines(text);
    keepRead(path, text, facts, lines);
    return { path, findings: [], lines, wrappers: facts };
  }
  return analysed(analyzer, path, text, job, index, undefined, source, hash);
}

/**
 * A told first pass's wrappers of a file: without its function facts, which the thread that asked
 * has from the pass that read them (they are those of the same text), nor the answers only a fact
 * base worked out after the first pass reads (it was worked out before). Sending them back again cost
 * both threads their copying, and the asking thread did it while the others waited for the next pass.
 */
function toldWrappers(wrappers: FileWrappers): FileWrappers {
  const { functions: _functions, loud: _loud, helperLoud: _helperLoud, ...rest } = wrappers;
  return rest;
}

/**
 * The rest of {@link lintFile} once `text` is read: `read`, the facts a pass before read from it, and
 * `lines`, the lines it counted in it.
 */
async function analysed(
  analyzer: Analyzer,
  path: string,
  text: string,
  job: LintJob,
  index: WrapperIndex | undefined,
  read: FileWrappers | undefined,
  source?: SourceFile,
  hash?: string,
  lines?: number,
): Promise<FileResult> {
  const limit = job.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const lineCount = lines ?? countLines(text);
  // The byte limit is already enforced; the analyzer's own length limit must not skip silently.
  const refused = skipReason(text, limit);
  if (refused) return { path, findings: [], lines: lineCount, skipped: refused };
  // A pass after the first: the index holds the tree's wrappers.
  const later = !!index && !job.told;
  let first: ReturnType<Analyzer['inspect']>;
  try {
    // A later pass keeps only the wrappers the file defines (`chained`) of what the first pass indexed.
    first = analyzer.inspect(path, text, job.settings, {
      // What a first pass is told is about C functions: a TS file's first pass is read without it.
      index: job.told && languageOf(path) !== 'c' ? undefined : index,
      maxLength: limit,
      onlyChained: later,
      textFacts: read,
    });
  } catch (error) {
    // A bug in the analyzer must not stop the run: the file is reported as not analysed.
    return {
      path,
      findings: [],
      lines: lineCount,
      error: `analysing ${path} failed: ${(error as Error).message}`,
    };
  }
  let findings = first.findings;
  const wrappers = later ? undefined : job.told ? toldWrappers(first.wrappers) : first.wrappers;
  const chained = later ? first.wrappers.c : undefined;
  let fixed = false;
  if (job.fix && source) {
    const fixedText = analyzer.fixAll(path, text, findings, job.unsafeFixes);
    if (fixedText !== undefined && job.diff) {
      const after = analyzer.analyze(path, fixedText, job.settings, { index, maxLength: limit });
      const fixed = Math.max(1, findings.length - after.length);
      const preview = { before: text, after: fixedText, fixed };
      return {
        path,
        findings: reportedFindings(after, fixedText),
        lines: lineCount,
        wrappers,
        chained,
        preview,
      };
    }
    if (fixedText !== undefined) {
      // Loaded for a fix only: with node:crypto and node:fs/promises it was a visible part of a worker's
      // module loading, paid in every run.
      const { FileChangedError, ReadOnlyFileError, replaceFile } =
        require('./replaceFile') as typeof ReplaceFileModule;
      const { realpath } = require('node:fs/promises') as typeof import('node:fs/promises');
      try {
        // Only the edited characters change: the rest is encoded back to the bytes it came from.
        await replaceFile(await realpath(path), source.stamp, encodeSource(fixedText, source.form));
      } catch (error) {
        const reason = error instanceof SkippedFileError ? error.reason : (error as Error).message;
        return {
          path,
          findings: reportedFindings(findings, text),
          lines: lineCount,
          error:
            error instanceof FileChangedError || error instanceof ReadOnlyFileError
              ? error.message
              : `cannot fix ${path}: ${reason}`,
        };
      }
      text = fixedText;
      fixed = true;
      // The findings below are the fixed text's: no longer those of the bytes that were hashed.
      hash = undefined;
      findings = analyzer.analyze(path, text, job.settings, { index, maxLength: limit });
    }
  }
  return {
    path,
    findings: reportedFindings(findings, text),
    lines: lineCount,
    wrappers,
    chained,
    fixed,
    ...(hash === undefined ? {} : { contentHash: hash }),
  };
}
