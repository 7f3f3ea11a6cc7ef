// Runs of writes, language-neutral: adjacent writes to one descriptor within one block, possibly with
// harmless statements between them, possibly starting with an if/else whose every arm ends in a write
// (branch tails). Calls through wrappers arrive here as ordinary write steps.
import { Budget } from './budget';
import type { Block, BranchStep, OtherStep, Span, Step, WriteStep } from '../model';
import {
  firstWrite,
  inArm,
  leading,
  meets,
  type NameLookup,
  ONE_ARM,
  quiet,
  through,
  trailing,
} from './branches';

/** A run of writes that one gathered write can replace. */
export interface WriteRun {
  readonly target: string;
  /** Branch tails: the if/else chain the run starts with, and the write that ends each of its arms. */
  readonly head?: { readonly branch: BranchStep; readonly writes: readonly WriteStep[] };
  /** The straight-line writes, in order (after the head, if any). */
  readonly writes: readonly WriteStep[];
  /** Statements between the writes that a fix moves after the gathered write, in order. */
  readonly moved: readonly OtherStep[];
  /** From the start of the first statement to the end of the last write. */
  readonly span: Span;
  /** Syscalls on any one path through the run today (one gathered write after the fix). */
  readonly syscalls: number;
}

const COMPUTED =
  'a statement between the writes computes what a later one sends; gathering them means filling the vector where each write stands';

const ALL_CONDITIONAL =
  'every write is under a test of its own; where none holds, a gathered call would still run';
const EXIT =
  'an early exit (a return, goto, break or continue under a test) stands between the writes; gathering them means filling the vector under its test by hand';

/**
 * At most this many statements may stand between two writes of a run. Further apart, the writes are
 * rarely meant as one message, and the odds of a missed dependency grow.
 */
const MAX_BETWEEN = 3;

/**
 * Statements that compute what the next write sends (filling a header's fields one by one) do not
 * count toward {@link MAX_BETWEEN}; this many statements at most may stand between two writes in all.
 */
const MAX_PREPARED = 24;

/** Linux's IOV_MAX: the most buffers one writev takes, so the most writes one run gathers. */
const MAX_WRITES = 1024;

/** The writes ending every arm of an exhaustive if/else chain, if they all go to one descriptor. */
function armWrites(branch: BranchStep): WriteStep[] | undefined {
  const writes: WriteStep[] = [];
  for (const arm of branch.arms) {
    const last = arm.steps[arm.steps.length - 1];
    if (last?.kind !== 'write' || last.stream || last.position || last.leaves) return undefined;
    // A buffer declared inside the arm is gone once the branch ends: the write must stay where it is.
    if (meets(last.reads, arm.declares)) return undefined;
    if (writes.length > 0 && last.target !== writes[0]!.target) return undefined;
    writes.push(last);
  }
  return writes.length >= 2 ? writes : undefined;
}

function contiguous(prev: WriteStep, next: WriteStep): boolean {
  if (!prev.position && !next.position) return true;
  return !!prev.position && !!next.position && prev.position.next.includes(next.position.at);
}

function runFrom(
  steps: readonly Step[],
  i: number,
  locals: ReadonlySet<string>,
  budget: Budget,
): [WriteRun, number] | undefined {
  const first = steps[i];
  if (first === undefined) return undefined;
  let head: WriteRun['head'];
  const writes: WriteStep[] = [];
  let pending: OtherStep[] = [];
  if (first.kind === 'write') {
    if (first.leaves) return undefined;
    writes.push(first);
  } else if (first.kind === 'branch') {
    const ends = first.partial ? undefined : armWrites(first);
    const opener = ends ? undefined : firstWrite([first]);
    const passage =
      opener &&
      through(first, opener.target, new Set(opener.targetNames), locals, new Set(), !!opener.stream);
    const tail = ends || passage ? undefined : trailing(first);
    if (ends) head = { branch: first, writes: ends };
    else if (passage) writes.push(...passage.writes);
    else if (tail) {
      writes.push(...tail.writes);
      pending = tail.after;
    } else return undefined;
  } else return undefined;
  // armWrites returns two writes or more; otherwise `writes` holds `first` or its branch's tail.
  const lead = head ? head.writes[0]! : writes[0]!;
  const names = new Set(lead.targetNames);
  if (lead.alone) return lead.chain ? [run(first, lead, [], undefined), i + 1] : undefined;
  // A run that starts inside a branch: its writes must still be for a descriptor nothing changes.
  if (writes.some((w) => w.target !== lead.target)) return undefined;
  if (pending.some((p) => !quiet(p, names, locals))) return undefined;
  const moved: OtherStep[] = [];
  // What the run has gathered so far, kept as it grows so that each step costs the same however long
  // the run is: a function of thousands of writes must not take quadratic (or worse) time.
  const sent = new Set<string>(); // what the writes so far send
  const results = new Set<string>(); // what they keep (`(n = write(...))`)
  const movedChanged = new Set<string>(); // names the moved statements change
  const changedInArms = new Set<string>();
  let movedCalls = false; // a moved statement calls something that may do I/O
  let clobbered = false; // a moved statement changed a buffer a write before it sent
  let armsClobber = false; // a branch passed through changed something a write sends
  let prepared = pending.filter((p) => !p.comment).length; // pending statements other than comments
  // Variables whose address a write sent (`&len`): a vector filled where each write stands points at
  // them, so assigning one between the writes would change what the earlier write sends.
  const addressed = new Set<string>();
  const take = (w: WriteStep) => {
    writes.push(w);
    for (const p of w.pieces ?? []) {
      // `&len`, `(char *) &len`: a cast in front points at the variable all the same.
      const address = /^(?:\(\s*[\w\s*]+\)\s*)*&\s*\(?\s*([A-Za-z_]\w*)\s*\)?$/.exec(p.buf)?.[1];
      if (address) addressed.add(address);
    }
    for (const n of w.reads) {
      sent.add(n);
      if (changedInArms.has(n)) armsClobber = true;
    }
    for (const n of w.assigns ?? []) results.add(n);
  };
  for (const w of head?.writes ?? []) for (const n of w.reads) sent.add(n);
  for (const w of writes.splice(0)) take(w);
  for (const w of head?.writes ?? []) for (const n of w.assigns ?? []) results.add(n);
  const calls = (p: OtherStep) => p.calls.length > 0 && p.output !== false;
  // Pending statements move after the gathered write; each is checked against what was sent before it.
  const movePending = () => {
    for (const p of pending) {
      moved.push(p);
      for (const n of p.writes) movedChanged.add(n);
      if (calls(p)) movedCalls = true;
      if (meets(p.mutated ?? p.writes, sent)) clobbered = true;
    }
    pending = [];
    prepared = 0;
  };
  const changedSoFar: NameLookup = {
    has: (n) => movedChanged.has(n) || pending.some((p) => p.writes.includes(n)),
  };
  let last = i;
  let next = -1;
  // Tests of early exits passed so far: the writes after them run only when each fails.
  const exits: string[] = [];
  for (let j = i + 1; j < steps.length; j++) {
    budget.visit();
    const step = steps[j]!;
    if (step.kind === 'write') {
      if (step.target !== lead.target || !!step.stream !== !!lead.stream) break;
      // A chain that goes on testing after its writes (`|| close(fd) < 0`) joins nothing before it.
      if (step.alone) break;
      // One writev takes at most IOV_MAX buffers: a longer run is not one gathered write anyway.
      if (writes.length >= MAX_WRITES) break;
      const prev = writes[writes.length - 1] ?? lead;
      if (head && step.position) break;
      // A write that sends the result an earlier one kept (`(n = write(...))`) depends on that write.
      if (meets(step.reads, results) || meets(step.targetNames, results)) break;
      if (!contiguous(prev, step)) break;
      if (unrelated(pending, step) > MAX_BETWEEN) break;
      // A statement between may have changed what this write sends: a fix cannot move it after the
      // gathered call. Filling the vector where each write stands would still send the same bytes,
      // unless a statement changed in place a buffer an earlier write sent: then stop before it.
      let joining = step;
      if (meets(step.reads, changedSoFar) || meets(step.reads, changedInArms)) {
        // Only computations: a call that may do I/O (or fail loudly) between is a reason to split.
        // (A front end that does not mark calls as quiet with `output: false` gets no such run.)
        if (movedCalls || pending.some(calls)) break;
        // Each statement against the writes before it: one that fills a header before the write that
        // sends it is the preparation, not a change of bytes already queued.
        if (clobbered || pending.some((p) => meets(p.mutated ?? p.writes, sent))) break;
        if (armsClobber) break;
        joining = { ...step, noFix: step.noFix ?? COMPUTED };
      }
      // A call between may change globals; a write that sends a global would then send something else.
      // (C marks the calls that may do more than compute on their arguments as `output`.)
      if (pending.some(calls) && step.reads.some((name) => !locals.has(name) && !names.has(name))) break;
      // A global set between (a message the die path prints, set before each write) may be what the
      // error path reports: a gathered write would fail with one message where each write had its own.
      if (pending.some((p) => p.setsGlobal)) break;
      if (exits.length > 0)
        joining = { ...joining, condition: joining.condition ?? `(!${exits.join(' && !')})`, noFix: EXIT };
      movePending();
      take(joining);
      last = j;
      // `return write(...)`: the path ends there.
      if (step.leaves) break;
      continue;
    }
    // An early exit between the writes (`if (!more) return 0;`): the writes after it run when its test
    // fails. Its test must read only the function's own names, none of them an earlier write's result.
    const exit = step.kind === 'branch' ? step.partial?.exit : undefined;
    if (exit && !head && writes.length > 0) {
      if (!exit.reads.every((n) => locals.has(n)) || meets(exit.reads, results)) break;
      if (pending.some(calls)) break;
      exits.push((step as BranchStep).partial!.condition);
      continue;
    }
    if (step.kind === 'branch' && !head) {
      if (writes.length >= MAX_WRITES) break;
      const prev = writes[writes.length - 1];
      const between = pending.some((p) => p.calls.length > 0);
      // A branch that only writes and computes: the run goes on through it.
      const passage = between
        ? undefined
        : through(step, lead.target, names, locals, sent, !!lead.stream, budget);
      if (
        passage &&
        // `through` never returns a passage without writes.
        !(prev && !contiguous(prev, passage.writes[0]!)) &&
        !passage.writes.some((w) => meets(w.reads, changedSoFar))
      ) {
        movePending();
        for (const w of passage.writes) take(w);
        for (const n of passage.changed) {
          changedInArms.add(n);
          if (sent.has(n)) armsClobber = true;
        }
        last = j;
        continue;
      }
      // The writes that open an `if` body continue the run when the condition holds; the run ends there.
      const opening = leading(step, lead.target, names, sent, budget);
      if (
        opening &&
        !(prev && !contiguous(prev, opening[0]!)) &&
        !opening.some((w) => meets(w.reads, changedSoFar)) &&
        !between
      ) {
        movePending();
        for (const w of opening) take(w);
        last = j;
        // The same branch may end with writes that start the next run.
        next = j;
      }
      break;
    }
    if (step.kind !== 'other') break;
    // Memory a write already sent is released or changed: a gathered write would send it after that.
    if (step.frees && meets(step.frees, sent)) break;
    if (meets(step.writes, addressed)) break;
    // A global set between is judged at the next write, which it keeps from joining the run.
    if (!quiet(step.setsGlobal ? { ...step, setsGlobal: false } : step, names, locals, lead.target)) break;
    pending.push(step);
    if (!step.comment && ++prepared > MAX_PREPARED) break;
  }
  if (writes.length + (head ? 1 : 0) < 2 && !(writes.length === 1 && writes[0]!.chain)) return undefined;
  // A write under a condition joins a run; a run of nothing but writes under one condition may make
  // one call at most. Under different tests of ifs without else (the end of one, the start of the
  // next) it is a sequence whenever both hold; in one arm of an if/else, the other path differs.
  const conditions = new Set(writes.map((w) => w.condition));
  const straddles = conditions.size >= 2 && !conditions.has(ONE_ARM) && writes.every(inArm);
  // Each write under a test of its own, the tests about different things (`if (bell) ...; if (prompt)
  // ...`): both may hold. Tests of one variable (`if (a) ...; if (!a) ...`) may exclude each other.
  const independent =
    !straddles && conditions.size === writes.length && !conditions.has(ONE_ARM) && disjoint(writes);
  if (!head && writes.every((w) => w.condition) && !straddles && !independent) return undefined;
  if (independent && writes.every((w) => w.condition))
    writes.splice(0, writes.length, ...writes.map((w) => ({ ...w, noFix: w.noFix ?? ALL_CONDITIONAL })));
  // `last` is i or the index of a step the loop read.
  const end = run(first, lead, writes, head, moved, steps[last]!.span.end);
  return [end, next >= 0 ? next : last + 1];
}

/**
 * How many statements of `between` (comments aside) do not prepare `write`: a statement prepares it
 * when it changes something the write sends, or something a later preparing statement reads.
 */
function unrelated(between: readonly OtherStep[], write: WriteStep): number {
  const needed = new Set(write.reads);
  let count = 0;
  for (const p of [...between].reverse()) {
    if (p.comment) continue;
    if (meets(p.writes, needed)) for (const n of p.reads) needed.add(n);
    else count++;
  }
  return count;
}

/** Names a condition reads, constants (upper-case names) left out: `(prompt != NULL)` reads prompt. */
function conditionNames(condition: string): string[] {
  return (condition.match(/[A-Za-z_]\w*/g) ?? []).filter((n) => !/^[A-Z][A-Z0-9_]*$/.test(n));
}

/**
 * True when no two writes' conditions read a common name, and no two send the same bytes (the same
 * message under two tests is one message for two cases, as `^C` on a signal or on an empty read).
 */
function disjoint(writes: readonly WriteStep[]): boolean {
  const seen = new Set<string>();
  const sent = writes.map((w) => (w.pieces ?? []).map((p) => `${p.buf}\u0000${p.len ?? ''}`).join('\u0001'));
  if (new Set(sent).size < sent.length) return false;
  for (const w of writes) {
    const names = new Set(conditionNames(w.condition ?? ''));
    if (names.size === 0 || meets([...names], seen)) return false;
    for (const n of names) seen.add(n);
  }
  return true;
}

/** The run made of `writes` (after `head`), from `first` to `end`. */
function run(
  first: Step,
  lead: WriteStep,
  writes: readonly WriteStep[],
  head: WriteRun['head'],
  moved: readonly OtherStep[] = [],
  end = first.span.end,
): WriteRun {
  const list = writes.length > 0 || head ? writes : [lead];
  const syscalls = list.reduce((sum, w) => sum + (w.syscalls ?? 1), 0) + (head ? 1 : 0);
  return { target: lead.target, head, writes: list, moved, span: { start: first.span.start, end }, syscalls };
}

/**
 * Finds the runs of writes in one block. Runs never overlap; each is as long as the
 * rules allow. Runs shorter than `minLength` syscalls are not returned. Throws
 * {@link BudgetExceeded} when the search visits more steps than `budget` allows.
 */
export function findRuns(block: Block, minLength: number, budget = new Budget()): WriteRun[] {
  const runs: WriteRun[] = [];
  let i = 0;
  while (i < block.steps.length) {
    budget.visit();
    const found = runFrom(block.steps, i, block.locals, budget);
    if (found && found[0].syscalls >= minLength) {
      runs.push(found[0]);
      i = found[1];
    } else i++;
  }
  return runs;
}
