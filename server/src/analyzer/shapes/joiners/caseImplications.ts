// Writes under tests of one value, a switch's arms among them (see c/caseTests.ts): `if (kind !=
// K_NONE) write(head); switch (kind) { case K_A: write(a); break; case K_B: write(b); break; }`. Every
// write is under a condition and the tests are of one variable, which reads as tests that may exclude
// each other; but where each arm's labels differ from K_NONE, every path that takes an arm's write took
// the head's too, and the two are a run on that path (no fix: the head's write runs where no arm does).
// The arms of one switch are alternatives of each other (one path takes one arm), never a pair.
import type { CaseTest, WriteStep } from '../../model';

/** A test of one value: it equals one of `values` (`in`), or none of them. */
interface ValueTest {
  readonly subject: string;
  readonly values: readonly string[];
  readonly in: boolean;
  /** The switch it is an arm of, if any. */
  readonly at?: number;
}

/** Why the run has no fix: the same words for every write it is said of. */
export const CASE_TESTS =
  'the writes run under tests of one value, and some paths take only some of them: a gathered call would fill its vector test by test';

function bare(text: string): string {
  let t = text.replace(/\s+/g, '');
  while (/^\(.*\)$/.test(t)) t = t.slice(1, -1);
  return t;
}

/** A constant as the switch's labels are spelled (see c/caseTests.ts canonicalConstant). */
function constantOf(text: string, values: ReadonlyMap<string, number>): string | undefined {
  const t = bare(text);
  const named = values.get(t);
  if (named !== undefined) return String(named);
  const m = /^(-?)(0[xX][\da-fA-F]+|0|[1-9]\d*)[uUlL]*$/.exec(t);
  if (m) return String((m[1] ? -1 : 1) * Number(m[2]));
  return /^[A-Z][A-Z0-9_]*$/.test(t) ? t : undefined;
}

/** `subject == K` or `subject != K` (either side), with `values` for K's value; else undefined. */
function comparison(condition: string, values: ReadonlyMap<string, number>): ValueTest | undefined {
  const t = bare(condition);
  const m = /^([^=!<>&|?]+)(==|!=)([^=!<>&|?]+)$/.exec(t);
  if (!m) return undefined;
  const right = constantOf(m[3]!, values);
  const left = constantOf(m[1]!, values);
  const [subject, k] =
    right !== undefined && left === undefined
      ? [m[1]!, right]
      : left !== undefined && right === undefined
        ? [m[3]!, left]
        : [];
  return subject === undefined || k === undefined
    ? undefined
    : { subject: bare(subject), values: [k], in: m[2] === '==' };
}

function caseValueTest(test: CaseTest): ValueTest {
  return { subject: test.subject, values: test.labels, in: !test.otherwise, at: test.at };
}

/** Two canonical constants are different values: both integers, unequal. */
function differ(a: string, b: string): boolean {
  return a !== b && /^-?\d+$/.test(a) && /^-?\d+$/.test(b);
}

/** True when every value `a` allows, `b` allows too. */
function implies(a: ValueTest, b: ValueTest): boolean {
  if (a.in && b.in) return a.values.every((v) => b.values.includes(v));
  if (a.in && !b.in) return a.values.every((v) => b.values.every((w) => differ(v, w)));
  if (!a.in && !b.in) return b.values.every((v) => a.values.includes(v));
  return false;
}

/**
 * True when every write is under a test of one value (its switch arm's, or `v == K` / `v != K`), that
 * value's names are not in `changed`, and of any two writes not in arms of one switch, one's test
 * implies the other's, for at least one such pair: on the paths where the later runs, the earlier ran
 * (or the other way round). `writes` is the run's, its arms' alternatives included.
 */
export function impliedCases(writes: readonly WriteStep[], changed: (name: string) => boolean): boolean {
  const test = writes.find((w) => w.caseTest)?.caseTest;
  if (!test) return false;
  if (test.reads.some(changed)) return false;
  const tests: ValueTest[] = [];
  for (const w of writes) {
    const t = w.caseTest
      ? caseValueTest(w.caseTest)
      : w.condition
        ? comparison(w.condition, test.values)
        : undefined;
    if (!t || t.subject !== test.subject) return false;
    tests.push(t);
  }
  let pairs = 0;
  for (let i = 0; i < tests.length; i++)
    for (let j = i + 1; j < tests.length; j++) {
      const a = tests[i]!;
      const b = tests[j]!;
      if (a.at !== undefined && a.at === b.at) continue;
      if (!implies(a, b) && !implies(b, a)) return false;
      pairs++;
    }
  return pairs > 0;
}
