// The cases of a `switch` as the arms a reader sees, where the grammar and C's fall-through hide them:
//
// - A case label under `#if` (`case T_A:\n#if AAAA\ncase T_AAAA:\n#endif\n send(...); break;`) leaves
//   the statements after the `#endif` outside any case in the syntax tree; they belong to the case
//   above them, as the preprocessor's output shows.
// - A case written as a braced block that ends in `break` (`case BIT: { ...; break; }`) ends as a
//   case ending in `break` does.
// - A case that falls through (`case T_MX: send_short(fd, pref); /* fall through */ case T_NS:
//   send_string(fd, name); break;`) runs the next case's statements after its own: its arm is both,
//   in order, as the one path through it is. The next case's statements are read once (their steps
//   shared by the two arms), so the runs inside that case are found once, in its own block.
//
// A switch read this way is a branch like any other (the joiners decide what its writes join); a
// case label under `#if` next to statements, or a statement before the first label, keeps it a
// barrier.
import type { Node } from 'web-tree-sitter';
import type { Arm } from '../model';
import { bareBlockStatements } from './bareBlocks';
import { namedKids } from './syntax';

/** One case as the reader sees it: whether it is `default`, and its statements after the label. */
export interface Case {
  readonly isDefault: boolean;
  readonly statements: Node[];
  /** The label's value as written; absent for `default` and for labels under `#if`. */
  readonly label?: string;
}

const DIRECTIVES = new Set(['preproc_if', 'preproc_ifdef', 'preproc_elif', 'preproc_else']);

/** True when a conditional group holds only case labels (and comments), in every branch of it. */
function labelsOnly(group: Node): boolean {
  const skipped = ['condition', 'name', 'alternative'].map((f) => group.childForFieldName(f));
  for (const kid of namedKids(group)) {
    if (skipped.some((s) => s?.equals(kid)) || kid.type === 'comment') continue;
    if (kid.type !== 'case_statement') return false;
    const value = kid.childForFieldName('value');
    if (namedKids(kid).some((k) => k.type !== 'comment' && !(value && k.equals(value)))) return false;
  }
  const alternative = group.childForFieldName('alternative');
  return !alternative || labelsOnly(alternative);
}

/**
 * The cases of a switch's body in order, each with its statements (the label's value left out, a
 * braced block that is its only statement opened up), or undefined when a statement stands before the
 * first label or a conditional group mixes labels with statements.
 */
export function switchCases(body: Node): readonly Case[] | undefined {
  const cases: Case[] = [];
  for (const kid of namedKids(body)) {
    if (kid.type === 'case_statement') {
      const value = kid.childForFieldName('value');
      cases.push({
        isDefault: !value,
        statements: opened(namedKids(kid).filter((n) => !value || !n.equals(value))),
        ...(value && { label: value.text }),
      });
    } else if (DIRECTIVES.has(kid.type)) {
      // A label some configurations compile: another way into the statements that follow.
      if (!labelsOnly(kid) || kid.hasError) return undefined;
      cases.push({ isDefault: false, statements: [] });
    } else if (kid.type === 'comment') {
      cases[cases.length - 1]?.statements.push(kid);
    } else {
      const last = cases[cases.length - 1];
      if (!last) return undefined;
      last.statements.push(kid);
    }
  }
  return cases;
}

/**
 * `case X: { ...; break; }`: the block's statements, ending in its `break`, when the bare-block
 * reading opens it (it declares nothing spelled elsewhere); the list as it stands otherwise.
 */
function opened(statements: Node[]): Node[] {
  const real = statements.filter((s) => s.type !== 'comment');
  if (real.length !== 1 || real[0]!.type !== 'compound_statement') return statements;
  const flat = bareBlockStatements(statements);
  // The block's closing brace, kept as a token when it declares: after its `break`, it is never reached.
  let end = flat.length;
  while (end > 0 && !flat[end - 1]!.isNamed) end--;
  return flat[end - 1]?.type === 'break_statement' ? flat.slice(0, end) : statements;
}

/** Statements that leave a case for somewhere other than the end of the switch. */
const ELSEWHERE = new Set(['return_statement', 'goto_statement', 'continue_statement']);

/**
 * The arms of a switch read from its cases (see the file comment), one per case with statements: a
 * case ending in `break` (left out) or the last case is its own statements, a case that falls through
 * is its own statements and then the next arm's. Closed, as {@link switchArms} says, when no case but
 * the last leaves for elsewhere (`return`, `goto`, `continue`) and no `break` stands inside a case
 * (under an `if`, it could skip the case's end); exhaustive when closed and one case is `default`.
 * `breaks` says whether a statement is or holds a `break`.
 */
export function caseArms(
  cases: readonly Case[],
  breaks: (statement: Node) => boolean,
  arm: (statements: readonly Node[]) => Arm,
): { readonly arms: Arm[]; readonly exhaustive: boolean; readonly closed: boolean } {
  let closed = true;
  // Each case's own statements, read in source order (each once).
  const own = cases.map((c, i) => {
    const real = c.statements.filter((s) => s.type !== 'comment');
    const last = real[real.length - 1];
    // An empty case is the next case's way in.
    if (last === undefined) return undefined;
    const ended = last.type === 'break_statement';
    const statements = ended ? c.statements.slice(0, c.statements.lastIndexOf(last)) : c.statements;
    if (statements.some(breaks)) closed = false;
    if (!ended && i !== cases.length - 1 && ELSEWHERE.has(last.type)) closed = false;
    return { arm: arm(statements), ended };
  });
  // From the last case up, so that a case falling through can take the next one's arm.
  const built: (Arm | undefined)[] = [];
  let next: Arm | undefined;
  for (let i = cases.length - 1; i >= 0; i--) {
    const mine = own[i];
    if (!mine) continue;
    const whole =
      mine.ended || !next
        ? mine.arm
        : {
            steps: [...mine.arm.steps, ...next.steps],
            declares: [...mine.arm.declares, ...next.declares],
          };
    built[i] = whole;
    next = whole;
  }
  const arms = built.filter((a): a is Arm => a !== undefined);
  return { arms, exhaustive: closed && cases.some((c) => c.isDefault), closed };
}
