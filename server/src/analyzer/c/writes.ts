// Recognises C statements that are one write: a call to a write function (or a wrapper of one, or a
// macro that expands to one) as a bare statement, behind `(void)`, or checked as `if (call < 0) handler`.
// Statements that hold several writes (a condition chaining them) or a write under a condition are
// read in chains.ts, from the calls this file understands.
import { zeroOnSuccessWith } from './namedStatuses';
import { spelledThroughLocal } from './localSpellings';
import { isMessageDescriptor, type MessageDescriptors } from './messageDescriptors';
import { staticTarget } from './fileStatics';
import { type Shadows, shadowedTarget } from './shadowedGlobals';
import { outsideMessageModes } from './modeSockets';
import type { Node } from 'web-tree-sitter';
import { C_RESULT_DISCARDERS, descriptorAccessor, unaddressedCall, type CWriteFunction } from '../catalogue';
import type { Piece, Span, Template, WriteStep } from '../model';
import type { CWrapper } from '../wrapper';
import { isBare, LENGTH_MARK } from '../cTemplates';
import { indentAt } from '../positions';
import type { CMacro } from './macros';
import { expandMacro } from './macros';
import { accessedDescriptor } from './accessorTargets';
import { memberCallee, type Implementations } from './memberWriters';
import { lineMatches } from './lineMatches';
import { OUT_OF_BAND } from './helperBodies';
import {
  callArgs,
  calleeName,
  calls,
  canonicalTarget,
  commaParts,
  identifiers,
  namedKids,
  unwrap,
} from './syntax';
import { passedWriter } from './passedWriters';
import { zeroConstant } from './pacedLoops';
import { selectsBranch } from './selectedBranches';
import { codeText } from './statusConstants';
import { argumentTest } from './macroStatements';
import { messageScatter } from './messageScatters';
import { memberCallName } from './pureMembers';
import { chosenBy } from './sessionChoices';

export type { CWrapper } from '../wrapper';

/** What the C front end knows while reading one file. */
export interface CContext {
  /**
   * Object-like macros of the file that name a standard descriptor (`#define STO STDOUT_FILENO`), by
   * name, with the descriptor's canonical number.
   */
  readonly descriptorMacros?: ReadonlyMap<string, string>;
  /**
   * The function's locals that copy a member path through a pointer (`p` copying
   * `dev->priv`), with that path: a helper's descriptor reached through the same path is
   * spelled through the local (see localSpellings.ts). Worked out when first asked.
   */
  readonly pointerCopies?: () => ReadonlyMap<string, string>;
  readonly text: string;
  /**
   * The function-like macro definitions of the headers the file includes, one `#define` a line: a
   * statement of one of them is read as a statement of the file's own macro (see macroStatements.ts).
   */
  readonly included?: string;
  /**
   * Functions other files define that never return (see leavingFunctions.ts): a write through one, or a
   * failure path calling one, leaves as `exit()` does.
   */
  readonly leaving?: ReadonlySet<string>;
  readonly functions: ReadonlyMap<string, CWriteFunction>;
  readonly wrappers: ReadonlyMap<string, CWrapper>;
  readonly pure: ReadonlySet<string>;
  /**
   * Whether a called function does no output: the catalogue's and the named presets' (memory, strings,
   * formatting into a buffer), and the fact base's (its body, in this file or another, calls only such
   * functions, down to the library table).
   */
  readonly quiet: (name: string) => boolean;
  /**
   * The parameters (by index) a function of the file writes nothing to, read from its body (a wait
   * until a descriptor is writable: see silentCalls.ts); undefined where no body is read. Asked of
   * calls a helper's body makes beside its write, only those handed the write's descriptor before any
   * format string (only there can the answer change the reading). Absent: none is known.
   */
  readonly silent?: (name: string) => ReadonlySet<number> | undefined;
  /**
   * Whether a called function reads what a descriptor received: its body, in this file or another file
   * of the tree, reaches a read of the library. Handed a helper's descriptor after the helper's write,
   * it awaits a reply (see awaitedReplies.ts). Absent: no reader is known.
   */
  readonly readsReply?: (name: string) => boolean;
  /**
   * Functions of the file that only wait (see waitingFunctions.ts): a call of one between two writes
   * ends their run, as a library wait does.
   */
  readonly waits?: (name: string) => boolean;
  /**
   * Functions whose one wait is for a parameter's descriptor to take output, the file's own or another
   * file's (see writableWaits.ts): the index of that parameter, undefined for any other function.
   */
  readonly writableWaits?: (name: string) => number | undefined;
  /**
   * What a call of the named function changes beyond its arguments: the file-scope variables its body,
   * or a callee's in any file, assigns (see assignedGlobals.ts); undefined when nothing is known.
   */
  readonly assigns?: (name: string) => ReadonlySet<string> | undefined;
  /**
   * Names of functions whose body is nowhere the analyzer reads (not this file, not the tree) and that
   * no table knows: what they do is unknown. A later write's arguments may call one on the assumption
   * that it does no output (see {@link callsInArguments}). Absent: none.
   */
  readonly unread?: (name: string) => boolean;
  /** Function-like macros of the file that expand to one write. */
  readonly macros?: ReadonlyMap<string, CMacro>;
  /** Descriptors (canonical text) known to be byte streams where the statement is read. */
  readonly streams?: ReadonlySet<string>;
  /** Descriptors the file shows to keep message boundaries (never gathered). */
  readonly messages?: MessageDescriptors;
  /**
   * Descriptors the file makes a copy of a message socket with `dup2()`, standard ones included
   * (see messageRedirects.ts): not known to be streams.
   */
  readonly redirected?: ReadonlySet<string>;
  /** Report runs of plain writes on descriptors of unknown kind, on the assumption of a stream. */
  readonly assumeStreams?: boolean;
  /**
   * Told each time a write's descriptor is not shown a byte stream by {@link CContext.streams} where
   * its kind is read: only such a descriptor can read otherwise once other files' functions are known
   * to return streams (see FileWrappers.noKindAsked). Absent: nobody asks.
   */
  readonly kindAsked?: () => void;
  /**
   * Calls that make one plain `write`/`send` each: those, and the helpers and macros that make one
   * (whose descriptors need their origins read). Absent: `write(` and `send(` only.
   */
  readonly plainWrites?: RegExp;
  /**
   * The parameters of a called function through which it cannot change the caller's memory (by
   * index; see `readOnlyParameters`), where its definition is known.
   */
  readonly readOnly?: (callee: string) => ReadonlySet<number> | undefined;
  /**
   * The pointer parameters of a called function its body reaches only through members, by index, with
   * those members (see memberParameters.ts), where its definition is known.
   */
  readonly memberParams?: (callee: string) => ReadonlyMap<number, readonly string[]> | undefined;
  /**
   * Names the file and the headers it includes give the value 0 or -1 (`ST_OK`, `RET_FAIL`: see
   * statusConstants.ts), with the value: a check or a return of one reads as the number. Absent: none.
   */
  readonly codes?: ReadonlyMap<string, number>;
  /**
   * Whether the file or a header it includes defines `name` as a constant no statement can change (an
   * enum member, a macro of a constant expression, a `const` object: see constantNames.ts). Absent:
   * none known.
   */
  readonly constant?: (name: string) => boolean;
  /**
   * What the tree's other files store in struct members (see memberWriters.ts): a call through a
   * member all of whose implementations in view are write helpers is a write. Absent: none known.
   */
  readonly implementations?: Implementations;
  /**
   * Functions returning static storage that their next call overwrites: the library's and the file's
   * own (see staticReturns.ts). Absent: none.
   */
  readonly staticReturns?: ReadonlySet<string>;
  /**
   * The file's own helpers that send static storage (among `staticReturns`), each with the functions
   * whose storage it sends (see staticSenders.ts): a call of one is a call of those. Absent: none.
   */
  readonly staticSenders?: ReadonlyMap<string, readonly string[]>;
  /**
   * The names the function being read declares where a call stands (its parameters and the locals in
   * scope there; see shadowedGlobals.ts): a helper's variable of file scope of such a name is not the
   * caller's. Absent: none is known.
   */
  readonly shadows?: Shadows;
}

/** One write call, understood apart from the statement around it. */
export type CallWrite = Omit<WriteStep, 'kind' | 'span' | 'template'> & {
  /** The byte count a `!= len` check of this call must compare with. */
  readonly checkLen: string;
  /** A wrapper that handles its own errors: the template calls keep (they must be bare). */
  readonly own?: Template;
  /** A fix may include the call (the family is known and the call is not from another file). */
  readonly fixable: boolean;
  /** The call returns true on success and 0 on failure (a status helper's). */
  readonly truthyOnSuccess?: boolean;
  /** The call returns 0 on success and a non-zero code on failure, never a byte count. */
  readonly zeroOnSuccess?: boolean;
  /** The call's result says whether it wrote (see CWrapper's wroteCode). */
  readonly wroteCode?: boolean;
};

/** What a step keeps of `write`: all but the fields that only describe the call itself. */
export function stepFields(
  write: CallWrite,
): Omit<CallWrite, 'checkLen' | 'own' | 'fixable' | 'truthyOnSuccess' | 'zeroOnSuccess' | 'wroteCode'> {
  const {
    checkLen: _len,
    own: _own,
    fixable: _fixable,
    truthyOnSuccess: _truthy,
    zeroOnSuccess: _zero,
    wroteCode: _wrote,
    ...rest
  } = write;
  return rest;
}

/**
 * The step of a write whose result `assigned` keeps and whose test a gathered call would change: the
 * statement `stmt` around `call`, no fix (`reason`, unless the write has a reason of its own), and
 * none of the fields that only describe the call. Does not modify its arguments.
 */
export function keptResultStep(
  write: CallWrite,
  stmt: Node,
  call: Node,
  assigned: string,
  reason: string,
): WriteStep {
  return {
    kind: 'write',
    ...stepFields(write),
    span: { start: stmt.startIndex, end: stmt.endIndex },
    calls: [{ start: call.startIndex, end: call.endIndex }],
    noFix: write.noFix ?? reason,
    assigns: [assigned],
  };
}

/** A check of a call's result: `call < 0`, `call == -1`, `call != len`, or `call == len`. */
export interface Check {
  readonly call: Node;
  /**
   * Failure tests: `<0`, `<=0`, `==-1`, `!=` (a length), `truthy`, `falsy`. Success tests: `==` (a
   * length), `>=0`, `!=-1`, `>0`.
   */
  readonly kind: string;
  /** The length operand of `!=`/`==` checks. */
  readonly len?: Node;
  /** The variable the result is kept in inside the test (`(n = write(...)) != len`). */
  readonly assigned?: Node;
  /**
   * What a comma expression computes right before the call (`(i = htonl(n), write(fd, &i, 4)) != 4`
   * gives `i = htonl(n)`): only read when the caller asked for commas (see commaPreludes.ts).
   */
  readonly prelude?: readonly Node[];
}

/** Check kinds under which the statement's handler runs when the call succeeded. */
export const SUCCESS_CHECKS: ReadonlySet<string> = new Set(['==', '>=0', '!=-1', '>0']);

/** The operator that says the same with its operands swapped (`0 > call` is `call < 0`). */
const SWAPPED: Readonly<Record<string, string>> = {
  '<': '>',
  '>': '<',
  '<=': '>=',
  '>=': '<=',
  '==': '==',
  '!=': '!=',
};

/** Comparisons with a constant that say whether a write failed or succeeded. */
const CONSTANT_CHECKS: Readonly<Record<string, string>> = {
  '<0': '<0',
  '<=0': '<=0',
  '==-1': '==-1',
  '>=0': '>=0',
  '!=-1': '!=-1',
  '>0': '>0',
  // A status that is zero on success (a helper's 0 or -1, or its errno): the bare call's test.
  '!=0': 'truthy',
  '==0': 'falsy',
};

/**
 * The call `node` is, or the call assigned inside it (`(n = write(...))`), with the variable; with
 * `commas`, also the call a comma expression ends in, with what it computes first.
 */
function callIn(
  node: Node,
  commas = false,
  kept?: KeptCall,
): { call: Node; assigned?: Node; prelude?: readonly Node[] } | undefined {
  const n = checkedValue(node);
  if (n.type === 'call_expression') return { call: n };
  if (kept && n.type === 'identifier' && n.text === kept.name) return { call: kept.call };
  const parts = commas ? commaParts(n) : undefined;
  if (parts) {
    const last = callIn(parts.value);
    return last && { ...last, prelude: parts.prelude };
  }
  if (n.type !== 'assignment_expression' || n.childForFieldName('operator')?.text !== '=') return undefined;
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  const call = right ? checkedValue(right) : undefined;
  return left?.type === 'identifier' && call?.type === 'call_expression'
    ? { call, assigned: left }
    : undefined;
}

/**
 * The value a check compares, seen through what does not change it: parentheses, a cast of the result
 * (`(size_t)write(...) != len`), and an upper-case macro around the call (`TEMP_FAILURE_RETRY(write(...))
 * < 0`, which retries it; {@link macroAround} gives the write no fix).
 */
function checkedValue(node: Node): Node {
  let at = unwrap(node);
  for (;;) {
    if (at.type === 'cast_expression') {
      const value = at.childForFieldName('value');
      if (!value) return at;
      at = unwrap(value);
      continue;
    }
    if (at.type !== 'call_expression' || !MACRO_NAME.test(calleeName(at) ?? '')) return at;
    const args = callArgs(at);
    const inner = args.length === 1 ? unwrap(args[0]!) : undefined;
    if (inner?.type !== 'call_expression') return at;
    at = inner;
  }
}

/**
 * Branch hints: the compiler's `__builtin_expect(test, 0)` and the conventional macros over it (the
 * kernel's `unlikely(test)`, the BSDs' `__predict_false(test)`), which tell the compiler which way a
 * test goes and change nothing else.
 */
const BRANCH_HINT = /^(__builtin_expect\w*|_*(un)?likely|_*predict_(true|false))$/;

/**
 * The test a branch hint wraps, or `test` itself. A hint's definition usually makes its argument a
 * truth value first (`#define unlikely(x) __builtin_expect(!!(x), 0)`), and `!!x` tests what `x` does,
 * so a double negation inside a hint is taken off too: an expanded use reads as the use does.
 */
function hinted(test: Node): Node {
  let at = unwrap(test);
  while (at.type === 'call_expression' && BRANCH_HINT.test(calleeName(at) ?? '')) {
    const first = callArgs(at)[0];
    if (!first) break;
    at = unwrap(first);
    for (let twice = doubleNegated(at); twice; twice = doubleNegated(at)) at = twice;
  }
  return at;
}

/** The operand of `!!operand`, or undefined for any other expression. */
function doubleNegated(node: Node): Node | undefined {
  const negated = (n: Node) => {
    if (n.type !== 'unary_expression' || n.childForFieldName('operator')?.text !== '!') return undefined;
    const arg = n.childForFieldName('argument');
    return arg ? unwrap(arg) : undefined;
  };
  const once = negated(node);
  return once && negated(once);
}

/** A call's result kept in a variable (`n = write(...);`), which a later test reads by its name. */
export interface KeptCall {
  readonly name: string;
  readonly call: Node;
}

/**
 * Reads `test` as a check of a call's result, if it is one: `call < 0`, `call <= 0`, `call == -1`,
 * `call != len`, `call == len`, `call >= 0`, `call != -1`, `call > 0`, each also written the other way
 * round (`len != call`), and the bare `call` (`truthy`: a non-zero result is the error) or `!call`
 * (`falsy`). The call may keep its result in a variable inside the test (`(n = call) != len`). A name
 * `codes` gives the value 0 or -1 compares as that number (`!= ST_OK` is `!= 0`: see statusConstants.ts).
 * With `kept`, the variable the call's result was kept in stands for the call (`n != len` after `n =
 * write(...);`): the check returned names that call.
 */
export function checkOf(
  test: Node,
  codes?: ReadonlyMap<string, number>,
  commas = false,
  kept?: KeptCall,
): Check | undefined {
  const t = hinted(test);
  if (t.type === 'call_expression') return { call: t, kind: 'truthy' };
  if (kept && t.type === 'identifier' && t.text === kept.name) return { call: kept.call, kind: 'truthy' };
  // `if ((ret = put(...)))`: the kept result as the truth value, the test `ret != 0`.
  if (t.type === 'assignment_expression' || (commas && t.type === 'comma_expression')) {
    const kept = callIn(t, commas);
    return kept && { ...kept, kind: 'truthy' };
  }
  if (t.type === 'unary_expression' && t.childForFieldName('operator')?.text === '!') {
    const arg = t.childForFieldName('argument');
    const call = arg ? hinted(arg) : undefined;
    if (kept && call?.type === 'identifier' && call.text === kept.name)
      return { call: kept.call, kind: 'falsy' };
    return call?.type === 'call_expression' ? { call, kind: 'falsy' } : undefined;
  }
  if (t.type !== 'binary_expression') return undefined;
  let op = t.childForFieldName('operator')?.text ?? '';
  let left = t.childForFieldName('left');
  let right = t.childForFieldName('right');
  if (!left || !right) return undefined;
  const swapped = SWAPPED[op];
  if (!callIn(left, commas, kept) && callIn(right, commas, kept) && swapped) {
    [left, right] = [right, left];
    op = swapped;
  }
  const found = callIn(left, commas, kept);
  if (!found) return undefined;
  const { call, assigned, prelude } = found;
  const r = codeText(right.text.replace(/\s+/g, ''), codes);
  const constant = CONSTANT_CHECKS[`${op}${r}`];
  if (constant) return { call, kind: constant, assigned, prelude };
  if (op === '!=' || op === '==') return { call, kind: op, len: right, assigned, prelude };
  // `call < len`: fewer bytes than asked is the failure `!= len` tests for (a write never sends more).
  if (op === '<') return { call, kind: '!=', len: right, assigned, prelude };
  return undefined;
}

/** What a statement's macros are read from: the file and its headers' definitions. */
type MacroText = Pick<CContext, 'text' | 'included'>;

/**
 * True when `name` is a macro whose one argument a statement of it evaluates where it stands: an
 * upper-case name (by convention), or one the file or a header defines to test its argument first
 * (`#define CHECK(code) if ((ret = code) != OK) goto fail`: see argumentTest).
 */
function argumentMacro(name: string, macros?: MacroText): boolean {
  return MACRO_NAME.test(name) || (!!macros && argumentTest(name, macros.text, macros.included));
}

/**
 * The call an expression statement makes for its effect alone: `call`, `(void)call`, `(void)!call`
 * (which quiets `warn_unused_result`), `ignore_result(call)`, or a call that is the one argument of a
 * macro (`DISGUISE(write(...))`, `CHECK(write(...))`, see {@link argumentMacro}): the macro evaluates
 * its argument where it stands, and what else it does is the reason {@link macroAround} gives.
 */
function discarded(expr: Node, macros?: MacroText): Node | undefined {
  let at = unwrap(expr);
  if (at.type === 'unary_expression' && at.childForFieldName('operator')?.text === '!') {
    const arg = at.childForFieldName('argument');
    if (!arg) return undefined;
    at = unwrap(arg);
  }
  if (at.type !== 'call_expression') return undefined;
  // The name first: listing a call's arguments makes a node object for each across the parser's wasm
  // boundary, and every expression statement that calls something comes here.
  const name = calleeName(at) ?? '';
  if (!C_RESULT_DISCARDERS.has(name) && !argumentMacro(name, macros)) return at;
  const args = callArgs(at);
  const inner = args.length === 1 ? unwrap(args[0]!) : undefined;
  return inner?.type === 'call_expression' ? inner : at;
}

/**
 * The call a statement is built around, if the statement is a bare or checked call (`ctx`: the macros
 * and the named codes to read it with).
 */
export function statementCall(
  stmt: Node,
  ctx?: Pick<CContext, 'text' | 'included' | 'codes'>,
): Node | undefined {
  if (stmt.type === 'expression_statement') {
    const expr = stmt.namedChild(0);
    return expr ? discarded(expr, ctx) : undefined;
  }
  if (stmt.type !== 'if_statement' || stmt.childForFieldName('alternative')) return undefined;
  const cond = stmt.childForFieldName('condition');
  const check = cond ? checkOf(cond, ctx?.codes) : undefined;
  return check && !SUCCESS_CHECKS.has(check.kind) ? check.call : undefined;
}

/**
 * The calls a write's argument list (or its test) makes that are not pure, when each is to a function
 * that does no output (the fact base's `quiet`), with the names passed to them (what they may change);
 * undefined when every call is pure (or there is none); null when some call may do output, goes
 * through a pointer, or the node assigns something.
 */
export function callsInArguments(
  list: Node,
  ctx: CContext,
): { calls: string[]; changes: string[]; assumed?: string[] } | undefined | null {
  let found: { calls: string[]; changes: string[]; assumed?: string[] } | undefined;
  for (const call of calls(list)) {
    const what = argumentCall(call, ctx);
    if (what.kind === 'pure') continue;
    if (what.kind === 'io') return null;
    found ??= { calls: [], changes: [] };
    found.calls.push(what.name);
    if (what.kind === 'assumed') (found.assumed ??= []).push(what.name);
    for (const arg of callArgs(call)) for (const n of identifiers(arg)) found.changes.push(n);
  }
  if (found && hasEffects(list)) return null;
  return found;
}

/**
 * What a call made before a write (in its arguments, or in the comma expression it ends) does: nothing
 * (pure), maybe I/O (an unnamed callee, a writer, or a name that may do output; `name` when it has one
 * the rules asked about), no output by what is known of its body (`quiet`), or no output as far as
 * anyone can tell, no body being read (`assumed`, which the finding then says).
 */
export type ArgumentCall =
  | { readonly kind: 'pure' }
  | { readonly kind: 'io'; readonly name?: string }
  | { readonly kind: 'quiet' | 'assumed'; readonly name: string };

/** What `call` does before a write (see {@link ArgumentCall}). */
export function argumentCall(call: Node, ctx: CContext): ArgumentCall {
  const name = calleeName(call);
  if (pureTest(name, ctx.pure, call)) return { kind: 'pure' };
  if (!name || ctx.functions.has(name) || ctx.wrappers.has(name)) return { kind: 'io' };
  if (ctx.quiet(name)) return { kind: 'quiet', name };
  return ctx.unread?.(name) ? { kind: 'assumed', name } : { kind: 'io', name };
}

/** True when every call inside `nodes` is to a pure function: evaluating them early is harmless. */
export function onlyPureCalls(nodes: readonly Node[], pure: ReadonlySet<string>): boolean {
  return nodes.every((node) => calls(node).every((call) => pureTest(calleeName(call), pure, call)));
}

/**
 * An upper-case function-like name used inside a test or an argument is a macro over its arguments by
 * convention (`FLAG(z)`, `ISSET(flags, BELL)`, `LOC(i)`): it reads, it does not do I/O there.
 */
const MACRO_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * A call a test or an argument may make without changing anything: pure, an upper-case macro, or an
 * accessor of the descriptor an object it is given holds (`image_fd(img)`; see
 * {@link descriptorAccessor}: `get_fd()` of nothing may hand back another descriptor each time).
 */
export function pureTest(name: string | undefined, pure: ReadonlySet<string>, call?: Node): boolean {
  if (name === undefined) {
    // A getter through a member the tree stores only pure functions in (see pureMembers.ts).
    const member = call && pure.size > 0 ? memberCallName(call) : undefined;
    return member !== undefined && pure.has(member);
  }
  if (pure.has(name) || MACRO_NAME.test(name)) return true;
  return !!call && descriptorAccessor(name) && callArgs(call).length > 0;
}

/**
 * True when evaluating `node` only reads: every call in it passes {@link pureTest} and it assigns and
 * increments nothing. One search of the subtree answers both (each search crosses the parser's wasm
 * boundary and makes a node object per match).
 */
export function readsOnly(node: Node, pure: ReadonlySet<string>): boolean {
  for (const n of node.descendantsOfType(READ_TEST_KINDS)) {
    if (n && (n.type !== 'call_expression' || !pureTest(calleeName(n), pure, n))) return false;
  }
  return true;
}

const READ_TEST_KINDS = ['call_expression', 'assignment_expression', 'update_expression'];

/** True when evaluating `node` changes something (`fds[i++]`): the same text names another descriptor. */
export function hasEffects(node: Node): boolean {
  return node.descendantsOfType(['update_expression', 'assignment_expression']).length > 0;
}

/** The text of `stmt` around the span `[from, to)`, with a length check's operand marked. */
export function templateAround(
  stmt: Node,
  from: number,
  to: number,
  len: Node | undefined,
  text: string,
  skip?: Span,
): Template {
  // The length sits after the call (`call != len`) or before it (`len != call`).
  const mark = (start: number, end: number) =>
    len && len.startIndex >= start && len.endIndex <= end
      ? text.slice(start, len.startIndex) + LENGTH_MARK + text.slice(len.endIndex, end)
      : text.slice(start, end);
  return {
    // `skip`: text before the call the gathered statement leaves out (a guard `negated && `).
    before: skip ? mark(stmt.startIndex, skip.start) + mark(skip.end, from) : mark(stmt.startIndex, from),
    after: mark(to, stmt.endIndex),
    indent: indentAt(text, stmt.startIndex),
  };
}

/** A cast to an integer type, as a length check writes it (`(ssize_t)len`, `(size_t) n`). */
const LENGTH_CAST = /^\((?:unsigned|signed|long|int|short|size_t|ssize_t|off_t|u?int(?:8|16|32|64)_t)+\)/;

/** A length expression without whitespace, outer parentheses or casts to an integer type. */
function bareLength(text: string): string {
  let t = text.replace(/\s+/g, '');
  for (;;) {
    const cast = LENGTH_CAST.exec(t);
    if (cast) t = t.slice(cast[0].length);
    else if (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1);
    else return t;
  }
}

/** The parentheses of `t` pair up within it (so `(a)+(b)` is not one parenthesised expression). */
function balanced(t: string): boolean {
  let depth = 0;
  for (const c of t) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Two length expressions say the same thing: the same text, whitespace, outer parentheses and casts
 * to integer types aside (a length compared as `ssize_t` is the same count of bytes).
 */
export function sameLength(a: string, b: string): boolean {
  return bareLength(a) === bareLength(b);
}

function piece(buf: Node, len: Node | undefined, text: string): Piece {
  const bufText = text.slice(buf.startIndex, buf.endIndex);
  return { buf: bufText, len: len ? text.slice(len.startIndex, len.endIndex) : `strlen(${bufText})` };
}

function names(nodes: readonly (Node | undefined)[]): string[] {
  const into = new Set<string>();
  for (const node of nodes) if (node) identifiers(node, into);
  return [...into];
}

/**
 * What a write's descriptor is: a byte stream (stdout, stderr, a descriptor the function or file shows
 * to be one, or any descriptor of a function that is not a plain write(2)/send(2)), a descriptor that
 * keeps message boundaries (shown by the file, or any where the front end knows nothing of origins),
 * or of unknown kind (a parameter, a member set in another file).
 */
export function descriptorKind(
  fn: Pick<CWriteFunction, 'messages'>,
  target: string,
  ctx: CContext,
  call?: Node,
): 'stream' | 'message' | 'unknown' {
  // A descriptor the file makes a copy of a message socket takes one message per write, a helper's
  // write-in-full loop included (see messageRedirects.ts).
  if (ctx.redirected?.has(target)) return 'message';
  if (!fn.messages || target === '1' || target === '2' || ctx.streams?.has(target)) return 'stream';
  ctx.kindAsked?.();
  if (!ctx.streams || !ctx.assumeStreams) return 'message';
  // A member that holds a message descriptor only in modes the write does not run in (modeSockets.ts).
  if (
    ctx.messages &&
    isMessageDescriptor(target, ctx.messages) &&
    !(call && outsideMessageModes(call, target, ctx.text, ctx.messages.returning))
  )
    return 'message';
  return 'unknown';
}

/** Flags spelled as constants (`MSG_NOSIGNAL`, `MSG_MORE | MSG_NOSIGNAL`), none asking for out-of-band data. */
export function constantFlags(flags: string): boolean {
  return /^[A-Z0-9_|()\s]+$/.test(flags) && !OUT_OF_BAND.test(flags);
}

/** Why a run of writes given flags has no fix: writev() takes none. */
function flaggedCall(callee: string, flags: string): string {
  return `${callee}() is given ${flags}, which writev() cannot take: gather with sendmsg() and the same flags`;
}

/** Why a write the file spells otherwise for another platform has no fix (see CWriteFunction.respelled). */
function respelledCall(callee: string, gathered: string | undefined): string {
  return `the file redefines ${callee}() for another platform under #if, where ${gathered ?? 'a gathered call'}() may not exist`;
}

/**
 * Why a call is no write the analyzer understands fully (see {@link callWriteOrWhy}): a constant per
 * place it gives up, so that a development tool can count them (scripts/why-quiet.js).
 */
export type Refusal =
  | 'no-name'
  | 'not-a-writer'
  | 'loud-arguments'
  | 'macro-argument-calls'
  | 'macro-not-a-write'
  | 'arity'
  | 'fixed-argument'
  | 'addressed'
  | 'descriptor-effects'
  | 'descriptor-call'
  | 'message'
  | 'not-writer-mode'
  | 'paced'
  | 'not-selected'
  | 'flags';

/**
 * The write a call makes, or undefined when it is not a write the analyzer understands fully (unknown
 * function, wrong arity, a call with side effects in the arguments, a descriptor computed by a call
 * not known to be pure, a plain `write` to a descriptor that may take messages).
 */
export function callWrite(call: Node, ctx: CContext, loudArguments = false): CallWrite | undefined {
  const write = callWriteOrWhy(call, ctx, loudArguments);
  return typeof write === 'string' ? undefined : write;
}

/** {@link callWrite}, or why the call is none: the {@link Refusal} of the first test it fails. */
export function callWriteOrWhy(call: Node, ctx: CContext, loudArguments = false): CallWrite | Refusal {
  const name = calleeName(call) ?? memberCalleeOf(call);
  if (!name) return 'no-name';
  const macro = ctx.macros?.get(name);
  const fn = ctx.functions.get(name);
  const named = ctx.wrappers.get(name);
  // Most calls are to none of these: asking about their arguments first searched each argument's
  // subtree across the parser's wasm boundary (3,200 of busybox's 11,600 searches).
  if (!macro && !fn && !named) return 'not-a-writer';
  // One search of the argument list finds the calls of every argument.
  const list = call.childForFieldName('arguments');
  const args = list ? namedKids(list) : [];
  const quietCalls = list ? callsInArguments(list, ctx) : undefined;
  // With `loudArguments`, a call in the arguments that may do anything is kept as such: the write
  // may still open a run, since its arguments are evaluated before any write of it either way.
  if (quietCalls === null && !loudArguments) return 'loud-arguments';
  const argumentCalls =
    quietCalls === null && list
      ? { calls: calls(list).flatMap((c) => calleeName(c) ?? []), changes: [], io: true }
      : quietCalls;
  if (macro)
    return (argumentCalls ? 'macro-argument-calls' : expandMacro(macro, args, ctx)) ?? 'macro-not-a-write';
  if (fn) {
    const needed = fn.arity ?? Math.max(fn.fd, fn.buf, fn.len ?? 0) + 1;
    if (fn.arity !== undefined ? args.length !== needed : args.length < needed) return 'arity';
    const fixedArg = fn.fixed && args[fn.fixed.index]?.text.replace(/\s+/g, '');
    // A flags argument (`send(..., 0)`) may be any constant but out-of-band data: `MSG_NOSIGNAL` or
    // `MSG_MORE` do not change the bytes, only what the gathered call must be given.
    const flagged = fn.fixed?.text === '0' && fixedArg !== '0' && constantFlags(fixedArg ?? '');
    if (fn.fixed && fixedArg !== fn.fixed.text && !flagged) return 'fixed-argument';
    if (!unaddressedCall(fn, (i) => args[i]?.text)) return 'addressed';
    const fd = args[fn.fd];
    const buf = args[fn.buf];
    // A declared arity may leave no room for the descriptor or the buffer (a catalogue from the settings).
    if (!fd || !buf || hasEffects(fd)) return 'descriptor-effects';
    // The descriptor must be the same whenever it is evaluated: a call there must be pure.
    if (argumentCalls && !onlyPureCalls([fd], ctx.pure)) return 'descriptor-call';
    const target = aliasOf(canonicalTarget(fd.text), ctx);
    const kind = descriptorKind(fn, target, ctx, call);
    if (kind === 'message') return 'message';
    // A message header's scatter list written on its own, to a descriptor not shown to be a stream
    // (writev() is taken for a stream's write otherwise): one message (see messageScatters.ts).
    const shownStream = target === '1' || target === '2' || ctx.streams?.has(target);
    if (!shownStream) ctx.kindAsked?.();
    if (!shownStream && messageScatter(buf)) return 'message';
    const len = fn.len === undefined ? undefined : args[fn.len];
    return {
      target,
      fdText: ctx.text.slice(fd.startIndex, fd.endIndex),
      targetNames: names([fd]),
      callee: name,
      family: fn.gatheredName ?? '',
      pieces: fn.gathered ? undefined : [piece(buf, len, ctx.text)],
      reads: names([buf, len]),
      checkLen: len ? len.text : `strlen(${buf.text})`,
      fixable: fn.gatheredName !== undefined && !flagged && !fn.respelled,
      ...(flagged && { noFix: flaggedCall(name, args[fn.fixed?.index ?? -1]?.text ?? '') }),
      ...(fn.respelled && { noFix: respelledCall(name, fn.gatheredName) }),
      ...(kind === 'unknown' && { assumed: true }),
      ...(argumentCalls && { argumentCalls }),
    };
  }
  if (!named || args.length < named.arity) return 'arity';
  // A helper writing with the function it is given writes through what the call hands it (passedWriters.ts).
  const wrapper = passedWriter(named, args, ctx.wrappers);
  if (!wrapper) return 'not-writer-mode';
  // A paced helper given a pause other than 0 spreads its bytes out on purpose: no write to join.
  if (wrapper.pace !== undefined && !zeroConstant(args[wrapper.pace])) return 'paced';
  // A helper that reads or seeks unless given the right constant: only such calls are its one write.
  if (wrapper.select && !selectsBranch(args[wrapper.select.param], wrapper.select)) return 'not-selected';
  if (wrapper.flags !== undefined) {
    // Constants only (`MSG_NOSIGNAL`, `0`, `MSG_MORE | MSG_NOSIGNAL`), and none asking for out-of-band data.
    if (!constantFlags(args[wrapper.flags]?.text ?? '')) return 'flags';
  }
  const fd = 'param' in wrapper.fd ? args[wrapper.fd.param] : undefined;
  if (fd && hasEffects(fd)) return 'descriptor-effects';
  if (argumentCalls && fd && !onlyPureCalls([fd], ctx.pure)) return 'descriptor-call';
  const member = 'param' in wrapper.fd ? wrapper.fd.member : undefined;
  const element = 'param' in wrapper.fd ? wrapper.fd.element : undefined;
  const argText = fd ? ctx.text.slice(fd.startIndex, fd.endIndex) : '';
  // A helper writing to `fds[c]` given `A` writes to `fds[A]` (see elementTargets.ts).
  const fdText = fd
    ? element
      ? `${element}[${argText}]`
      : argText
    : 'text' in wrapper.fd
      ? wrapper.fd.text
      : '';
  const deref = 'param' in wrapper.fd && wrapper.fd.deref;
  const accessor = 'param' in wrapper.fd ? wrapper.fd.accessor : undefined;
  const spelled = member
    ? memberOf(fdText, member)
    : deref
      ? pointeeOf(fdText)
      : accessor
        ? accessedDescriptor(accessor, fdText)
        : fdText;
  // Reached through the argument's members, it may be what a local of the caller copies (localSpellings.ts).
  // Another file's static (`fd` of log.c) is none of this file's names (see fileStatics.ts).
  // A variable of file scope the caller declares again is not the caller's (see shadowedGlobals.ts).
  const target =
    shadowedTarget(wrapper, call, canonicalTarget, ctx.shadows) ??
    staticTarget(
      wrapper,
      aliasOf(
        member
          ? spelledThroughLocal(canonicalTarget(spelled), ctx.pointerCopies?.())
          : canonicalTarget(spelled),
        ctx,
      ),
    );
  const kind = descriptorKind(wrapper, target, ctx, call);
  if (kind === 'message') return 'message';
  const frames = wrapper.syscalls ?? 1;
  const bufArg = wrapper.buf >= 0 ? args[wrapper.buf] : undefined;
  const len = wrapper.len === undefined ? undefined : args[wrapper.len];
  // A helper without a fix still sends its buffer argument: the run needs to know what it sent.
  const pieces: Piece[] | undefined =
    frames > 1 || wrapper.formats
      ? undefined
      : bufArg
        ? [piece(bufArg, len, ctx.text)]
        : wrapper.constant && [wrapper.constant];
  return {
    target,
    fdText: spelled,
    targetNames: fd
      ? [...(element ? [element] : []), ...names([fd])]
      : 'names' in wrapper.fd
        ? wrapper.fd.names
        : [],
    callee: name,
    family: wrapper.family,
    pieces,
    // The descriptor's argument is no read of the bytes, unless the object it holds them in is that
    // same argument (a connection's own prompt, see ownObjects.ts): then a change of it ends the run.
    reads:
      frames > 1 || wrapper.noFix
        ? names(args.filter((a) => a !== fd || a === bufArg))
        : names([bufArg, len]),
    checkLen: len ? len.text : bufArg ? `strlen(${bufArg.text})` : (wrapper.constant?.len ?? ''),
    own: wrapper.template,
    // A wrapper defined in another file may write to a descriptor this file cannot name: no fix.
    fixable: !wrapper.file && frames === 1 && !wrapper.noFix,
    wrapper: { name, file: wrapper.file },
    ...(argumentCalls && { argumentCalls }),
    ...(wrapper.truthyOnSuccess && { truthyOnSuccess: true }),
    ...(zeroOnSuccessWith(wrapper, ctx.codes) && { zeroOnSuccess: true }),
    ...(wrapper.wroteCode && { wroteCode: true }),
    ...(kind === 'unknown' && { assumed: true }),
    ...(wrapper.printf && frames === 1 && { formatted: true }),
    ...(wrapper.chooses && { chosenBy: chosenBy(wrapper.chooses, args) }),
    syscalls: frames > 1 ? frames : undefined,
    noFix:
      wrapper.noFix ??
      (frames > 1
        ? `${name}() writes ${frames} times per call (a header, then its payload); gathering across calls needs a variant of it that fills an iovec`
        : undefined),
  };
}

/**
 * The descriptor a wrapper that writes to member `member` of its argument writes to, spelled as the
 * caller would: `f->fd` for the argument `f`, `conn.fd` for `&conn`.
 */
function memberOf(arg: string, member: string): string {
  const t = arg.trim();
  if (/^[A-Za-z_]\w*$/.test(t)) return `${t}${member}`;
  const address = /^&\s*([A-Za-z_]\w*)$/.exec(t);
  if (address && member.startsWith('->')) return `${address[1]}.${member.slice(2)}`;
  return `(${t})${member}`;
}

/**
 * The descriptor a wrapper that writes to what its argument points at writes to, spelled as the caller
 * would: `s` for the argument `&s`, `*p` for `p`.
 */
function pointeeOf(arg: string): string {
  const t = arg.trim();
  const address = /^&\s*([A-Za-z_][\w.]*(?:\s*->\s*\w+)*)$/.exec(t);
  if (address) return address[1]!;
  return /^[A-Za-z_]\w*$/.test(t) ? `*${t}` : `*(${t})`;
}

/** The standard descriptor a macro of the file stands for (`STO` for `STDOUT_FILENO`), or `target`. */
function aliasOf(target: string, ctx: CContext): string {
  return ctx.descriptorMacros?.get(target) ?? target;
}

/** An object-like macro of a standard descriptor, on one line (sticky: see lineMatches). */
const DESCRIPTOR_MACRO =
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*(STDIN_FILENO|STDOUT_FILENO|STDERR_FILENO|[012])[ \t]*\)?[ \t]*$/my;

/** The file's object-like macros that name a standard descriptor (see {@link CContext.descriptorMacros}). */
export function descriptorMacros(text: string): ReadonlyMap<string, string> {
  // One analysis asks several times of one text (its context, its helpers' contexts, its call sites).
  if (text === lastMacros.text) return lastMacros.found;
  const found = new Map<string, string>();
  if (text.includes('define'))
    for (const m of lineMatches(text, 'define', DESCRIPTOR_MACRO)) found.set(m[1]!, canonicalTarget(m[2]!));
  lastMacros = { text, found };
  return found;
}

/** {@link descriptorMacros}'s last answer. */
let lastMacros: { text: string; found: ReadonlyMap<string, string> } = { text: '', found: new Map() };

/** `->m` for a call through a function pointer in member `m` (`c->m(...)`, `c.m(...)`). */
export function memberCalleeOf(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'field_expression') return undefined;
  const field = fn.childForFieldName('field');
  return field ? memberCallee(field.text) : undefined;
}

/**
 * The write step for statement `stmt` built around `call`, or undefined when the call is not a write
 * the analyzer understands fully, or the statement checks it in a way a fix could not keep. `given`:
 * the check of the statement's test, when the caller has read it otherwise (see commaPreludes.ts).
 */
export function writeStep(
  stmt: Node,
  call: Node,
  ctx: CContext,
  loudArguments = false,
  given?: Check,
): WriteStep | undefined {
  if (stmt.hasError) return undefined;
  const write = callWrite(call, ctx, loudArguments);
  if (!write) return undefined;
  const cond = stmt.type === 'if_statement' ? stmt.childForFieldName('condition') : null;
  const check = given ?? (cond ? checkOf(cond, ctx.codes) : undefined);
  // `if (invalid(u, text, arg)) return;` of a helper whose result says whether it wrote: a test of its
  // truth is no failure check (it is true where it wrote).
  if (write.wroteCode && cond && (!check || check.kind === 'truthy' || check.kind === '!=')) return undefined;
  const len = check?.kind === '!=' ? check.len : undefined;
  // A `!= len` check must compare with the very length the call writes, or its meaning is unclear.
  if (len && !sameLength(len.text, write.checkLen)) return undefined;
  const site = templateAround(stmt, call.startIndex, call.endIndex, len, ctx.text);
  const macro = macroAround(stmt, call, ctx);
  // A wrapper that handles its own errors is called as a bare statement; anything else is unclear.
  if (write.own && !isBare(site)) return undefined;
  const {
    checkLen: _len,
    own,
    fixable,
    truthyOnSuccess: _status,
    zeroOnSuccess: _code,
    wroteCode: _wrote,
    ...rest
  } = write;
  const assigned = check?.assigned?.text;
  if (assigned && write.targetNames.includes(assigned)) return undefined;
  if (assignedTruth(check, write)) return undefined;
  const failureReturn = assigned ? undefined : failureHandlerReturn(stmt, check, write);
  return {
    kind: 'write',
    span: { start: stmt.startIndex, end: stmt.endIndex },
    ...rest,
    ...(failureReturn !== undefined && { failureReturn }),
    template: fixable ? (own ?? site) : undefined,
    ...(assigned && { assigns: [assigned], noFix: write.noFix ?? keptResult(write.callee, assigned) }),
    ...(macro && { noFix: write.noFix ?? macro }),
  };
}

/**
 * Whether a check of kind `kind` (see {@link Check}) holds where `write` failed (true) or where it
 * succeeded (false); undefined when the call's result does not say (a count tested for its truth).
 */
export function failureTest(
  kind: string,
  write: Pick<CallWrite, 'zeroOnSuccess' | 'truthyOnSuccess'>,
): boolean | undefined {
  if (kind === 'truthy' || kind === 'falsy') {
    if (write.zeroOnSuccess) return kind === 'truthy';
    if (write.truthyOnSuccess) return kind === 'falsy';
    return undefined;
  }
  return !SUCCESS_CHECKS.has(kind);
}

/** A constant a function returns as its outcome (`-1`, `0`, `EXIT_FAILURE`), whitespace removed. */
export function returnedConstant(node: Node | null | undefined): string | undefined {
  const text = node ? unwrap(node).text.replace(/\s+/g, '') : '';
  return /^(?:-?\d+|[A-Z][A-Z0-9_]*)$/.test(text) ? text : undefined;
}

/** `if (<failure test>) return <constant>;`: the constant (see WriteStep's failureReturn). */
function failureHandlerReturn(stmt: Node, check: Check | undefined, write: CallWrite): string | undefined {
  if (stmt.type !== 'if_statement' || !check || stmt.childForFieldName('alternative')) return undefined;
  if (failureTest(check.kind, write) !== true) return undefined;
  const body = stmt.childForFieldName('consequence');
  const kids = body?.type === 'compound_statement' ? namedKids(body) : body ? [body] : [];
  const only = kids.length === 1 ? kids[0] : undefined;
  return only?.type === 'return_statement' ? returnedConstant(only.namedChild(0)) : undefined;
}

/**
 * True when `check` tests a kept result for its truth (`if ((n = call))`) and the callee's result is
 * not known to be 0 on success: a byte count is non-zero when the write succeeded, so the test is no
 * failure check. (A helper returning only constant codes, 0 among them, is known.)
 */
export function assignedTruth(check: Check | undefined, write: CallWrite): boolean {
  return !!check?.assigned && check.kind === 'truthy' && !write.zeroOnSuccess;
}

/**
 * Why a write that is the argument of an upper-case macro has no fix (`DISGUISE(write(...))`): the
 * macro may check, retry or compile the call out, and a gathered call inside it would change that for
 * every write it took. Undefined for a call the statement makes itself or through a known discarder.
 */
function macroAround(stmt: Node, call: Node, macros: MacroText): string | undefined {
  // The calls between the write and the statement: a macro in a test (`TEMP_FAILURE_RETRY(write(...))
  // < 0`) or the whole statement (`CHECK(write(...));`).
  for (let at = call.parent; at && !at.equals(stmt); at = at.parent) {
    if (at.type !== 'call_expression') continue;
    const name = calleeName(at) ?? '';
    if (C_RESULT_DISCARDERS.has(name) || BRANCH_HINT.test(name) || !argumentMacro(name, macros)) continue;
    return `the write is the argument of the macro ${name}(), which may check, retry or leave out the call`;
  }
  return undefined;
}

/**
 * Why a write whose result the statement keeps in a variable has no fix: code after it may read the
 * variable, which a gathered call would set to the total instead.
 */
export function keptResult(callee: string, name: string): string {
  return `the result of ${callee}() is kept in ${name}, which a gathered call would set to the total of all the writes`;
}
