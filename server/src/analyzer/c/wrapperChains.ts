// Wrappers of wrappers in one file: `html(txt)` calls `html_raw(txt, strlen(txt))`, which writes to
// stdout. A function becomes a wrapper once the wrapper it forwards to is known, so the file is read in
// rounds, each looking only at the functions that call a name found in the round before. Chains end at
// a fixed depth, and a cycle (f forwards to g, g to f) never resolves: neither is known first.
import { maySendOneIovec } from './iovecHelpers';
import type { Node } from 'web-tree-sitter';
import { FunctionMemo, type MemoUse, type Place } from './memo';
import { earlierOffset, type TextChange } from './textChanges';
import { wrapperOf } from './wrappers';
import type { CContext, CWrapper } from './writes';
import { memberWriters } from './memberWriters';
import { functionDeclarator, parameterNames } from './syntax';
import { parameterDeclarations, parameterName } from './parameterName';
import { silentParameters } from './silentCalls';
import { onlySplitElses } from './sessionAlternatives';
import { callsWithThreeArguments, libraryQuiet } from './functionFacts';
import { ioName } from '../catalogue';

/**
 * Wrapper chains deeper than this (counted from the write function) are not followed. A record writer
 * sits five deep: `put_time()` converts and calls `put_int()`, which fills a record for `put_item()`,
 * which sends it through a checksumming `put_summed()` to `put_raw()`'s write.
 */
export const MAX_WRAPPER_DEPTH = 5;

/** A function definition with the text of its body. */
export interface FunctionBody {
  readonly fn: Node;
  readonly text: string;
  /** Where the body starts in the file's text (its `{`). */
  readonly start: number;
  /**
   * Where the definition ends in the file's text: asked of the syntax tree once (each question of a
   * node's end crosses into the parser's memory, and an edit's analysis asked it of every definition
   * of the file several times).
   */
  readonly end: number;
}

function callPattern(names: readonly string[]): RegExp | undefined {
  const words = names.filter((n) => /^\w+$/.test(n));
  return words.length > 0 ? new RegExp(`\\b(?:${words.join('|')})\\s*\\(`) : undefined;
}

/** One of `names` handed to a call as a bare argument (`emit(attr, put_one)`, `&put_one`). */
function handedPattern(names: readonly string[]): RegExp | undefined {
  const words = names.filter((n) => /^\w+$/.test(n));
  return words.length > 0 ? new RegExp(`[(,]\\s*&?\\s*(?:${words.join('|')})\\s*[,)]`) : undefined;
}

/**
 * A function's reading as a helper: the wrapper it is (null: none), and the calls of its body the
 * reading asked about and was not told are quiet (see {@link fileWrappers}), by name.
 */
export interface HelperReading {
  readonly wrapper: CWrapper | null;
  readonly loud: readonly string[];
}

/**
 * Wrapper results per function text, one cache per round: a round's result depends on the wrappers the
 * rounds before it found, so each round keeps its own context and an edit re-reads only the edited
 * function in each.
 */
export class WrapperMemo {
  private readonly rounds = Array.from(
    { length: MAX_WRAPPER_DEPTH },
    () => new FunctionMemo<HelperReading>(),
  );

  /**
   * The cached result for `text` in round `depth` under `context`, computing it when missing; `place`
   * as in {@link FunctionMemo.get}.
   */
  get(
    depth: number,
    context: string,
    text: string,
    compute: () => HelperReading,
    place?: Place,
  ): HelperReading {
    const round = this.rounds[depth];
    if (!round) throw new RangeError(`wrapper round ${depth} is past the deepest (${MAX_WRAPPER_DEPTH - 1})`);
    return round.get(context, text, compute, place);
  }

  /** Per document: the names its bodies call (see {@link WrapperMemo.calledNames}). */
  private readonly called = new Map<string, PlacedNames>();
  /** The names of the document being analysed, between {@link WrapperMemo.begin} and `end`. */
  private calling: PlacedNames | undefined;

  /** See {@link FunctionMemo.begin}. */
  begin(owner: string, change?: TextChange): void {
    for (const round of this.rounds) round.begin(owner, change);
    const before = this.called.get(owner);
    this.calling = { placing: new Map(), placed: before?.placing ?? new Map(), change };
    this.called.set(owner, this.calling);
  }

  /** See {@link FunctionMemo.end}. */
  end(): void {
    for (const round of this.rounds) round.end();
    this.calling = undefined;
  }

  /** See {@link FunctionMemo.forget}. */
  forget(owner: string): void {
    for (const round of this.rounds) round.forget(owner);
    this.called.delete(owner);
  }

  /**
   * The names `text` calls (`name(`), each once, in the order they first stand: `text` is a body
   * standing at `start` in the document being analysed. A body wholly before or after the edit has
   * the names the analysis before found at its place (the same characters: see textChanges.ts); each
   * of a large file's bodies searched again at every keystroke, only to be found unchanged, was a
   * visible part of an edit's analysis. Outside an analysis begun, searched.
   */
  calledNames(text: string, start: number): readonly string[] {
    const use = this.calling;
    const before = use?.change && earlierOffset(use.change, start, start + text.length);
    const kept = before === undefined ? undefined : use!.placed.get(before);
    const names = kept && kept.length === text.length ? kept.names : callNames(text);
    use?.placing.set(start, { length: text.length, names });
    return names;
  }

  /** What each round holds. */
  use(): MemoUse[] {
    return this.rounds.map((round) => round.use());
  }
}

/**
 * The wrappers `bodies` define, resolved against `base` (the write functions, and the wrappers known
 * from settings and the workspace) and against each other. `first` selects the functions worth a look
 * in the first round (those that call a write function or a known wrapper). `memoKey` names `base`.
 * `loud`: the calls the readings asked about and were told may do output (CContext.quiet), or asked
 * what they write to the descriptor a helper hands them (CContext.silent): the answers a definition
 * read later (a header's macro, with the tree's index) may give otherwise.
 */
export function fileWrappers(
  bodies: readonly FunctionBody[],
  base: CContext,
  first: RegExp,
  memo: WrapperMemo,
  memoKey: string,
  quiet: (name: string) => boolean = base.quiet,
): { own: CWrapper[]; loud: string[] } {
  const own: CWrapper[] = [];
  const loud = new Set<string>();
  const done = new Set<Node['id']>();
  const wrappers = new Map(base.wrappers);
  let pattern: RegExp | undefined = first;
  // After the first round, the bodies handing a helper found in the round before are read again too.
  let handing: RegExp | undefined;
  let context = memoKey;
  // Whether a body's head declares a parameter it calls as a writer does not change from round to
  // round: read once per body.
  const through = new Map<Node['id'], boolean>();
  const throughHead = (fn: Node, start: number) => {
    let answer = through.get(fn.id);
    if (answer === undefined) through.set(fn.id, (answer = pointerHead(fn, start, base.text)));
    return answer;
  };
  // What the file's functions named like I/O write nothing to (a wait), read once per file.
  const silent =
    base.silent ??
    silentParameters(
      base.text,
      (n) =>
        (quiet(n) || libraryQuiet(n) || base.pure.has(n)) &&
        !base.functions.has(n) &&
        !wrappers.has(n) &&
        !base.macros?.has(n),
      base.included,
    );
  // The calls one function's reading is told may do output, or asks about as they are handed its
  // descriptor, while it is read.
  let asking: Set<string> | undefined;
  const quietAsked = (name: string) => {
    const answer = quiet(name);
    if (!answer) asking?.add(name);
    return answer;
  };
  const silentAsked = (name: string) => {
    asking?.add(name);
    return silent(name);
  };
  // What each name the bodies call is told, asked once per file: the same few names (the write
  // helpers, the error reporters) stand in most of its bodies, and asking each body's anew was most
  // of the time spent on a file's unchanged helpers at every keystroke.
  const told = new Map<string, readonly string[]>();
  const answers = (name: string): readonly string[] => {
    let marks = told.get(name);
    if (!marks) told.set(name, (marks = callMarks(name, base, quiet, silent)));
    return marks;
  };
  const readHelper = (fn: Node, ctx: CContext): HelperReading => {
    asking = new Set();
    const wrapper = wrapperOf(fn, ctx) ?? null;
    const reading = { wrapper, loud: [...asking] };
    asking = undefined;
    return reading;
  };
  for (let depth = 0; depth < MAX_WRAPPER_DEPTH && pattern; depth++) {
    // The fact base's answers (the tree's own bodies) decide whether a call between a helper's writes
    // only computes, as they do for the findings.
    const ctx: CContext = { ...base, quiet: quietAsked, silent: silentAsked, wrappers: new Map(wrappers) };
    const read: { w: CWrapper; fn: Node; text: string }[] = [];
    for (const { fn, text, start, end } of bodies) {
      // The text tests first: a misread body is found by walking its syntax tree, which an edit leaving
      // errors in many functions made the larger part of reading a file's helpers.
      if (
        done.has(fn.id) ||
        !(pattern.test(text) || handing?.test(text) || throughHead(fn, start) || maySendOneIovec(text)) ||
        misread(fn)
      )
        continue;
      // The answers about its calls are part of the entry's key, not of the context: functions whose
      // answers differ would otherwise empty the memo for each other, and a file's helpers read in
      // each round of its partial parse, then once more with the tree's facts, would be read anew.
      const lead = `${quietCalls(memo.calledNames(text, start), answers)}\n`;
      const source = `${lead}${base.text.slice(fn.startIndex, end)}`;
      const reading = memo.get(depth, context, source, () => readHelper(fn, ctx), {
        start: fn.startIndex,
        lead,
      });
      for (const name of reading.loud) loud.add(name);
      const w = reading.wrapper;
      if (!w) continue;
      done.add(fn.id);
      read.push({ w, fn, text });
    }
    // A helper read in the same round as one it calls took that call for no write (`send_string()`
    // calling `send_token()` and `write_all()`): it is read again next round, the callee known.
    const found: CWrapper[] = [];
    // So is one handing such a helper to a call (a terminal library writing through it): the reading
    // with the helper known refuses it (see helperBodies.ts).
    for (const r of read) {
      const names = read.filter((o) => o !== r).map((o) => o.w.name.replace(/^->/, ''));
      if (callPattern(names)?.test(r.text) || handedPattern(names)?.test(r.text)) done.delete(r.fn.id);
      else found.push(r.w);
    }
    for (const w of found) {
      // A file-local definition overrides a workspace wrapper of the same name.
      wrappers.set(w.name, w);
      own.push(w);
    }
    // Members the file stores the new helpers in write through their pointers too, and from the first
    // round on, those the tree's other files store theirs in.
    const members =
      found.length > 0 || (depth === 0 && base.implementations?.size)
        ? memberWriters(base.text, wrappers, quiet, base.implementations)
        : [];
    for (const w of members) {
      if (wrappers.has(w.name)) continue;
      wrappers.set(w.name, w);
      own.push(w);
      found.push(w);
    }
    // What the next round reads depends on what this one found.
    if (found.length > 0) context = `${context}\n${JSON.stringify(found)}`;
    pattern = callPattern(found.map((w) => w.name.replace(/^->/, '')));
    handing = handedPattern(found.map((w) => w.name.replace(/^->/, '')));
  }
  return { own, loud: [...loud] };
}

/**
 * The names `text` calls that the fact base finds quiet beyond what the file's context names, and
 * those the file's bodies show to write nothing: the part of a helper's reading that depends on the
 * code around it, so a cached reading is reused only under the same answers. `answers` gives each
 * name's marks (see {@link callMarks}).
 */
function quietCalls(called: readonly string[], answers: (name: string) => readonly string[]): string {
  const names = new Set<string>();
  for (const name of called) for (const mark of answers(name)) names.add(mark);
  return [...names].sort().join(',');
}

/** The names `text` calls, each once, in the order they first stand (see WrapperMemo.calledNames). */
function callNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) names.add(m[1]!);
  return [...names];
}

/** The names a document's bodies call by where each body starts: this analysis's, the one before. */
interface PlacedNames {
  readonly placing: Map<number, { readonly length: number; readonly names: readonly string[] }>;
  readonly placed: ReadonlyMap<number, { readonly length: number; readonly names: readonly string[] }>;
  readonly change: TextChange | undefined;
}

/**
 * What a call of `name` adds to {@link quietCalls}: the name when the fact base finds it quiet beyond
 * what `base` names, or what it writes nothing to when it is named like I/O; and whether it reads, and
 * whether nothing defines it.
 */
function callMarks(
  name: string,
  base: CContext,
  quiet: (name: string) => boolean,
  silent: NonNullable<CContext['silent']>,
): string[] {
  const marks: string[] = [];
  if (!base.quiet(name) && quiet(name)) marks.push(name);
  // What a call named like I/O writes nothing to changes what a helper calling it is (silentCalls.ts).
  else if (ioName(name)) {
    const params = silent(name);
    if (params && params.size > 0) marks.push(`${name}!${[...params].join('.')}`);
  }
  // A function known to read changes what a helper handing it the descriptor is (awaitedReplies.ts).
  if (base.readsReply?.(name)) marks.push(`${name}^`);
  // A name nothing defines may stand in what a helper formats (formattedArms.ts).
  if (base.unread?.(name)) marks.push(`${name}?`);
  return marks;
}

/**
 * True when the parse of a definition cannot be trusted for a wrapper: an error in its body or its
 * declarator. An error before the declarator alone is an attribute-like macro the grammar does not
 * know (`API ssize_t put(...)`, `static EXPORT int put(...)`): the name, the parameters and the body
 * are read all the same, and so is a body whose only error is an `else` cut off by `#endif`.
 */
function misread(fn: Node): boolean {
  if (!fn.hasError) return false;
  const declarator = functionDeclarator(fn);
  const body = fn.childForFieldName('body');
  // An `else` cut off by `#endif` is the only error the `#ifdef`-split if/else leaves (sessionAlternatives.ts).
  return !declarator || declarator.hasError || (!!body?.hasError && !onlySplitElses(body));
}

/** The definitions of `functions` that have a body, with the body's text in `text`. */
export function bodiesOf(functions: readonly Node[], text: string): FunctionBody[] {
  const bodies: FunctionBody[] = [];
  for (const fn of functions) {
    const body = fn.childForFieldName('body');
    if (body)
      bodies.push({
        fn,
        text: text.slice(body.startIndex, body.endIndex),
        start: body.startIndex,
        end: fn.endIndex,
      });
  }
  return bodies;
}

/**
 * {@link writesThroughParameter} for a definition whose body starts at `start`: its head is read
 * first, as that function does, here without asking the syntax tree for the body again (that was most
 * of the time spent on the file's definitions that call no writer, at every keystroke). Only a head
 * declaring a function pointer, or a parameter the body calls, can declare one it calls with three
 * arguments.
 */
function pointerHead(fn: Node, start: number, text: string): boolean {
  const head = text.slice(fn.startIndex, start);
  return (
    (head.includes('(*') || callsHeadName(head, text.slice(start, fn.endIndex))) &&
    writesThroughParameter(fn, text)
  );
}

/**
 * True when `inside` calls a parameter `head` declares (`out(` of `pw_out_fn out`): a parameter whose
 * function-pointer type a typedef names, which no `(*` in the head shows, may be called there.
 */
function callsHeadName(head: string, inside: string): boolean {
  // The parameter list: the head's last parenthesised group (an attribute macro may stand before).
  const close = head.lastIndexOf(')');
  let open = close;
  for (let depth = 0; open >= 0; open--) {
    const c = head.charCodeAt(open);
    if (c === 41) depth++;
    else if (c === 40 && --depth === 0) break;
  }
  if (open < 0) return false;
  for (const declaration of parameterDeclarations(head.slice(open + 1, close))) {
    const name = parameterName(declaration);
    if (name && inside.includes(name) && new RegExp(`(?<![\\w.>])${name}\\s*\\)?\\s*\\(`).test(inside))
      return true;
  }
  return false;
}

/** A call of three arguments, the count perhaps a call itself (`strlen(s)`, `sizeof(h)`): its callee. */
const THREE_ARGUMENT_CALL =
  /(?<![\w.>])([A-Za-z_]\w*)\s*\)?\s*\([^,();{}]+,[^,;{}]+,(?:[^,();{}]|\([^()]*\))+\)/g;

/**
 * A pointer to a function of three parameters (`(*f)(int, void *, size_t)`, or a context first:
 * `(*out)(void *, const char *, size_t)`), its name captured: the first look's sign of a helper writing
 * with the function it is given (see passedWriters.ts).
 */
const DESCRIPTOR_FUNCTION_POINTER =
  /\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\((?:[^(),;{}]|\([^()]*\))+,(?:[^(),;{}]|\([^()]*\))+,(?:[^(),;{}]|\([^()]*\))+\)/g;

/**
 * A parameter of one type word (`pw_out_fn out`, `const out_fn *out`), its name captured: how a
 * parameter whose function-pointer type a typedef names is declared.
 */
const ONE_WORD_PARAMETER = /[(,]\s*(?:const\s+)?[A-Za-z_]\w*[\s*]+([A-Za-z_]\w*)\s*[,)]/g;

/**
 * True when `text` (a file, or one definition of it) may define a helper that writes through a
 * function it is given: a name called with three arguments that is either declared as a pointer to a
 * function of three parameters and called besides (the declaration reads as a call too), or declared
 * as a parameter of one type word (a typedef'd pointer: `int put(pw_out_fn out, int fd, const char *s)
 * { return out(fd, s, strlen(s)); }`). Each search reads the text once. The file's first look asks
 * the file's facts instead (CFunctionFact.callsParameterWithThree), read in the pass every file pays.
 */
export function mayWriteThroughParameter(text: string): boolean {
  const called = new Map<string, number>();
  for (const m of text.matchAll(THREE_ARGUMENT_CALL)) called.set(m[1]!, (called.get(m[1]!) ?? 0) + 1);
  if (called.size === 0) return false;
  if (text.includes('(*'))
    for (const m of text.matchAll(DESCRIPTOR_FUNCTION_POINTER))
      if ((called.get(m[1]!) ?? 0) >= 2) return true;
  for (const m of text.matchAll(ONE_WORD_PARAMETER)) if (called.has(m[1]!)) return true;
  return false;
}

/**
 * True when `fn` takes a function pointer and its body calls it with three arguments, as a write
 * (`(f)(fd, s + pos, n - pos)`): a helper that writes with what its caller gives it (see
 * helperBodies.ts, `mode`), which names no write function the first look could see. The pointer's
 * type may be spelled in the head (`(*f)(...)`) or be a typedef's (`pw_out_fn out`).
 */
export function writesThroughParameter(fn: Node, text: string): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  const inside = text.slice(body.startIndex, body.endIndex);
  for (const name of parameterNames(fn)) {
    if (!name || !inside.includes(name)) continue;
    if (callsWithThreeArguments(name, inside)) return true;
  }
  return false;
}
