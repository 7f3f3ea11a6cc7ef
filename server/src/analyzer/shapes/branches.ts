// How writes inside an if (or an if/else chain) join the writes around it: writes that end its arms
// start a run that goes on after it, writes that open its arms end a run that came before it, and a
// branch whose arms only write and compute is passed through. The writes then run only on some paths,
// so they are reported without a fix: gathering them means filling the vector arm by arm, by hand.
import type { Arm, BranchStep, OtherStep, Step, WriteStep } from '../model';
import type { Budget } from './budget';
import { assumedCalls } from './assumptions';
import { writesLaterInLine, writesTo } from './laterArmWrites';
import { leavesOnly } from './leavingArms';
import { nestedTail } from './nestedTails';
import { quietTestChanges } from './quietTests';
import { sentNames } from './sentBuffers';
import { soleArmWrite } from './soleArmWrites';

/** Anything that answers whether it holds a name: a set, or {@link Names}. */
export interface NameLookup {
  has(name: string): boolean;
}

/** True when the two name lists share a name. */
export function meets(a: readonly string[], b: NameLookup | readonly string[]): boolean {
  const set: NameLookup = Array.isArray(b) ? new Set(b as readonly string[]) : (b as NameLookup);
  return a.some((name) => set.has(name));
}

/**
 * A set of names layered over another: an arm adds what its writes send without copying what the run
 * sent before it, so each step of a long run costs the same however many writes came first.
 */
export class Names implements NameLookup {
  private readonly own = new Set<string>();

  constructor(private readonly base?: NameLookup) {}

  has(name: string): boolean {
    return this.own.has(name) || (this.base?.has(name) ?? false);
  }

  add(names: readonly string[]): void {
    for (const n of names) this.own.add(n);
  }
}

const STRADDLES = 'the writes straddle an if; gathering them means splitting it by hand';
const ARMS = 'some writes are in the arms of an if; gathering them means filling the vector in each arm';

/** True for a write a run took from inside a branch (not an `if (test) write;` of its own). */
export function inArm(write: WriteStep): boolean {
  return write.noFix === STRADDLES || write.noFix === ARMS;
}

/** True when `names` (a descriptor's identifiers) are all the function's own: no other code writes there. */
export function ownTarget(names: ReadonlySet<string>, locals: ReadonlySet<string>): boolean {
  return names.size > 0 && [...names].every((n) => locals.has(n));
}

/** True when assigning member path `path` may change the descriptor expression `target`. */
function overlaps(path: string, target: string): boolean {
  const within = (inner: string, outer: string) =>
    inner === outer || ['.', '->', '['].some((sep) => inner.startsWith(outer + sep));
  return within(target, path) || within(path, target);
}

/**
 * A statement a run may cross: no I/O, no change of the descriptor or of global state. With `target`
 * (the descriptor's canonical text), assigning another member of its struct (`ctx->count++` next to
 * writes to `ctx->out`) is no change of it.
 */
export function quiet(
  step: OtherStep,
  names: ReadonlySet<string>,
  locals: ReadonlySet<string>,
  target?: string,
): boolean {
  // A print to a standard stream is a barrier but to a run to a descriptor it cannot reach.
  const printsApart = step.printsApart !== undefined && target !== undefined && step.printsApart.has(target);
  if ((step.barrier && !printsApart) || step.setsGlobal) return false;
  // Reading a local descriptor (or the struct it is a member of: `if (conn->flags & F) n |= F;`) does
  // no I/O by itself; a call given it may (`lseek(fd, ...)`, `setsockopt(fd, ...)`), and a global one
  // is shared state the function's other paths may depend on.
  const readsDescriptor = step.reads.filter((n) => names.has(n));
  if (readsDescriptor.length > 0 && (step.calls.length > 0 || !readsDescriptor.every((n) => locals.has(n)))) {
    // Reading the struct to update another of its members reads no descriptor either.
    const own = step.writes.filter((n) => names.has(n));
    const memberOnly =
      target !== undefined &&
      own.length > 0 &&
      own.every((n) => memberChanged(step, n)) &&
      !(step.members ?? []).some((p) => overlaps(p, target));
    if (!memberOnly && !handedAside(step, readsDescriptor, locals, target)) return false;
  }
  if (meets(step.writes, names)) {
    const changed = step.writes.filter((n) => names.has(n));
    if (
      target === undefined ||
      !changed.every((n) => memberChanged(step, n)) ||
      (step.members ?? []).some((p) => overlaps(p, target))
    )
      return false;
  }
  // A print to a standard stream cannot reach a descriptor shown to be another stream; any other may
  // be fd 1 or 2 (see c/standardPrints.ts).
  if (step.printsApart) return printsApart;
  // A call that may print could write to the same descriptor unless it is the function's own.
  return !step.output || ownTarget(names, locals);
}

/**
 * True when the calls of a statement that reads the descriptor's struct are handed none of it but
 * other members (`encode(body, n, c->key)`, `mac_update(c, ...)` of a body that reaches only `c->mac`:
 * see memberParameters.ts), every call is known to do no output, and it changes only such members: no
 * call is given the descriptor, so the statement does no I/O on it. Only for a local struct, as
 * reading a global one is.
 */
function handedAside(
  step: OtherStep,
  readsDescriptor: readonly string[],
  locals: ReadonlySet<string>,
  target: string | undefined,
): boolean {
  // Only calls known to do no output: another member may hold a stream over the same socket (a TLS
  // session, a FILE opened on it), and a call that may print could write through it.
  if (target === undefined || step.handed === undefined || step.output !== false) return false;
  const handed = step.handed;
  if (!readsDescriptor.every((n) => locals.has(n) && !handed.includes(n))) return false;
  if (handed.some((p) => overlaps(p, target))) return false;
  const own = step.writes.filter((n) => readsDescriptor.includes(n));
  return own.every((n) => memberChanged(step, n)) && !(step.members ?? []).some((p) => overlaps(p, target));
}

/** True when the statement changes `name` only by assigning members of it. */
function memberChanged(step: OtherStep, name: string): boolean {
  return (step.members ?? []).some((p) => p.startsWith(`${name}.`) || p.startsWith(`${name}->`));
}

/** The condition of writes in one arm of an if/else chain that ends in `else` (each path writes). */
export const ONE_ARM = '(one arm of an if/else)';

/** The chain ends in a plain `else`: one of its arms runs on every path. */
function exhaustive(branch: BranchStep): boolean {
  return !branch.partial || !!branch.partial.exhaustive;
}

/**
 * A write inside a branch, as a conditional member of a run around it (never fixed). From a switch
 * case's `arm`, it keeps that arm's test (see c/caseTests.ts) when it has none of its own.
 */
function guarded(write: WriteStep, branch: BranchStep, reason = STRADDLES, arm?: Arm): WriteStep {
  const condition = exhaustive(branch) ? ONE_ARM : (branch.partial?.condition ?? ONE_ARM);
  const assumed = write.argumentCalls?.assumed;
  return {
    ...write,
    condition: write.condition ?? condition,
    ...(arm?.test && !write.condition && !write.caseTest && { caseTest: arm.test }),
    noFix: reason,
    ...(assumed && assumed.length > 0 && !write.assumes && { assumes: assumedCalls(assumed) }),
  };
}

/**
 * True when a write of the branch runs on every path through it: the chain ends in a plain `else`
 * and each arm makes, outside any test of its own, a write or such a branch again. A run that takes
 * these writes makes a syscall wherever it goes, so any other write of the run adds one to some path.
 */
export function writesOnEveryPath(branch: BranchStep): boolean {
  if (!exhaustive(branch) || branch.partial?.opaque) return false;
  return branch.arms.every((arm) =>
    arm.steps.some(
      (s) => (s.kind === 'write' && !s.condition) || (s.kind === 'branch' && writesOnEveryPath(s)),
    ),
  );
}

/**
 * A write from the arms of an if/else nested in an `if` without `else`: it runs where the outer test
 * holds (one arm or another), so that test is its condition, not the choice between the inner arms.
 */
function underTest(write: WriteStep, outer: BranchStep): WriteStep {
  if (write.condition !== ONE_ARM || exhaustive(outer) || !outer.partial) return write;
  return { ...write, condition: outer.partial.condition };
}

/** Keeps the syscall count of the arm with the most (one path runs one arm); the others count zero. */
function longestPath(arms: readonly (readonly WriteStep[])[]): WriteStep[] | undefined {
  const counts = arms.map((a) => a.reduce((n, w) => n + (w.syscalls ?? 1), 0));
  const most = Math.max(0, ...counts);
  if (most === 0) return undefined;
  const top = counts.indexOf(most);
  // A switch case that falls through shares the next case's writes (c/switchCases.ts): each is listed
  // once, with its count where the longest arm holds it (that arm comes first).
  const seen = new Set<number>();
  return arms
    .flatMap((a, i) => (i === top ? a : a.map((w) => ({ ...w, syscalls: 0 }))))
    .filter((w) => !seen.has(w.span.start) && !!seen.add(w.span.start));
}

/**
 * A write a run may take from inside a branch: to `target`, plain, its buffers still alive after it.
 * A stream write only with `stream` (a branch passed through whole: its writes are corked in place).
 */
function joinable(w: WriteStep, target: string, declares: readonly string[], stream = false): boolean {
  return (
    w.target === target &&
    !!w.stream === stream &&
    !w.alone &&
    !w.leaves &&
    !w.position &&
    // Its arguments call something that may do I/O: taken into a run, the call would move. A call
    // whose body is nowhere read is taken to do none, as for a write outside a branch, and the
    // finding says so (see {@link guarded}).
    !w.argumentCalls?.io &&
    !meets(w.reads, declares)
  );
}

/**
 * The names of `declares` whose memory a write sends: those its buffers read. A length the arm
 * declares (`size_t n = strlen(s); write(fd, s, n);`) is a number whoever gathers by hand computes
 * before the branch, not a message of the arm's own. Without the buffers listed, every name it reads.
 */
function sentDeclared(w: WriteStep, declares: readonly string[]): readonly string[] {
  if (!w.pieces) return declares;
  const buffers = new Set(w.pieces.flatMap((p) => p.buf.match(/[A-Za-z_]\w*/g) ?? []));
  return declares.filter((n) => buffers.has(n));
}

/** The first write inside a branch (a run that starts with it goes to that one's descriptor). */
export function firstWrite(steps: readonly Step[]): WriteStep | undefined {
  for (const s of steps) {
    if (s.kind === 'write') return s;
    if (s.kind === 'branch') {
      for (const arm of s.arms) {
        const w = firstWrite(arm.steps);
        if (w) return w;
      }
    }
  }
  return undefined;
}

/** The writes of a branch a run passes through, and the names its statements change. */
export interface Passage {
  readonly writes: WriteStep[];
  readonly changed: string[];
}

/**
 * A branch whose arms hold only writes to `target`, statements a run may cross and such branches
 * again, with tests that only read: the run goes on through it (on every path the writes stay in
 * order). `sent` names what the run's writes so far read: a statement that changes one of them would
 * change bytes already queued. Undefined when any arm does something else, or no arm writes.
 * `leaving`: the run opens at this branch, so an arm that only leaves is a path where nothing of it
 * was written yet (see leavingArms.ts).
 */
export function through(
  branch: BranchStep,
  target: string,
  names: ReadonlySet<string>,
  locals: ReadonlySet<string>,
  sent: NameLookup,
  stream = false,
  budget?: Budget,
  leaving = false,
): Passage | undefined {
  // Tests that compute as they test run first, as a statement at the head of every arm would. What
  // they rebind (`p = getenv("X")`) leaves the bytes a write before sent where they were: only a
  // change of contents (a buffer filled, a name whose address was taken) changes what was queued.
  const rebinds = (e: OtherStep) => () => e.mutated ?? e.writes;
  const tested = quietTestChanges(branch, (e) => armComputes(e, names, locals, sent, rebinds(e)));
  if (!tested) return undefined;
  const arms: WriteStep[][] = [];
  const changed: string[] = [...tested];
  for (const arm of branch.arms) {
    if (leaving && !stream && leavesOnly(arm.steps)) {
      arms.push([]);
      continue;
    }
    const writes: WriteStep[] = [];
    const armSent = new Names(sent);
    // What the arm's own writes read: a name the arm declares is its own (declaring it changes no
    // name of that spelling outside, and it is gone after the branch) until one of them sends it.
    const armRead = new Set<string>();
    // Functions returning static storage whose results the arm's writes sent: a later call of one
    // overwrites them (see joiners/staticReturns.ts).
    const armStatics = new Set<string>();
    const outer = (names: readonly string[]) =>
      names.filter((n) => !arm.declares.includes(n) || armRead.has(n));
    for (const s of arm.steps) {
      budget?.visit();
      if ((s.kind === 'write' || s.kind === 'other') && s.staticCalls?.some((n) => armStatics.has(n)))
        return undefined;
      if (s.kind === 'write') for (const n of s.staticSent ?? []) armStatics.add(n);
      if (s.kind === 'write') {
        // A buffer an `if` without `else` declares can be declared before it by whoever gathers by
        // hand (the finding has no fix); in an if/else, such buffers make each arm its own message.
        if (!joinable(s, target, exhaustive(branch) ? sentDeclared(s, arm.declares) : [], stream))
          return undefined;
        writes.push(guarded(s, branch, ARMS, arm));
        armSent.add(sentNames(s));
        for (const n of s.reads) armRead.add(n);
      } else if (s.kind === 'other') {
        if (!armComputes(s, names, locals, armSent, outer, target)) return undefined;
        changed.push(...s.writes.filter((n) => !arm.declares.includes(n)));
      } else if (
        s.kind === 'branch' &&
        !s.partial?.opaque &&
        s.arms.every((a) => a.steps.every((c) => c.kind === 'other'))
      ) {
        // A branch in the arm that only computes (`if (len == 0) data = &len;` before the arm's
        // write), tested without effects: its statements are judged as the arm's own would be.
        const inner = s.arms.flatMap((a) => a.steps as readonly OtherStep[]);
        if (!inner.every((c) => armComputes(c, names, locals, armSent, outer, target))) return undefined;
        changed.push(...inner.flatMap((c) => c.writes).filter((n) => !arm.declares.includes(n)));
      } else if (s.kind === 'branch') {
        // Leaving inside the arm is harmless only while the arm has written nothing of the run.
        const inner = through(
          s,
          target,
          names,
          locals,
          armSent,
          stream,
          budget,
          leaving && writes.length === 0,
        );
        if (!inner) return undefined;
        writes.push(...inner.writes.map((w) => underTest(w, branch)));
        for (const w of inner.writes) armSent.add(sentNames(w));
        changed.push(...inner.changed);
      } else return undefined;
    }
    // An if/else whose other arm does something else is a choice, not a sequence; one that only
    // computes is an `if` without `else` that also computes.
    if (writes.length === 0 && exhaustive(branch) && !computesOnly(arm.steps, names, locals))
      return undefined;
    arms.push(writes);
  }
  const writes = longestPath(arms);
  return writes && { writes, changed };
}

/**
 * True when a statement in an arm a run passes through only computes: a call there may read into a
 * buffer or print, and memory a write sent (`sent`) must live until the gathered write. A call that may
 * print prints elsewhere when the descriptor is the function's own (`const char *l = stamp();` before
 * writes to a file the function opened), and one given no memory to fill (`ioctl(fd, GET, &arg)` may
 * fill what `arg` points to) only computes what the arm's writes send. `outer`: of the names it
 * changes, those that are not the arm's own yet. `target`: the descriptor's canonical text, when
 * assigning another member of its struct (`c->sent += n` next to writes to `c->fd`) is no change of it,
 * as between straight-line writes.
 */
function armComputes(
  s: OtherStep,
  names: ReadonlySet<string>,
  locals: ReadonlySet<string>,
  sent: NameLookup,
  outer: (names: readonly string[]) => readonly string[],
  target?: string,
): boolean {
  if (!quiet(s, names, locals, target)) return false;
  if (s.output && (!ownTarget(names, locals) || (s.mutated ?? s.writes).length > 0)) return false;
  if (meets(outer(s.writes), sent)) return false;
  return !(s.frees && meets(s.frees, sent));
}

/**
 * Writes to one target that end the arms of a branch, and the quiet statements after them in each
 * arm: a run that starts there goes on after the branch. The tests may have effects (they run before).
 * `taken`: where the writes start (offsets) that the run before this one took from the branch's arms,
 * when it ended with them. Where an arm still ends in writes that run did not take, those it took are
 * left out: the run after starts on that arm's path, and never joins the writes the run before
 * gathered on one path with what another path wrote (one write in two findings, each with other
 * writes). Where it took every arm's last writes, they start this run too, as the arms' first writes
 * joined the writes before.
 */
export function trailing(
  branch: BranchStep,
  taken?: ReadonlySet<number>,
): { writes: WriteStep[]; after: OtherStep[] } | undefined {
  const fresh = taken && armTails(branch, false, taken, taken);
  const kept = fresh?.arms.some((a) => a.length > 0) ? taken : undefined;
  const loose = kept && fresh ? fresh : armTails(branch, false, undefined, taken);
  // In an if/else where two arms or more end in writes, writes of buffers that end with their arm are
  // a choice between messages. A buffer the body of an `if` declares (and frees), or the one arm of a
  // chain that writes at all, does not stop a hint that has no fix.
  const choice = exhaustive(branch) && loose.arms.filter((a) => a.length > 0).length > 1;
  const { arms, after } = choice ? armTails(branch, true, kept, taken) : loose;
  const writes = longestPath(arms);
  return writes && { writes, after };
}

/**
 * Each arm's trailing writes (see {@link trailing}), with or without the arm's own buffers. `sole`: the
 * writes the run before took; an arm that is one write (see soleArmWrites.ts) it took opens no run.
 */
function armTails(
  branch: BranchStep,
  ownBuffers: boolean,
  taken?: ReadonlySet<number>,
  sole?: ReadonlySet<number>,
): { arms: WriteStep[][]; after: OtherStep[] } {
  const arms: WriteStep[][] = [];
  const after: OtherStep[] = [];
  let target: string | undefined;
  for (const arm of branch.arms) {
    const body = arm.steps;
    // An arm that is one write is a conditional write of its own (kept whole, or not at all), unless
    // it is one arm of an if/else no run passes through (see soleArmWrites.ts).
    if (
      body.filter((s) => !(s.kind === 'other' && s.comment)).length < 2 &&
      !soleArmWrite(branch, body, sole)
    )
      continue;
    let k = body.length - 1;
    const at = (i: number) => (i >= 0 ? body[i] : undefined);
    for (let s = at(k); s?.kind === 'other' && !s.barrier; s = at(--k)) after.unshift(s);
    const writes: WriteStep[] = [];
    // An arm that ends in a branch of its own ends in that branch's trailing writes (nestedTails.ts).
    const nested = nestedTail(at(k), (b) => armTails(b, ownBuffers, taken), longestPath);
    if (nested && nested.writes.every((w) => w.target === (target ?? nested.writes[0]!.target))) {
      target ??= nested.writes[0]!.target;
      after.unshift(...nested.after);
      writes.push(...nested.writes.map((w) => guarded(w, branch, STRADDLES, arm)));
      arms.push(writes);
      continue;
    }
    for (let w = at(k); w?.kind === 'write'; w = at(--k)) {
      target ??= w.target;
      if (!joinable(w, target, ownBuffers ? arm.declares : []) || taken?.has(w.span.start)) break;
      writes.unshift(guarded(w, branch, STRADDLES, arm));
      // A write under a test of its own (`if (c != esc) write(fd, &esc, 1);`) ends the arm on some
      // paths only: it joins the writes after the branch, and nothing before it in the arm does.
      if (w.condition) break;
    }
    arms.push(writes);
  }
  return { arms, after };
}

/**
 * Writes to `target` that open the arms of a branch whose tests only read. `sent` names what the run's
 * writes before it read: a statement in the arm that changes one of them ends what can join.
 */
export function leading(
  branch: BranchStep,
  target: string,
  names: ReadonlySet<string>,
  sent: NameLookup,
  budget?: Budget,
): WriteStep[] | undefined {
  // Tests that compute as they test run after the writes before the branch: they must be calm there.
  const tested = quietTestChanges(branch, (e) => calmBefore(e, names, sent, e.mutated ?? e.writes));
  if (!tested) return undefined;
  const arms = branch.arms.map((arm) => armLeading(arm, branch, target, names, sent, budget));
  // An arm that opens with no write (it computes, or does something else first) and writes nothing to
  // the descriptor later either leaves the writes before the branch alone on its path, as an `if`
  // without `else` does where its test fails: the run ends with the branch, so nothing of it comes
  // after what that arm does. One that writes there later (a copy loop against a single write in the
  // other arm) makes the branch a choice between two shapes of output; one that writes there only in
  // straight-line code, after what ends the run on its path, does not (see laterArmWrites.ts).
  if (
    exhaustive(branch) &&
    branch.arms.some(
      (arm, k) =>
        arms[k]!.length === 0 && writesTo(arm.steps, target) && !writesLaterInLine(arm.steps, target, names),
    )
  )
    return undefined;
  return longestPath(arms);
}

/**
 * True when a computation before an arm's write (`int n = snprintf(num, ...)`) may run after the writes
 * before the branch, as it does in either shape: it must not print, nor change the descriptor (`names`)
 * or what they sent (`queued`): `changes`, of the names it changes, those whose change would.
 */
function calmBefore(
  s: OtherStep,
  names: ReadonlySet<string>,
  queued: NameLookup,
  changes: readonly string[] = s.writes,
): boolean {
  return (
    !s.barrier &&
    !s.output &&
    !s.setsGlobal &&
    !meets(s.writes, names) &&
    !meets(changes, queued) &&
    !(s.frees && meets(s.frees, queued))
  );
}

/**
 * Writes to `target` that open one arm (after computations that do no I/O), and those that open a
 * branch right after them, once such computations have been passed.
 */
function armLeading(
  arm: Arm,
  branch: BranchStep,
  target: string,
  names: ReadonlySet<string>,
  sent: NameLookup,
  budget?: Budget,
): WriteStep[] {
  const body = arm.steps;
  const queued = new Names(sent);
  const calm = (s: Step) => {
    budget?.visit();
    return s.kind === 'other' && calmBefore(s, names, queued);
  };
  let k = 0;
  for (let s = body[k]; s && calm(s); s = body[++k]);
  const writes: WriteStep[] = [];
  for (let w = body[k]; w?.kind === 'write'; w = body[++k]) {
    budget?.visit();
    if (!joinable(w, target, [])) return writes;
    // A write under a test of its own (`if (magic_ok) write(...)`) opens the arm on some paths only:
    // it joins, and nothing after it in the arm does.
    if (w.condition) return writes.length === 0 ? [guarded(w, branch, STRADDLES, arm)] : writes;
    writes.push(guarded(w, branch, STRADDLES, arm));
    queued.add(sentNames(w));
  }
  for (let s = body[k]; s && calm(s); s = body[++k]);
  const next = body[k];
  if (next?.kind !== 'branch') return writes;
  return [...writes, ...(leading(next, target, names, queued, budget) ?? [])];
}

/**
 * True when an arm holds only computations on the function's own variables: no I/O, no exit from the
 * block, no print, no change of the descriptor (`names`), of memory reached through a pointer or of
 * global state. Such an arm in an if/else adds nothing a run must stop for: the writes of the other
 * arms run on their paths as they would in an `if` without `else`. An empty arm (`else {}`, a switch's
 * `default: break;`) computes nothing at all, and is such an arm too.
 */
function computesOnly(
  body: readonly Step[],
  names: ReadonlySet<string>,
  locals: ReadonlySet<string>,
): boolean {
  return body.every(
    (s) =>
      s.kind === 'other' &&
      !s.barrier &&
      !s.output &&
      !s.setsGlobal &&
      s.mutated?.length === 0 &&
      s.writes.every((n) => locals.has(n) && !names.has(n)),
  );
}
