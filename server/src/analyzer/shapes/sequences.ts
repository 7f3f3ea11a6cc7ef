// Runs of writes, language-neutral: adjacent writes to one descriptor within one block, possibly with
// harmless statements between them, possibly starting with an if/else whose every arm ends in a write
// (branch tails). Calls through wrappers arrive here as ordinary write steps.
//
// This file is the engine: it opens a run, walks the steps after it and keeps what the run gathered.
// Whether a step may extend the run, must end it, or joins changed is each idiom's decision, made by
// the joiners (./joiners/), so that the rules stay one per file and the walk stays one loop.
import { Budget } from './budget';
import { SentBuffers, sentNames } from './sentBuffers';
import { changedAfterSending } from './armPreparations';
import type { Block, BranchStep, OtherStep, Span, Step, WriteStep } from '../model';
import { firstWrite, meets, type NameLookup, quiet, through, trailing } from './branches';
import { callsOut, end } from './joiners/joiner';
import { JOINERS, type BranchVerdict, type End, type RunSoFar } from './joiners';
import { stopObserver, type Stop } from './stops';

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
  /** Why the run stopped growing, when a joiner (or the engine) stopped it before the block's end. */
  readonly ended?: End;
}

/** The writes ending every arm of an exhaustive if/else chain, if they all go to one descriptor. */
function armWrites(branch: BranchStep): WriteStep[] | undefined {
  const writes: WriteStep[] = [];
  for (const arm of branch.arms) {
    const last = arm.steps[arm.steps.length - 1];
    if (last?.kind !== 'write' || last.stream || last.position || last.leaves) return undefined;
    // A buffer declared inside the arm is gone once the branch ends: the write must stay where it is.
    if (meets(last.reads, arm.declares)) return undefined;
    if (writes.length > 0 && last.target !== writes[0]!.target) return undefined;
    // Switch cases falling through into one write (c/switchCases.ts): a fix would edit it twice.
    if (writes.some((w) => w.span.start === last.span.start)) return undefined;
    writes.push(last);
  }
  return writes.length >= 2 ? writes : undefined;
}

/** How a run opens at a step: its head or first writes, and statements after them still to move. */
interface Opening {
  readonly head?: WriteRun['head'];
  readonly writes: readonly WriteStep[];
  readonly pending: OtherStep[];
}

/**
 * A run opens at a write (unless it leaves the function), or at a branch: an exhaustive if/else whose
 * every arm ends in a write (branch tails, the run's head), a branch the run passes through, or the
 * writes that end a branch's arms, with the quiet statements after them.
 */
function opening(first: Step, locals: ReadonlySet<string>, taken?: ReadonlySet<number>): Opening | undefined {
  if (first.kind === 'write') return first.leaves ? undefined : { writes: [first], pending: [] };
  if (first.kind !== 'branch') return undefined;
  const ends = first.partial ? undefined : armWrites(first);
  if (ends) return { head: { branch: first, writes: ends }, writes: [], pending: [] };
  const opener = firstWrite([first]);
  const passage =
    opener &&
    through(
      first,
      opener.target,
      new Set(opener.targetNames),
      locals,
      new Set(),
      !!opener.stream,
      undefined,
      true,
    );
  if (passage) return { writes: passage.writes, pending: [] };
  const tail = trailing(first, taken);
  return tail && { writes: tail.writes, pending: tail.after };
}

// The joiners' rules by the kind of step they judge, in the joiners' order (asked for every step).
const RULES = JOINERS.map((j) => j.rules);
const WRITE = RULES.filter((r) => r.write);
const AFTER = RULES.filter((r) => r.after);
const BRANCH = RULES.filter((r) => r.branch);
const LOOP = RULES.filter((r) => r.loop);
const CROSS = RULES.filter((r) => r.cross);
const FINISH = RULES.filter((r) => r.finish);
const TAKEN = RULES.filter((r) => r.taken);

/** Where the engine itself ends a run: at a step no joiner takes. */
const UNJOINED = end('engine', 'a loop, or a branch no joiner takes, stands between the writes');

/**
 * What a run has gathered, kept as it grows so that each step costs the same however long the run is:
 * a function of thousands of writes must not take quadratic (or worse) time.
 */
class Gathered implements RunSoFar {
  readonly names: ReadonlySet<string>;
  readonly writes: WriteStep[] = [];
  /** Statements between the writes that a fix moves after the gathered write, in order. */
  readonly moved: OtherStep[] = [];
  pending: OtherStep[];
  prepared: number;
  readonly sent = new Set<string>();
  readonly results = new Set<string>();
  readonly untested = new Set<string>();
  private readonly movedChanged = new Set<string>();
  readonly changedInArms = new Set<string>();
  movedCalls = false;
  readonly sentBuffers = new SentBuffers();
  clobbered = false;
  armsClobber = false;
  everyPath = false;
  readonly changedSoFar: NameLookup = {
    has: (n) => this.movedChanged.has(n) || this.pending.some((p) => p.writes.includes(n)),
  };
  /** What joiners remember of this run, by their keys; made when the first one needs it. */
  private memories?: Map<object, unknown>;

  constructor(
    readonly lead: WriteStep,
    readonly head: WriteRun['head'],
    readonly locals: ReadonlySet<string>,
    readonly budget: Budget,
    pending: OtherStep[],
  ) {
    this.names = new Set(lead.targetNames);
    this.pending = pending;
    this.prepared = pending.filter((p) => !p.comment).length;
  }

  recalled<S>(key: object): S | undefined {
    return this.memories?.get(key) as S | undefined;
  }

  memory<S>(key: object, create: () => S): S {
    this.memories ??= new Map();
    if (!this.memories.has(key)) this.memories.set(key, create());
    return this.memories.get(key) as S;
  }

  take(w: WriteStep): void {
    this.writes.push(w);
    this.sentBuffers.add(w);
    for (const r of TAKEN) r.taken!(w, this);
    for (const n of sentNames(w)) {
      this.sent.add(n);
      if (this.changedInArms.has(n)) this.armsClobber = true;
    }
    for (const n of w.assigns ?? []) this.results.add(n);
    for (const n of w.assigns ?? []) if (!w.resultTested) this.untested.add(n);
  }

  /** Pending statements move after the gathered write; each is checked against what was sent before it. */
  movePending(): void {
    for (const p of this.pending) {
      this.moved.push(p);
      for (const n of p.writes) this.movedChanged.add(n);
      if (callsOut(p)) this.movedCalls = true;
      if (this.sentBuffers.changedBy(p)) this.clobbered = true;
    }
    this.pending = [];
    this.prepared = 0;
  }

  /**
   * A branch the run passed through changed these names; `clobbered`: those of them a write before
   * the branch sent (see armPreparations.ts).
   */
  changedThrough(names: readonly string[], clobbered: readonly string[]): void {
    for (const n of names) this.changedInArms.add(n);
    if (clobbered.length > 0) this.armsClobber = true;
  }
}

function runFrom(
  steps: readonly Step[],
  i: number,
  locals: ReadonlySet<string>,
  budget: Budget,
  taken?: ReadonlySet<number>,
): [WriteRun, number] | undefined {
  const first = steps[i];
  if (first === undefined) return undefined;
  const opened = opening(first, locals, taken);
  if (!opened) return undefined;
  const head = opened.head;
  // armWrites returns two writes or more; otherwise `writes` holds `first` or its branch's writes.
  const lead = head ? head.writes[0]! : opened.writes[0]!;
  // A chain that goes on testing after its writes is a run of its own.
  if (lead.alone) return lead.chain ? [run(first, lead, [], undefined), i + 1] : undefined;
  // A run that starts inside a branch: its writes must still be for a descriptor nothing changes.
  if (opened.writes.some((w) => w.target !== lead.target)) return undefined;
  const names = new Set(lead.targetNames);
  if (opened.pending.some((p) => !quiet(p, names, locals))) return undefined;
  const g = new Gathered(lead, head, locals, budget, opened.pending);
  for (const w of head?.writes ?? []) for (const n of sentNames(w)) g.sent.add(n);
  for (const w of opened.writes) g.take(w);
  for (const w of head?.writes ?? [])
    for (const n of w.assigns ?? []) {
      g.results.add(n);
      if (!w.resultTested) g.untested.add(n);
    }
  // The statements after a branch's last writes are between those writes and any later one: the
  // same joiners judge them as any statement the walk crosses (`free(buf)` of a buffer sent there).
  if (opened.pending.some((p) => CROSS.some((r) => r.cross!(p, g)))) {
    const observe = stopObserver();
    if (observe) {
      const ended = opened.pending
        .map((p) => CROSS.map((r) => r.cross!(p, g)).find((e) => e))
        .find((e) => e)!;
      observe(stopAt(steps, i, i, i, lead, g, ended, 'opening'));
    }
    return undefined;
  }
  let last = i;
  let next = -1;
  let ended: End | undefined;
  // Outside the loop so that where the run stopped is known after it (for a stop observer).
  let j = i + 1;
  walk: for (; j < steps.length; j++) {
    budget.visit();
    let step = steps[j]!;
    if (step.kind === 'write') {
      let joining = step;
      for (const r of WRITE) {
        const verdict = r.write!(joining, g);
        if (verdict?.kind === 'end') {
          ended = verdict;
          break walk;
        }
        if (verdict) joining = verdict;
      }
      g.movePending();
      g.take(joining);
      last = j;
      for (const r of AFTER) {
        ended = r.after!(joining, g);
        if (ended) break walk;
      }
      continue;
    }
    if (step.kind === 'branch') {
      let verdict: BranchVerdict | undefined;
      for (const r of BRANCH) if ((verdict = r.branch!(step, g))) break;
      if (verdict?.kind === 'statement') step = verdict.step;
      else {
        if (!verdict || verdict.kind === 'end') {
          ended = verdict ?? UNJOINED;
          break;
        }
        if (verdict.kind === 'past') continue;
        g.movePending();
        // What the arms change is held against what was sent before the branch's own writes.
        const clobbered = changedAfterSending(verdict.changed ?? [], g.sent);
        for (const w of verdict.writes) g.take(w);
        g.changedThrough(verdict.changed ?? [], clobbered);
        if (verdict.everyPath) g.everyPath = true;
        last = j;
        if (verdict.ends) {
          // The same branch may end with writes that start the next run.
          next = j;
          ended = verdict.ends;
          break;
        }
        continue;
      }
    }
    if (step.kind === 'loop') {
      let computed: OtherStep | undefined;
      for (const r of LOOP) if ((computed = r.loop!(step, g))) break;
      if (computed) step = computed;
    }
    if (step.kind !== 'other') {
      ended = UNJOINED;
      break;
    }
    for (const r of CROSS) {
      ended = r.cross!(step, g);
      if (ended) break walk;
    }
    g.pending.push(step);
    if (!step.comment) g.prepared++;
  }
  if (ended) stopObserver()?.(stopAt(steps, i, last, j, lead, g, ended, 'walk'));
  let writes: readonly WriteStep[] = g.writes;
  if (writes.length + (head ? 1 : 0) < 2 && !(writes.length === 1 && writes[0]!.chain)) return undefined;
  // Writes taken from inside a branch and nothing after it: the run lies within the branch, whose own
  // block reports it (the same writes twice would be two findings for one sequence).
  if (first.kind === 'branch' && !head && writes.length === opened.writes.length) return undefined;
  for (const r of FINISH) {
    const finished = r.finish!(writes, g);
    if (finished && 'kind' in finished) {
      stopObserver()?.(stopAt(steps, i, last, last + 1, lead, g, finished, 'finish'));
      return undefined;
    }
    if (finished) writes = finished;
  }
  // `last` is i or the index of a step the loop read.
  return [run(first, lead, writes, head, g.moved, steps[last]!.span.end, ended), next >= 0 ? next : last + 1];
}

/** A stop as an observer reads it. */
function stopAt(
  steps: readonly Step[],
  from: number,
  last: number,
  at: number,
  lead: WriteStep,
  g: Gathered,
  ended: End,
  where: Stop['where'],
): Stop {
  return { steps, from, last, at, target: lead.target, writes: g.writes, ended, where };
}

/** The run made of `writes` (after `head`), from `first` to `to`, ended as `ended` says. */
function run(
  first: Step,
  lead: WriteStep,
  writes: readonly WriteStep[],
  head: WriteRun['head'],
  moved: readonly OtherStep[] = [],
  to = first.span.end,
  ended?: End,
): WriteRun {
  const list = writes.length > 0 || head ? writes : [lead];
  const syscalls = list.reduce((sum, w) => sum + (w.syscalls ?? 1), 0) + (head ? 1 : 0);
  const span = { start: first.span.start, end: to };
  return ended
    ? { target: lead.target, head, writes: list, moved, span, syscalls, ended }
    : { target: lead.target, head, writes: list, moved, span, syscalls };
}

/**
 * Finds the runs of writes in one block. Runs never overlap; each is as long as the
 * rules allow. Runs shorter than `minLength` syscalls are not returned. Throws
 * {@link BudgetExceeded} when the search visits more steps than `budget` allows.
 */
export function findRuns(block: Block, minLength: number, budget = new Budget()): WriteRun[] {
  const runs: WriteRun[] = [];
  let i = 0;
  // The writes of the run found last: one that ended in a branch's arms starts the next at that branch.
  let taken: ReadonlySet<number> | undefined;
  while (i < block.steps.length) {
    budget.visit();
    const found = runFrom(block.steps, i, block.locals, budget, taken);
    if (found && found[0].syscalls >= minLength) {
      runs.push(found[0]);
      taken = new Set(found[0].writes.map((w) => w.span.start));
      i = found[1];
    } else {
      taken = undefined;
      i++;
    }
  }
  return runs;
}
