// An `if` between two writes that only computes (`if (server->flags & F_RO) flags |= RO;`, nested ifs
// too) is, for a run, one statement like `flags |= RO;`: it reads its tests and what its arms read,
// and changes what its arms change. Folded into that statement, the joiners judge it as they judge any
// statement between writes (a later write sending what it computed joins without a fix; otherwise a
// fix moves the `if` after the gathered write, as it moves any statement). What its statements change
// only through members (`if (c->crypt) encode(&c->ctx, body, n);` changes `c->ctx`, not `c->fd`) and
// what their calls are handed stay so in the merged statement, as each statement's would.
import type { BranchStep, OtherStep } from '../../model';
import type { Joiner, Rules } from './joiner';

/**
 * The statement a branch is when its tests only read, or do what a statement between writes may (the
 * front end's `testEffects`: a call that fills a buffer), and its arms hold only statements a run may
 * cross (no write, loop, exit or I/O) and such branches; undefined otherwise, and when the front end
 * does not say what the tests read. A name some statement changes other than through members is
 * changed whole in the merged statement; one every statement changes only through members keeps them.
 */
function computation(branch: BranchStep): OtherStep | undefined {
  const effects = branch.partial?.opaque ? branch.partial.testEffects : [];
  if (!branch.tests || !effects || branch.partial?.exit) return undefined;
  const reads = new Set(branch.tests);
  const writes = new Set<string>();
  const calls = new Set<string>();
  const frees = new Set<string>();
  let mutated: Set<string> | undefined = new Set();
  let output = false;
  // Whether every call of the arms is known to do no output (`strcpy(text, "?")`), as a statement of
  // those calls would say with `output: false`: a front end that does not say keeps it unknown.
  let quiet = true;
  let setsGlobal = false;
  const members = new Paths();
  const mutatedPaths = new Paths();
  // What the calls are handed, while every statement that calls says.
  let handed: Set<string> | undefined = new Set();
  // The tests run first, then one arm: their effects (a call that fills a buffer) count as the arms'.
  const statements = [...effects, ...branch.arms.flatMap((arm) => arm.steps)];
  for (const step of statements) {
    const s = step.kind === 'branch' ? computation(step) : step.kind === 'loop' ? step.computation : step;
    if (s?.kind !== 'other' || s.barrier) return undefined;
    if (s.comment) continue;
    for (const n of s.reads) reads.add(n);
    for (const n of s.writes) writes.add(n);
    for (const n of s.calls) calls.add(n);
    for (const n of s.frees ?? []) frees.add(n);
    if (s.mutated && mutated) for (const n of s.mutated) mutated.add(n);
    else mutated = undefined;
    output ||= !!s.output;
    if (s.calls.length > 0 && s.output !== false) quiet = false;
    setsGlobal ||= !!s.setsGlobal;
    members.add(s.writes, s.members);
    if (s.mutated) mutatedPaths.add(s.mutated, s.mutatedPaths);
    if (s.calls.length > 0) {
      if (s.handed && handed) for (const p of s.handed) handed.add(p);
      else handed = undefined;
    }
  }
  const memberList = members.list();
  const mutatedList = mutated && mutatedPaths.list();
  return {
    kind: 'other',
    span: branch.span,
    reads: [...reads],
    writes: [...writes],
    calls: [...calls],
    ...(mutated && { mutated: [...mutated] }),
    barrier: false,
    ...(output ? { output } : calls.size > 0 && quiet && { output: false }),
    ...(setsGlobal && { setsGlobal }),
    ...(frees.size > 0 && { frees: [...frees] }),
    ...(memberList.length > 0 && { members: memberList }),
    ...(mutatedList && mutatedList.length > 0 && { mutatedPaths: mutatedList }),
    ...(handed && calls.size > 0 && { handed: [...handed].sort() }),
  };
}

/** Member paths of names changed through members only, gathered over statements (see computation). */
class Paths {
  private readonly paths = new Set<string>();
  private readonly whole = new Set<string>();

  /** A statement changing `names`, of which those with paths in `paths` only through them. */
  add(names: readonly string[], paths: readonly string[] | undefined): void {
    for (const n of names) {
      const own = (paths ?? []).filter((p) => p.startsWith(`${n}.`) || p.startsWith(`${n}->`));
      if (own.length === 0) this.whole.add(n);
      for (const p of own) this.paths.add(p);
    }
  }

  /** The paths of names no statement changed whole. */
  list(): string[] {
    return [...this.paths].filter((p) => !this.whole.has(/^\w+/.exec(p)?.[0] ?? '')).sort();
  }
}

const RULES: Rules = {
  branch(step) {
    const statement = computation(step);
    return statement && { kind: 'statement', step: statement };
  },
};

/** A branch no other joiner takes that only computes is one statement between the writes. */
export const computingBranch: Joiner = {
  name: 'computingBranch',
  facts: ['branch.tests', 'branch.partial', 'branch.arms'],
  rules: RULES,
};
