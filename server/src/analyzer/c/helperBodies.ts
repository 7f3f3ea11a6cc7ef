// A project's own write helper, recognised from its body whatever its name and extra arguments. Its one
// write call sends its buffer parameter to its descriptor parameter (or to a member of a parameter, or to
// a fixed descriptor), either once (a helper that returns a status and updates its counters after) or in
// a loop that advances the buffer and shrinks the count until everything is out (a write-in-full loop,
// however it keeps its offset). A variadic helper may format into a buffer of its own first and send
// that: each call is still one write, whose bytes exist only once formatted. Calls to such helpers join
// runs like writes; the project has no gathered twin of them, so they are reported without a fix.
import { endPointerCount } from './endPointers';
import { namedSuccess, zeroOnSuccessWith } from './namedStatuses';
import { writesOnlyCoded } from './unwrittenCodes';
import type { Node } from 'web-tree-sitter';
import { gotoLoop, jumpTests } from './gotoLoops';
import { C_FIRST_ARGUMENT_FILLERS, C_QUIET_FUNCTIONS, ioName, unaddressedCall } from '../catalogue';
import type { WrapperTarget } from '../wrapper';
import {
  callArgs,
  calleeName,
  calls,
  declaredName,
  functionDeclarator,
  identifiers,
  namedKids,
  parameterNames,
  storedResult,
  withoutCasts,
} from './syntax';
import { conjuncts, retriedCall } from './retries';
import { onStoredFailure, onStoredSuccess, releasesDescriptor, releasesOnFailure } from './failurePaths';
import { assertion } from './chains';
import { unpaced, zeroConstant } from './pacedLoops';
import { convertedParam, type ConvertedLocalFacts } from './convertedValues';
import { lateConvertedParam } from './lateConversions';
import { holdsResult, subscriptAdvance } from './subscriptAdvance';
import { elementTarget } from './elementTargets';
import { pointeeLocal, pointeeTarget } from './pointeeLocals';
import { computedFromParams } from './computedBuffers';
import { formatText } from './translatedText';
import { fixedFormat } from './literalFormats';
import { clampFunctions } from './clampFunctions';
import { accessedParam } from './accessorReads';
import { heldCodes } from './statusVariables';
import { chosenCodes, chosenValues } from './chosenCodes';
import { type ChoiceStatus, choiceStatus } from './choiceStatuses';
import { codeText } from './statusConstants';
import { selectedBody, selectsBranch } from './selectedBranches';
import { modeArmSkips } from './modeArms';
import { nestedModeArmSkips } from './nestedModeArms';
import { convertedInPlace, countParameter } from './valuePrefixes';
import { argumentCall, checkOf, memberCalleeOf, type CContext, type CWrapper } from './writes';
import { changesObject, memberOwner, movesDescriptor, type ObjectFacts } from './ownObjects';
import { macroSlots } from './macros';
import { neverReturns } from './noReturnCalls';
import { releasesBeforeExit } from './exitingReleases';
import { resendsShortWrite } from './shortWriteResends';
import { resendsShrinkingCount } from './shrinkingResends';
import { sentAggregate } from './addressedObjects';
import { fillsHeldBuffer } from './bufferingHelpers';
import { passedWriter } from './passedWriters';
import { locksOnly } from './lockCalls';
import { peeksOnly } from './peerPeeks';
import { refusesBefore } from './refusalPaths';
import { oppositeTwinGroups } from './twinConditionals';
import { sealsRecords, sessionAlternative } from './sessionAlternatives';
import { choicePaths, returningAlternative } from './sessionChoices';
import { forwardedFlags } from './forwardedFlags';
import { measuresItsBuffer } from './stringCursors';
import { otherCase, uncastText } from './caseAlternatives';
import { refused, type SlotRefusal } from './helperRefusals';
import { retriesItself } from './selfRetries';
import { awaitedReply } from './awaitedReplies';
import { countedRetry } from './countedRetries';
import { globalDescriptorCall } from './globalDescriptorCalls';
import { sentResults } from './staticSenders';
import { formattedAlternative, stateArgument } from './formattedArms';
import { sharedContextMember } from './contextLocals';
import { checkedStep } from './checkedSteps';
import { readsOwnHeader } from './selfSizedRecords';
import { handedRecord } from './handedRecords';
import { accessorTarget } from './accessorTargets';
import { waitAfterWrite } from './pacingWaits';
import { testsFormattedLength } from './formattedLengthTests';
import { countedLength, testsCount } from './countedLengths';
import { assumingAsCalled, configuredPacing, pacedAssumption } from './configuredPacing';
import { literalMacro } from './literalMacros';
import {
  constantArguments,
  constantBytes,
  constantNoFix,
  everyCall,
  offsetParameter,
} from './constantWriters';
import { settingWrite } from './settingWriters';
import { terminatedString } from './terminatedStrings';

/** Where the writer call inside a helper takes its descriptor, buffer and length, and its family. */
interface WriterSlots {
  /** Absent: the writer has a fixed descriptor (a wrapper of stdout), given as `fixed`. */
  readonly fd?: number;
  readonly fixed?: WrapperTarget;
  readonly buf: number;
  /** Absent: a C string. */
  readonly len?: number;
  readonly family: string;
  /** One call is one plain write, which may be one message (see {@link CWrapper.messages}). */
  readonly messages?: boolean;
  /** Where the writer call takes its `send()` flags, if it has them. */
  readonly flags?: number;
  /** The writer sends the whole object its buffer argument points at (see {@link CWrapper.object}). */
  readonly object?: true;
  /** The writer writes this member of the argument at `fd` (`->fd` of a helper writing `c->fd`). */
  readonly member?: string;
  /** The writer is a printf-style helper: `buf` is its format (see {@link formatIndex}). */
  readonly formats?: true;
  /** With `formats`: the text it sends is formatted when called (see {@link CWrapper.printf}). */
  readonly printf?: true;
  /** The parameter of the helper that a paced writer is given as its pace (`d` of `put_paced(fd, d, ...)`). */
  readonly pace?: number;
}

/** A flags argument that asks for out-of-band data: one call is then no plain part of a byte stream. */
export const OUT_OF_BAND = /\bMSG_OOB\b/;

/**
 * The slots of `call` when it writes one buffer: a write function (a `send` with flags other than
 * out-of-band data counts: `MSG_NOSIGNAL` changes no byte), or a wrapper that writes one buffer per call
 * (a printf-style one, whose buffer is a format, only for a `formatting` helper handing its format on).
 */
function writerSlots(
  callee: string,
  call: Node,
  ctx: CContext,
  formatting = false,
  params: readonly (string | undefined)[] = [],
): WriterSlots | undefined {
  const slots = writerSlotsOrWhy(callee, call, ctx, formatting, params);
  return typeof slots === 'string' ? undefined : slots;
}

/** {@link writerSlots}, or why the call makes no write a helper may make (see helperRefusals.ts). */
function writerSlotsOrWhy(
  callee: string,
  call: Node,
  ctx: CContext,
  formatting = false,
  params: readonly (string | undefined)[] = [],
): WriterSlots | SlotRefusal {
  const fn = ctx.functions.get(callee);
  if (fn) {
    if (fn.gathered) return 'gathered';
    if (fn.fixed) {
      const arg = callArgs(call)[fn.fixed.index]?.text.replace(/\s+/g, '');
      const flags = fn.fixed.text === '0';
      if (arg === undefined || (flags ? OUT_OF_BAND.test(arg) : arg !== fn.fixed.text))
        return 'fixed-argument';
    }
    if (!unaddressedCall(fn, (i) => callArgs(call)[i]?.text)) return 'addressed';
    return {
      fd: fn.fd,
      buf: fn.buf,
      len: fn.len,
      family: fn.gatheredName ?? fn.name,
      ...(fn.messages && { messages: true }),
      ...(fn.fixed?.text === '0' && { flags: fn.fixed.index }),
    };
  }
  // A one-write macro (`#define sock_send(s, b, n) send((s), (b), (n), 0)`): the write it expands to,
  // its slots where the call passes them.
  const macro = ctx.macros?.get(callee);
  const expanded = macro && ctx.functions.get(macro.callee);
  if (macro && expanded) {
    const slots = macroSlots(macro, expanded);
    if (!slots) return 'macro-slots';
    return {
      ...slots,
      family: expanded.gatheredName ?? expanded.name,
      ...(expanded.messages && { messages: true }),
    };
  }
  const named = ctx.wrappers.get(callee);
  // A helper writing with the function it is given writes through what the call hands it: handed a
  // reader (`atomicio(read, fd, buf, n)` in a `read_or_err()`), it reads, as at a call site (see
  // writes.ts), so a helper around it is no write helper either (see passedWriters.ts).
  const w = named && passedWriter(named, callArgs(call), ctx.wrappers);
  if (named && !w) return 'not-writer-mode';
  const format = !!w?.formats && !w.object;
  if (!w || w.buf < 0) return 'not-a-writer';
  if ((w.syscalls ?? 1) > 1) return 'several-writes';
  // A format the call spells out: the bytes are what its other arguments stand for (literalFormats.ts).
  const spelled =
    format &&
    !formatting &&
    (fixedFormat(callArgs(call)[w.buf]) || literalMacro(callArgs(call)[w.buf], ctx.text));
  if (format && !formatting && !spelled) return 'format';
  // A printf-style helper's own pace, handed on with the text it formats, paces the helper: its own
  // calls given 0 are writes. (Any other helper forwarding its caller's pace stays none.)
  const paceArg = w.pace === undefined ? undefined : callArgs(call)[w.pace];
  const forwarded = formatting ? params.indexOf(paceArg ? withoutCasts(paceArg).text : '') : -1;
  const pace = paceArg && !zeroConstant(paceArg) ? forwarded : undefined;
  if ((w.pace !== undefined && !paceArg) || (pace !== undefined && pace < 0)) return 'pace';
  if (w.select && !selectsBranch(callArgs(call)[w.select.param], w.select)) return 'not-selected';
  const messages = {
    ...(w.messages && { messages: true as const }),
    ...((w.object || spelled) && { object: true as const }),
    ...(format && { formats: true as const }),
    ...(format && w.printf && { printf: true as const }),
    ...(pace !== undefined && { pace }),
  };
  // A helper taking flags: given this function's own (its caller's), or constants (see forwardedFlags.ts).
  const flags = w.flags === undefined ? {} : forwardedFlags(call, w.flags, params);
  if (!flags) return 'flags';
  const given = { ...messages, ...(flags.forwarded !== undefined && { flags: flags.forwarded }) };
  if ('param' in w.fd)
    return w.fd.element || w.fd.deref || w.fd.accessor
      ? 'indirect-descriptor'
      : {
          fd: w.fd.param,
          buf: w.buf,
          len: w.len,
          family: w.family,
          ...given,
          ...(w.fd.member && { member: w.fd.member }),
        };
  return { fixed: w.fd, buf: w.buf, len: w.len, family: w.family, ...given };
}

/**
 * True when a name says its function reads what a peer sent: one of its words (snake_case or camelCase
 * parts, an `x` prefix aside) is a read or a receive, alone or with a suffix (`read_reply`, `recvmsg`),
 * and not a word that only starts like one (`ready`, `readonly`, `readable`, `readdir`, `readlink`,
 * `reader`, `reads`).
 */
function readsAnswer(name: string): boolean {
  return name
    .split(/_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .some((word) => /^(?:read|recv)(?!y|only|able|dir|link|me|er|s$)/i.test(word.replace(/^x(?=re)/i, '')));
}

/**
 * True when `call` is handed, as a bare name (`put_one`, `&put_one`), a function that writes: a write
 * function or a helper of the file or the tree.
 */
function handsWriter(call: Node, ctx: CContext): boolean {
  return callArgs(call).some((arg) => {
    const name = arg.type === 'pointer_expression' ? arg.childForFieldName('argument') : arg;
    return name?.type === 'identifier' && (ctx.wrappers.has(name.text) || ctx.functions.has(name.text));
  });
}

/** True when `call` is inside the consequence of an `if` whose test makes `write` (its failure path). */
function handlesFailureOf(call: Node, write: Node): boolean {
  for (let at = call.parent; at; at = at.parent) {
    if (at.type !== 'if_statement') continue;
    const test = at.childForFieldName('condition');
    const then = at.childForFieldName('consequence');
    if (!test || !then || call.startIndex < then.startIndex || call.endIndex > then.endIndex) continue;
    if (write.startIndex >= test.startIndex && write.endIndex <= test.endIndex) {
      const check = checkOf(test);
      // `if ((n = write(...)))` holds when the write sent something: no failure path.
      const truth = check?.assigned !== undefined && check.kind === 'truthy';
      return check !== undefined && check.call.equals(write) && FAILED.has(check.kind) && !truth;
    }
  }
  return false;
}

/**
 * True when `call` runs only when `write` failed, tested in place or through the result it kept (an
 * assertion of that result may stand between the write and its test: see chains.ts `assertion`).
 */
function failurePath(call: Node, write: Node, ctx: CContext): boolean {
  return (
    handlesFailureOf(call, write) ||
    onStoredFailure(call, write, (stmt, result) => assertion(stmt, result, ctx))
  );
}

/**
 * True when `call` of `callee`, a function that releases a descriptor, does so on the failure path of
 * `write` and then returns (see failurePaths.ts) or ends the program (see exitingReleases.ts).
 */
function releasedOnFailure(call: Node, callee: string, write: Node, ctx: CContext): boolean {
  const onFailure = failurePath(call, write, ctx);
  return releasesOnFailure(call, callee, onFailure) || releasesBeforeExit(call, callee, onFailure, ctx);
}

/** Check kinds under which an `if`'s consequence runs when the write failed. */
const FAILED = new Set(['<0', '<=0', '==-1', '!=']);

/** What a helper's body does to its names: the initial value of each local, and how each changes. */
interface BodyFacts {
  /** Locals declared with an initial value: the value (`size_t nleft = count`). */
  readonly initial: ReadonlyMap<string, Node>;
  /** Names that grow: `x += n`, `x = x + n`, `x = n + x`, `x++`, `x = &x[n]` by a result n. */
  readonly grown: ReadonlySet<string>;
  /** Names that shrink: `x -= n`, `x = x - n`, `x--`. */
  readonly shrunk: ReadonlySet<string>;
  /** Names assigned any other way. */
  readonly assigned: ReadonlySet<string>;
  /** Names given a value by exactly one plain assignment (`l = strlen(msg)`), and that value. */
  readonly setOnce: ReadonlyMap<string, Node>;
  /** Every value each name is given, by its initializer and by plain assignments (`=`). */
  readonly values: ReadonlyMap<string, readonly Node[]>;
  /**
   * Names declared without a value and given one by their only change, a plain assignment before any
   * loop (`limit = count;`): that value, which the name then holds throughout.
   */
  readonly copied: ReadonlyMap<string, Node>;
}

/** True for a name the body changes in any way (assigned, grown or shrunk). */
function changedIn(facts: BodyFacts): (name: string) => boolean {
  return (name) => facts.assigned.has(name) || facts.grown.has(name) || facts.shrunk.has(name);
}

function bodyFacts(body: Node): BodyFacts {
  const initial = new Map<string, Node>();
  const grown = new Set<string>();
  const shrunk = new Set<string>();
  const assigned = new Set<string>();
  const plain = new Map<string, Node | null>();
  const values = new Map<string, Node[]>();
  const advances: [string, string][] = [];
  const changes = new Map<string, number>();
  const change = (name: string) => changes.set(name, (changes.get(name) ?? 0) + 1);
  const give = (name: string, value: Node) => values.set(name, [...(values.get(name) ?? []), value]);
  for (const n of body.descendantsOfType(['init_declarator', 'assignment_expression', 'update_expression'])) {
    if (!n) continue;
    if (n.type === 'init_declarator') {
      const name = declaredName(n.childForFieldName('declarator'));
      const value = n.childForFieldName('value');
      if (name && value) {
        initial.set(name, value);
        give(name, value);
      }
      continue;
    }
    if (n.type === 'update_expression') {
      const arg = n.childForFieldName('argument');
      if (arg?.type !== 'identifier') continue;
      change(arg.text);
      (n.text.includes('++') ? grown : shrunk).add(arg.text);
      continue;
    }
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    const name = left.text;
    change(name);
    const op = n.childForFieldName('operator')?.text;
    // `x = x + n` and `x = x - n` step x as `+=`/`-=` do: no plain value of x (see stepsItself).
    const steps = op === '=' && stepsItself(name, right);
    if (op === '+=' || steps === '+') grown.add(name);
    else if (op === '-=' || steps === '-') shrunk.add(name);
    else if (op === '=' && withoutCasts(right).type === 'binary_expression') assigned.add(name);
    else {
      const by = op === '=' ? subscriptAdvance(name, right) : undefined;
      if (by !== undefined) advances.push([name, by]);
      else assigned.add(name);
    }
    if (op === '=') give(name, right);
    if (op === '=' && !steps) {
      plain.set(name, plain.has(name) ? null : right);
      // `p = buf;` as a statement of the body itself (before any loop), or in the initializer of a loop
      // of the body (`for (left = len; left > 0;)`): an initializer written apart.
      if (beforeLoop(n, body) && !plain.has(`\0${name}`)) plain.set(`\0${name}`, right);
    }
  }
  // A checked addition into its own operand steps it (see checkedSteps.ts).
  for (const c of body.descendantsOfType('call_expression')) {
    const step = c && checkedStep(c);
    if (!step) continue;
    change(step.name);
    (step.sign === '+' ? grown : shrunk).add(step.name);
  }
  // `p = &p[n]` advances p by n only when n is what the write sent (see subscriptAdvance.ts).
  for (const [name, by] of advances) (holdsResult(values.get(by)) ? grown : assigned).add(name);
  for (const [key, value] of plain) {
    if (!key.startsWith('\0') || !value) continue;
    const name = key.slice(1);
    // The only plain assignment of a name declared without a value, which the loop then moves (a
    // name set once and never moved is `setOnce`): it is the name's first value.
    if (plain.get(name) === value && !initial.has(name) && (grown.has(name) || shrunk.has(name))) {
      initial.set(name, value);
      assigned.delete(name);
    }
  }
  const copied = new Map<string, Node>();
  for (const [key, value] of plain) {
    const name = key.slice(1);
    if (
      key.startsWith('\0') &&
      value &&
      plain.get(name) === value &&
      !initial.has(name) &&
      changes.get(name) === 1
    )
      copied.set(name, value);
  }
  const setOnce = new Map<string, Node>();
  for (const [name, value] of plain)
    if (value && !name.startsWith('\0') && !grown.has(name) && !shrunk.has(name)) setOnce.set(name, value);
  return { initial, grown, shrunk, assigned, setOnce, values, copied };
}

/**
 * How `name = value` steps name by itself: `'+'` for `x = x + n` or `x = n + x`, `'-'` for `x = x - n`
 * (casts aside: `ptr = ptr + ((size_t)status)`), else undefined. Such a step is the loop's advance, not a
 * value the name is given: a pointer declared bare, set to the buffer before the loop and stepped so
 * (`ptr = (const char *)buf; ... ptr = ptr + status;`) still starts as the buffer.
 */
function stepsItself(name: string, value: Node): '+' | '-' | undefined {
  const sum = withoutCasts(value);
  if (sum.type !== 'binary_expression') return undefined;
  const operator = sum.childForFieldName('operator')?.text;
  const sides = [sum.childForFieldName('left'), sum.childForFieldName('right')].map((s) =>
    s ? withoutCasts(s).text : '',
  );
  if (operator === '+' && sides.includes(name)) return '+';
  if (operator === '-' && sides[0] === name) return '-';
  return undefined;
}

/**
 * True when `assignment` runs once, before any loop of `body`: a statement of the body itself, or (one of
 * the comma-separated parts of) the initializer of a `for` statement of the body, which runs once before
 * the loop's first test.
 */
function beforeLoop(assignment: Node, body: Node): boolean {
  let at = assignment.parent;
  if (at?.type === 'expression_statement') return at.parent?.id === body.id;
  let part = assignment;
  while (at?.type === 'comma_expression') {
    part = at;
    at = at.parent;
  }
  return (
    at?.type === 'for_statement' &&
    at.parent?.id === body.id &&
    at.childForFieldName('initializer')?.id === part.id
  );
}

/** Where a writer's buffer comes from: a parameter (`param`), through a pointer and an offset. */
interface BufferSource {
  readonly param: number;
  /** The pointer variable the call names (the parameter itself, or a local copy of it). */
  readonly pointer: string;
  /** An offset variable added to it (`buf + done`, `&buf[done]`). */
  readonly offset?: string;
}

/**
 * The parameter a name stands for: itself, or a local that starts as (a cast of) it, declared so or
 * copied from it before any loop and never changed (`size_t limit; ... limit = count;`). The local may
 * start as another local that stands for the parameter and is never changed itself: a write-in-full
 * loop often keeps the buffer's start to count what it sent (`const char *start = buf; const char *p =
 * start;` ... `return p - start;`) and moves a second pointer.
 */
function paramOf(
  name: string,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  seen: ReadonlySet<string> = new Set(),
): number {
  const direct = params.indexOf(name);
  if (direct >= 0) return direct;
  const copy = facts.copied.get(name);
  if (copy) {
    const value = withoutCasts(copy);
    return value.type === 'identifier' ? params.indexOf(value.text) : -1;
  }
  const init = facts.initial.get(name);
  if (!init) return -1;
  const value = withoutCasts(init);
  if (value.type !== 'identifier' || facts.assigned.has(name)) return -1;
  const param = params.indexOf(value.text);
  if (param >= 0 || seen.has(name) || !keepsValue(value.text, facts)) return param;
  return paramOf(value.text, params, facts, new Set([...seen, name]));
}

/** True when `name` keeps the value it was declared with: never assigned, moved or stepped. */
function keepsValue(name: string, facts: BodyFacts): boolean {
  return facts.initial.has(name) && !changedIn(facts)(name);
}

function bufferSource(
  node: Node,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
):
  BufferSource | { readonly local: string; readonly offset?: string; readonly addressed?: true } | undefined {
  const b = withoutCasts(node);
  if (b.type === 'identifier') {
    const param = paramOf(b.text, params, facts);
    return param >= 0 ? { param, pointer: b.text } : { local: b.text };
  }
  let base: Node | null = null;
  let offset: Node | null = null;
  if (b.type === 'binary_expression' && b.childForFieldName('operator')?.text === '+') {
    base = b.childForFieldName('left');
    offset = b.childForFieldName('right');
    // `n + (const char *)buf`: the pointer on either side.
    if (
      base &&
      offset &&
      paramOf(withoutCasts(base).text, params, facts) < 0 &&
      addressedLocal(withoutCasts(base)) === undefined
    )
      [base, offset] = [offset, base];
  } else if (b.type === 'pointer_expression' && b.child(0)?.type === '&') {
    const sub = b.childForFieldName('argument');
    if (sub?.type === 'subscript_expression') {
      base = sub.childForFieldName('argument');
      offset = sub.childForFieldName('index');
    }
  }
  if (!base || !offset) return undefined;
  const pointer = withoutCasts(base);
  const at = withoutCasts(offset);
  if (at.type !== 'identifier') return undefined;
  // `(char *)&header + off`: a local object sent from an offset, as a write-in-full loop does.
  const object = addressedLocal(pointer);
  if (object !== undefined && paramOf(object, params, facts) < 0)
    return { local: object, offset: at.text, addressed: true };
  if (pointer.type !== 'identifier') return undefined;
  const param = paramOf(pointer.text, params, facts);
  return param >= 0
    ? { param, pointer: pointer.text, offset: at.text }
    : { local: pointer.text, offset: at.text };
}

/** What a loop's shrinking count starts at (`size_t left = sizeof h;`), if it is set once before. */
function startingCount(count: Node, facts: BodyFacts): Node | undefined {
  const b = withoutCasts(count);
  return b.type === 'identifier' && !facts.assigned.has(b.text) ? facts.initial.get(b.text) : undefined;
}

/** The variable `&name` takes the address of, or undefined. */
function addressedLocal(node: Node): string | undefined {
  if (node.type !== 'pointer_expression' || node.child(0)?.type !== '&') return undefined;
  const arg = node.childForFieldName('argument');
  return arg?.type === 'identifier' ? arg.text : undefined;
}

/**
 * Where a writer's length comes from: a parameter, possibly through a local count or less an offset;
 * or, for a helper of C strings, a local that holds `strlen()` of the buffer (`param` is then -1).
 */
interface LengthSource {
  readonly param: number;
  readonly count: string;
  readonly offset?: string;
  /** The call clamps what is left to a constant itself: only a loop then sends the rest. */
  readonly clamped?: true;
}

/** True when `name` is a local set once, to `strlen()` of the buffer parameter (`len = strlen(s)`). */
function stringLength(name: string, facts: BodyFacts, bufName: string | undefined): boolean {
  const value = facts.initial.get(name) ?? facts.setOnce.get(name);
  if (!value || !bufName || (facts.initial.has(name) && facts.setOnce.has(name))) return false;
  const call = withoutCasts(value);
  if (call.type !== 'call_expression' || calleeName(call) !== 'strlen') return false;
  const arg = callArgs(call)[0];
  return !!arg && withoutCasts(arg).text === bufName;
}

function lengthSource(
  node: Node,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  bufName: string | undefined,
  clampers: ReadonlySet<string>,
  clamped = false,
): LengthSource | 'string' | undefined {
  const b = withoutCasts(node);
  if (b.type === 'identifier') {
    const param = paramOf(b.text, params, facts);
    if (param >= 0) return { param, count: b.text };
    if (stringLength(b.text, facts, bufName)) return { param: -1, count: b.text };
    // A chunk clamped from what is left: what is left says where the length comes from.
    const source = clamped ? undefined : clampedCount(b.text, node, facts);
    const inner = source && lengthSource(source, params, facts, bufName, clampers, true);
    return inner && inner !== 'string' ? inner : undefined;
  }
  if (b.type === 'call_expression' && calleeName(b) === 'strlen') return 'string';
  // A chunk clamped in the call itself (`MIN(count, INT_MAX)`, `n > CAP ? CAP : n`, `rwsize(count)`).
  const source = clamped ? undefined : clampInCall(b, clampers);
  if (source) {
    const inner = lengthSource(source, params, facts, bufName, clampers, true);
    return inner && inner !== 'string' ? { ...inner, clamped: true } : undefined;
  }
  if (b.type !== 'binary_expression' || b.childForFieldName('operator')?.text !== '-') return undefined;
  const left = b.childForFieldName('left');
  const right = b.childForFieldName('right');
  if (
    !left ||
    !right ||
    withoutCasts(left).type !== 'identifier' ||
    withoutCasts(right).type !== 'identifier'
  )
    return undefined;
  const count = withoutCasts(left).text;
  const param = paramOf(count, params, facts);
  if (param >= 0) return { param, count, offset: withoutCasts(right).text };
  if (stringLength(count, facts, bufName)) return { param: -1, count, offset: withoutCasts(right).text };
  // `end - p`, the end set once to the buffer's start plus a count: what is left of that count, the
  // cursor its offset (see endPointers.ts).
  const start = bufName === undefined ? -1 : paramOf(bufName, params, facts);
  const ended = endPointerCount(b, bufName, {
    initial: facts.initial,
    changed: changedIn(facts),
    startsBuffer: (name) => name === bufName || (start >= 0 && paramOf(name, params, facts) === start),
  });
  const counted = ended === undefined ? -1 : paramOf(ended, params, facts);
  return ended !== undefined && counted >= 0
    ? { param: counted, count: ended, offset: withoutCasts(right).text }
    : undefined;
}

/** A constant a chunk is clamped to: a number, a macro, a `sizeof`. */
function isConstant(node: Node): boolean {
  const b = withoutCasts(node);
  return (
    b.type === 'number_literal' ||
    b.type === 'sizeof_expression' ||
    (b.type === 'identifier' && /^[A-Z][A-Z0-9_]*$/.test(b.text))
  );
}

/**
 * What is left to send, behind `value` when it is that or a clamp of it (`MIN(n, MAX)`, `n > MAX ? MAX :
 * n`, `len - done > MAX ? MAX : len - done`): a name or a difference of names.
 */
function clampOf(value: Node): Node | undefined {
  const b = withoutCasts(value);
  const left = (n: Node): Node | undefined => {
    const v = withoutCasts(n);
    if (v.type === 'identifier' && !/^[A-Z][A-Z0-9_]*$/.test(v.text)) return v;
    if (v.type !== 'binary_expression' || v.childForFieldName('operator')?.text !== '-') return undefined;
    const sides = [v.childForFieldName('left'), v.childForFieldName('right')];
    return sides.every((s) => s && withoutCasts(s).type === 'identifier') ? v : undefined;
  };
  if (b.type === 'call_expression' && /^(min|MIN)\w*$/.test(calleeName(b) ?? '')) {
    const args = callArgs(b);
    const counts = args.filter((a) => !isConstant(a));
    return counts.length === 1 && args.length === 2 ? left(counts[0] as Node) : undefined;
  }
  if (b.type === 'conditional_expression') {
    const arms = [b.childForFieldName('consequence'), b.childForFieldName('alternative')];
    const counts = arms.filter((a): a is Node => !!a && !isConstant(a));
    return counts.length === 1 && arms.every(Boolean) ? left(counts[0] as Node) : undefined;
  }
  // What is left itself, kept in a local for the call (`size_t to_send = len - sent;`).
  return left(b);
}

/**
 * What is left behind a clamp spelled in the write's length argument: `MIN(left, CAP)`, `left > CAP ?
 * CAP : left`, or a call of a function of the file that only returns such a clamp of its one parameter
 * (`rwsize(left)`, see clampFunctions.ts).
 */
function clampInCall(value: Node, clampers: ReadonlySet<string>): Node | undefined {
  if (value.type === 'conditional_expression' || /^(min|MIN)\w*$/.test(calleeName(value) ?? ''))
    return clampOf(value);
  const args = value.type === 'call_expression' ? callArgs(value) : [];
  return args.length === 1 && clampers.has(calleeName(value) ?? '') ? clampOf(args[0] as Node) : undefined;
}

/**
 * What is left behind a chunk the write sends when the loop clamps what it sends at once (`w = len; if
 * (w > MAX) w = MAX; w = write(fd, p, w);`, `chunk = MIN(left, SSIZE_MAX)`): every value the chunk is
 * given is that, a clamp of it to a constant, a constant, or the write's own result. Each call still
 * sends the whole buffer when the loop shrinks what is left; the caller's loop checks it does.
 */
function clampedCount(name: string, lenArg: Node, facts: BodyFacts): Node | undefined {
  const given = facts.values.get(name) ?? [];
  let count: Node | undefined;
  let call: Node | null = lenArg.parent;
  while (call && call.type !== 'call_expression') call = call.parent;
  const spelled = (n: Node) => n.text.replace(/\s+/g, '');
  for (const value of given) {
    const b = withoutCasts(value);
    if (call && b.id === call.id) continue;
    if (isConstant(b)) continue;
    const source = clampOf(b);
    if (!source || spelled(source) === name || (count && spelled(source) !== spelled(count)))
      return undefined;
    count = source;
  }
  return count && !(facts.grown.has(name) || facts.shrunk.has(name)) ? count : undefined;
}

/** The descriptor a writer's argument is, as the helper's callers will name it. */
function targetOf(
  node: Node,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  body?: Node,
  pure?: ReadonlySet<string>,
): WrapperTarget | undefined {
  const b = withoutCasts(node);
  if (b.type === 'identifier') {
    const param = params.indexOf(b.text);
    if (param >= 0) return facts.assigned.has(b.text) ? undefined : { param };
    // `int fd = c->fd;` (or `fd = c->fd;` after a bare declaration) kept as it was: the descriptor of
    // the argument's member.
    if (facts.initial.has(b.text) || facts.copied.has(b.text))
      return privateMember(b.text, '', params, facts, pure);
  }
  // `*sock`: the descriptor the parameter points at, as long as the body only reads it (see keepsPointee).
  if (b.type === 'pointer_expression' && b.childForFieldName('operator')?.text === '*')
    return pointeeTarget(b, params, facts.assigned);
  const element = elementTarget(b, params, facts.assigned, body);
  if (element) return element;
  const accessed = accessorTarget(b, params, facts.assigned);
  if (accessed) return accessed;
  const names = identifiers(b);
  if (![...names].some((n) => params.includes(n))) {
    // A fixed descriptor (a global, stdout): no local may stand in it, unless the local stands for a
    // member of a parameter.
    if ([...names].some((n) => facts.initial.has(n) || facts.copied.has(n)))
      return b.type === 'field_expression' ? viaLocal(b, params, facts, pure) : undefined;
    // A local of the body (`fd = stream_fd(open_stream(path))`, opened anew each call) is no fixed
    // descriptor: two calls write to two descriptors. A `static` one keeps its value across calls.
    if ([...names].some((n) => declaresLocal(body, n))) return undefined;
    return { text: b.text, names: [...names] };
  }
  // `f->fd`, `conn.sock`, `c->conn->fd`: members down to a parameter, nothing computed on the way.
  let at = b;
  while (at.type === 'field_expression') {
    const arg = at.childForFieldName('argument');
    if (!arg) return undefined;
    at = withoutCasts(arg);
  }
  if (at.type !== 'identifier' || at === b) return undefined;
  const param = params.indexOf(at.text);
  if (param < 0 || facts.assigned.has(at.text)) return undefined;
  return { param, member: b.text.slice(at.text.length).replace(/\s+/g, '') };
}

/** True when `body` declares `name` as an automatic local (not `static`): it lives for one call. */
function declaresLocal(body: Node | undefined, name: string): boolean {
  return !!body
    ?.descendantsOfType('declaration')
    .some(
      (d) =>
        !namedKids(d).some((k) => k.type === 'storage_class_specifier' && k.text === 'static') &&
        d.childrenForFieldName('declarator').some((k) => declaredName(k) === name),
    );
}

/** `local->m...` down to a local that stands for a member of a parameter (see {@link privateMember}). */
function viaLocal(
  b: Node,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  pure?: ReadonlySet<string>,
): WrapperTarget | undefined {
  let at = b;
  while (at.type === 'field_expression') {
    const arg = at.childForFieldName('argument');
    if (!arg) return undefined;
    at = withoutCasts(arg);
  }
  if (at.type !== 'identifier') return undefined;
  return privateMember(at.text, b.text.slice(at.text.length).replace(/\s+/g, ''), params, facts, pure);
}

/**
 * `p->fd` where the local `p` starts as a member of a parameter and keeps it (`Private *p =
 * drv->private_data;`, the usual driver idiom, or `p = drv->private_data;` as its one change): the helper writes to the descriptor its argument
 * holds through that member, as `drv->private_data->fd` would name it. Two calls given the same
 * argument write to the same descriptor, as with `param->fd`. With no `member` left (`int fd =
 * c->fd;`), the local is the descriptor member itself.
 */
function privateMember(
  local: string,
  member: string,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  pure?: ReadonlySet<string>,
): WrapperTarget | undefined {
  // Declared bare and given its value by its one change (`pp = peer->priv;`, C89 style), or initialised.
  const init = facts.initial.get(local) ?? facts.copied.get(local);
  const moved = facts.initial.has(local)
    ? [facts.assigned, facts.grown, facts.shrunk]
    : [facts.grown, facts.shrunk];
  if (!init || moved.some((s) => s.has(local))) return undefined;
  // One value only: the initializer (a second declaration of the name in another scope is another local).
  if ((facts.values.get(local) ?? []).length !== 1) return undefined;
  const source = targetOf(init, params, facts, undefined, pure);
  // `int sock = *(int *) s;`: the pointee of a parameter (see pointeeLocals.ts).
  const pointee = pointeeLocal(source, member);
  if (pointee) return pointee;
  const shared = sharedContextMember(local, init, source, member, pure);
  if (shared) return shared;
  if (!source || !('param' in source) || !source.member) return undefined;
  return { param: source.param, member: `${source.member}${member}` };
}

/**
 * The descriptor a helper writes through another helper that writes a member of its argument
 * (`conn_write(c, p, n)` writing `c->fd`): that member of what this helper passes, as its own callers
 * name it (`c` given on as it came: `->fd` of this helper's parameter).
 */
function memberOf(target: WrapperTarget | undefined, member: string | undefined): WrapperTarget | undefined {
  if (!member || !target) return target;
  if (!('param' in target) || target.element !== undefined || target.deref || target.accessor)
    return undefined;
  return { param: target.param, member: `${target.member ?? ''}${member}` };
}

/**
 * True when `body` changes what `pointer` points at (the caller's descriptor) only where `write` failed:
 * `*sock = -1;` or `close_and_clear(sock)` after a failed write leaves the helper with the run ended,
 * while anywhere else the next call could write to another descriptor.
 */
function keepsPointee(body: Node, pointer: string, write: Node, ctx: CContext): boolean {
  const through = (n: Node | null): boolean => {
    const t = n ? withoutCasts(n) : undefined;
    if (t?.type === 'pointer_expression' || t?.type === 'subscript_expression') {
      const inner = t.childForFieldName('argument');
      return !!inner && withoutCasts(inner).text === pointer;
    }
    return false;
  };
  for (const n of body.descendantsOfType(['assignment_expression', 'update_expression', 'call_expression'])) {
    if (!n || n.equals(write)) continue;
    const changes =
      n.type === 'assignment_expression'
        ? through(n.childForFieldName('left'))
        : n.type === 'update_expression'
          ? through(n.childForFieldName('argument'))
          : callArgs(n).some(
              (a) => withoutCasts(a).text === pointer || withoutCasts(a).text === `&*${pointer}`,
            );
    if (changes && !failurePath(n, write, ctx)) return false;
  }
  return true;
}

/** A helper's call of another writer, and what the helper's body says around it. */
interface HandOn {
  call: Node;
  slots: WriterSlots;
  fd: WrapperTarget;
  params: readonly (string | undefined)[];
  facts: BodyFacts;
  body: Node;
  /** The formatted writes of the other arms, one a path with `call` (see formattedArms.ts). */
  armWrites?: readonly Node[];
}

/**
 * A helper handing its parameters, and constants, to a writer of what its arguments stand for (see
 * {@link CWrapper.object}): `return put_token(fd, "STAT", (unsigned)status);`. Each call is one such
 * write, of the bytes its own arguments stand for.
 */
function handedOn(name: string, exported: boolean, at: HandOn, ctx: CContext): CWrapper | undefined {
  const { call, slots, fd, params, facts, body } = at;
  if (loopAround(call, body)) return refused('handed-on', call);
  const passed = callArgs(call)
    .filter((_, k) => k !== slots.fd)
    .map((a) => withoutCasts(a));
  const armWrites = at.armWrites ?? [];
  const given = (a: Node) =>
    a.type === 'identifier' && params.includes(a.text) && !facts.assigned.has(a.text);
  const fixed = (a: Node) => isConstant(a) || a.type === 'string_literal';
  const fdParam = 'param' in fd ? fd.param : -1;
  // A local the body builds from its arguments alone (`vsnprintf(line, sizeof line, fmt, ap)`, then
  // `put_line(fd, line)`): the parameter it is computed from stands for it (see computedBuffers.ts).
  const quietCall = (n: string) => C_QUIET_FUNCTIONS.test(n) || ctx.pure.has(n) || ctx.quiet(n);
  // So does a value or a record of its own computed from them, handed on by value or by its address
  // (`create_item(&item, tag, val); put_item(out, &item);`, see handedRecords.ts).
  const built = passed.map((a) => {
    const local =
      a.type === 'identifier' && !given(a) && !params.includes(a.text) ? a.text : handedRecord(a, params);
    return local !== undefined
      ? computedFromParams(local, {
          body,
          write: call,
          params,
          addressed: true,
          fdParam: fdParam >= 0 ? fdParam : undefined,
          quietCall,
          failing: (n) => failurePath(n, call, ctx),
          leaves: (n) => neverReturns(n, ctx),
        })
      : -1;
  });
  // A helper formatting one line a path formats the program's state as well (see formattedArms.ts).
  const state = (a: Node) =>
    armWrites.length > 0 &&
    stateArgument(
      a,
      body,
      params,
      (n) => facts.assigned.has(n),
      (c) => argumentCall(c, ctx).kind !== 'io',
    );
  // A printf-style writer's value that is a parameter offset by constants (`BASE + color`) stands for
  // that parameter (see constantWriters.ts); a value another writer encodes is its own computation.
  const offset = (a: Node) => (slots.formats ? offsetParameter(a, given, fixed) : given(a) ? a : undefined);
  const unknown = passed.find((a, k) => !offset(a) && !fixed(a) && built[k]! < 0 && !state(a));
  if (unknown) return refused('handed-on', unknown);
  for (const w of armWrites) {
    const other = callArgs(w).find(
      (a, k) => k !== slots.fd && !given(withoutCasts(a)) && !fixed(a) && !state(a),
    );
    if (other) return refused('handed-on', other);
  }
  const found = passed
    .map((a, k) => {
      const param = offset(a);
      return param ? params.indexOf(param.text) : built[k]!;
    })
    .find((k) => k >= 0 && k !== fdParam);
  // Only constants handed on: the same bytes on every call (see constantWriters.ts).
  // Written on every path through the helper (see constantWriters.ts `everyCall`): a check that
  // answers a bad argument with a fixed reply writes only where it says so, and its caller then leaves.
  const constant =
    found === undefined &&
    armWrites.length === 0 &&
    everyCall(call, body, (n) => underTest(n, body)) &&
    constantArguments(passed, fixed) &&
    armWrites.every((w) =>
      constantArguments(
        callArgs(w).filter((_, k) => k !== slots.fd),
        fixed,
      ),
    );
  if (found === undefined && !constant) return refused('handed-on', call);
  const buf = found ?? -1;
  return opaqueWriter(
    { name, exported, fd, buf, family: slots.family, arity: params.length },
    constant
      ? constantNoFix(name)
      : `${name}() hands its arguments to another helper that writes the bytes they stand for, which no iovec can point at`,
    slots,
    statusCodes(body, (n) => zeroOnSuccessWith(ctx.wrappers.get(n), ctx.codes), ctx.codes),
    writesOnlyCoded(body, call, ctx.wrappers.get(calleeName(call) ?? '')?.wroteCode === true),
  );
}

/**
 * A printf-style helper handing its format, and what its `...` gave, to another printf-style helper
 * (`say(fd, fmt, ...)` calling `vsay(fd, fmt, ap)` between `va_start` and `va_end`): each call is one
 * write of the text the other formats, as if it formatted it itself.
 */
function formatHandedOn(name: string, exported: boolean, at: HandOn, format: number): CWrapper | undefined {
  const { call, slots, fd, params, facts, body } = at;
  const given = callArgs(call)[slots.buf];
  const fmt = params[format];
  if (!given || !fmt || withoutCasts(given).text !== fmt || facts.assigned.has(fmt))
    return refused('format-handed-on', given ?? call);
  if (loopAround(call, body)) return refused('format-handed-on', call);
  // A pace handed on with the format paces this helper's calls too.
  const pace = slots.pace;
  if (pace !== undefined && (pace === format || ('param' in fd && fd.param === pace)))
    return refused('pace-conflict', call);
  return {
    name,
    exported,
    fd,
    buf: format,
    family: slots.family,
    arity: params.length,
    noFix: `${name}() formats its text before writing it, so no iovec can list its bytes`,
    formats: true,
    printf: true,
    ...(slots.messages && { messages: true }),
    ...(pace !== undefined && { pace }),
  };
}

/**
 * A helper that writes bytes no iovec of the caller can point at (handed on, or computed into an array
 * of its own): one write a call, found without a fix, `noFix` saying why.
 */
function opaqueWriter(
  base: Pick<CWrapper, 'name' | 'exported' | 'fd' | 'buf' | 'family' | 'arity'>,
  noFix: string,
  slots: WriterSlots,
  zeroOnSuccess: boolean,
  wroteCode = false,
): CWrapper {
  return {
    ...base,
    noFix,
    formats: true,
    object: true,
    ...(slots.messages && { messages: true }),
    // Codes that say whether it wrote are no status of the write.
    ...(zeroOnSuccess && !wroteCode && { zeroOnSuccess: true }),
    ...(wroteCode && { wroteCode: true }),
  };
}

/** The loop around `node` inside `body`, if any: a loop statement, or a backward `goto`'s (gotoLoops.ts). */
function loopAround(node: Node, body: Node): Node | undefined {
  for (let at = node.parent; at && at.id !== body.id; at = at.parent) {
    if (['while_statement', 'for_statement', 'do_statement'].includes(at.type)) return at;
  }
  return gotoLoop(node, body);
}

function isVariadic(fn: Node): boolean {
  const list = functionDeclarator(fn)?.childForFieldName('parameters');
  return !!list && namedKids(list).some((p) => p.type === 'variadic_parameter');
}

/**
 * True when `call` runs only where a test inside `body` says (an arm of an `if`, `?:` or `switch`), but
 * an `if` whose condition `asked` accepts (a test that asks nothing of the program's state).
 */
function underTest(call: Node, body: Node, asked?: (test: Node) => boolean): boolean {
  for (let at = call.parent, child: Node = call; at && at.id !== body.id; child = at, at = at.parent) {
    if (at.type === 'switch_statement' || at.type === 'case_statement') return true;
    if (at.type !== 'if_statement' && at.type !== 'conditional_expression') continue;
    const test = at.childForFieldName('condition');
    if (test && at.type === 'if_statement' && asked?.(test)) continue;
    if (!test || child.startIndex < test.startIndex || child.endIndex > test.endIndex) return true;
  }
  return false;
}

/**
 * The index of a printf-style function's format parameter, or -1: the last named parameter before `...`
 * (`say(fd, fmt, ...)`), or the one before a `va_list` (`vsay(fd, fmt, ap)`, which formats what its
 * caller's `...` gave). Both format their text from their arguments before they write it.
 */
function formatIndex(fn: Node): number {
  const list = functionDeclarator(fn)?.childForFieldName('parameters');
  const kids = list ? namedKids(list) : [];
  const named = kids.filter((p) => p.type === 'parameter_declaration');
  if (kids.some((p) => p.type === 'variadic_parameter')) return named.length - 1;
  const listed = named.findIndex(
    (p) =>
      p.childForFieldName('type')?.text === 'va_list' &&
      p.childForFieldName('declarator')?.type === 'identifier',
  );
  return listed >= 1 ? listed - 1 : -1;
}

/**
 * The write helper `fn` is (see the file comment), or undefined. `exported` says whether other files may
 * call it.
 */
export function writeHelperOf(
  fn: Node,
  name: string,
  exported: boolean,
  ctx: CContext,
): CWrapper | undefined {
  const whole = helperOf(fn, name, exported, ctx);
  if (whole) return assumingAsCalled(whole, fn, ctx.wrappers);
  // Read again without the arms a constant argument rules out (see selectedBranches.ts).
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  const params = parameterNames(fn);
  const noisy = (c: Node) => {
    const callee = calleeName(c);
    if (callee === undefined) return true;
    if (writerSlots(callee, c, ctx)) return false;
    if (ctx.functions.has(callee) || ctx.wrappers.has(callee) || ctx.macros?.has(callee)) return true;
    return ioName(callee) && !C_QUIET_FUNCTIONS.test(callee);
  };
  const selected = selectedBody(body, params, noisy, changedIn(bodyFacts(body)));
  if (selected) {
    const helper = helperOf(fn, name, exported, ctx, selected.skipped);
    return helper && assumingAsCalled({ ...helper, select: selected.select }, fn, ctx.wrappers);
  }
  // Read again as the configuration whose rate is off (see configuredPacing.ts).
  const pacing = configuredPacing(body, params);
  const unpacedHelper = pacing && helperOf(fn, name, exported, ctx, pacing.skipped);
  if (pacing && unpacedHelper) {
    const assumes = pacedAssumption(name, pacing);
    return {
      ...unpacedHelper,
      assumes,
      noFix: unpacedHelper.noFix ? `${unpacedHelper.noFix}; ${assumes}` : assumes,
    };
  }
  // Read again as the arm of the mode in which it writes through (see modeArms.ts).
  const skipped = modeArmSkips(body, params, [ctx.text, ctx.included], ctx.quiet);
  let helper = skipped && helperOf(fn, name, exported, ctx, skipped);
  // Or as the arm of nested modes that writes (see nestedModeArms.ts).
  if (!skipped)
    for (const arm of nestedModeArmSkips(body, params, [ctx.text, ctx.included], ctx.quiet)) {
      helper = helperOf(fn, name, exported, ctx, arm);
      if (helper) break;
    }
  return (
    helper &&
    assumingAsCalled(
      {
        ...helper,
        noFix:
          helper.noFix ??
          `${name}() writes to the descriptor only in one mode; in the other it keeps the bytes or sends them another way`,
      },
      fn,
      ctx.wrappers,
    )
  );
}

/** {@link writeHelperOf} of the body without the calls `skipped` names (by node id). */
function helperOf(
  fn: Node,
  name: string,
  exported: boolean,
  ctx: CContext,
  skipped?: ReadonlySet<number>,
): CWrapper | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  const params = parameterNames(fn);
  const format = formatIndex(fn);
  const variadic = format >= 0;
  // One parameter is enough for a helper of a fixed descriptor (`tty_puts(s)` writing to a global).
  // Or none, for a helper writing bytes spelled out in it, as a setting says (see settingWriters.ts).
  // (`(void)` reads as one parameter without a name.)
  const setting = params.length <= 1 && params.every((p) => p === undefined) ? settingWrite(fn) : undefined;
  if (!setting && (params.length < 1 || params.includes(undefined))) return refused('no-parameters', fn);
  let writer: { call: Node; slots: WriterSlots } | undefined;
  // Other calls that may do I/O (a debug trace, an error message): harmless unless they are given the
  // descriptor, which is then written by more than the one call.
  const io: Node[] = [];
  // Writes of the same bytes through the connection's session, in the other arm of a test.
  const sessions: Node[] = [];
  // The other arm's formatted write of a helper formatting one line a path (see formattedArms.ts).
  const armWrites: Node[] = [];
  const spelledFormat = (callee: string) => {
    const w = ctx.wrappers.get(callee);
    return w?.formats && !w.object && w.buf >= 0 ? w.buf : undefined;
  };
  const all = calls(body).filter((c) => !skipped?.has(c.id));
  // Two paths of which a call takes one: the arms of an if/else, or an `if` that returns and the code
  // after it (see sessionChoices.ts).
  const eitherPath = (a: Node, b: Node) => otherArm(a, b) || returningAlternative(a, b, body);
  // Under `#ifdef _WIN32 ... #else ... #endif`, the branch without the write is another platform's
  // code: the helper is read in the configuration its first write is compiled in.
  const first = all.find((c) => {
    const callee = calleeName(c);
    return callee !== undefined && writerSlots(callee, c, ctx, variadic, params) !== undefined;
  });
  // The write function may be a parameter (`atomicio(f, fd, buf, n)` calling `(f)(fd, s + pos, n - pos)`):
  // the helper writes when its caller passes `write` there (see {@link CWrapper.mode}).
  let mode: number | undefined;
  for (const c of all) {
    if (first && otherConfiguration(c, first)) continue;
    const given = calledParameter(c, params);
    if (given >= 0) {
      if (callArgs(c).length !== 3 || (mode !== undefined && mode !== given)) return refused('mode-call', c);
      if (writer && !sameCall(writer.call, c)) return refused('mode-call', c);
      mode = given;
      writer ??= { call: c, slots: { fd: 0, buf: 1, len: 2, family: '' } };
      continue;
    }
    // A call through a pointer may do anything, a write included (a member known to hold writers writes).
    const member = calleeName(c) === undefined ? memberCalleeOf(c) : undefined;
    const callee = calleeName(c) ?? (member && ctx.wrappers.has(member) ? member : undefined);
    // Only the write's own failure handling may call through another pointer (`c->closed(c)`).
    if (!callee && writer && handlesFailureOf(c, writer.call)) continue;
    if (!callee) return refused('pointer-call', c);
    // A tail call of the helper itself with its write's descriptor and bytes is that write's retry (see
    // selfRetries.ts).
    if (writer && retriesItself(c, name, writer.call, writer.slots)) continue;
    const slots = writerSlotsOrWhy(callee, c, ctx, variadic, params);
    if (typeof slots !== 'string') {
      // The same write again (a retry once the descriptor is writable) is still the one write; so is
      // its alternative under `#ifdef` (`send(fd, p, n, MSG_NOSIGNAL)` or else `write(fd, p, n)`).
      if (writer && !sameCall(writer.call, c) && !alternativeWrite(writer, { call: c, slots }, body)) {
        // A TLS library's write of the same bytes in the other arm (see sessionAlternatives.ts): the
        // descriptor's write is the helper's.
        const sealed = (n: Node) => sealsRecords(calleeName(n), ctx.functions);
        if (sealed(c) && !sealed(writer.call) && sessionAlternative(c, writer.call, writer.slots, eitherPath))
          sessions.push(c);
        else if (sealed(writer.call) && sessionAlternative(writer.call, c, slots, eitherPath)) {
          sessions.push(writer.call);
          writer = { call: c, slots };
        } else if (
          formattedAlternative(writer, { call: c, slots }, spelledFormat, body) &&
          // A helper that calls itself (a tree's dump, one line a node) writes as often as it recurses.
          !all.some((n) => calleeName(n) === name)
        )
          armWrites.push(c);
        else return refused('second-write', c);
        continue;
      }
      writer ??= { call: c, slots };
    } else if (ctx.functions.has(callee) || ctx.wrappers.has(callee) || ctx.macros?.has(callee))
      return refused('writer-unfit', c, slots);
    // A call handed a function that writes (`term_emit(attr, put_one)`, a terminal library writing an
    // attribute's codes through the project's one-character writer) writes through it as often as it
    // likes: no helper of one write.
    else if (handsWriter(c, ctx)) return refused('writer-handed', c);
    else if (writer && releasesDescriptor(callee) && releasedOnFailure(c, callee, writer.call, ctx)) continue;
    // A guard that refuses the call before the write may close the descriptor (see refusalPaths.ts).
    else if (first && releasesDescriptor(callee) && refusesBefore(c, first, body)) continue;
    // A peek at the peer before the write (see peerPeeks.ts) takes nothing off the descriptor; a lock
    // around the write (see lockCalls.ts) does no I/O.
    else if (ioName(callee) && !C_QUIET_FUNCTIONS.test(callee) && !peeksOnly(c) && !locksOnly(callee))
      io.push(c);
  }
  if (!writer) return refused('no-write', body);
  const { call, slots } = writer;
  // A helper writing with the function it is given writes only when its caller hands it a writer, what
  // ever it makes of the bytes first (a formatter, an object it fills): every reading of it says so.
  const moded = (w: CWrapper): CWrapper => (mode === undefined ? w : { ...w, mode });
  // The same bytes sent through the connection's session instead, by a test (see sessionAlternatives.ts).
  // The helper's own write must be the descriptor's, not a session's.
  const plain = !sealsRecords(calleeName(call), ctx.functions);
  for (const c of io) if (plain && sessionAlternative(c, call, slots, eitherPath)) sessions.push(c);
  if (sessions.length > 0) io.splice(0, io.length, ...io.filter((c) => !sessions.includes(c)));
  const args = callArgs(call);
  const facts = bodyFacts(body);
  const fdArg = slots.fd === undefined ? undefined : args[slots.fd];
  const fd = memberOf(fdArg ? targetOf(fdArg, params, facts, body, ctx.pure) : slots.fixed, slots.member);
  const bufArg = args[slots.buf];
  if (!fd || !bufArg) return refused('descriptor', fdArg ?? call);
  if ('param' in fd && fd.deref && !keepsPointee(body, params[fd.param]!, call, ctx))
    return refused('pointee-changed', call);
  // `cl->sock = next;` after the write: the next call writes another descriptor (see ownObjects.ts).
  if (
    'param' in fd &&
    fd.member &&
    movesDescriptor(
      body,
      params[fd.param]!,
      fd.member,
      params,
      objectFacts(facts),
      (n) => failurePath(n, call, ctx) || refusesBefore(n, call, body),
    )
  )
    return refused('descriptor-moved', call);
  const fdNames =
    'param' in fd ? [params[fd.param] as string, ...(fd.element ? [fd.element] : [])] : fd.names;
  // A body read says more than a name: a wait named like a write (`wait_for_write(fd, t)`) whose body
  // writes nothing to the descriptor it is given is no second write (see silentCalls.ts). Its body is
  // asked about only when the call is handed the descriptor: what a reading asked is what a definition
  // read later can change (see CContext.silent).
  const given = (c: Node) => {
    const handed = outputArgs(c).flatMap((arg, k) =>
      [...identifiers(arg)].some((n) => fdNames.includes(n)) ? [k] : [],
    );
    if (handed.length === 0) return false;
    const silent = ctx.silent?.(calleeName(c) ?? '');
    return handed.some((k) => !silent?.has(k));
  };
  // A helper that picks its path by a test and on the other path hands the descriptor to a function
  // the fact base does not find quiet (`if (swd) swd_cmd(fd, x); else jtag_cmd(fd, x);`, where the
  // first writes and then reads the reply) does other I/O there: no helper of one write.
  const quietCall = (n: string) => C_QUIET_FUNCTIONS.test(n) || ctx.pure.has(n) || ctx.quiet(n);
  const elsewhere = (c: Node) => {
    const callee = calleeName(c);
    return (
      callee !== undefined &&
      !sessions.includes(c) &&
      otherArm(call, c) &&
      !writerSlots(callee, c, ctx, variadic, params) &&
      !quietCall(callee) &&
      given(c)
    );
  };
  const other = all.find(elsewhere);
  if (other) return refused('descriptor-elsewhere', other);
  // A call after the write handing the descriptor to a function that reads: the helper awaits a reply,
  // whether it writes its own bytes or hands them on (see awaitedReplies.ts).
  const reply = awaitedReply(
    call,
    all,
    given,
    (c) => failurePath(c, call, ctx),
    (c, callee) => callee === name || writerSlots(callee, c, ctx, variadic, params) !== undefined,
    ctx,
  );
  if (reply) return refused('awaits-reply', reply);
  // A descriptor the helper is not given is in reach of what it calls after the write: a wait or a read
  // of the answer there makes each call a turn, not a write (see globalDescriptorCalls.ts), whether it
  // writes its own bytes or hands them on (`chat(fmt, ...)` formatting through `vsockwrite(s, fmt, ap)`
  // and then reading the server's reply from the same global socket).
  if (!('param' in fd)) {
    const around = loopAround(call, body);
    const later = globalDescriptorCall(body, call, {
      retry: around && retries(around, call) ? around : undefined,
      quiet: quietCall,
      reads: readsAnswer,
      // The write again (a retry, its alternative under `#ifdef`), a session's write of the same
      // bytes, and another configuration's code are what the reading above took as the one write.
      failing: (n) => {
        const callee = calleeName(n);
        return (
          failurePath(n, call, ctx) ||
          otherConfiguration(n, call) ||
          sessions.includes(n) ||
          (callee !== undefined && writerSlots(callee, n, ctx, variadic, params) !== undefined)
        );
      },
    });
    if (later) return refused('global-io-after', later);
  }
  if (slots.object) return handedOn(name, exported, { call, slots, fd, params, facts, body, armWrites }, ctx);
  if (armWrites.length > 0) return refused('second-write', armWrites[0]);
  if (slots.formats) return formatHandedOn(name, exported, { call, slots, fd, params, facts, body }, format);
  const handed = io.find(given);
  if (handed) return refused('descriptor-given', handed);
  // A read after the write, where it succeeded (`writepipe(up, p, n); ack = read_pipe(down, ...)`): each
  // call waits for the peer's answer to what it sent, and goes on only with one. Its calls are turns of
  // a dialogue: gathered, the later bytes would leave before the earlier ones were answered.
  const answer = io.find(
    (c) => c.startIndex >= call.endIndex && readsAnswer(calleeName(c) ?? '') && !failurePath(c, call, ctx),
  );
  if (answer) return refused('awaits-reply', answer);
  let buf = bufferSource(bufArg, params, facts);
  if (buf && 'param' in buf && copiesBuffer(all, [params[buf.param] as string, buf.pointer]))
    return refused('copies-buffer', call);
  // A wait after the write on the way to success paces every call (see pacingWaits.ts).
  // A wait for as long as a parameter says is the caller's pace, read below.
  const paceParameter = (c: Node) =>
    callArgs(c).some((a) => [...identifiers(a)].some((n) => params.includes(n) && !fdNames.includes(n)));
  const wait = waitAfterWrite(
    call,
    all,
    (c) => failurePath(c, call, ctx) || otherConfiguration(c, call) || paceParameter(c),
  );
  if (wait) return refused('paced', wait);
  // A helper paced by a parameter (`usleep(d)`, `d == 0 ? left : 1`) is read as its calls with 0 make it.
  const pacing = unpaced(slots.len === undefined ? undefined : args[slots.len], body, params, (n) =>
    convertedFacts(facts).changed(n),
  );
  if (!pacing) return refused('paced', call);
  const { lenArg } = pacing;
  if (pacing.pace !== undefined && slots.pace !== undefined && pacing.pace !== slots.pace)
    return refused('pace-conflict', call);
  const pace = pacing.pace ?? slots.pace;
  let loop = loopAround(call, body);
  // A retry inside a loop that advances (`while (left > 0) { while ((n = write(...)) < 0) ...; p += n;
  // left -= n; }`): the outer loop says what one call of the helper sends.
  if (loop && retries(loop, call)) loop = loopAround(loop, body) ?? loop;
  if (!buf) {
    // A buffer the caller's argument only stands for: one write per call (or one retried on failure).
    if (loop && !retries(loop, call)) return refused('buffer-loop', bufArg);
    const value = valueParam(
      bufArg,
      lenArg,
      params,
      facts,
      (local) => convertedParam(local, call, body, params, convertedFacts(facts), ctx.pure),
      (name) => {
        // A parameter converted in place, or a local declared first and converted into once.
        const param = convertedInPlace(name, call, body, params, ctx.pure);
        return param >= 0 ? param : lateConvertedParam(name, call, body, params, ctx.pure);
      },
    );
    const param = value >= 0 ? value : heldParam(bufArg, lenArg, params, facts, accessorReads(ctx));
    // A struct of its own filled and sent whole by its address: a message computed from the
    // arguments, read below as a local array is (see addressedObjects.ts).
    const object = param < 0 && pace === undefined ? sentAggregate(bufArg, body, params) : undefined;
    if (object !== undefined) buf = { local: object, addressed: true };
    else {
      // The one call of a helper of no parameters, writing bytes spelled out (see settingWriters.ts).
      if (param < 0 && setting && sameCall(setting, call) && io.length === 0 && constantBytes(bufArg, lenArg))
        return moded(
          opaqueWriter(
            { name, exported, fd, buf: -1, family: slots.family, arity: 0 },
            constantNoFix(name),
            slots,
            false,
          ),
        );
      if (param < 0) return refused('buffer-source', bufArg);
      if (pace !== undefined) return refused('pace-conflict', call);
      // An output buffer that appends its other arguments and sends what it holds (bufferingHelpers.ts).
      if (value < 0 && fillsHeldBuffer(body, params[param]!, params)) return refused('buffering', bufArg);
      // The object that holds the bytes also holds the descriptor (a connection's own prompt): one write
      // of it a call, as long as the helper leaves the object as it found it (see ownObjects.ts).
      const failing = (n: Node) => failurePath(n, call, ctx);
      // The functions whose result it sends, which may be static storage (see staticSenders.ts).
      const sends = sentResults(bufArg, body);
      if ('param' in fd && fd.param === param) {
        if (value >= 0 || fd.element !== undefined || fd.deref)
          return refused('buffer-holds-descriptor', bufArg);
        if (changesObject(body, params[param]!, params, objectFacts(facts), failing))
          return refused('object-changed', bufArg);
      }
      return {
        name,
        exported,
        fd,
        buf: param,
        family: slots.family,
        arity: params.length,
        noFix:
          value >= 0
            ? `${name}() writes the bytes of the value it is given, which no iovec can point at`
            : `${name}() writes the buffer its argument holds, which an iovec would have to be filled from`,
        formats: true,
        object: true,
        ...(slots.messages && { messages: true }),
        // Its result says whether the value went out, as any helper's does, where it passes on another
        // helper's status or returns constants (`return put(fd, &v, n);`). A choice it computes (`return
        // res == sizeof v ? 1 : 0;`) says nothing the status reading could tell the direction of.
        ...(plainReturns(body) && returnedStatus(body, call, ctx)),
        ...(sends.length > 0 && { sends }),
      };
    }
  }
  if ('param' in buf && 'param' in fd && buf.param === fd.param)
    return refused('buffer-is-descriptor', bufArg);
  const len = lenArg
    ? lengthSource(lenArg, params, facts, 'local' in buf ? undefined : buf.pointer, clampFunctions(ctx.text))
    : 'string';
  if ('local' in buf && !variadic) {
    // A message built in a local array from the arguments (see computedBuffers.ts).
    // Sent whole once a call: by one write, a retried one, or a loop advancing over it to its end
    // (`size_t left = sizeof h; ... send(fd, (char *)&h + off, left, 0); ... left -= n; off += n;`),
    // whose count starts at the object's length.
    const advancing =
      !!loop &&
      buf.offset !== undefined &&
      facts.grown.has(buf.offset) &&
      !!lenArg &&
      loopShrinks(lenArg, facts);
    // A loop's count must start at a value read before it, for the loop to send what one call built.
    const started = !advancing || (lenArg !== undefined && startingCount(lenArg, facts) !== undefined);
    const from =
      (!loop || retries(loop, call) || advancing) && pace === undefined && started
        ? computedFromParams(buf.local, {
            body,
            write: call,
            params,
            text: ctx.text,
            lenArg: advancing && lenArg ? startingCount(lenArg, facts) : lenArg,
            addressed: 'addressed' in buf,
            fdParam: 'param' in fd ? fd.param : undefined,
            quietCall,
            failing: (n) => failurePath(n, call, ctx),
            leaves: (n) => neverReturns(n, ctx),
          })
        : -1;
    if (from < 0) return refused('local-buffer', bufArg);
    return moded(
      opaqueWriter(
        { name, exported, fd, buf: from, family: slots.family, arity: params.length },
        `${name}() writes bytes it computes from its arguments into ${'addressed' in buf ? 'an object' : 'an array'} of its own, which no iovec can point at`,
        // A loop over short writes treats its descriptor as a byte stream, as a write-in-full helper does.
        advancing ? { ...slots, messages: undefined } : slots,
        statusCodes(
          body,
          (n) => zeroOnSuccessWith(ctx.wrappers.get(n), ctx.codes),
          ctx.codes,
          undefined,
          counted(call, ctx),
        ),
      ),
    );
  }
  if ('local' in buf) {
    // Only a variadic helper sends a buffer of its own: what it formatted from its arguments.
    if (!variadic || facts.initial.has(params[format] as string) || pace === format)
      return refused('formatter', bufArg);
    // A `va_list` formatter whose write runs only under a test (`if (logmode & LOG_STDIO)`, a
    // logger's) writes none or one time a call, as its state says: no helper of one write. So does
    // a variadic one whose descriptor is its own (`if (mask & fileMask) write(logFd, ...)`): a logger
    // that its caller names no destination to.
    // A test of the length the formatting gave is no such state (see formattedLengthTests.ts).
    const length =
      lenArg && withoutCasts(lenArg).type === 'identifier' ? withoutCasts(lenArg).text : undefined;
    const formatting = [params[format], params[format + 1]].filter((p): p is string => p !== undefined);
    // So is a test of a count the body kept of the bytes it built (see countedLengths.ts), where the
    // building does no I/O: a byte read from elsewhere (a file, a reply) is I/O between two calls' writes.
    const counted =
      !!lenArg &&
      countedLength(lenArg, buf.local, body) &&
      all.every((c) => c.equals(call) || quietCall(calleeName(c) ?? '') || failurePath(c, call, ctx));
    const lengthTest = (test: Node) =>
      length !== undefined &&
      !params.includes(length) &&
      (testsFormattedLength(test, length, body, formatting) || (counted && testsCount(test, length)));
    if ((!isVariadic(fn) || !('param' in fd)) && underTest(call, body, lengthTest))
      return refused('formatter', call);
    if (loop && !facts.grown.has(buf.local) && !(lenArg && loopShrinks(lenArg, facts)))
      return refused('loop-not-advancing', call);
    return moded({
      name,
      exported,
      fd,
      buf: format,
      family: slots.family,
      arity: params.length,
      noFix: `${name}() formats its text before writing it, so no iovec can list its bytes`,
      formats: true,
      printf: true,
      // Paced by a parameter (`usleep(d)` after each byte): calls given 0 are writes.
      ...(pace !== undefined && { pace }),
    });
  }
  // `write_all(fd, (char *)pkt, packet_size(pkt))`: the object the parameter points at, sent whole.
  if (
    len === undefined &&
    !loop &&
    !('local' in buf) &&
    buf.offset === undefined &&
    buf.pointer === params[buf.param] &&
    pace === undefined &&
    lenArg &&
    objectLength(lenArg, buf.pointer, facts, quietCall) &&
    !fillsPointee(body, buf.pointer)
  )
    return moded({
      name,
      exported,
      fd,
      buf: buf.param,
      family: slots.family,
      arity: params.length,
      noFix: `${name}() writes the object its argument points at, its length computed inside; an iovec would need that length`,
      formats: true,
      object: true,
      ...(slots.messages && { messages: true }),
    });
  if (len === undefined) return refused('length', lenArg ?? call);
  if (len !== 'string' && len.param === buf.param) return refused('length-is-buffer', lenArg ?? call);
  // A clamp without a loop around it sends only the first chunk: a truncating write, not the buffer.
  if (len !== 'string' && len.clamped && (!loop || retries(loop, call)))
    return refused('clamped', lenArg ?? call);
  if (pace !== undefined && [buf.param, len === 'string' ? -1 : len.param].includes(pace))
    return refused('pace-conflict', call);
  if (pace !== undefined && 'param' in fd && fd.param === pace) return refused('pace-conflict', call);
  const statuses = returnedStatus(body, call, ctx);
  // `send(fd, buf, len, flags)` with the helper's own `flags` parameter: each call's flags decide.
  const flagsArg = slots.flags === undefined ? undefined : args[slots.flags];
  const forwarded =
    flagsArg && withoutCasts(flagsArg).type === 'identifier'
      ? params.indexOf(withoutCasts(flagsArg).text)
      : -1;
  const single = buf.offset === undefined && (len === 'string' || len.offset === undefined);
  const retry = loop && single && retries(loop, call);
  // A loop that sends the same bytes again only after a short write still sends its buffer once a call,
  // and, going round on short writes, treats its descriptor as a byte stream (see shortWriteResends.ts
  // and, for a loop that takes what it sent off the length it passes, shrinkingResends.ts).
  const resends =
    loop &&
    !retry &&
    single &&
    (resendsShortWrite(loop, call, bufArg, lenArg) || resendsShrinkingCount(loop, call, bufArg, lenArg));
  if (loop && !retry && !resends) {
    // A loop that sends the same bytes again and again is no write-in-full loop: it must advance.
    const advances = facts.grown.has(buf.offset ?? buf.pointer);
    const counts =
      // The length asked again from the cursor each round (see stringCursors.ts).
      (len === 'string' && advances && measuresItsBuffer(lenArg, bufArg)) ||
      (len !== 'string' &&
        (facts.shrunk.has(len.count) ||
          (len.offset !== undefined && facts.grown.has(len.offset)) ||
          (buf.offset !== undefined && boundedBy(loop, buf.offset, len.count))));
    if (!advances || !counts) return refused('loop-not-advancing', loop);
  } else if (!single) return refused('offset-without-loop', call);
  // What picks the session's path or the descriptor's: a caller changing it between calls sends them apart.
  const choices = sessions.length > 0 ? choicePaths(sessions[0]!, call, params, body) : [];
  return {
    name,
    exported,
    fd,
    buf: buf.param,
    len: len === 'string' || len.param < 0 ? undefined : len.param,
    family: slots.family,
    arity: params.length,
    noFix:
      (loop && !retry
        ? `${name}() is this project's own write loop, and it has no gathered twin to call instead`
        : `${name}() is this project's own write helper, and it has no gathered twin to call instead`) +
      (sessions.length > 0
        ? `; where the connection has a session of its own (TLS), ${name}() writes through it instead, so the bytes would be gathered into one call of ${name}()`
        : ''),
    ...statuses,
    // A loop over short writes treats its descriptor as a byte stream; one write may be one message.
    ...(choices.length > 0 && { chooses: choices }),
    ...((!loop || retry) && slots.messages && { messages: true }),
    // An element of a global table is whatever the file put there (a stream socketpair, a datagram
    // one): its calls are read as plain writes are, by the array's origin (see elementTargets.ts).
    ...('param' in fd && fd.element !== undefined && { messages: true }),
    ...(forwarded >= 0 && { flags: forwarded }),
    ...(pace !== undefined && { pace }),
    ...(mode !== undefined && { mode }),
  };
}

/** Memory copies, by the index of their source argument. */
const COPY_SOURCE: ReadonlyMap<string, number> = new Map([
  ['memcpy', 1],
  ['memmove', 1],
  ['memccpy', 1],
  ['strcpy', 1],
  ['strncpy', 1],
  ['strcat', 1],
  ['strncat', 1],
  ['bcopy', 0],
]);

/**
 * True when one of `calls` copies the helper's buffer (named by `names`) into memory: a helper that
 * writes large buffers through and copies small ones into an output buffer flushed later
 * (`if (n >= SIZE) { flush(o); write(1, s, n); return; } memcpy(o->buf + o->len, s, n);`) queues the
 * bytes on that path, so its calls are no writes made in their order.
 */
function copiesBuffer(calls: readonly Node[], names: readonly string[]): boolean {
  return calls.some((c) => {
    const source = COPY_SOURCE.get(calleeName(c) ?? '');
    const arg = source === undefined ? undefined : callArgs(c)[source];
    return !!arg && [...identifiers(arg)].some((n) => names.includes(n));
  });
}

/** The index of the parameter `call` calls (`f(...)`, `(f)(...)`, `(*f)(...)`), or -1. */
function calledParameter(call: Node, params: readonly (string | undefined)[]): number {
  let fn = call.childForFieldName('function');
  while (fn?.type === 'parenthesized_expression' || fn?.type === 'pointer_expression')
    fn = fn.type === 'pointer_expression' ? fn.childForFieldName('argument') : fn.namedChild(0);
  return fn?.type === 'identifier' ? params.indexOf(fn.text) : -1;
}

/**
 * The arguments of an I/O call that may say where it writes: all of them, up to a format string. The
 * values a format prints come after it (`eprintf("write to %d failed", fd)` reports the descriptor's
 * number; it writes nothing to it).
 */
function outputArgs(call: Node): Node[] {
  const args = callArgs(call);
  const format = args.findIndex(formatText);
  return format < 0 ? args : args.slice(0, format);
}

/** The preprocessor conditionals a node is in, innermost first, each with the branch it is in. */
function conditionals(node: Node): [number, Node][] {
  const found: [number, Node][] = [];
  let child = node;
  for (let at = node.parent; at; child = at, at = at.parent) {
    if (at.type === 'preproc_if' || at.type === 'preproc_ifdef' || at.type === 'preproc_elif')
      found.push([at.id, child]);
  }
  return found;
}

/**
 * True when two writes are alternatives, only one of which runs (the groups of one `#if`/`#ifdef`, the
 * arms of one `if`/`else` or `?:`, an `if` that returns and the code after it, or two cases of one
 * `switch` that do not fall through: see caseAlternatives.ts), and write the same descriptor, buffer and count (their texts, casts left out).
 */
function alternativeWrite(
  a: { call: Node; slots: WriterSlots },
  b: { call: Node; slots: WriterSlots },
  body: Node,
): boolean {
  const slot = (w: typeof a, i: number | undefined) =>
    i === undefined ? '' : uncastText(callArgs(w.call)[i]);
  if (
    ['fd', 'buf', 'len'].some((k) => {
      const key = k as 'fd' | 'buf' | 'len';
      return slot(a, a.slots[key]) !== slot(b, b.slots[key]);
    })
  )
    return false;
  if (a.slots.member !== b.slots.member) return false;
  return (
    otherConfiguration(a.call, b.call) ||
    otherArm(a.call, b.call) ||
    otherCase(a.call, b.call) ||
    returningAlternative(a.call, b.call, body)
  );
}

/**
 * True when `a` and `b` lie in the two arms of one `if`/`else` (or `?:`): a helper that picks its write
 * by a test (`send()` on a socket, `write()` on anything else) makes one of them per call.
 */
function otherArm(a: Node, b: Node): boolean {
  const within = (n: Node, arm: Node | null) =>
    !!arm && n.startIndex >= arm.startIndex && n.endIndex <= arm.endIndex;
  for (let at = a.parent; at; at = at.parent) {
    if (at.type !== 'if_statement' && at.type !== 'conditional_expression') continue;
    if (b.startIndex < at.startIndex || b.endIndex > at.endIndex) continue;
    const then = at.childForFieldName('consequence');
    const other = at.childForFieldName('alternative');
    return (within(a, then) && within(b, other)) || (within(a, other) && within(b, then));
  }
  return false;
}

/**
 * True when `a` and `b` lie in different groups of one `#if`/`#ifdef` (the innermost both are in: one
 * in its `#else`/`#elif` part, the other not, or in another one), or of two spelled alike: no
 * configuration compiles both.
 */
function otherConfiguration(a: Node, b: Node): boolean {
  const outer = new Map(conditionals(b).map(([id, child]) => [id, child]));
  for (const [id, child] of conditionals(a)) {
    const other = outer.get(id);
    if (!other) continue;
    const branch = (n: Node) => (n.type === 'preproc_else' || n.type === 'preproc_elif' ? n.id : -1);
    return branch(child) !== branch(other);
  }
  // Separate conditionals with the same test (see twinConditionals.ts).
  return oppositeTwinGroups(a, b);
}

/** True when two calls name the same function with the same arguments, spelled alike. */
function sameCall(a: Node, b: Node): boolean {
  const spelled = (c: Node) => c.text.replace(/\s+/g, '');
  return spelled(a) === spelled(b);
}

/**
 * The parameter whose value a helper writes (`write(fd, &c, 1)` in `put_char(fd, c)`), or -1: each call
 * is one write of a value the caller passes, which no iovec can point at. The length must be the
 * value's own size (a number, a `sizeof`).
 */
function valueParam(
  bufArg: Node,
  lenArg: Node | undefined,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  converted: (local: string) => number,
  inPlace: (param: string) => number,
): number {
  const b = withoutCasts(bufArg);
  const value =
    b.type === 'pointer_expression' && b.child(0)?.type === '&' ? b.childForFieldName('argument') : null;
  if (!value || withoutCasts(value).type !== 'identifier' || !lenArg) return -1;
  const name = withoutCasts(value).text;
  const len = withoutCasts(lenArg);
  // The first bytes of the value, as many as the caller says (see valuePrefixes.ts).
  const sized =
    len.type === 'number_literal' ||
    (len.type === 'sizeof_expression' && /^sizeof\s*\(?\s*\w+\s*\)?$/.test(len.text)) ||
    countParameter(len, params, changedIn(facts));
  if (!sized) return -1;
  // The value parameter put in other byte order in place first (see valuePrefixes.ts).
  if (facts.assigned.has(name)) return inPlace(name);
  const param = params.indexOf(name);
  // A local holding the parameter converted (`tmp = htons(v)`) is the value in other bytes.
  return param >= 0 ? param : converted(name);
}

/** The body facts ownObjects.ts reads. */
function objectFacts(facts: BodyFacts): ObjectFacts {
  return { ...convertedFacts(facts), values: facts.values };
}

/** The body facts {@link convertedParam} reads. */
function convertedFacts(facts: BodyFacts): ConvertedLocalFacts {
  return {
    initial: facts.initial,
    changed: changedIn(facts),
  };
}

/**
 * The parameter whose held buffer a helper writes (`write_all(fd, m->data, m->len)` in `send_msg(fd,
 * m)`), or -1: each call is one write of that object's bytes, which an iovec would have to be filled
 * from its members. The length must be the object's own member or its string's length.
 */
function heldParam(
  bufArg: Node,
  lenArg: Node | undefined,
  params: readonly (string | undefined)[],
  facts: BodyFacts,
  reads: (callee: string) => boolean,
): number {
  const owner = (node: Node): number => {
    const b = withoutCasts(node);
    // `str_getbuf(s)`, `str_getlen(s)`: the same object's bytes, through its accessors.
    if (b.type === 'call_expression') return accessedParam(b, params, facts.assigned, reads);
    // `m->data`, `c->priv->prompt`, `t->prompt` of `t = c->priv`: the object's bytes, through its members.
    return b.type === 'field_expression' ? memberOwner(b, params, objectFacts(facts)) : -1;
  };
  const param = owner(bufArg);
  const len = lenArg ? withoutCasts(lenArg) : undefined;
  const counted =
    len === undefined ||
    owner(len) === param ||
    (len.type === 'call_expression' &&
      calleeName(len) === 'strlen' &&
      callArgs(len).length === 1 &&
      withoutCasts(callArgs(len)[0]!).text === withoutCasts(bufArg).text);
  return param >= 0 && counted ? param : -1;
}

/**
 * The calls a helper's body may read its object through (see accessorReads.ts): pure or quiet ones, and
 * those whose name says no I/O (their body may be in another file, not read yet).
 */
function accessorReads(ctx: CContext): (callee: string) => boolean {
  return (n) => ctx.pure.has(n) || ctx.quiet(n) || !ioName(n);
}

/**
 * True when `lenArg` is the size of the object `pointer` points at: a `sizeof`, a call given the pointer
 * alone to a function that does no output (`packet_size(pkt)`), or the length the object's own header
 * holds (`ntohl(hdr->length)`: see selfSizedRecords.ts), itself or through a local set once to one of
 * them (`size_t size = packet_size(pkt);`).
 */
function objectLength(
  lenArg: Node,
  pointer: string,
  facts: BodyFacts,
  quietCall: (name: string) => boolean,
): boolean {
  const held = (name: string) => onceValue(name, facts);
  let len = withoutCasts(lenArg);
  if (len.type === 'identifier') {
    const value = held(len.text);
    if (!value) return false;
    len = withoutCasts(value);
  }
  if (len.type === 'sizeof_expression') return !len.text.includes('(') || !/\w\s*\(/.test(len.text.slice(6));
  if (readsOwnHeader(len, pointer, held)) return true;
  if (terminatedString(len, pointer)) return true;
  if (len.type !== 'call_expression') return false;
  const callee = calleeName(len);
  const args = callArgs(len);
  if (!callee || !quietCall(callee) || args.length !== 1) return false;
  const arg = withoutCasts(args[0]!);
  return arg.text === pointer || readsOwnHeader(arg, pointer, held);
}

/**
 * The one value a local of the body is given, in its declaration and never changed after, or in one
 * plain assignment of a local declared without a value (`uint32_t n; ... n = ntohl(h->len);`).
 */
function onceValue(name: string, facts: BodyFacts): Node | undefined {
  if ((facts.values.get(name) ?? []).length !== 1) return undefined;
  const initial = facts.initial.get(name);
  if (initial) return changedIn(facts)(name) ? undefined : initial;
  return facts.setOnce.get(name);
}

/**
 * True when `body` fills what `pointer` points at (`p->type = T;`, `memcpy(p->magic, M, 4)`): each call
 * then changes its caller's object before writing it, so two calls given parts of one object (the
 * members of a union) overwrite what the first sent, and are no run of plain writes.
 */
function fillsPointee(body: Node, pointer: string): boolean {
  const rooted = (n: Node | null | undefined): boolean => {
    let at = n ? withoutCasts(n) : undefined;
    let through = false;
    while (
      at &&
      ['field_expression', 'subscript_expression', 'pointer_expression', 'parenthesized_expression'].includes(
        at.type,
      )
    ) {
      if (at.type !== 'parenthesized_expression') through = true;
      const next: Node | null =
        at.type === 'parenthesized_expression' ? at.namedChild(0) : at.childForFieldName('argument');
      at = next ? withoutCasts(next) : undefined;
    }
    return through && at?.type === 'identifier' && at.text === pointer;
  };
  for (const n of body.descendantsOfType(['assignment_expression', 'update_expression', 'call_expression'])) {
    if (!n) continue;
    if (n.type === 'assignment_expression' && rooted(n.childForFieldName('left'))) return true;
    if (n.type === 'update_expression' && rooted(n.childForFieldName('argument'))) return true;
    if (
      n.type === 'call_expression' &&
      C_FIRST_ARGUMENT_FILLERS.test(calleeName(n) ?? '') &&
      rooted(callArgs(n)[0])
    )
      return true;
  }
  return false;
}

/**
 * `call` when it is a library write, whose result is a count (or -1): a test of it says whether it sent
 * (see choiceStatuses.ts). A project helper's result may be a status of its own, read elsewhere.
 */
function counted(call: Node, ctx: CContext): Node | undefined {
  return ctx.wrappers.has(calleeName(call) ?? '') ? undefined : call;
}

/** Constants a status return gives: false and 0 for failure, true and 1 for success. */
const STATUS = /^(0|1|true|false|TRUE|FALSE)$/;

/**
 * Where a helper's return stands against its write: `'failed'` on the write's failure path, `'sent'`
 * where the write succeeded, `undefined` where the body does not say.
 */
type ReturnPath = (ret: Node) => 'failed' | 'sent' | undefined;

/**
 * True when every return of `body` gives a constant status, 0 on some path and 1 on another, and none
 * where `path` says the other: `if (n < 0) return 1; return 0;` returns 1 on failure, and `put(a) &&
 * put(b)` then writes b only when a failed.
 */
function statusReturns(body: Node, path?: ReturnPath, write?: Node): boolean {
  const all = body.descendantsOfType('return_statement').filter((r): r is Node => r !== null);
  // `return r == n ? 1 : 0;`: a choice by the write's result gives both, each where its arm says.
  const choices = all.map((r) => {
    const value = r.namedChild(0);
    return value && write ? choiceStatus(value, write) : undefined;
  });
  if (choices.includes('undecided')) return false;
  const chosen = choices.filter((c): c is Exclude<ChoiceStatus, 'undecided'> => c !== undefined);
  const returns = all.filter((_, i) => choices[i] === undefined);
  const values = returns.map((r) => r.namedChild(0)?.text.replace(/[\s()]/g, '') ?? '');
  const failure = (v: string) => /^(0|false|FALSE)$/.test(v);
  const inverted = (r: Node, v: string) => path?.(r) === (failure(v) ? 'sent' : 'failed');
  const given = [...values, ...chosen.flatMap((c) => [c.sent, c.failed])];
  return (
    given.length >= 2 &&
    given.every((v) => STATUS.test(v)) &&
    given.some(failure) &&
    given.some((v) => /^(1|true|TRUE)$/.test(v)) &&
    !returns.some((r, i) => inverted(r, values[i]!)) &&
    !chosen.some((c) => failure(c.sent) || !failure(c.failed))
  );
}

/** A constant a status return gives: a number (`-1`, `104`) or an upper-case name (`EXIT_IO_ERROR`). */
const CODE = /^-?(\d+|[A-Z][A-Z0-9_]*)$/;

/** True when every return of `body` gives a call's result or a constant (a number or a capitalized name). */
function plainReturns(body: Node): boolean {
  return body.descendantsOfType('return_statement').every((r) => {
    const value = r?.namedChild(0);
    if (!value) return false;
    const v = withoutCasts(value);
    return v.type === 'call_expression' || CODE.test(v.text.replace(/[\s()]/g, ''));
  });
}

/**
 * What the returns of a helper's `body` say of its write `call`: true on success (every return a
 * constant, 0 where it failed), 0 on success (constant codes), or the name it returns on success where
 * the file gives the name no value (see namedStatuses.ts). Nothing for a helper returning a count.
 */
function returnedStatus(
  body: Node,
  call: Node,
  ctx: CContext,
): Pick<CWrapper, 'truthyOnSuccess' | 'zeroOnSuccess' | 'successName'> {
  const path: ReturnPath = (r) =>
    failurePath(r, call, ctx) ? 'failed' : onStoredSuccess(r, call) ? 'sent' : undefined;
  const write = counted(call, ctx);
  if (statusReturns(body, path, write)) return { truthyOnSuccess: true };
  if (statusCodes(body, (n) => zeroOnSuccessWith(ctx.wrappers.get(n), ctx.codes), ctx.codes, path, write))
    return { zeroOnSuccess: true };
  const named = namedSuccess(body, (r) => path(r) === 'failed', ctx.codes);
  return named === undefined ? {} : { successName: named };
}

/**
 * True when every return of `body` gives a constant error code, 0 on some path and another code on
 * another: the helper's result is 0 on success and non-zero on failure, never a byte count. A name
 * `codes` gives a value (`return ST_OK;`) is that value.
 */
function statusCodes(
  body: Node,
  zeroOnSuccess: (name: string) => boolean,
  codes?: ReadonlyMap<string, number>,
  path?: ReturnPath,
  write?: Node,
): boolean {
  const returns = body.descendantsOfType('return_statement').filter((r): r is Node => r !== null);
  const values = returns.map((r) => codeText(r.namedChild(0)?.text.replace(/[\s()]/g, '') ?? '', codes));
  // `if (n < 0) return 0;`: a 0 where the write failed is no success code (nor a code where it sent).
  if (returns.some((r, i) => CODE.test(values[i]!) && path?.(r) === (values[i] === '0' ? 'failed' : 'sent')))
    return false;
  // `if ((ret = wait(...))) return ret;`: a code passed on where it is not 0, a failure's.
  const passed = (r: Node, v: string) => /^[A-Za-z_]\w*$/.test(v) && nonZeroThere(r, v);
  // `return write_all(fd, buf, n);` of a helper that returns 0 on success: its codes are these.
  const forwarded = (r: Node) => {
    const value = r.namedChild(0);
    const call = value ? withoutCasts(value) : undefined;
    const callee = call?.type === 'call_expression' ? calleeName(call) : undefined;
    return callee !== undefined && zeroOnSuccess(callee);
  };
  // `return r == n ? 1 : 0;`: a choice by the write's result says which arm is success (see
  // choiceStatuses.ts); 0 must be the arm taken where the write sent, another code the other's.
  const choices = returns.map((r) => {
    const value = r.namedChild(0);
    return value && write ? choiceStatus(value, write) : undefined;
  });
  if (
    choices.some(
      (c) =>
        c === 'undecided' || (c && (codeText(c.sent, codes) !== '0' || codeText(c.failed, codes) === '0')),
    )
  )
    return false;
  // `return errno == EPIPE ? ERR_HUP : ERR_SYS;`: a choice between codes (see chosenCodes.ts).
  const constant = (value: Node) => CODE.test(value.text.replace(/[\s()]/g, ''));
  const chosen = returns.map((r) => {
    const value = r.namedChild(0);
    return value ? chosenCodes(value, constant) : undefined;
  });
  // `return ret;` of a local that only ever holds codes (see statusVariables.ts): those codes.
  const isCode = (value: Node) => {
    const callee = value.type === 'call_expression' ? calleeName(value) : undefined;
    return callee !== undefined
      ? zeroOnSuccess(callee)
      : constant(value) || chosenCodes(value, constant) !== undefined;
  };
  const held = values.map((v) =>
    /^[A-Za-z_]\w*$/.test(v) && !CODE.test(v) ? heldCodes(v, body, isCode) : undefined,
  );
  const text = (n: Node) => codeText(n.text.replace(/[\s()]/g, ''), codes);
  const given = values.flatMap(
    (v, i) =>
      held[i]?.flatMap((h) => (chosenValues(h) ?? [h]).map(text)) ??
      chosen[i]?.map(text) ??
      (CODE.test(v) ? [v] : []),
  );
  const success = given.includes('0') || returns.some(forwarded);
  return (
    values.every(
      (v, i) =>
        CODE.test(v) ||
        passed(returns[i]!, v) ||
        forwarded(returns[i]!) ||
        held[i] !== undefined ||
        chosen[i] !== undefined,
    ) &&
    success &&
    (values.some((v, i) => v !== '0' && !held[i] && !chosen[i]) || given.some((c) => c !== '0'))
  );
}

/** True when `ret` returns `name` only where an enclosing test says it is not 0 (`if (v)`, `v != 0`). */
function nonZeroThere(ret: Node, name: string): boolean {
  let at: Node | null = ret;
  if (at.parent?.type === 'compound_statement') at = at.parent;
  const test = at.parent?.type === 'if_statement' ? at.parent.childForFieldName('condition') : null;
  if (!test || !at.parent?.childForFieldName('consequence')?.equals(at)) return false;
  const t = test.text.replace(/\s+/g, '');
  const assigned = new RegExp(`^\\(*${name}(?:=[^=].*)?\\)*(?:!=0)?\\)*$`);
  return assigned.test(t);
}

/**
 * True when `loop` only tries `call` again after it failed (`do n = write(...); while (n < 0 && errno ==
 * EINTR)`, or `for (;;)` with `continue` on EINTR and a `return` otherwise): one call of the helper is
 * still one write of the same bytes, unlike a loop that counts its rounds. A test that goes on only while
 * the result says the call failed may add any condition that calls nothing (`&& !stopping`).
 */
function retries(loop: Node, call: Node): boolean {
  // The call tested where it stands: `while (write(fd, buf, len) < 0 && errno == EINTR);`.
  if (retriedCall(loop, new Set())?.id === call.id) return true;
  // The result the loop tests: `n = write(...)`, `ssize_t n = write(...)`, `rc = (int)write(...)`.
  const result = storedResult(call);
  // A goto loop retries when every jump back is taken only where the call failed
  // (`if (n < 0 && errno == EINTR) goto again;`, `if (write(...) == -1) { if (errno == EINTR) goto
  // again; ... }`); one taken after a short write makes a write loop.
  if (loop.type === 'compound_statement') {
    const failed = (c: Node) =>
      result ? failureTest(c, result.name, result.holder) : failureTest(c, '', call);
    return jumpTests(call, loop).every((tests) => tests.some((t) => conjuncts(withoutCasts(t)).some(failed)));
  }
  if (!result) return false;
  if (countedRetry(loop, call, result.name)) return true;
  const condition = loop.childForFieldName('condition');
  const test = condition ? withoutCasts(condition) : undefined;
  if (loop.type === 'for_statement') {
    if (loop.childForFieldName('initializer') || loop.childForFieldName('update')) return false;
  }
  const forever = !test || /^(1|true)$/.test(test.text);
  if (!forever && test && boundedRetry(loop, test, call)) return true;
  if (!forever) {
    const terms = conjuncts(test);
    const failure = (t: Node) => failureTest(t, result.name, result.holder);
    return terms.some(failure) && terms.every((t) => failure(t) || calls(t).length === 0);
  }
  // Forever: something in the body must leave the loop once the call did not fail.
  return loop.descendantsOfType(['return_statement', 'break_statement']).length > 0;
}

/**
 * A retry bounded by a counter (`size_t tries = 3; while (tries--) { n = write(...); if (n == -1 &&
 * errno == EINTR) continue; break; }`): the test reads nothing the write sends or calls anything, and
 * the body ends by leaving the loop, so the write runs again only where the body says `continue`.
 */
function boundedRetry(loop: Node, test: Node, call: Node): boolean {
  if (calls(test).length > 0) return false;
  const sent = identifiers(call);
  if ([...identifiers(test)].some((n) => sent.has(n))) return false;
  const body = loop.childForFieldName('body');
  const stmts =
    body?.type === 'compound_statement' ? namedKids(body).filter((k) => k.type !== 'comment') : [];
  const last = stmts[stmts.length - 1];
  return last?.type === 'break_statement' || last?.type === 'return_statement';
}

/**
 * True when `term` holds only while `result` (or the assignment `holder` that sets it) says the call
 * failed: `n < 0`, `n <= 0`, `n == -1`, `(n = write(...)) == (ssize_t)-1`.
 */
function failureTest(term: Node, result: string, holder: Node): boolean {
  if (term.type !== 'binary_expression') return false;
  const op = term.childForFieldName('operator')?.text;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right) return false;
  const side = withoutCasts(left);
  if (!(side.type === 'identifier' ? side.text === result : side.id === holder.id)) return false;
  const bound = withoutCasts(right).text.replace(/\s+/g, '');
  return (op === '<' && bound === '0') || (op === '<=' && bound === '0') || (op === '==' && bound === '-1');
}

/**
 * True when `loop` runs while `offset < count`: the buffer advances by what was sent until the count is
 * reached, so each call sends its whole buffer even where the length passed stays the whole count.
 */
function boundedBy(loop: Node, offset: string, count: string): boolean {
  const condition = loop.childForFieldName('condition');
  const test = condition ? withoutCasts(condition) : undefined;
  if (test?.type !== 'binary_expression' || test.childForFieldName('operator')?.text !== '<') return false;
  const sides = [test.childForFieldName('left'), test.childForFieldName('right')].map((n) =>
    n ? withoutCasts(n).text : '',
  );
  return sides[0] === offset && sides[1] === count;
}

/** True when the length a loop sends shrinks as it goes (`nleft -= r`, `len - done` with done grown). */
function loopShrinks(lenArg: Node, facts: BodyFacts): boolean {
  const b = withoutCasts(lenArg);
  if (b.type === 'identifier') return facts.shrunk.has(b.text);
  const right = b.type === 'binary_expression' ? b.childForFieldName('right') : null;
  return !!right && withoutCasts(right).type === 'identifier' && facts.grown.has(withoutCasts(right).text);
}
