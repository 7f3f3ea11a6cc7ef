// State a write's failure path updates and then goes on (`n = write(...); if (n < 0) nerr++;`): the
// writes after run on every path, so the run goes on past the check; the gathered call keeps one such
// check. But a step that reads that state (the next write's length, a test of the flag, a statement
// computing with the counter) sees it updated by the earlier write alone: the run ends before it.
import type { Step, WriteStep } from '../../model';
import { end, type Joiner } from './joiner';

const READ = end('failureState', "a step between reads what an earlier write's failure path updates");

const SETS = {};

/** The variable a canonical lvalue (`nerr`, `l->nerror`) belongs to. */
function rootOf(path: string): string {
  return /^\w+/.exec(path)?.[0] ?? path;
}

/**
 * True when the canonical expression `text` may read `path`: it names the path's variable whole
 * (`l`, `&st`) or through the path's members (`l->nerror`), not only through other members (`l->fd`).
 */
function mentions(text: string, path: string): boolean {
  const root = rootOf(path);
  const within = (inner: string, outer: string) =>
    inner === outer || inner.startsWith(`${outer}->`) || inner.startsWith(`${outer}.`);
  // Each use of the variable, with the first member it goes through, if any.
  const uses = text.matchAll(new RegExp(`(?<![\\w.>])${root}\\b((?:->|\\.)\\w+)?`, 'g'));
  return [...uses].some((m) => {
    const through = `${root}${m[1] ?? ''}`;
    return within(path, through) || within(through, path);
  });
}

/** True when write `step` may read one of `paths` (its descriptor, buffers or lengths). */
function writeReads(step: WriteStep, paths: readonly string[]): boolean {
  return paths.some((path) => {
    const root = rootOf(path);
    if (!step.reads.includes(root) && !step.targetNames.includes(root)) return false;
    // Buffers that cannot be listed may read any part of the variable.
    if (!step.pieces) return true;
    const texts = [step.fdText, ...step.pieces.flatMap((p) => [p.buf, p.len ?? ''])].map((t) =>
      t.replace(/\s+/g, ''),
    );
    // The variable read under no text the step shows (an argument a helper takes whole).
    if (!texts.some((t) => new RegExp(`\\b${root}\\b`).test(t))) return true;
    return texts.some((t) => mentions(t, path));
  });
}

/** True when `step` may read one of `paths`, anywhere down its arms and bodies. */
function stepReads(step: Step, paths: readonly string[]): boolean {
  const roots = paths.map(rootOf);
  switch (step.kind) {
    case 'write':
      return writeReads(step, paths);
    case 'other':
      return step.reads.some((n) => roots.includes(n));
    case 'branch':
      return (
        (step.tests ?? []).some((n) => roots.includes(n)) ||
        step.arms.some((arm) => arm.steps.some((s) => stepReads(s, paths)))
      );
    case 'loop':
      return step.varying.some((n) => roots.includes(n)) || step.body.some((s) => stepReads(s, paths));
  }
}

/** A step reading what an earlier write's failure path updated ends the run before it. */
export const failureState: Joiner = {
  name: 'failureState',
  facts: [
    'write.failureSets',
    'write.reads',
    'write.targetNames',
    'write.pieces',
    'write.fdText',
    'other.reads',
    'branch.tests',
    'branch.arms',
  ],
  rules: {
    taken(step, run) {
      if (step.failureSets) run.memory<string[]>(SETS, () => []).push(...step.failureSets);
    },
    write(step, run) {
      const sets = run.recalled<string[]>(SETS);
      return sets && writeReads(step, sets) ? READ : step;
    },
    cross(step, run) {
      const sets = run.recalled<string[]>(SETS);
      return sets && stepReads(step, sets) ? READ : undefined;
    },
    branch(step, run) {
      const sets = run.recalled<string[]>(SETS);
      return sets && stepReads(step, sets) ? READ : undefined;
    },
  },
};
