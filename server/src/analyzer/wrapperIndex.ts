// The workspace index of wrapper functions across files: which files define which wrappers.
// The language server keeps one per workspace folder; the CLI builds one in a first pass over the tree.
import { writableWaitCall } from './c/writableWaits';
import type * as Crypto from 'node:crypto';
import { canonicalJson } from './canonicalJson';
import { treeReaders } from './c/awaitedReplies';
import { treeWaiting, treeWritableWaits } from './c/waitingHelpers';
import { treeLeaving } from './c/leavingFunctions';
import { treeAssignments } from './c/assignedGlobals';
import { memberParameterMap, type MemberParameterMap } from './c/memberParameters';
import { staticSenders } from './c/staticSenders';
import { replacedDefinitions } from './c/weakDefinitions';
import { libraryQuiet } from './c/functionFacts';
import { opaqueDefinitions } from './c/opaqueDefinitions';
import { C_PURE_FUNCTIONS, C_TREE_OVERRIDABLE } from './catalogue';
import type { CFunctionFact } from './c/functionFacts';
import type { ReturnedKinds } from './c/returnedKinds';
import { type HandedMessage, type HandedMessages } from './c/handedMessages';
import { indexesByName } from './c/parameterIndexes';
import {
  treeBound,
  type HandedWriter,
  type TreeBound,
  type WriterTaker,
  type WriterTakers,
} from './c/handedWriters';
import { dirname } from 'node:path';
import { definedCalls, definedName, isHeader, resolveInclude } from './headerIncludes';
import { includedSources, isShared } from './sourceIncludes';
import { languageOf } from './languageOf';
import { moduleKey, type CWrapper, type TsWrapper } from './wrapper';
import type { Implementations, MemberFunction } from './c/memberWriters';
import { pureMembers } from './c/pureMembers';
import { MemberImplementations } from './memberImplementations';

/** What one file contributes to the fact base: the wrappers it defines, and what its C functions call. */
export interface FileWrappers {
  readonly c: readonly CWrapper[];
  readonly ts: readonly TsWrapper[];
  /** C: each function definition and the names it calls (for which functions do no output). */
  readonly functions?: readonly CFunctionFact[];
  /**
   * C, from an analysis for findings: the names whose quietness its rules asked and were told "may do
   * output" (a function of the file, another file's or the library's). Its findings depend on the
   * fact base through those answers alone, so a fact base that says none of them is quiet leaves them
   * as they are. Absent: unknown (from an index, or a cache of an older version).
   */
  readonly loud?: readonly string[];
  /**
   * C, from an analysis for findings: the calls the readings of its helpers asked about and were told
   * may do output (CContext.quiet), or asked what they write to the descriptor a helper hands them
   * (CContext.silent, asked only then). Another answer for one of them, from a definition the file
   * alone does not show (a header's macro, read with the index), can make a function of the file a
   * helper of one write. Absent: unknown.
   */
  readonly helperLoud?: readonly string[];
  /**
   * C, from an analysis for findings: the helpers it read as writers from their calls alone (no body
   * in the file; see callSiteWriters), and the functions a later write's arguments call that it took to
   * do no output (no body read; see CContext.unread). A body of one in another file overrules that
   * reading.
   */
  readonly inferred?: readonly string[];
  /**
   * C, from a batch analysis for findings: its first look found no call that may write (no write call,
   * helper read from its calls, header macro that writes, call through a member, descriptor handed on),
   * so it read no function. Read again with what other files' functions return (the kinds of their
   * descriptors), such a file finds what it found: those kinds change the reading of a write, and only
   * the index's other files' helpers, which make a second pass read it anyway, can give it one.
   */
  readonly noWriteCall?: true;
  /**
   * C, from a batch analysis for findings: no write of the file had its descriptor's kind read
   * without the file's streams showing it a byte stream (CContext.kindAsked), and none of its functions
   * returns a message descriptor. What other files' functions return (returnedKinds.ts) can only show
   * more descriptors to be streams: read again with their byte streams, such a file finds what it
   * found. (Their message descriptors still change its messages: see the CLI's callingReturned.)
   */
  readonly noKindAsked?: true;
  /** C: the functions the file declares `const` or `pure` (see declaredPureFunctions). */
  readonly declaredPure?: readonly string[];
  /** C: the member names the file assigns a datagram, raw or device descriptor (see messageMembers). */
  readonly messageMembers?: readonly string[];
  /**
   * C: the functions the file calls handing a datagram or SOCK_SEQPACKET socket it opened, with the
   * argument's index (see handedMessages.ts): that parameter of the function is a message descriptor.
   */
  readonly messageHanded?: readonly HandedMessage[];
  /**
   * C: the file's functions other files see that take a function they call with three arguments, as a
   * write, by its parameter's index (see handedWriters.ts).
   */
  readonly writerTakers?: readonly WriterTaker[];
  /**
   * C: what each mention of another file's taker (see writerTakers) in the file hands it there, as
   * far as the file was read knowing the takers (see handedWriters.ts).
   */
  readonly writersHanded?: readonly HandedWriter[];
  /** C: the file's exported functions that return a byte-stream descriptor (see returnedKinds.ts). */
  readonly returnsStream?: readonly string[];
  /** C: the file's exported functions that return a datagram, raw or device descriptor. */
  readonly returnsMessage?: readonly string[];
  /**
   * A C header's project includes, as written (see projectIncludes): an includer of the header gets the
   * wrappers of those headers too.
   */
  readonly includes?: readonly string[];
  /**
   * A C source file's quoted includes of other C source files, as written (see sourceIncludes.ts): the
   * included file's definitions are the includer's, as a header's are (see WrapperIndex.cShared).
   */
  readonly sources?: readonly string[];
  /**
   * A C header's function-like macro definitions, as written (see functionLikeDefines): an includer
   * reads a statement of one of them as it reads its own macros' (`DBG(...)` between two writes).
   */
  readonly defines?: readonly string[];
  /**
   * A C header's object-like macros naming a device's literal path (`#define PANEL_DEV "/dev/hidraw0"`,
   * see deviceMacros.ts): an includer's `open(PANEL_DEV, ...)` opens that device.
   */
  readonly deviceDefines?: readonly string[];
  /**
   * A C header's declarations of global objects of a struct or a type name, and its typedefs of tagged
   * structs, one a line (see headerObjects.ts): an includer's `state.fd` is a member of that struct.
   */
  readonly objects?: readonly string[];
  /**
   * A C header's names of constants no statement can change: enum members, macros of constant
   * expressions, `const` objects (see constantNames.ts). An includer's test comparing with one reads
   * no state.
   */
  readonly constants?: readonly string[];
  /**
   * A C header's macros whose expansion opens or closes a brace, as written (see bracingMacros.ts): an
   * includer's `BEGIN_ACTION(name)` ... `END_ACTION` is the definition they expand to.
   */
  readonly bracing?: readonly string[];
  /**
   * A C header's named status codes: the names it gives the value 0 or -1, with the value (see
   * statusConstants): an includer reads a test or a return of one as the number.
   */
  readonly codes?: readonly (readonly [string, number])[];
  /**
   * A C file's upper-case names compared with, returned or assigned that it does not define as codes
   * (see codeUses): where a header gives one a code's value, the file is read again with the headers'.
   */
  readonly codeUses?: readonly string[];
  /**
   * C: the names the file stores in struct members (`conn->send = plain_send;`, `.send = tcp_send,`),
   * with which of them it defines (see memberFunctions): a call through the member in any file writes
   * as those functions do (see memberImplementations.ts).
   */
  readonly memberFunctions?: readonly MemberFunction[];
}

/** No name. */
const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * How many lists of the included headers' definitions, codes and devices the index keeps (see
 * WrapperIndex.gathered): a tree's files include far fewer sets of headers.
 */
const GATHERED_KEPT = 1024;

/** What WrapperIndex.gathered gathers, each kept apart: macro definitions, status codes, device macros. */
const GATHERED_DEFINES = 0;
const GATHERED_CODES = 1;
const GATHERED_DEVICES = 2;
const GATHERED_OBJECTS = 3;
const GATHERED_BRACING = 4;
const GATHERED_CONSTANTS = 5;

/** Facts digests by the file set they were computed for, per state of an index (see factsDigest). */
const digestMemo = new WeakMap<ReadonlyMap<string, CWrapper>, Map<string, string>>();

/**
 * The workspace's fact base: wrappers and C function facts by defining file; lookups see only what
 * other files export.
 */
export class WrapperIndex {
  private readonly files = new Map<string, FileWrappers>();
  private cByName: Map<string, CWrapper> | undefined;
  /** Exported wrappers more than one file defines (see exportedWrappers); set with cByName. */
  private ambiguous: Map<string, { files: string[]; wrappers: Map<string, CWrapper> }> | undefined;
  /** Set by {@link WrapperIndex.presetDefiners}. */
  private presetDefinerList: ReadonlyMap<string, readonly string[]> | undefined;
  /** Each header's wrappers (static ones included), by the header's path. */
  private byHeader: Map<string, CWrapper[]> | undefined;
  /** The names of {@link byHeader}'s wrappers; reset with it. */
  private headerNames: Set<string> | undefined;
  /** The names of the function-like macros headers define; reset with {@link byHeader}. */
  private headerMacros: Set<string> | undefined;
  private headerDevices: Set<string> | undefined;
  /** Whether some header declares a global object; reset with {@link headerDevices}. */
  private headerObjectsKnown: boolean | undefined;
  /** Whether some header defines a bracing macro; reset with {@link headerDevices}. */
  private headerBracingKnown: boolean | undefined;
  /** Whether some header defines a constant; reset with {@link headerDevices}. */
  private headerConstantsKnown: boolean | undefined;
  /** The header macros whose bodies call each name, by the name; reset with {@link headerMacros}. */
  private macroCallers: Map<string, string[]> | undefined;
  /** The names headers give a status code's value; reset with {@link headerMacros}. */
  private headerCodes: Set<string> | undefined;
  /** The C source files another file includes (see sourceIncludes.ts); reset with {@link byHeader}. */
  private included: Set<string> | undefined;
  /** The headers the index holds anything of (wrappers, functions or includes). */
  private headerPaths: Set<string> | undefined;
  /**
   * Where each include resolves among {@link headerPaths}, by the includer's folder and the name as
   * written (all that {@link resolveInclude} reads of the includer): the files of a tree include the
   * same headers, which include the same others. Reset with {@link headerPaths}.
   */
  private resolved: Map<string, string | undefined> | undefined;
  /** Each header's includes as {@link resolved} finds them, in order. Reset with {@link resolved}. */
  private headerIncludes: Map<string, readonly string[]> | undefined;
  /** The last {@link includedHeaders} answer: a file's analysis asks it for its wrappers, macros and codes. */
  private lastIncluded:
    { path: string; includes: readonly string[]; found: string[]; key?: string } | undefined;
  /**
   * What {@link gathered} gathered from the headers a file includes, by what it gathered and those
   * headers' paths (in order): the files of a tree include the same few sets of headers, whose macro
   * definitions and codes were gathered into a new list of thousands for each file, and each file's
   * analysis then read that list anew. One list lets the analysis read it once (see
   * includedDefinesReading in analyzeC.ts). Reset with {@link resolved}.
   */
  private gatheredByHeaders: Map<number, Map<string, readonly unknown[]>> | undefined;
  private quiet: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetQuiet}: the answer worked out elsewhere (the CLI's main thread). */
  private preset: ReadonlySet<string> | undefined;
  private defined: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetDefined}. */
  private presetDefinedNames: ReadonlySet<string> | undefined;
  private opaque: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetOpaque}. */
  private presetOpaqueNames: ReadonlySet<string> | undefined;
  private pure: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetPure}. */
  private presetPureNames: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetMessageMembers}. */
  private presetMembers: ReadonlySet<string> | undefined;
  private members: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetMessageHanded}. */
  private presetHanded: HandedMessages | undefined;
  private handed: HandedMessages | undefined;
  /** Set by {@link WrapperIndex.presetWriterTakers}. */
  private presetTakers: WriterTakers | undefined;
  private takers: WriterTakers | undefined;
  /** Set by {@link WrapperIndex.presetTreeBound}. */
  private presetBound: TreeBound | undefined;
  private bound: TreeBound | undefined;
  private returned: ReturnedKinds | undefined;
  /** Set by {@link WrapperIndex.presetReturned}. */
  private presetReturnedKinds: ReturnedKinds | undefined;
  private overridden: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetOverridden}. */
  private presetOverriddenNames: ReadonlySet<string> | undefined;
  private implementations: MemberImplementations | undefined;
  private readers: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetReaders}. */
  private presetReaderNames: ReadonlySet<string> | undefined;
  private waiters: ReadonlySet<string> | undefined;
  private assigns: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** Set by {@link WrapperIndex.presetAssigns}. */
  private presetAssignMap: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** Set by {@link WrapperIndex.presetWaiters}. */
  private presetWaiterNames: ReadonlySet<string> | undefined;
  private leaving: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetLeaving}. */
  private presetLeavingNames: ReadonlySet<string> | undefined;
  private statics: ReadonlySet<string> | undefined;
  /** Set by {@link WrapperIndex.presetStatics}. */
  private presetStaticNames: ReadonlySet<string> | undefined;
  private memberParams: MemberParameterMap | undefined;
  /** Set by {@link WrapperIndex.presetMemberParams}. */
  private presetMemberParamMap: MemberParameterMap | undefined;
  /** The weak definitions other files replace, by file (see weakDefinitions.ts). */
  private replaced: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** Set by {@link WrapperIndex.presetReplaced}. */
  private presetReplacedMap: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** {@link files} less the replaced weak definitions' facts and wrappers; reset with {@link replaced}. */
  private linked: Map<string, FileWrappers> | undefined;

  /** Records (or replaces) the wrappers and function facts of `path`. */
  set(path: string, wrappers: FileWrappers): void {
    // A header that only includes others is kept for its includes: a chain of includes passes it.
    if (
      wrappers.c.length === 0 &&
      wrappers.ts.length === 0 &&
      !wrappers.functions?.length &&
      !wrappers.returnsStream?.length &&
      !wrappers.returnsMessage?.length &&
      !wrappers.messageHanded?.length &&
      !wrappers.writerTakers?.length &&
      !wrappers.writersHanded?.length &&
      !wrappers.includes?.length &&
      !wrappers.sources?.length &&
      !wrappers.defines?.length &&
      !wrappers.deviceDefines?.length &&
      !wrappers.objects?.length &&
      !wrappers.constants?.length &&
      !wrappers.bracing?.length &&
      !wrappers.codes?.length &&
      !wrappers.memberFunctions?.length
    ) {
      this.delete(path);
      return;
    }
    this.files.set(path, wrappers);
    this.cByName = undefined;
    this.byHeader = undefined;
    this.included = undefined;
    this.headerNames = undefined;
    this.headerMacros = undefined;
    this.headerDevices = undefined;
    this.headerObjectsKnown = undefined;
    this.headerBracingKnown = undefined;
    this.headerConstantsKnown = undefined;
    this.macroCallers = undefined;
    this.headerCodes = undefined;
    this.headerPaths = undefined;
    this.resolved = undefined;
    this.headerIncludes = undefined;
    this.lastIncluded = undefined;
    this.gatheredByHeaders = undefined;
    this.overridden = undefined;
    this.quiet = undefined;
    this.defined = undefined;
    this.opaque = undefined;
    this.pure = undefined;
    this.members = undefined;
    this.handed = undefined;
    this.takers = undefined;
    this.bound = undefined;
    this.returned = undefined;
    this.implementations = undefined;
    this.readers = undefined;
    this.waiters = undefined;
    this.assigns = undefined;
    this.statics = undefined;
    this.leaving = undefined;
    this.memberParams = undefined;
    this.replaced = undefined;
    this.linked = undefined;
  }

  /** Forgets `path` (deleted, or no longer analysed). */
  delete(path: string): void {
    if (this.files.delete(path)) {
      this.cByName = undefined;
      this.byHeader = undefined;
      this.included = undefined;
      this.headerNames = undefined;
      this.headerMacros = undefined;
      this.headerDevices = undefined;
      this.headerObjectsKnown = undefined;
      this.headerBracingKnown = undefined;
      this.headerConstantsKnown = undefined;
      this.headerCodes = undefined;
      this.headerPaths = undefined;
      this.resolved = undefined;
      this.headerIncludes = undefined;
      this.lastIncluded = undefined;
      this.gatheredByHeaders = undefined;
      this.overridden = undefined;
      this.quiet = undefined;
      this.defined = undefined;
      this.opaque = undefined;
      this.pure = undefined;
      this.members = undefined;
      this.handed = undefined;
      this.takers = undefined;
      this.bound = undefined;
      this.returned = undefined;
      this.implementations = undefined;
      this.readers = undefined;
      this.waiters = undefined;
      this.assigns = undefined;
      this.statics = undefined;
      this.leaving = undefined;
      this.memberParams = undefined;
      this.replaced = undefined;
      this.linked = undefined;
    }
  }

  /**
   * Whether the definitions of `path` are its includers' own: a header's, or a C source file another
   * file of the workspace includes (`#include "impl.c"`). Its `static` functions then count as a
   * header's do (visible to the facts of every file, lent to its includers as wrappers).
   */
  cShared(path: string): boolean {
    if (isHeader(path)) return true;
    this.included ??= includedSources(this.files);
    return isShared(path, this.included);
  }

  /** Uses `replaced` (by file, its weak definitions other files replace), instead of reading the facts. */
  presetReplaced(replaced: readonly (readonly [string, readonly string[]])[]): void {
    this.presetReplacedMap = new Map(replaced.map(([file, names]) => [file, new Set(names)]));
    this.linked = undefined;
  }

  /**
   * The functions `path` defines weak that another file of the workspace defines otherwise (see
   * weakDefinitions.ts): its analysis reads a call to one as a call to that definition, not to its own.
   */
  cReplacedFor(path: string): ReadonlySet<string> {
    return this.replacedByFile().get(path) ?? NO_NAMES;
  }

  /** Every file's weak definitions other files replace (see cReplacedFor), files and names sorted. */
  cReplaced(): [string, string[]][] {
    return [...this.replacedByFile()]
      .map(([file, names]): [string, string[]] => [file, [...names].sort()])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private replacedByFile(): ReadonlyMap<string, ReadonlySet<string>> {
    if (this.presetReplacedMap) return this.presetReplacedMap;
    this.replaced ??= replacedDefinitions([...this.files].map(([file, w]) => [file, w.functions] as const));
    return this.replaced;
  }

  /**
   * The files' facts as the linker keeps them: a weak definition another file replaces (its function
   * facts, its wrapper) is left out, so that every answer of the fact base is the replacing body's.
   * The files themselves when none is.
   */
  private live(): ReadonlyMap<string, FileWrappers> {
    const replaced = this.replacedByFile();
    if (replaced.size === 0) return this.files;
    if (!this.linked) {
      const linked = new Map(this.files);
      for (const [file, names] of replaced) {
        const w = linked.get(file);
        if (!w) continue;
        linked.set(file, {
          ...w,
          c: w.c.filter((x) => !names.has(x.name)),
          ...(w.functions && { functions: w.functions.filter((f) => !(f.weak && names.has(f.name))) }),
          ...(w.returnsStream && { returnsStream: w.returnsStream.filter((n) => !names.has(n)) }),
          ...(w.returnsMessage && { returnsMessage: w.returnsMessage.filter((n) => !names.has(n)) }),
        });
      }
      this.linked = linked;
    }
    return this.linked;
  }

  /** Uses `names` as the tree's functions returning static storage, instead of reading the files' facts. */
  presetStatics(names: readonly string[]): void {
    this.presetStaticNames = new Set(names);
  }

  /**
   * The C functions other files can call (a header's, another file's exported one) that return static
   * storage their next call overwrites (see staticReturns.ts). `_path` reads its own definitions itself.
   */
  cStaticFor(_path: string): ReadonlySet<string> {
    if (this.presetStaticNames) return this.presetStaticNames;
    if (!this.statics) {
      const found = new Set<string>();
      for (const [file, wrappers] of this.live()) {
        const header = this.cShared(file);
        for (const f of wrappers.functions ?? [])
          if (f.returnsStatic && (header || f.exported)) found.add(f.name);
      }
      // The helpers other files can call that send such storage count as such functions (see
      // staticSenders.ts): read once the whole set is known, each file's helpers to a fixed point.
      if (found.size > 0)
        for (let grew = true; grew;) {
          const before = found.size;
          for (const [file, wrappers] of this.live()) {
            const header = this.cShared(file);
            const visible = (wrappers.functions ?? []).filter((f) => header || f.exported);
            if (visible.length === 0) continue;
            for (const n of staticSenders(found, visible, (n) => wrappers.c.find((w) => w.name === n)).keys())
              found.add(n);
          }
          grew = found.size > before;
        }
      this.statics = found;
    }
    return this.statics;
  }

  /** Uses `names` as the tree's functions that never return, instead of reading the files' facts. */
  presetLeaving(names: readonly string[]): void {
    this.presetLeavingNames = new Set(names);
  }

  /**
   * The C functions other files can call (a header's, another file's exported one) that never return
   * (see leavingFunctions.ts): a call of one between two writes ends their run. `_path` reads its own
   * definitions itself (a file's own definition of a name is what its calls reach).
   */
  cLeavingFor(_path: string): ReadonlySet<string> {
    if (this.presetLeavingNames) return this.presetLeavingNames;
    this.leaving ??= treeLeaving(
      [...this.live()].flatMap(([file, w]) =>
        w.functions?.length ? [[w.functions, this.cShared(file)] as const] : [],
      ),
    );
    return this.leaving;
  }

  /** Uses `names` as the tree's functions that read, instead of reading the files' facts. */
  presetReaders(names: readonly string[]): void {
    this.presetReaderNames = new Set(names);
  }

  /**
   * The C functions other files can call (a header's, another file's exported one) that read what a
   * descriptor received: their body calls a read of the library, or a function that does (its own
   * file's first, then another file's exported one), worked out once to a least fixed point over the
   * workspace. A helper that hands its descriptor to one after its write awaits a reply (see
   * awaitedReplies.ts). `_path` reads its own definitions itself.
   */
  cReadersFor(_path: string): ReadonlySet<string> {
    if (this.presetReaderNames) return this.presetReaderNames;
    this.readers ??= treeReaders(
      [...this.live()].flatMap(([file, w]) =>
        w.functions?.length ? [[w.functions, this.cShared(file)] as const] : [],
      ),
    );
    return this.readers;
  }

  /** Uses `names` as the tree's functions that only wait, instead of reading the files' facts. */
  presetWaiters(names: readonly string[]): void {
    this.presetWaiterNames = new Set(names);
  }

  /**
   * The C functions other files can call (a header's, another file's exported one) that only wait
   * (see waitingHelpers.ts), worked out once to a least fixed point over the workspace: called between
   * two writes, one ends the run as a library wait does. With them, as `name#index`, those whose one
   * wait is for a parameter's descriptor to take output (treeWritableWaits). `_path` reads its own
   * definitions itself.
   */
  cWaitersFor(_path: string): ReadonlySet<string> {
    if (this.presetWaiterNames) return this.presetWaiterNames;
    if (!this.waiters) {
      const quiet = this.cQuietFor('');
      const files = [...this.live()].flatMap(([file, w]) =>
        w.functions?.length ? [[w.functions, this.cShared(file)] as const] : [],
      );
      // And the writable waits, as `name#index`: which parameter each waits on (see waitingHelpers.ts).
      this.waiters = new Set([
        ...treeWaiting(files, (name) => quiet.has(name) || libraryQuiet(name)),
        ...treeWritableWaits(files),
      ]);
    }
    return this.waiters;
  }

  /**
   * Uses `assigns` as what the tree's functions change (see cAssignsFor), instead of reading the files'
   * facts. Functions given one list (the same array) share one set, as the facts pass gave them.
   */
  presetAssigns(assigns: readonly (readonly [string, readonly string[]])[]): void {
    const sets = new Map<readonly string[], ReadonlySet<string>>();
    const setOf = (names: readonly string[]) => {
      let set = sets.get(names);
      if (set === undefined) sets.set(names, (set = new Set(names)));
      return set;
    };
    this.presetAssignMap = new Map(assigns.map(([name, names]) => [name, setOf(names)]));
  }

  /**
   * What each C function other files can call (a header's, another file's exported one) changes
   * beyond its arguments: the names its body assigns, its callees' in any file included (see
   * assignedGlobals.ts), worked out once over the workspace. A call of one between two writes ends the
   * run where it changes what the earlier write sent. `_path` reads its own definitions itself.
   */
  cAssignsFor(_path: string): ReadonlyMap<string, ReadonlySet<string>> {
    if (this.presetAssignMap) return this.presetAssignMap;
    this.assigns ??= treeAssignments(
      [...this.live()].flatMap(([file, w]) =>
        w.functions?.length ? [[w.functions, this.cShared(file)] as const] : [],
      ),
    );
    return this.assigns;
  }

  /**
   * Uses `params` (by function, each parameter's index and members) as what the tree's functions reach
   * of their pointer parameters (see cMemberParamsFor), instead of reading the files' facts.
   */
  presetMemberParams(
    params: readonly (readonly [string, readonly (readonly [number, readonly string[]])[]])[],
  ): void {
    this.presetMemberParamMap = new Map(params.map(([name, list]) => [name, new Map(list)]));
  }

  /**
   * The C functions other files can call (a header's, another file's exported one) that reach pointer
   * parameters only through members, by name: each such parameter's index and the members its body
   * names (see memberParameters.ts). A call of one handed the object that holds a written descriptor
   * changes those members only. A name two files define keeps what both definitions say. `_path` reads
   * its own definitions itself.
   */
  cMemberParamsFor(_path: string): MemberParameterMap {
    if (this.presetMemberParamMap) return this.presetMemberParamMap;
    this.memberParams ??= memberParameterMap(
      [...this.live()].flatMap(([file, w]) => {
        const shared = w.functions?.length ? this.cShared(file) : false;
        return (w.functions ?? []).filter((f) => shared || f.exported);
      }),
    );
    return this.memberParams;
  }

  /** Uses `names` as the tree's opaque definitions, instead of reading the files' facts. */
  presetOpaque(names: readonly string[]): void {
    this.presetOpaqueNames = new Set(names);
  }

  /**
   * The C functions other files can call whose body calls through a pointer or a member (see
   * opaqueDefinitions.ts): left out of {@link cDefinedFor}, they are still read, never unread.
   * `_path` reads its own definitions itself.
   */
  cOpaqueFor(_path: string): ReadonlySet<string> {
    if (this.presetOpaqueNames) return this.presetOpaqueNames;
    this.opaque ??= opaqueDefinitions(
      [...this.live()].map(([file, w]) => [file, w.functions] as const),
      (file) => this.cShared(file),
    );
    return this.opaque;
  }

  /** Uses `names` as the C functions defined in the tree, instead of reading the files' facts. */
  presetDefined(names: readonly string[]): void {
    this.presetDefinedNames = new Set(names);
  }

  /**
   * The C functions some file of the workspace defines with a body that says what a call of theirs
   * does: a helper read as a writer from its calls alone is not, where such a body is there. Only
   * definitions other files can call count: a header's (its includers' own), or another file's
   * exported one; a `static` function of a `.c` file is that file's alone, and the same name called
   * elsewhere is another function (the library's, or a program's own). Nor does a body that calls
   * through a pointer or a member (`so->send(...)`, see CFunctionFact.opaque): it may do anything, so
   * it tells no more than no body, and what the calls show stands. `_path` reads its own definitions
   * itself.
   */
  cDefinedFor(_path: string): ReadonlySet<string> {
    if (this.presetDefinedNames) return this.presetDefinedNames;
    if (!this.defined) {
      const defined = new Set<string>();
      for (const [file, wrappers] of this.live()) {
        const header = this.cShared(file);
        for (const f of wrappers.functions ?? [])
          if (header || (f.exported && !f.opaque)) defined.add(f.name);
      }
      this.defined = defined;
    }
    return this.defined;
  }

  /**
   * What the files of the workspace store in struct members, as write helpers (see
   * memberImplementations.ts), less the functions `path` defines: its own reading decides those.
   */
  cImplementationsFor(path: string): Implementations {
    if (!this.implementations) {
      this.cByName ??= this.exportedWrappers();
      const exported = this.cByName;
      const headers = this.headers();
      const headerWrappers = new Map<string, CWrapper>();
      for (const list of headers.values()) for (const w of list) headerWrappers.set(w.name, w);
      const quiet = this.cQuietFor('');
      const files = [...this.live()]
        .filter(([, w]) => w.memberFunctions?.length)
        .map(([path, w]) => ({ path, functions: w.memberFunctions ?? [], wrappers: w.c }));
      this.implementations = new MemberImplementations(
        files,
        (name) => exported.get(name) ?? headerWrappers.get(name),
        (name) => quiet.has(name),
      );
    }
    return this.implementations.forPath(path);
  }

  /** The members some file stores a write helper in (see cImplementationsFor). */
  cImplementedMembers(): string[] {
    this.cImplementationsFor('');
    return (this.implementations as MemberImplementations).members();
  }

  /** Uses `names` as the catalogue names the tree defines (see cOverriddenFor), instead of working them out. */
  presetOverridden(names: readonly string[]): void {
    this.presetOverriddenNames = new Set(names);
  }

  /**
   * The built-in catalogue's helper names (C_TREE_OVERRIDABLE) that some file of the workspace defines
   * with a body and exports: the project's own function, which decides what calls to it do in every
   * file (see cWriteFunctionsFor). A `static` one is its file's alone.
   */
  cOverriddenFor(_path: string): ReadonlySet<string> {
    if (this.presetOverriddenNames) return this.presetOverriddenNames;
    if (!this.overridden) {
      const found = new Set<string>();
      for (const wrappers of this.live().values())
        for (const f of wrappers.functions ?? [])
          if (f.exported && C_TREE_OVERRIDABLE.has(f.name)) found.add(f.name);
      this.overridden = found;
    }
    return this.overridden;
  }

  /** Uses `names` as the message members of the tree, instead of reading the files' facts. */
  presetMessageMembers(names: readonly string[]): void {
    this.presetMembers = new Set(names);
  }

  /**
   * The member names the files of the workspace assign a message descriptor: a write to such a member
   * is one message, whichever file opened it (members cannot be told apart by their struct). The file
   * `path` is not left out: its own are in its own reading anyway, and one answer for every file keeps
   * {@link factsDigest} the same for all.
   */
  cMessageMembersFor(_path: string): ReadonlySet<string> {
    if (this.presetMembers) return this.presetMembers;
    if (!this.members) {
      const found = new Set<string>();
      for (const wrappers of this.files.values()) for (const m of wrappers.messageMembers ?? []) found.add(m);
      this.members = found;
    }
    return this.members;
  }

  /** Uses `handed` as the tree's calls handing a message socket, instead of reading the files' facts. */
  presetMessageHanded(handed: readonly HandedMessage[]): void {
    this.presetHanded = indexesByName(handed);
  }

  /**
   * The parameters, by function name and index, that some call in the workspace hands a datagram or
   * SOCK_SEQPACKET socket (see handedMessages.ts). The file `path`'s own calls are not left out: its
   * reading adds them anyway, and one answer for every file keeps {@link factsDigest} the same for all.
   */
  cMessageHandedFor(_path: string): HandedMessages {
    if (this.presetHanded) return this.presetHanded;
    this.handed ??= indexesByName([...this.files.values()].flatMap((w) => w.messageHanded ?? []));
    return this.handed;
  }

  /** Uses `takers` as the tree's takers of writers, instead of reading the files' facts. */
  presetWriterTakers(takers: readonly WriterTaker[]): void {
    this.presetTakers = indexesByName(takers);
  }

  /**
   * The functions of the workspace other files see that take a function they write with, by name,
   * with the indexes of those parameters (see handedWriters.ts).
   */
  cWriterTakersFor(_path: string): WriterTakers {
    if (this.presetTakers) return this.presetTakers;
    this.takers ??= indexesByName([...this.files.values()].flatMap((w) => w.writerTakers ?? []));
    return this.takers;
  }

  /** Uses `bound` (name, index, helper) as what the tree binds takers' parameters to. */
  presetTreeBound(bound: readonly HandedWriter[]): void {
    const byName = new Map<string, Map<number, string>>();
    for (const [name, index, helper] of bound)
      byName.set(name, (byName.get(name) ?? new Map<number, string>()).set(index, helper));
    this.presetBound = byName;
  }

  /**
   * The takers' parameters (see {@link cWriterTakersFor}) every call in the workspace binds to one
   * helper, by name and index (see handedWriters.ts): one answer for every file.
   */
  cTreeBoundFor(_path: string): TreeBound {
    if (this.presetBound) return this.presetBound;
    this.bound ??= treeBound(this.files.values(), this.cWriterTakersFor(''));
    return this.bound;
  }

  /** Uses `kinds` as the tree's functions returning a known kind of descriptor, instead of reading the files'. */
  presetReturned(kinds: { stream: readonly string[]; message: readonly string[] }): void {
    this.presetReturnedKinds = { stream: new Set(kinds.stream), message: new Set(kinds.message) };
  }

  /**
   * The exported C functions of the workspace that return a byte stream, and those that return a
   * message descriptor (see returnedKinds.ts). A name two files define with different answers, or one
   * file each way, is left out of both. The file `path`'s own are not left out: its own definitions
   * decide for it anyway, and one answer for every file keeps {@link factsDigest} the same for all.
   */
  cReturnedFor(_path: string): ReturnedKinds {
    if (this.presetReturnedKinds) return this.presetReturnedKinds;
    if (!this.returned) {
      // A name said two ways maps to undefined.
      const said = new Map<string, 'stream' | 'message' | undefined>();
      const say = (name: string, kind: 'stream' | 'message') =>
        said.set(name, !said.has(name) || said.get(name) === kind ? kind : undefined);
      // Functions that return what one call of another function returns (`return net_connect(sa);`),
      // read to a fixed point across files: a callee the same file defines `static` is that file's own,
      // which this lookup by name cannot tell from another file's.
      const forwards: [string, string][] = [];
      for (const w of this.live().values()) {
        for (const n of w.returnsStream ?? []) say(n, 'stream');
        for (const n of w.returnsMessage ?? []) say(n, 'message');
        const statics = new Set((w.functions ?? []).filter((f) => !f.exported).map((f) => f.name));
        for (const f of w.functions ?? [])
          if (f.returnsCall !== undefined && !statics.has(f.returnsCall))
            forwards.push([f.name, f.returnsCall]);
      }
      const answered = new Set(said.keys());
      const callees = new Map<string, string | undefined>();
      for (const [name, callee] of forwards)
        if (!answered.has(name))
          callees.set(name, !callees.has(name) || callees.get(name) === callee ? callee : undefined);
      for (let changed = true; changed;) {
        changed = false;
        for (const [name, callee] of callees) {
          const kind = callee === undefined ? undefined : said.get(callee);
          if (kind === undefined || said.has(name)) continue;
          said.set(name, kind);
          changed = true;
        }
      }
      const of = (kind: string) => new Set([...said].filter(([, k]) => k === kind).map(([n]) => n));
      this.returned = { stream: of('stream'), message: of('message') };
    }
    return this.returned;
  }

  /** Uses `names` as the exported pure functions, instead of working them out. */
  presetPure(names: readonly string[]): void {
    this.presetPureNames = new Set(names);
  }

  /**
   * The exported C functions of the workspace that are pure (see pureFunctions): each reads only and
   * calls only pure functions, of its own file, exported by another, or the library's. A name two
   * files export is left out.
   */
  cPureFor(_path: string): ReadonlySet<string> {
    if (this.presetPureNames) return this.presetPureNames;
    this.pure ??= this.workOutPure();
    return this.pure;
  }

  private workOutPure(): ReadonlySet<string> {
    interface Node {
      readonly fact: CFunctionFact;
      readonly own: ReadonlyMap<string, Node>;
      pure: boolean;
    }
    const nodes: Node[] = [];
    const exported = new Map<string, Node | null>();
    // Each file's own definitions, for the functions it stores in members (see pureMembers.ts).
    const owns: [readonly MemberFunction[], ReadonlyMap<string, Node>][] = [];
    // Declared pure by an attribute, in any file: pure whatever its body calls (see declaredPure.ts).
    const declared = new Set<string>();
    for (const wrappers of this.files.values()) for (const n of wrappers.declaredPure ?? []) declared.add(n);
    for (const [file, wrappers] of this.live()) {
      const own = new Map<string, Node>();
      if (wrappers.memberFunctions?.length) owns.push([wrappers.memberFunctions, own]);
      // A header's `static inline` functions are every includer's: visible as an exported one is.
      const header = this.cShared(file);
      for (const fact of wrappers.functions ?? []) {
        const before = own.get(fact.name);
        const node: Node = {
          fact,
          own,
          pure: declared.has(fact.name) || (!!fact.readsOnly && (!before || before.pure)),
        };
        if (before) before.pure = node.pure;
        own.set(fact.name, node);
        if (node.pure) nodes.push(node);
        if (fact.exported || header)
          exported.set(
            fact.name,
            exported.has(fact.name) && exported.get(fact.name) !== before ? null : node,
          );
      }
    }
    // Few functions are candidates (short bodies that assign nothing): rounds over them are cheap.
    for (let changed = true; changed;) {
      changed = false;
      for (const node of nodes) {
        if (!node.pure || declared.has(node.fact.name)) continue;
        const impure = node.fact.calls.some((c) => {
          const callee = node.own.get(c) ?? exported.get(c);
          if (declared.has(c)) return false;
          return callee === undefined ? !C_PURE_FUNCTIONS.has(c) : callee === null || !callee.pure;
        });
        if (impure) {
          node.pure = false;
          changed = true;
        }
      }
    }
    const pure = new Set<string>();
    for (const [name, node] of exported) if (node?.pure) pure.add(name);
    for (const name of declared) pure.add(name);
    // The members every function stored in is pure: a call through one is (see pureMembers.ts).
    if (owns.length > 0) {
      const stored = owns.map(([functions, own]) => ({
        functions,
        pure: (fn: string, isOwn: boolean) =>
          declared.has(fn) || (isOwn ? own.get(fn)?.pure === true : pure.has(fn)),
      }));
      for (const member of pureMembers(stored)) pure.add(member);
    }
    return pure;
  }

  /** Uses `names` as the exported functions that do no output, instead of working them out. */
  presetQuiet(names: readonly string[]): void {
    this.preset = new Set(names);
  }

  /**
   * The exported C functions of the workspace that do no output: everything they call, in their own
   * file or through other files' exported functions, does none, down to the library table. Worked out
   * once to a fixed point (a greatest one: recursion alone keeps a function quiet), again after a
   * change. A name two files export is left out, as a call could mean either. The file `path` itself
   * reads its own definitions first (a `static` one hides an exported one of the same name).
   */
  cQuietFor(_path: string): ReadonlySet<string> {
    if (this.preset) return this.preset;
    this.quiet ??= this.workOutQuiet();
    return this.quiet;
  }

  private workOutQuiet(): ReadonlySet<string> {
    interface Node {
      readonly fact: CFunctionFact;
      readonly file: string;
      quiet: boolean;
    }
    const byFile = new Map<string, Map<string, Node>>();
    const exported = new Map<string, Node | null>();
    for (const [file, wrappers] of this.live()) {
      const own = new Map<string, Node>();
      const header = this.cShared(file);
      for (const fact of wrappers.functions ?? []) {
        const node: Node = { fact, file, quiet: !fact.opaque && !own.get(fact.name)?.fact.opaque };
        const before = own.get(fact.name);
        if (before) node.quiet &&= before.quiet;
        own.set(fact.name, node);
        if (fact.exported || header)
          exported.set(
            fact.name,
            exported.has(fact.name) && exported.get(fact.name)?.file !== file ? null : node,
          );
      }
      byFile.set(file, own);
    }
    // Each function's callers, so that a function found to print makes its callers print, once each:
    // the work is the number of calls, not rounds times functions.
    const callers = new Map<Node, Node[]>();
    const loud: Node[] = [];
    for (const own of byFile.values()) {
      for (const node of own.values()) {
        if (!node.quiet) loud.push(node);
        for (const c of node.fact.calls) {
          // A wait for its descriptor to take output only is none (see writableWaits.ts).
          if (node.fact.awaitsWritable !== undefined && writableWaitCall(c)) continue;
          const callee = own.get(c) ?? exported.get(c);
          if (callee) {
            const list = callers.get(callee);
            if (list) list.push(node);
            else callers.set(callee, [node]);
          } else if (node.quiet && (callee === null || !libraryQuiet(c))) {
            node.quiet = false;
            loud.push(node);
          }
        }
      }
    }
    while (loud.length > 0) {
      for (const caller of callers.get(loud.pop()!) ?? []) {
        if (!caller.quiet) continue;
        caller.quiet = false;
        loud.push(caller);
      }
    }
    const quiet = new Set<string>();
    for (const [name, node] of exported) if (node?.quiet) quiet.add(name);
    return quiet;
  }

  /** What `path` contributes (undefined: nothing). */
  get(path: string): FileWrappers | undefined {
    return this.files.get(path);
  }

  /** The files that contribute something, with what each does. */
  entries(): IterableIterator<[string, FileWrappers]> {
    return this.files.entries();
  }

  /** Number of files with wrappers. */
  get size(): number {
    return this.files.size;
  }

  /** The wrappers headers define (static ones included), by the header's path. */
  private headers(): Map<string, CWrapper[]> {
    if (!this.byHeader) {
      const byHeader = new Map<string, CWrapper[]>();
      for (const [file, wrappers] of this.files)
        if (this.cShared(file) && wrappers.c.length > 0)
          byHeader.set(
            file,
            wrappers.c.map((w) => ({ ...w, file })),
          );
      this.byHeader = byHeader;
    }
    return this.byHeader;
  }

  /** The names of the wrappers some header defines: a call to one may need a header's body. */
  cHeaderWrapperNames(): ReadonlySet<string> {
    if (!this.headerNames) {
      const names = new Set<string>();
      for (const list of this.headers().values()) for (const w of list) names.add(w.name);
      this.headerNames = names;
    }
    return this.headerNames;
  }

  /** The names some header defines as a device's literal path (see FileWrappers.deviceDefines). */
  cHeaderDevices(): ReadonlySet<string> {
    if (!this.headerDevices) {
      const names = new Set<string>();
      for (const [file, wrappers] of this.files)
        if (this.cShared(file)) for (const d of wrappers.deviceDefines ?? []) names.add(d);
      this.headerDevices = names;
    }
    return this.headerDevices;
  }

  /**
   * The device macros (see FileWrappers.deviceDefines) of the headers `path` includes (`includes`, as
   * written), and of those they include, as far as the index knows.
   */
  cIncludedDevices(path: string, includes: readonly string[]): readonly string[] {
    if (includes.length === 0 || this.cHeaderDevices().size === 0) return [];
    return this.gathered(GATHERED_DEVICES, path, includes, (h) => this.files.get(h)?.deviceDefines);
  }

  /** Whether some header defines a constant (see FileWrappers.constants). */
  cHeaderConstantsKnown(): boolean {
    this.headerConstantsKnown ??= [...this.files].some(
      ([file, w]) => !!w.constants?.length && this.cShared(file),
    );
    return this.headerConstantsKnown;
  }

  /**
   * The constants (see FileWrappers.constants) of the headers `path` includes (`includes`, as written)
   * and of the headers those include.
   */
  cIncludedConstants(path: string, includes: readonly string[]): readonly string[] {
    if (includes.length === 0 || !this.cHeaderConstantsKnown()) return [];
    return this.gathered(GATHERED_CONSTANTS, path, includes, (h) => this.files.get(h)?.constants);
  }

  /** Whether some header declares a global object (see FileWrappers.objects). */
  cHeaderObjectsKnown(): boolean {
    this.headerObjectsKnown ??= [...this.files].some(
      ([file, w]) => !!w.objects?.length && this.cShared(file),
    );
    return this.headerObjectsKnown;
  }

  /**
   * The object declarations (see FileWrappers.objects) of the headers `path` includes (`includes`, as
   * written), and of those they include, as far as the index knows, nearer headers first.
   */
  cIncludedObjects(path: string, includes: readonly string[]): readonly string[] {
    if (includes.length === 0 || !this.cHeaderObjectsKnown()) return [];
    return this.gathered(GATHERED_OBJECTS, path, includes, (h) => this.files.get(h)?.objects);
  }

  /** Whether some header defines a macro that opens or closes a brace (see FileWrappers.bracing). */
  cHeaderBracingKnown(): boolean {
    this.headerBracingKnown ??= [...this.files].some(
      ([file, w]) => !!w.bracing?.length && this.cShared(file),
    );
    return this.headerBracingKnown;
  }

  /**
   * The bracing macros (see FileWrappers.bracing) of the headers `path` includes (`includes`, as
   * written), and of those they include, as far as the index knows, nearer headers first. The same list
   * for every file that includes the same headers.
   */
  cIncludedBracing(path: string, includes: readonly string[]): readonly string[] {
    if (includes.length === 0 || !this.cHeaderBracingKnown()) return [];
    return this.gathered(GATHERED_BRACING, path, includes, (h) => this.files.get(h)?.bracing);
  }

  /** The names of the function-like macros some header defines: a statement of one may need them. */
  cHeaderMacroNames(): ReadonlySet<string> {
    if (!this.headerMacros) {
      const names = new Set<string>();
      for (const [file, wrappers] of this.files)
        if (this.cShared(file)) for (const d of wrappers.defines ?? []) names.add(definedName(d));
      this.headerMacros = names;
    }
    return this.headerMacros;
  }

  /**
   * The function-like macros some header defines whose bodies call one of `names`, or one of those
   * macros, by name (`WRITE` for `#define WRITE(f, b, l) write_sim(f, b, l, __LINE__)` and `write_sim`):
   * a file that calls only such a macro calls the helper all the same, once the header is read.
   */
  cHeaderMacrosCalling(names: Iterable<string>): string[] {
    if (!this.macroCallers) {
      const callers = new Map<string, string[]>();
      for (const [file, wrappers] of this.files)
        if (isHeader(file))
          for (const d of wrappers.defines ?? []) {
            const name = definedName(d);
            for (const callee of definedCalls(d)) {
              if (callee === name) continue;
              const list = callers.get(callee);
              if (!list) callers.set(callee, [name]);
              else if (!list.includes(name)) list.push(name);
            }
          }
      this.macroCallers = callers;
    }
    if (this.macroCallers.size === 0) return [];
    const seen = new Set(names);
    const found: string[] = [];
    const queue = [...seen];
    while (queue.length > 0)
      for (const macro of this.macroCallers.get(queue.pop() as string) ?? [])
        if (!seen.has(macro)) {
          seen.add(macro);
          found.push(macro);
          queue.push(macro);
        }
    return found;
  }

  /** The names some header gives a status code's value (see FileWrappers.codes). */
  cHeaderCodeNames(): ReadonlySet<string> {
    if (!this.headerCodes) {
      const names = new Set<string>();
      for (const [file, wrappers] of this.files)
        if (this.cShared(file)) for (const [name] of wrappers.codes ?? []) names.add(name);
      this.headerCodes = names;
    }
    return this.headerCodes;
  }

  /**
   * The named status codes of the headers `path` includes (`includes`, as written) and of the headers
   * those include; a name a nearer header gives comes last, so that it stands in a map made of them.
   */
  cIncludedCodes(path: string, includes: readonly string[]): readonly (readonly [string, number])[] {
    if (includes.length === 0 || this.cHeaderCodeNames().size === 0) return [];
    return this.gathered(GATHERED_CODES, path, includes, (h) => this.files.get(h)?.codes, true);
  }

  /**
   * The function-like macro definitions of the headers `path` includes (`includes`, its project includes
   * as written) and of the headers those include, nearer headers first (see cWrappersFor).
   */
  cIncludedDefines(path: string, includes: readonly string[]): readonly string[] {
    if (includes.length === 0 || this.cHeaderMacroNames().size === 0) return [];
    return this.gathered(GATHERED_DEFINES, path, includes, (h) => this.files.get(h)?.defines);
  }

  /**
   * The lists `of` gives each header `path` includes (see {@link includedHeaders}; `farthestFirst`:
   * in the reverse order), one after the other, as one list kept by `kind` and the headers (see
   * {@link gatheredByHeaders}): the same list for every file that includes the same headers. Not to be
   * modified.
   */
  private gathered<T>(
    kind: number,
    path: string,
    includes: readonly string[],
    of: (header: string) => readonly T[] | undefined,
    farthestFirst = false,
  ): readonly T[] {
    const headers = this.includedHeaders(path, includes);
    // One key for the file's three lists: the headers' paths, joined once (includedHeaders has just
    // made the answer it keeps that of `path`).
    const last = this.lastIncluded!;
    const key = (last.key ??= headers.join('\0'));
    const byKind = (this.gatheredByHeaders ??= new Map<number, Map<string, readonly unknown[]>>());
    let kept = byKind.get(kind);
    if (!kept) byKind.set(kind, (kept = new Map<string, readonly unknown[]>()));
    let list = kept.get(key) as readonly T[] | undefined;
    if (!list) {
      // Bounded, as the index of a long editing session is asked for ever new sets of headers.
      if (kept.size >= GATHERED_KEPT) kept.clear();
      // One concat of the headers' lists, not a flatMap: V8 runs flatMap in its slow generic path,
      // element by element, and every file of a tree that includes other headers than the last file
      // gathered its lists again (a header's constants run to hundreds).
      const lists: (readonly T[])[] = [];
      for (const h of farthestFirst ? headers.reverse() : headers) {
        const given = of(h);
        if (given && given.length > 0) lists.push(given);
      }
      list = ([] as T[]).concat(...lists);
      kept.set(key, list);
    }
    return list;
  }

  /** The headers `path` includes, and those they include as far as the index knows, nearest first. */
  private includedHeaders(path: string, includes: readonly string[]): string[] {
    const last = this.lastIncluded;
    if (last?.path === path && last.includes === includes) return [...last.found];
    this.headerPaths ??= new Set([...this.files.keys()].filter((f) => this.cShared(f)));
    const known = this.headerPaths;
    const resolved = (this.resolved ??= new Map<string, string | undefined>());
    const resolve = (from: string, names: readonly string[]) => {
      const headers: string[] = [];
      for (const name of names) {
        const key = `${dirname(from)}\0${name}`;
        let header = resolved.get(key);
        if (header === undefined && !resolved.has(key)) {
          header = resolveInclude(from, name, known);
          resolved.set(key, header);
        }
        if (header !== undefined) headers.push(header);
      }
      return headers;
    };
    // A header's includes, resolved once: every file of a tree walks the same headers' includes.
    const headerIncludes = (this.headerIncludes ??= new Map<string, readonly string[]>());
    const includedBy = (header: string) => {
      let list = headerIncludes.get(header);
      if (!list) headerIncludes.set(header, (list = resolve(header, this.files.get(header)?.includes ?? [])));
      return list;
    };
    const found: string[] = [];
    const seen = new Set<string>([path]);
    let level: (readonly string[])[] = [resolve(path, includes)];
    while (level.length > 0) {
      const next: (readonly string[])[] = [];
      for (const headers of level)
        for (const header of headers) {
          if (seen.has(header)) continue;
          seen.add(header);
          found.push(header);
          next.push(includedBy(header));
        }
      level = next;
    }
    this.lastIncluded = { path, includes, found };
    return [...found];
  }

  /**
   * The wrappers of the headers `path` includes (`includes`, its project includes as written), and of
   * the headers those include as far as the index knows their includes: a header's `static inline`
   * helper is its includer's own. Nearer headers win a name over farther ones. Not `path`'s own.
   */
  private includedWrappers(path: string, includes: readonly string[]): CWrapper[] {
    const headers = this.headers();
    if (headers.size === 0 || includes.length === 0) return [];
    return this.includedHeaders(path, includes).flatMap((h) => headers.get(h) ?? []);
  }

  /**
   * Exported (non-static) C wrappers of files other than `path`, by name. A name that two files define
   * differently is left out: the call could mean either. With `includes` (`path`'s project includes),
   * also the wrappers of the headers it includes, static ones too (see includedWrappers).
   */
  cWrappersFor(path: string, includes?: readonly string[]): Map<string, CWrapper> {
    this.cByName ??= this.exportedWrappers();
    const result = new Map(this.cByName);
    for (const [name, w] of result) if (w.file === path) result.delete(name);
    for (const [name, { files, wrappers }] of this.ambiguous ?? []) {
      if (files.includes(path)) continue;
      // Two programs of one tree may each define the name: a caller beside exactly one of them (its
      // own program, as far as folders tell) calls that one; any other caller could mean either.
      const near = files.filter((f) => dirname(f) === dirname(path));
      const chosen = near.length === 1 ? wrappers.get(near[0]!) : undefined;
      if (chosen) result.set(name, chosen);
    }
    if (includes) {
      const included = this.includedWrappers(path, includes);
      for (let i = included.length - 1; i >= 0; i--) result.set(included[i]!.name, included[i]!);
    }
    return result;
  }

  /** Uses `definers` (exported C function names defined in two files or more, with those files). */
  presetDefiners(definers: readonly (readonly [string, readonly string[]])[]): void {
    this.presetDefinerList = new Map(definers);
  }

  /**
   * The exported C wrappers only one file defines, by name; those of names another file also defines
   * (as a wrapper or any function: its body may do something else) go to {@link ambiguous}. A name
   * one file defines twice (under #if alternatives) is left out.
   */
  private exportedWrappers(): Map<string, CWrapper> {
    const byName = new Map<string, CWrapper>();
    const clash = new Set<string>();
    const definers = new Map<string, Set<string>>(
      [...(this.presetDefinerList ?? exportedDefiners(this.files))].map(([n, f]) => [n, new Set(f)]),
    );
    const wrappersOf = new Map<string, Map<string, CWrapper>>();
    for (const [file, wrappers] of this.live()) {
      for (const w of wrappers.c) {
        if (!w.exported) continue;
        let byFile = wrappersOf.get(w.name);
        if (!byFile) wrappersOf.set(w.name, (byFile = new Map<string, CWrapper>()));
        if (byFile.has(file)) clash.add(w.name);
        byFile.set(file, { ...w, file });
        const files = definers.get(w.name);
        if (files) files.add(file);
        else definers.set(w.name, new Set([file]));
      }
    }
    const ambiguous = new Map<string, { files: string[]; wrappers: Map<string, CWrapper> }>();
    for (const [name, byFile] of wrappersOf) {
      if (clash.has(name)) continue;
      const files = [...(definers.get(name) ?? [])];
      if (files.length === 1) byName.set(name, byFile.values().next().value as CWrapper);
      else ambiguous.set(name, { files, wrappers: byFile });
    }
    this.ambiguous = ambiguous;
    return byName;
  }

  /**
   * A digest of everything the analysis of `path` can read from this index: for a C file, every
   * wrapper {@link cWrappersFor} gives it; for a TS/JS file, every exported TS/JS wrapper
   * {@link tsWrapper} could find for one of its imports, in the order that lookup sees them. Two
   * indexes that give a file the same digest give its analysis the same facts, so a result computed
   * with one holds for the other (the CLI's `--cache` keys a file's findings on it). Whatever this
   * index starts to tell an analysis must be added here, or cached results outlive the facts they
   * were computed from.
   */
  factsDigest(path: string): string {
    const external = this.cWrappersFor(path);
    const c = languageOf(path) === 'c';
    // Most files get the same facts (all of them, or all but their own wrappers): one digest per such
    // set, for as long as the index is unchanged (any change makes a new cByName).
    const byName = this.cByName as Map<string, CWrapper>;
    let memo = digestMemo.get(byName);
    if (!memo) digestMemo.set(byName, (memo = new Map<string, string>()));
    const own = c ? [...byName.values()].filter((w) => w.file === path).map((w) => w.name) : [];
    // A name two files define is given by the caller's folder: the choice is part of the key.
    const chosen = c
      ? [...(this.ambiguous?.keys() ?? [])].flatMap((n) => {
          const w = external.get(n);
          return w ? [`${n}@${w.file}`] : [];
        })
      : [];
    // The members whose implementations the file defines itself are left out of its answer.
    const implementations = c ? this.cImplementationsFor(path) : undefined;
    const mine = c
      ? (this.files.get(path)?.memberFunctions ?? []).filter((f) => f.own).map((f) => f.member)
      : [];
    const key = c ? `c ${own.join(' ')} | ${chosen.join(' ')} | ${[...new Set(mine)].join(' ')}` : 'ts';
    const known = memo.get(key);
    if (known !== undefined) return known;
    let facts: unknown[];
    if (c) {
      facts = [...external.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // And which functions of the tree do no output (the fact base), and which it defines.
      facts.push({ quiet: [...this.cQuietFor(path)].sort() });
      facts.push({ defined: [...this.cDefinedFor(path)].sort() });
      facts.push({ opaque: [...this.cOpaqueFor(path)].sort() });
      facts.push({ pure: [...this.cPureFor(path)].sort() });
      facts.push({ readers: [...this.cReadersFor(path)].sort() });
      facts.push({ waiters: [...this.cWaitersFor(path)].sort() });
      facts.push({
        assigns: [...this.cAssignsFor(path)]
          .map(([name, names]) => [name, ...[...names].sort()])
          .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0)),
      });
      facts.push({ statics: [...this.cStaticFor(path)].sort() });
      facts.push({ leaving: [...this.cLeavingFor(path)].sort() });
      facts.push({
        memberParams: [...this.cMemberParamsFor(path)]
          .map(([name, params]) => [name, ...params])
          .sort((a, b) =>
            (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
          ),
      });
      facts.push({ messageMembers: [...this.cMessageMembersFor(path)].sort() });
      facts.push({
        treeBound: [...this.cTreeBoundFor(path)]
          .map(([name, byIndex]) => [name, ...[...byIndex].sort(([a], [b]) => a - b).flat()])
          .sort((a, b) =>
            (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
          ),
      });
      facts.push({
        messageHanded: [...this.cMessageHandedFor(path)]
          .map(([name, indexes]) => [name, ...[...indexes].sort((a, b) => a - b)])
          .sort((a, b) =>
            (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
          ),
      });
      const returned = this.cReturnedFor(path);
      facts.push({ returned: [[...returned.stream].sort(), [...returned.message].sort()] });
      facts.push({ overridden: [...this.cOverriddenFor(path)].sort() });
      facts.push({ replaced: [...this.cReplacedFor(path)].sort() });
      facts.push({
        implementations: [...(implementations ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      });
      // Every header's wrappers, whichever the file includes: a header's change then changes every C
      // file's facts, which is rare (a helper's body edited) and never wrong.
      facts.push({
        headers: [...this.headers()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      });
      // Every header's named codes, for the same reason.
      facts.push({
        codes: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.codes?.length)
          .map(([file, w]) => [file, w.codes])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
      // Every header's device macros, for the same reason.
      facts.push({
        devices: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.deviceDefines?.length)
          .map(([file, w]) => [file, w.deviceDefines])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
      // Every header's object declarations, for the same reason.
      facts.push({
        objects: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.objects?.length)
          .map(([file, w]) => [file, w.objects])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
      // Every header's constants, for the same reason.
      facts.push({
        constants: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.constants?.length)
          .map(([file, w]) => [file, w.constants])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
      // Every header's bracing macros, for the same reason.
      facts.push({
        bracing: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.bracing?.length)
          .map(([file, w]) => [file, w.bracing])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
      // Every header's macro definitions too, for the same reason.
      facts.push({
        defines: [...this.files]
          .filter(([file, w]) => this.cShared(file) && w.defines?.length)
          .map(([file, w]) => [file, w.defines])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
      });
    } else {
      // In insertion order: when two files are one module (`out.ts` and `out.js`), the first one wins.
      facts = [];
      for (const [file, wrappers] of this.files)
        for (const w of wrappers.ts) if (w.exported) facts.push({ ...w, file, module: moduleKey(file) });
    }
    // Loaded here only: the language server and a lint without --cache never ask for a digest.
    const { createHash } = require('node:crypto') as typeof Crypto;
    const digest = createHash('sha256').update(canonicalJson(facts)).digest('hex');
    memo.set(key, digest);
    return digest;
  }

  /** The exported TS/JS wrapper `exportName` of the module at `modulePath` (no extension). */
  tsWrapper(modulePath: string, exportName: string): TsWrapper | undefined {
    for (const [file, wrappers] of this.files) {
      if (moduleKey(file) !== modulePath) continue;
      const found = wrappers.ts.find((w) => w.exported && w.name === exportName);
      if (found) return { ...found, file };
    }
    return undefined;
  }
}

/**
 * The exported C functions that two files or more of `files` define (from their function facts), with
 * those files: a call from a third file could mean either.
 */
export function exportedDefiners(files: Iterable<readonly [string, FileWrappers]>): [string, string[]][] {
  const list = [...files];
  // A weak definition another file replaces defines nothing a call reaches (see weakDefinitions.ts).
  const replaced = replacedDefinitions(list.map(([file, w]) => [file, w.functions] as const));
  // Each name's first file, and a set only for the names a second file defines: most have one.
  const first = new Map<string, string>();
  const more = new Map<string, Set<string>>();
  for (const [file, wrappers] of list)
    for (const f of wrappers.functions ?? []) {
      if (!f.exported || (f.weak && replaced.get(file)?.has(f.name))) continue;
      const at = first.get(f.name);
      if (at === undefined) first.set(f.name, file);
      else if (at !== file) {
        const set = more.get(f.name);
        if (set) set.add(file);
        else more.set(f.name, new Set([at, file]));
      }
    }
  if (more.size === 0) return [];
  return [...first.keys()].flatMap((name) => {
    const set = more.get(name);
    return set ? [[name, [...set]] as [string, string[]]] : [];
  });
}
