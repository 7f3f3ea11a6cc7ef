// Runs of writes, language-neutral: adjacent writes to one descriptor within one block, possibly with
// harmless statements between them, possibly starting with an if/else whose every arm ends in a write
// (branch tails). Calls through wrappers arrive here as ordinary write steps.
import type { Block, BranchStep, OtherStep, Span, Step, WriteStep } from '../model';

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

/**
 * At most this many statements may stand between two writes of a run. Further apart, the writes are
 * rarely meant as one message, and the odds of a missed dependency grow.
 */
const MAX_BETWEEN = 3;

function meets(a: readonly string[], b: ReadonlySet<string> | readonly string[]): boolean {
  const set = b instanceof Set ? b : new Set(b as readonly string[]);
  return a.some((name) => set.has(name));
}

/** The writes ending every arm of an exhaustive if/else chain, if they all go to one descriptor. */
function armWrites(branch: BranchStep): WriteStep[] | undefined {
  const writes: WriteStep[] = [];
  for (const arm of branch.arms) {
    const last = arm.steps[arm.steps.length - 1];
    if (last?.kind !== 'write' || last.stream || last.position) return undefined;
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
): [WriteRun, number] | undefined {
  const first = steps[i];
  if (first === undefined) return undefined;
  let head: WriteRun['head'];
  const writes: WriteStep[] = [];
  let pending: OtherStep[] = [];
  if (first.kind === 'write') writes.push(first);
  else if (first.kind === 'branch' && first.partial) {
    const tail = trailing(first);
    if (!tail) return undefined;
    writes.push(...tail.writes);
    pending = tail.after;
  } else if (first.kind === 'branch') {
    const ends = armWrites(first);
    if (!ends) return undefined;
    head = { branch: first, writes: ends };
  } else return undefined;
  // armWrites returns two writes or more; otherwise `writes` holds `first` or its branch's tail.
  const lead = head ? head.writes[0]! : writes[0]!;
  const names = new Set(lead.targetNames);
  if (lead.alone) return lead.chain ? [run(first, lead, [], undefined), i + 1] : undefined;
  if (pending.some((p) => meets(p.reads, names) || meets(p.writes, names) || p.output || p.setsGlobal))
    return undefined;
  const moved: OtherStep[] = [];
  let last = i;
  for (let j = i + 1; j < steps.length; j++) {
    const step = steps[j]!;
    if (step.kind === 'write') {
      if (step.target !== lead.target || !!step.stream !== !!lead.stream) break;
      // A chain that goes on testing after its writes (`|| close(fd) < 0`) joins nothing before it.
      if (step.alone) break;
      const prev = writes[writes.length - 1] ?? lead;
      if (head && step.position) break;
      if (!contiguous(prev, step)) break;
      // A statement between may have changed what this write sends: stop before it.
      if (
        meets(
          step.reads,
          pending.flatMap((p) => p.writes),
        )
      )
        break;
      // A call between may change globals; a write that sends a global would then send something else.
      const calls = pending.some((p) => p.calls.length > 0);
      if (calls && step.reads.some((name) => !locals.has(name) && !names.has(name))) break;
      moved.push(...pending);
      pending = [];
      writes.push(step);
      last = j;
      continue;
    }
    if (step.kind === 'branch' && !head) {
      // The writes that open an `if` body continue the run when the condition holds; the run ends there.
      const opening = leading(step, lead.target, names);
      const prev = writes[writes.length - 1];
      if (
        opening &&
        !(prev && !contiguous(prev, opening[0]!)) &&
        !meets(
          opening.flatMap((w) => w.reads),
          pending.flatMap((p) => p.writes),
        ) &&
        !pending.some((p) => p.calls.length > 0)
      ) {
        moved.push(...pending);
        pending = [];
        writes.push(...opening);
        last = j;
      }
      break;
    }
    if (step.kind !== 'other' || step.barrier) break;
    if (meets(step.reads, names) || meets(step.writes, names)) break;
    // Changed global state may be what a write's error path reports (a message set before each write).
    if (step.setsGlobal) break;
    // A call that may print could write to the same descriptor unless it is the function's own.
    if (step.output && !(names.size > 0 && [...names].every((n) => locals.has(n)))) break;
    pending.push(step);
    if (pending.filter((p) => !p.comment).length > MAX_BETWEEN) break;
  }
  if (writes.length + (head ? 1 : 0) < 2 && !(writes.length === 1 && writes[0]!.chain)) return undefined;
  // A write under a condition joins a run; a run of nothing but conditional writes may make no call.
  if (!head && writes.every((w) => w.condition)) return undefined;
  return [run(first, lead, writes, head, moved, steps[last]!.span.end), last + 1];
}

const STRADDLES = 'the writes straddle an if; gathering them means splitting it by hand';

/** A write inside a partial branch, as a conditional member of a run around it (never fixed). */
function guarded(write: WriteStep, branch: BranchStep): WriteStep {
  return { ...write, condition: branch.partial?.condition ?? '(one arm)', noFix: STRADDLES };
}

/** Writes to one target that end a partial branch's body, and the quiet statements after them. */
function trailing(branch: BranchStep): { writes: WriteStep[]; after: OtherStep[] } | undefined {
  const body = branch.arms[0]?.steps ?? [];
  let k = body.length - 1;
  const after: OtherStep[] = [];
  // Every `body[k]` read below has 0 <= k < body.length.
  while (k >= 0 && body[k]!.kind === 'other' && !(body[k] as OtherStep).barrier)
    after.unshift(body[k--] as OtherStep);
  const writes: WriteStep[] = [];
  while (k >= 0 && body[k]!.kind === 'write') {
    const w = body[k--] as WriteStep;
    if (w.stream || w.alone || w.condition || (writes.length > 0 && w.target !== writes[0]!.target)) break;
    writes.unshift(guarded(w, branch));
  }
  return writes.length > 0 ? { writes, after } : undefined;
}

/** Writes to `target` that open a partial branch's body (after declarations that call nothing). */
function leading(branch: BranchStep, target: string, names: ReadonlySet<string>): WriteStep[] | undefined {
  // Every arm of an if/else may open with writes; a path runs through one arm: count the longest.
  const arms = branch.arms.map((arm) => armLeading(arm.steps, branch, target, names));
  const most = Math.max(...arms.map((a) => a.reduce((n, w) => n + (w.syscalls ?? 1), 0)));
  const top = arms.findIndex((a) => a.reduce((n, w) => n + (w.syscalls ?? 1), 0) === most);
  const writes = arms.flatMap((a, i) => (i === top ? a : a.map((w) => ({ ...w, syscalls: 0 }))));
  return most > 0 ? writes : undefined;
}

/** Writes to `target` that open one arm (after declarations that call nothing). */
function armLeading(
  body: readonly Step[],
  branch: BranchStep,
  target: string,
  names: ReadonlySet<string>,
): WriteStep[] {
  const quiet = (s: Step) =>
    s.kind === 'other' && !s.barrier && s.calls.length === 0 && !s.setsGlobal && !meets(s.writes, names);
  let k = 0;
  const changed: string[] = [];
  for (; k < body.length && quiet(body[k]!); k++) changed.push(...(body[k] as OtherStep).writes);
  const writes: WriteStep[] = [];
  for (; k < body.length && body[k]!.kind === 'write'; k++) {
    const w = body[k] as WriteStep;
    // A buffer set inside the body (`msg = "EIP:\n"`) is not what the writes before it sent.
    if (w.stream || w.alone || w.condition || w.target !== target || meets(w.reads, changed)) break;
    writes.push(guarded(w, branch));
  }
  return writes;
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
 * rules allow. Runs shorter than `minLength` syscalls are not returned.
 */
export function findRuns(block: Block, minLength: number): WriteRun[] {
  const runs: WriteRun[] = [];
  let i = 0;
  while (i < block.steps.length) {
    const found = runFrom(block.steps, i, block.locals);
    if (found && found[0].syscalls >= minLength) {
      runs.push(found[0]);
      i = found[1];
    } else i++;
  }
  return runs;
}
