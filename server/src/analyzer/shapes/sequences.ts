// Shapes 1 to 4, language-neutral: runs of writes to one descriptor within one block, possibly with
// harmless statements between them (shape 2), possibly starting with an if/else whose every arm ends in
// a write (shape 3). Calls through wrappers (shape 4) arrive here as ordinary write steps.
import type { Block, BranchStep, OtherStep, Span, Step, WriteStep } from '../model';

/** A run of writes that one gathered write can replace. */
export interface WriteRun {
  readonly target: string;
  /** Shape 3: the if/else chain the run starts with, and the write that ends each of its arms. */
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

/** Calls that only give memory back (`free`, `strbuf_release`): no output, no redirection. */
const RELEASE_NAME = /(^|_)(free|release|destroy|unref|clear|reset)$/;

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
    if (writes.length > 0 && last.target !== writes[0].target) return undefined;
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
  let head: WriteRun['head'];
  const writes: WriteStep[] = [];
  if (first.kind === 'write') writes.push(first);
  else if (first.kind === 'branch') {
    const ends = armWrites(first);
    if (!ends) return undefined;
    head = { branch: first, writes: ends };
  } else return undefined;
  const lead = head ? head.writes[0] : writes[0];
  const names = new Set(lead.targetNames);
  const moved: OtherStep[] = [];
  let pending: OtherStep[] = [];
  const sent = new Set([...(head?.writes ?? []), ...writes].flatMap((w) => w.reads));
  const releases = (p: OtherStep): boolean => {
    const args = p.reads.filter((name) => !p.calls.includes(name));
    return (
      p.calls.every((name) => RELEASE_NAME.test(name)) &&
      (p.calls.length === 0 || (args.length > 0 && args.every((name) => sent.has(name))))
    );
  };
  let last = i;
  for (let j = i + 1; j < steps.length; j++) {
    const step = steps[j];
    if (step.kind === 'write') {
      if (step.target !== lead.target || !!step.stream !== !!lead.stream) break;
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
      // Nor may a call stand between writes to a descriptor no local holds (stdout, a global): the
      // callee may write to it too (cgit's html_txt() between html() calls), or redirect it. Only
      // releasing what the run has sent already (`strbuf_release(line)`) is known to be harmless.
      if (calls && lead.targetNames.every((name) => !locals.has(name)) && !pending.every(releases)) break;
      moved.push(...pending);
      pending = [];
      writes.push(step);
      for (const name of step.reads) sent.add(name);
      last = j;
      continue;
    }
    if (step.kind !== 'other' || step.barrier) break;
    if (meets(step.reads, names) || meets(step.writes, names)) break;
    pending.push(step);
    if (pending.filter((p) => !p.comment).length > MAX_BETWEEN) break;
  }
  const syscalls = writes.length + (head ? 1 : 0);
  if (syscalls < 2) return undefined;
  const span = { start: first.span.start, end: steps[last].span.end };
  return [{ target: lead.target, head, writes, moved, span, syscalls }, last + 1];
}

/**
 * Finds the runs of writes in one block (shapes 1 to 4). Runs never overlap; each is as long as the
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
