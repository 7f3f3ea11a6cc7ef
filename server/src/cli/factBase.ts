// Between the CLI's passes: the fact base worked out from what the first pass read in every file. It
// says which exported C functions do no output anywhere in the tree, and which files must be analysed
// again because a function of theirs that writes calls one of them (the first pass, reading each file
// alone, took such a call for one that may print).
import { C_PURE_FUNCTIONS, C_TREE_OVERRIDABLE, cWriteFunctions, ioName } from '../analyzer/catalogue';
import { libraryQuiet, quietFunctions, type CFunctionFact } from '../analyzer/c/functionFacts';
import type { MemberParameterMap } from '../analyzer/c/memberParameters';
import type { AnalyzerSettings } from '../analyzer/settings';
import { WrapperIndex, type FileWrappers } from '../analyzer/wrapperIndex';

/** What the second pass needs from the fact base. */
export interface FactBasePass {
  /** Exported C functions that do no output. */
  readonly quiet: string[];
  /** Files to analyse again for them, or for `defined`. */
  readonly redo: string[];
  /** Helpers some file read as writers from their calls alone that another file defines. */
  readonly defined: string[];
  /** Names some file took for unread that another file defines with an opaque body (opaqueDefinitions.ts). */
  readonly opaque: string[];
  /** Exported C functions that are pure (accessors: see pureFunctions). */
  readonly pure: string[];
  /** Catalogue helper names the tree defines and exports (see WrapperIndex.cOverriddenFor). */
  readonly overridden: string[];
  /** Functions that read, called by another file's function that writes (see awaitedReplies.ts). */
  readonly readers: string[];
  /** Functions other files can call that only wait (see waitingHelpers.ts). */
  readonly waiters: string[];
  /** What functions other files can call change beyond their arguments (see assignedGlobals.ts). */
  readonly assigns: [string, string[]][];
  /** Functions returning static storage, called by another file's function that writes (staticReturns.ts). */
  readonly statics: string[];
  /** Functions other files can call that never return (see leavingFunctions.ts). */
  readonly leaving: string[];
  /** Functions other files can call that reach pointer parameters only through members (memberParameters.ts). */
  readonly memberParams: MemberParamList;
  /** Weak definitions other files replace, by file (see WrapperIndex.cReplaced). */
  readonly replaced: [string, string[]][];
}

/**
 * The fact base of the first pass's `index` (every file's wrappers and function facts). `settings`: the
 * settings of each group of files, for the names of the write functions in effect.
 */
export function factBasePass(
  index: readonly (readonly [string, FileWrappers])[],
  settings: readonly AnalyzerSettings[],
): FactBasePass {
  const base = new WrapperIndex();
  for (const [path, wrappers] of index) base.set(path, wrappers);
  // A helper read from its calls alone, whose body another file holds: that file's body decides.
  const all = base.cDefinedFor('');
  const defined = new Set<string>();
  const redo = new Set<string>();
  // And one it took for unread (an argument call taken to do no output) whose body another file holds
  // but calls through a pointer: that body may do anything (see opaqueDefinitions.ts).
  const opaqueAll = base.cOpaqueFor('');
  const opaque = new Set<string>();
  for (const [path, wrappers] of index) {
    for (const name of wrappers.inferred ?? []) {
      if (all.has(name)) defined.add(name);
      else if (opaqueAll.has(name)) opaque.add(name);
      else continue;
      redo.add(path);
    }
  }
  // A catalogue name (`xwrite`) that another file of the tree defines is the project's own function:
  // its callers are analysed again with that fact (see cWriteFunctionsFor).
  const exported = new Set<string>();
  for (const [, wrappers] of index)
    for (const f of wrappers.functions ?? [])
      if (f.exported && C_TREE_OVERRIDABLE.has(f.name)) exported.add(f.name);
  for (const [path, wrappers] of index) {
    if (exported.size === 0) break;
    const functions = wrappers.functions ?? [];
    for (const f of functions)
      for (const c of f.calls) {
        if (!exported.has(c) || functions.some((g) => g.name === c)) continue;
        redo.add(path);
      }
  }
  const writers = new Set<string>();
  for (const s of settings) {
    for (const name of cWriteFunctions(s).keys()) writers.add(name);
    for (const w of s.wrappers) writers.add(w.name);
  }
  for (const [, wrappers] of index) for (const w of wrappers.c) writers.add(w.name);
  // Only a function that writes twice can hold a run for new facts to extend: each file's such
  // functions, found once for every question below (most files have none, and are passed over).
  const writing: [string, FileWrappers, CFunctionFact[]][] = [];
  for (const [path, wrappers] of index) {
    const twice = (wrappers.functions ?? []).filter((f) => writesTwice(f, writers));
    if (twice.length > 0) writing.push([path, wrappers, twice]);
  }
  const ownNames = (wrappers: FileWrappers) => new Set((wrappers.functions ?? []).map((f) => f.name));
  // A statement of a header's macro (`DBG(...)`) where a function writes twice: the first pass read
  // it as a macro nobody defines; the second reads the definition its includes give it.
  const headerMacros = base.cHeaderMacroNames();
  if (headerMacros.size > 0)
    for (const [path, wrappers, twice] of writing) {
      const own = ownNames(wrappers);
      const asks = twice.some((f) => f.calls.some((c) => headerMacros.has(c) && !own.has(c)));
      if (asks) redo.add(path);
    }
  // A named status code a header defines, used where a function writes twice: the first pass read
  // `!= ST_OK` as a test of an unknown value; the second reads the value the header gives it.
  const headerCodes = base.cHeaderCodeNames();
  if (headerCodes.size > 0)
    for (const [path, wrappers] of writing)
      if (wrappers.codeUses?.some((n) => headerCodes.has(n))) redo.add(path);
  // A write helper waiting with a header's macro named like I/O (`write_ready(fd, t)`): the first pass
  // took the wait for a second write; the second reads what the macro expands to (see silentCalls.ts).
  // Only a macro the first pass's reading of a helper asked about and could not clear (the file's
  // `helperLoud` names: handed the write's descriptor, or asked whether it does output) can read
  // otherwise with its expansion: a log statement of the write's failure (`ERROR("write: %s", ...)`,
  // no descriptor before its format) was no second write of it in the first reading either.
  if (headerMacros.size > 0)
    for (const [path, wrappers] of index) {
      const own = ownNames(wrappers);
      const asked = wrappers.helperLoud && new Set(wrappers.helperLoud);
      // A helper of one write calls its writer once: a function calling one twice is no such helper.
      const waits = (f: CFunctionFact) =>
        f.calls.some((c) => writers.has(c)) &&
        !f.repeated?.some((c) => writers.has(c)) &&
        f.calls.some((c) => headerMacros.has(c) && !own.has(c) && ioName(c) && (!asked || asked.has(c)));
      if ((wrappers.functions ?? []).some(waits)) redo.add(path);
    }
  // A file defining a function weak that another file replaces: the first pass read its own body.
  const replaced = base.cReplaced();
  for (const [path] of replaced) redo.add(path);
  const readers = awaitingHelpers(index, writers, base.cReadersFor(''), redo);
  const statics = askedCalls(writing, base.cStaticFor(''), redo);
  // A function of another file that never returns, called where the file writes: the first pass took
  // its call for one that returns (see leavingFunctions.ts).
  const leaving = askedCalls(writing, base.cLeavingFor(''), redo);
  const memberParams = confinedCalls(writing, base.cMemberParamsFor(''), redo);
  const waiters = [...base.cWaitersFor('')];
  const assigns = assignLists(base);
  const quiet = base.cQuietFor('');
  const pure = base.cPureFor('');
  const gettersThroughMembers = [...pure].some((n) => n.startsWith('->'));
  if (quiet.size === 0 && pure.size === 0)
    return {
      quiet: [],
      redo: [...redo],
      defined: [...defined],
      opaque: [...opaque],
      pure: [],
      overridden: [...exported],
      readers,
      waiters,
      assigns,
      statics,
      leaving,
      memberParams,
      replaced,
    };
  for (const [path, wrappers, twice] of writing) {
    const own = ownNames(wrappers);
    const asks = twice.some((f) => f.calls.some((c) => quiet.has(c) && !own.has(c) && !libraryQuiet(c)));
    if (asks && learnt(wrappers, own, quiet)) redo.add(path);
    // A pure accessor of another file, called where the file writes twice: a descriptor or argument
    // the first pass took to change between the writes.
    const accessor = twice.some((f) =>
      f.calls.some((c) => pure.has(c) && !own.has(c) && !C_PURE_FUNCTIONS.has(c)),
    );
    // Or a getter through a member that holds only pure functions (see pureMembers.ts), which a call
    // through a pointer may be.
    if (accessor || (gettersThroughMembers && twice.some((f) => f.opaque))) redo.add(path);
  }
  // A helper's reading told that another file's function may do output (a count of its buffer,
  // `write(2, s, str_len(s))`, a statistics counter after the write): the first pass knew no body of
  // it. Found quiet now, the function may be a helper of one write, its calls in the file a run.
  for (const [path, wrappers] of index) {
    const asked = wrappers.helperLoud;
    if (!asked || redo.has(path)) continue;
    const own = ownNames(wrappers);
    if (asked.some((c) => quiet.has(c) && !own.has(c) && !libraryQuiet(c))) redo.add(path);
  }
  return {
    quiet: [...quiet],
    redo: [...redo],
    defined: [...defined],
    opaque: [...opaque],
    pure: [...pure],
    overridden: [...exported],
    readers,
    waiters,
    assigns,
    statics,
    leaving,
    memberParams,
    replaced,
  };
}

/**
 * Of `names` (functions of the tree a fact is known of: returning static storage, never returning),
 * those another file calls where some function of it writes twice; that file is read again (`redo`)
 * knowing the fact (a later call overwrites an earlier result; a call does not come back).
 */
function askedCalls(
  writing: readonly (readonly [string, FileWrappers, readonly CFunctionFact[]])[],
  names: ReadonlySet<string>,
  redo: Set<string>,
): string[] {
  if (names.size === 0) return [];
  const asked = new Set<string>();
  for (const [path, wrappers] of writing) {
    const functions = wrappers.functions ?? [];
    const own = new Set(functions.map((f) => f.name));
    // Any function of the file, its macros too: `#define put_o(c) put(fmt_o(c))` is used where it writes.
    for (const f of functions)
      for (const c of f.calls)
        if (names.has(c) && !own.has(c)) {
          asked.add(c);
          redo.add(path);
        }
  }
  return [...asked].sort();
}

/** What the tree's functions reach of their pointer parameters, as the jobs carry it (see presetMemberParams). */
export type MemberParamList = [string, [number, readonly string[]][]][];

function memberParamList(params: MemberParameterMap): MemberParamList {
  return [...params].map(([name, list]) => [name, [...list]]);
}

/**
 * Of `params` (what the tree's functions reach of their pointer parameters), those of functions
 * another file calls where some function of it writes twice; that file is read again (`redo`) knowing
 * the call changes only those members of what it is handed.
 */
function confinedCalls(
  writing: readonly (readonly [string, FileWrappers, readonly CFunctionFact[]])[],
  params: MemberParameterMap,
  redo: Set<string>,
): MemberParamList {
  if (params.size === 0) return [];
  const asked = new Map<string, ReadonlyMap<number, readonly string[]>>();
  for (const [path, wrappers, twice] of writing) {
    const own = new Set((wrappers.functions ?? []).map((f) => f.name));
    for (const f of twice)
      for (const c of f.calls) {
        const found = own.has(c) ? undefined : params.get(c);
        if (!found) continue;
        asked.set(c, found);
        redo.add(path);
      }
  }
  return memberParamList(asked);
}

/**
 * Of `readers` (the tree's functions that read), those another file's function that calls a writer
 * calls: a helper of that file handing one its descriptor after the write awaits a reply (see
 * awaitedReplies.ts). The files whose first pass read such a function as a helper, the call's body
 * unknown to it, are added to `redo`.
 */
function awaitingHelpers(
  index: readonly (readonly [string, FileWrappers])[],
  writers: ReadonlySet<string>,
  readers: ReadonlySet<string>,
  redo: Set<string>,
): string[] {
  const called = new Set<string>();
  if (readers.size === 0) return [];
  for (const [path, wrappers] of index) {
    const functions = wrappers.functions ?? [];
    if (functions.length === 0) continue;
    let own: Set<string> | undefined;
    const helpers = new Set(wrappers.c.map((w) => w.name));
    for (const f of functions) {
      if (!f.calls.some((c) => writers.has(c))) continue;
      own ??= new Set(functions.map((g) => g.name));
      const asked = f.calls.filter((c) => readers.has(c) && !own?.has(c) && !writers.has(c));
      if (asked.length === 0) continue;
      for (const c of asked) called.add(c);
      if (helpers.has(f.name)) redo.add(path);
    }
  }
  return [...called].sort();
}

/**
 * Whether the fact base `quiet` answers differently one of the questions the first pass's analysis of a
 * file asked (its `loud` names: see FileWrappers), as the second pass's analysis would ask it: a
 * function of the file by its own facts over `quiet`, another by `quiet` and the library table. When
 * it answers none differently, analysing the file again would find what the first pass found (most
 * files a function that writes twice calls a quiet helper from: the helper is not between the writes).
 */
function learnt(wrappers: FileWrappers, own: ReadonlySet<string>, quiet: ReadonlySet<string>): boolean {
  const loud = wrappers.loud;
  if (loud === undefined) return true;
  const elsewhere = (name: string) => quiet.has(name) || libraryQuiet(name);
  let ownQuiet: ReadonlySet<string> | undefined;
  return loud.some((name) => {
    if (!own.has(name)) return elsewhere(name);
    ownQuiet ??= quietFunctions(wrappers.functions ?? [], elsewhere);
    return ownQuiet.has(name);
  });
}

/** Whether `f` calls `writers` twice or more: only then can it hold a run for new facts to extend. */
function writesTwice(f: CFunctionFact, writers: ReadonlySet<string>): boolean {
  return f.calls.filter((c) => writers.has(c)).length >= 2 || !!f.repeated?.some((c) => writers.has(c));
}

/** The function facts a first pass is told (see {@link toldFacts}). */
export interface ToldFacts {
  readonly quiet: string[];
  readonly defined: string[];
  readonly opaque: string[];
  readonly pure: string[];
  readonly overridden: string[];
  readonly readers: string[];
  readonly waiters: string[];
  readonly assigns: [string, string[]][];
  readonly statics: string[];
  readonly leaving: string[];
  readonly memberParams: MemberParamList;
  readonly replaced: [string, string[]][];
}

/**
 * The tree's function facts, from what each file's text gives without a parse (`index`: every C file's
 * functions and declared pure names): which functions other files can call do no output, are defined
 * with a body, are pure, read, or return static storage, and which catalogue names the tree defines.
 * A first pass told them reads every file as a second pass told them would: only what needs the
 * analysed wrappers (another file's helpers, returned descriptors, members) is left to a second pass.
 */
export function toldFacts(index: readonly (readonly [string, FileWrappers])[]): ToldFacts {
  const base = new WrapperIndex();
  for (const [path, wrappers] of index) base.set(path, wrappers);
  return {
    quiet: [...base.cQuietFor('')],
    defined: [...base.cDefinedFor('')],
    opaque: [...base.cOpaqueFor('')],
    pure: [...base.cPureFor('')],
    overridden: [...base.cOverriddenFor('')],
    readers: [...base.cReadersFor('')],
    waiters: [...base.cWaitersFor('')],
    assigns: assignLists(base),
    statics: [...base.cStaticFor('')],
    leaving: [...base.cLeavingFor('')],
    memberParams: memberParamList(base.cMemberParamsFor('')),
    replaced: base.cReplaced(),
  };
}

/**
 * What the tree's functions change beyond their arguments (see WrapperIndex.cAssignsFor), as lists:
 * functions sharing a set share one list, which a worker's copy of the job keeps shared (a structured
 * clone copies an object once however often it is named). Most functions of a tree change what one
 * exit or logging helper changes: the lists apart were most of what a job carried to each thread.
 */
function assignLists(base: WrapperIndex): [string, string[]][] {
  const lists = new Map<ReadonlySet<string>, string[]>();
  return [...base.cAssignsFor('')].map(([name, names]) => {
    let list = lists.get(names);
    if (list === undefined) lists.set(names, (list = [...names]));
    return [name, list];
  });
}
