// The rules both front ends apply when they read statements into steps (see model.ts): which if/else
// chains and switches become branch steps, and how a statement that is not a write is summarised. The
// front ends only say what the syntax holds (an arm's statements, whether a statement breaks).
import type { Arm, OtherStep, Span } from './model';

/** A statement no run may cross: it does I/O, leaves the block, or could not be understood. */
export function barrierStep(span: Span): OtherStep {
  return { kind: 'other', span, reads: [], writes: [], calls: [], barrier: true };
}

/** A comment: no behaviour, but its text moves with the statements around it. */
export function commentStep(span: Span): OtherStep {
  return { kind: 'other', span, reads: [], writes: [], calls: [], barrier: false, comment: true };
}

/** A statement that is not a write, summarised by the names it reads and may change and what it calls. */
export function summaryStep(
  span: Span,
  reads: Iterable<string>,
  writes: Iterable<string>,
  calls: readonly string[],
  extra: Pick<OtherStep, 'output' | 'setsGlobal'> = {},
): OtherStep {
  return { kind: 'other', span, reads: [...reads], writes: [...writes], calls, barrier: false, ...extra };
}

/** One `if` of an if/else chain as the syntax holds it. */
export interface IfParts<I, S> {
  /** The statements of its consequence. */
  readonly then: readonly S[];
  /** The `if` its `else` holds, continuing the chain. */
  readonly elseIf?: I;
  /** The statements of a plain `else`, ending the chain. */
  readonly else?: readonly S[];
}

/**
 * The arms of the if/else chain starting at `first`, read in source order through `arm`, and whether
 * the chain is exhaustive (ends in a plain `else`): only then does one of its arms always run.
 */
export function ifChainArms<I, S>(
  first: I,
  parts: (at: I) => IfParts<I, S>,
  arm: (statements: readonly S[]) => Arm,
): { readonly arms: Arm[]; readonly exhaustive: boolean } {
  const arms: Arm[] = [];
  for (let at: I | undefined = first; at !== undefined;) {
    const p: IfParts<I, S> = parts(at);
    arms.push(arm(p.then));
    at = p.elseIf;
    if (p.else) {
      arms.push(arm(p.else));
      return { arms, exhaustive: true };
    }
  }
  return { arms, exhaustive: false };
}

/**
 * The arms of a switch, one per non-empty case in order (an empty case falls through to the next), its
 * final `break` left out. The switch is closed when every case ends in `break` (or is the last), with no
 * other `break` inside that could skip its end (`breaks` says whether a statement is or holds one): then
 * each case runs on its own, as the arms of an if/else chain do. It is exhaustive when it is closed and
 * has a `default`: one of its arms always runs.
 */
export function switchArms<S>(
  cases: readonly (readonly S[])[],
  hasDefault: boolean,
  isBreak: (statement: S) => boolean,
  breaks: (statement: S) => boolean,
  arm: (statements: readonly S[]) => Arm,
): { readonly arms: Arm[]; readonly exhaustive: boolean; readonly closed: boolean } {
  const arms: Arm[] = [];
  let closed = true;
  cases.forEach((statements, i) => {
    const last = statements[statements.length - 1];
    if (last === undefined) return;
    const ends = isBreak(last) ? statements.slice(0, -1) : [...statements];
    if (!isBreak(last) && i !== cases.length - 1) closed = false;
    if (ends.some(breaks)) closed = false;
    arms.push(arm(ends));
  });
  return { arms, exhaustive: closed && hasDefault, closed };
}
