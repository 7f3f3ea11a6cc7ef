// Writes under conditions. A write under a condition joins a run; a run of nothing but writes under
// one condition may make one call at most, so it is no run. Under different tests of ifs without else
// (the end of one, the start of the next) it is a sequence whenever both hold; in one arm of an if/else,
// the other path differs. Each write under a test of its own, the tests about different things
// (`if (bell) ...; if (prompt) ...`): both may hold, and the run is reported without a fix, since where
// none holds a gathered call would still run. Tests of one variable (`if (a) ...; if (!a) ...`) may
// exclude each other. Where some write runs on every path (an if/else whose every arm writes), the
// writes under tests add to it, whatever those tests are.
import type { WriteStep } from '../../model';
import { inArm, meets, ONE_ARM } from '../branches';
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';
import { conditionSubjects, overlaps, type Subject } from './conditionSubjects';
import { CASE_TESTS, impliedCases } from './caseImplications';

const ALL_CONDITIONAL =
  'every write is under a test of its own; where none holds, a gathered call would still run';

const EXCLUSIVE = end(
  'conditions',
  'every write is under a condition, and the conditions may exclude each other',
);

/**
 * Names a condition reads, constants (upper-case names), the words of string literals and the names
 * of called functions left out: `(prompt != NULL)` reads prompt, `!strcmp(mode, "ip")` reads mode.
 */
function conditionNames(condition: string): string[] {
  const code = condition.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '');
  return (code.match(/[A-Za-z_]\w*(?!\w|\s*\()/g) ?? []).filter((n) => !/^[A-Z][A-Z0-9_]*$/.test(n));
}

/**
 * True when no two writes' conditions are about one thing (see {@link overlaps}), and no two send the
 * same bytes (the same message under two tests is one message for two cases, as `^C` on a signal or on
 * an empty read). A write whose bytes cannot be listed (a helper that formats them) sends what its own
 * arguments make: it is compared with no other.
 */
function disjoint(writes: readonly WriteStep[]): boolean {
  const listed = writes.flatMap((w) =>
    w.pieces ? [w.pieces.map((p) => `${p.buf}\u0000${p.len ?? ''}`).join('\u0001')] : [],
  );
  if (new Set(listed).size < listed.length) return false;
  const seen: Subject[] = [];
  for (const w of writes) {
    const subjects = conditionSubjects(w.condition ?? '');
    if (subjects.length === 0 || subjects.some((s) => seen.some((t) => overlaps(s, t)))) return false;
    seen.push(...subjects);
  }
  return true;
}

const RETESTED = end(
  'conditions',
  'a statement between changes what the test of the next write reads: the writes may exclude each other',
);

/**
 * What the run knows of the names its writes' tests read: those a statement changed after a write
 * whose test read them. Every statement the run crosses is seen (the rule `cross`), whether the next
 * write joins straight or from a branch.
 */
interface Tested {
  readonly changedAfter: Set<string>;
  /** The names the tests of the run's first `folded` writes read, gathered as writes join. */
  readonly tested: Set<string>;
  folded: number;
  /** The last write folded into `tested`. */
  last?: WriteStep;
}
const TESTED = {};

/** The run's memory of its tests (see {@link Tested}). */
function testedOf(run: RunSoFar): Tested {
  return run.memory<Tested>(TESTED, () => ({
    changedAfter: new Set(),
    tested: new Set(),
    folded: 0,
  }));
}

/**
 * The names the tests of `run`'s writes read, each write's condition read once as it joins: reading
 * them all again for every write made a long run's search quadratic.
 */
function testedNames(memo: Tested, writes: readonly WriteStep[]): ReadonlySet<string> {
  // A run's writes only grow; should they ever be another list, they are read again from the first.
  if (writes.length < memo.folded || (memo.folded > 0 && writes[memo.folded - 1] !== memo.last)) {
    memo.tested.clear();
    memo.folded = 0;
  }
  for (; memo.folded < writes.length; memo.folded++) {
    const write = writes[memo.folded]!;
    if (write.condition) for (const n of conditionNames(write.condition)) memo.tested.add(n);
    // A switch arm's test reads the switch's value (see caseImplications.ts).
    for (const n of write.caseTest?.reads ?? []) memo.tested.add(n);
  }
  memo.last = writes[memo.folded - 1];
  return memo.tested;
}

const RULES: Rules = {
  // A test reads its names where it stands: an earlier write's test read them too, and a statement
  // between changed them (`if (a) ...; a = 0; if (a) ...`), so the second may now fail where the first
  // held. A test of names computed for it between (`n = len & 3; if (n) ...`) is no such case, nor one
  // of names computed before the first test read them (`ok = n > 0; put(a); if (!ok) return; put(b);
  // put(c);`: both writes after the exit run under the same `ok`).
  write(step, run) {
    if (!step.condition || step.condition === ONE_ARM) return step;
    const memo = testedOf(run);
    const tested = testedNames(memo, run.writes);
    const changed = conditionNames(step.condition).filter(
      (n) => memo.changedAfter.has(n) || run.changedInArms.has(n),
    );
    if (changed.length === 0) return step;
    return meets(changed, tested) ? RETESTED : step;
  },
  // A statement crossed comes after every write taken so far, so after each of their tests. Seen as it
  // is crossed, not when the next write joins: a write taken from a branch (the body of an early exit)
  // joins past no write rule, and a test reading a name changed before every test that read it
  // (`put(a); while (isspace(*cp)) cp++; if (!*cp) { put(b); return; } put(c);`) reads the same value
  // for both.
  cross(step, run) {
    if (step.writes.length === 0 || run.writes.length === 0) return undefined;
    const memo = testedOf(run);
    const tested = testedNames(memo, run.writes);
    if (tested.size > 0) for (const n of step.writes) if (tested.has(n)) memo.changedAfter.add(n);
    return undefined;
  },
  finish(writes, run) {
    const conditions = new Set(writes.map((w) => w.condition));
    const straddles = conditions.size >= 2 && !conditions.has(ONE_ARM) && writes.every(inArm);
    // A write counting no syscall is the other arm of a choice another write makes (one path runs one
    // arm): under one test, the two are one write of the run.
    const counted = writes.filter((w) => w.syscalls !== 0);
    const independent =
      !straddles && conditions.size === counted.length && !conditions.has(ONE_ARM) && disjoint(counted);
    // Every write under the same test, read twice (`if (fb) ...; if (fb) ...`): both run or neither.
    // (Writes all taken from one branch's arms are that branch's own run, found inside it.)
    const same =
      conditions.size === 1 && writes.length > 1 && !conditions.has(ONE_ARM) && !writes.every(inArm);
    // A head, or a branch passed through whose every arm writes, makes a syscall on every path: the
    // other writes add to some path (`if (more) say("."); if (ok) say("done"); else say("failed");`).
    const covered = run.head || run.everyPath;
    if (!covered && writes.every((w) => w.condition) && !straddles && !independent && !same) {
      // Tests of one value of which one implies the other, a switch's arms among them (caseImplications.ts).
      const memo = writes.some((w) => w.caseTest) ? testedOf(run) : undefined;
      const changed = (n: string) => !!memo?.changedAfter.has(n) || run.changedInArms.has(n);
      if (memo && impliedCases(writes, changed))
        return writes.map((w) => ({ ...w, noFix: w.noFix ?? CASE_TESTS }));
      return EXCLUSIVE;
    }
    if (independent && writes.every((w) => w.condition))
      return writes.map((w) => ({ ...w, noFix: w.noFix ?? ALL_CONDITIONAL }));
    return writes;
  },
};

/** Decides whether writes under conditions make a run, and whether it can have a fix. */
export const conditions: Joiner = {
  name: 'conditions',
  facts: [
    'write.condition',
    'write.caseTest',
    'write.noFix',
    'write.pieces',
    'run.head',
    'run.everyPath',
    'run.writes',
    'other.writes',
    'run.changedInArms',
  ],
  rules: RULES,
};
