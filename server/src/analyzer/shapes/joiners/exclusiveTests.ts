// Writes under tests that exclude each other. A run may take a write that ends the body of one `if`
// and a write that opens an arm of a later one (`if (strcmp(enc, "none") != 0) { ...; put(hdr); }`,
// then `if (strcmp(enc, "none") == 0) put("\r\n");`): when the second test is the first one negated
// and nothing between changes what they read, no path makes both writes. Each path then makes fewer
// syscalls than the run counts; where every path makes one at most, there is nothing to gather. The
// tests are compared as written: `x` and `!x`, `a == b` and `a != b`, `a < b` and `a >= b`, `a > b` and
// `a <= b`, each side spelled alike (whitespace and enclosing parentheses aside).
import { ONE_ARM } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

const EXCLUDED = end(
  'exclusiveTests',
  'the writes are under tests that exclude each other: no path makes two of them',
);

/** A test as a proposition and whether it holds as written or negated: `a != b` is `a == b`, negated. */
interface Polar {
  readonly core: string;
  readonly negated: boolean;
}

/** `text` without parentheses that enclose all of it. */
function unwrapped(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')') && closesAtEnd(t)) t = t.slice(1, -1).trim();
  return t;
}

/** True when the parenthesis opening `t` closes at its last character (not `(a) && (b)`). */
function closesAtEnd(t: string): boolean {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i === t.length - 1;
  }
  return false;
}

/** The text with string and character literals blanked, so their parentheses and operators do not count. */
function bare(text: string): string {
  return text.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, (m) => '_'.repeat(m.length));
}

// Each comparison operator as the one it negates to, and whether it is that one negated.
const NEGATIONS: Readonly<Record<string, readonly [string, boolean]>> = {
  '==': ['==', false],
  '!=': ['==', true],
  '<': ['<', false],
  '>=': ['<', true],
  '>': ['>', false],
  '<=': ['>', true],
};

/** The comparison operators of `top` (a test at its top level) and where they stand; shifts and `->` are none. */
function comparisons(top: string): [number, string][] {
  const found: [number, string][] = [];
  for (const m of top.matchAll(/->|<<=?|>>=?|[=!<>]=|[<>]/g)) {
    if (m[0] in NEGATIONS) found.push([m.index, m[0]]);
  }
  return found;
}

/** A null pointer or zero, as a comparison may spell it. */
const ZERO = /^\(*(?:0|NULL|\(void\*\)0|'\\0'|0[xX]0+|0[lLuU]+)\)*$/;

/**
 * The test as a {@link Polar}, or undefined when it does more than compare once: a conjunction, a
 * choice, or anything that changes a value (an assignment, an increment), since such a test need not
 * repeat its value.
 */
export function polar(condition: string): Polar | undefined {
  const text = unwrapped(condition).replace(/\s+/g, '');
  const flat = bare(text);
  if (/\+\+|--|(?<![=!<>])=(?!=)/.test(flat)) return undefined;
  const top = topLevel(flat);
  if (/&&|\|\||\?|,/.test(top)) return undefined;
  const found = comparisons(top);
  if (found.length > 1) return undefined;
  const [at, op] = found[0] ?? [];
  if (at !== undefined && op !== undefined) {
    const [as, flips] = NEGATIONS[op]!;
    const left = text.slice(0, at);
    const right = text.slice(at + op.length);
    if (!left || !right) return undefined;
    // `p == NULL` and `n != 0` test what `!p` and `n` test.
    const other = ZERO.test(right) ? left : ZERO.test(left) ? right : undefined;
    if (as === '==' && other !== undefined) {
      const inner = polar(other);
      return inner && { core: inner.core, negated: inner.negated !== !flips };
    }
    return { core: `${left}${as}${right}`, negated: flips };
  }
  // No comparison at the top: `!` binds tighter than any, so a leading one negates the whole test.
  if (text.startsWith('!')) {
    const inner = polar(text.slice(1));
    return inner && { core: inner.core, negated: !inner.negated };
  }
  return text ? { core: text, negated: false } : undefined;
}

/** `flat` with everything inside parentheses or brackets blanked: what the test does at its top level. */
function topLevel(flat: string): string {
  let depth = 0;
  let out = '';
  for (const c of flat) {
    if (c === '(' || c === '[') depth++;
    out += depth > 0 ? ' ' : c;
    if (c === ')' || c === ']') depth--;
  }
  return out;
}

/** Names a test reads (called functions left out): a change of one between makes it another test. */
function testNames(core: string): string[] {
  return bare(core).match(/[A-Za-z_]\w*(?!\w|\s*\()/g) ?? [];
}

const RULES: Rules = {
  finish(writes, run) {
    // Syscalls under each test, by its proposition and polarity.
    const under = new Map<string, [number, number]>();
    let total = 0;
    for (const w of writes) {
      const n = w.syscalls ?? 1;
      total += n;
      const p = w.condition && w.condition !== ONE_ARM ? polar(w.condition) : undefined;
      if (!p) continue;
      const changed = testNames(p.core).some(
        (name) => run.changedSoFar.has(name) || run.changedInArms.has(name),
      );
      if (changed) continue;
      const counts = under.get(p.core) ?? [0, 0];
      counts[p.negated ? 1 : 0] += n;
      under.set(p.core, counts);
    }
    // One side of each excluded pair of tests runs on a path: the fewer syscalls never add to the others.
    let most = total;
    for (const [held, negated] of under.values()) most -= Math.min(held, negated);
    return most < 2 && total >= 2 ? EXCLUDED : writes;
  },
};

/** Writes under tests that exclude each other never make one path's run. */
export const exclusiveTests: Joiner = {
  name: 'exclusiveTests',
  facts: ['write.condition', 'write.syscalls', 'run.changedSoFar', 'run.changedInArms'],
  rules: RULES,
};
