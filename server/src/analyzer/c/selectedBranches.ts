// A helper whose body branches on one of its parameters compared with a constant, where one arm does
// I/O besides the helper's write: a transfer loop that reads or writes as a flag says (`if (do_write) n =
// write(fd, p, left); else n = read(fd, p, left);`), a writer that seeks first only when given an offset
// (`if (offset >= 0) lseek(fd, offset, SEEK_SET);`, called with -1 to append). Callers that pass a
// constant deciding the test run only the other arm: for them the helper is one write, and it is read
// with the arm they never run left out. A call passing anything else (a variable, the other constant)
// may take that arm, and is no write to join. The constant may be a name (`dir == TO_PEER`: see
// namedSelectors.ts), and the tests may chain (`if (dir == TO_PEER) ... else if (dir == FROM_PEER) ...`):
// a test inside an arm the callers never run is never made for them.
import type { Node } from 'web-tree-sitter';
import type { BranchSelect } from '../wrapper';
import { constantName, selectsByName } from './namedSelectors';
import { calls, withoutCasts } from './syntax';

/**
 * A comparison of a parameter with an integer constant (`p`, `!p`, `p >= 0`, `-1 != p`) or with a
 * named one (`dir == TO_PEER`).
 */
interface ParamTest {
  readonly param: number;
  readonly op: BranchSelect['op'];
  readonly constant: number | string;
}

/** The comparison that holds when the sides of `op` are swapped (`0 <= p` is `p >= 0`). */
const SWAPPED: Readonly<Record<BranchSelect['op'], BranchSelect['op']>> = {
  '==': '==',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/**
 * The integer an expression is, when it is a literal (`0`, `-1`, `4U`, `(off_t)-1`, `true`), or
 * undefined.
 */
export function integerConstant(node: Node | undefined): number | undefined {
  if (!node) return undefined;
  const n = withoutCasts(node);
  if (n.type === 'true') return 1;
  if (n.type === 'false') return 0;
  if (n.type === 'parenthesized_expression') return integerConstant(n.namedChild(0) ?? undefined);
  if (n.type === 'unary_expression' && n.childForFieldName('operator')?.text === '-') {
    const v = integerConstant(n.childForFieldName('argument') ?? undefined);
    return v === undefined ? undefined : -v;
  }
  if (n.type !== 'number_literal') return undefined;
  const m = /^(-?)(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$/.exec(n.text);
  return m ? (m[1] ? -1 : 1) * Number(m[2]) : undefined;
}

/** The parameter comparison `test` is (see {@link ParamTest}), or undefined. */
function paramTest(test: Node, params: readonly (string | undefined)[]): ParamTest | undefined {
  let t = withoutCasts(test);
  while (t.type === 'parenthesized_expression' && t.namedChild(0)) t = withoutCasts(t.namedChild(0)!);
  const param = (n: Node | null) =>
    n && withoutCasts(n).type === 'identifier' ? params.indexOf(withoutCasts(n).text) : -1;
  if (t.type === 'identifier') {
    const p = param(t);
    return p >= 0 ? { param: p, op: '!=', constant: 0 } : undefined;
  }
  if (t.type === 'unary_expression' && t.childForFieldName('operator')?.text === '!') {
    const p = param(t.childForFieldName('argument'));
    return p >= 0 ? { param: p, op: '==', constant: 0 } : undefined;
  }
  if (t.type !== 'binary_expression') return undefined;
  const op = t.childForFieldName('operator')?.text ?? '';
  if (!(op in SWAPPED)) return undefined;
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  const onRight = integerConstant(right ?? undefined);
  const onLeft = integerConstant(left ?? undefined);
  if (onRight !== undefined && param(left) >= 0)
    return { param: param(left), op: op as BranchSelect['op'], constant: onRight };
  if (onLeft !== undefined && param(right) >= 0)
    return { param: param(right), op: SWAPPED[op as BranchSelect['op']], constant: onLeft };
  if (op !== '==' && op !== '!=') return undefined;
  const named = (n: Node | null) => {
    const name = constantName(n);
    return name !== undefined && !params.includes(name) ? name : undefined;
  };
  const nameOnRight = named(right);
  if (nameOnRight !== undefined && param(left) >= 0) return { param: param(left), op, constant: nameOnRight };
  const nameOnLeft = named(left);
  if (nameOnLeft !== undefined && param(right) >= 0) return { param: param(right), op, constant: nameOnLeft };
  return undefined;
}

/** Whether `value op constant` holds. */
function holds(value: number, op: BranchSelect['op'], constant: number): boolean {
  switch (op) {
    case '==':
      return value === constant;
    case '!=':
      return value !== constant;
    case '<':
      return value < constant;
    case '<=':
      return value <= constant;
    case '>':
      return value > constant;
    case '>=':
      return value >= constant;
  }
}

/** True when a call's argument is a constant under which the helper runs only its chosen arms. */
export function selectsBranch(arg: Node | undefined, select: BranchSelect): boolean {
  if (typeof select.constant === 'string') return selectsByName(arg, select.op, select.constant, select.when);
  const value = integerConstant(arg);
  return value !== undefined && holds(value, select.op, select.constant) === select.when;
}

/** The branch a helper's callers must choose, and the calls of the arms they never run. */
export interface SelectedBody {
  readonly select: BranchSelect;
  /** Calls in the arms the chosen constant leaves out. */
  readonly skipped: ReadonlySet<number>;
}

/**
 * The test on a parameter that `body` branches on, with the arm to run: the one without a call
 * `noisy` says does other I/O, its other arm having one (see the file comment). Every such `if` must
 * test the same parameter the same way and agree on the arm, except one inside an arm already left out;
 * undefined when none does, or they disagree, or the parameter is assigned in the body.
 */
export function selectedBody(
  body: Node,
  params: readonly (string | undefined)[],
  noisy: (call: Node) => boolean,
  changed: (name: string) => boolean,
): SelectedBody | undefined {
  let select: BranchSelect | undefined;
  const skipped = new Set<number>();
  // The arms left out so far (the `if`s come outer first): a test inside one is never made.
  const leftOut: Node[] = [];
  const inLeftOut = (n: Node) =>
    leftOut.some((a) => a.startIndex <= n.startIndex && n.endIndex <= a.endIndex);
  for (const stmt of body.descendantsOfType('if_statement')) {
    if (stmt && inLeftOut(stmt)) continue;
    const test = stmt?.childForFieldName('condition');
    const found = test ? paramTest(test, params) : undefined;
    if (!stmt || !found) continue;
    const then = stmt.childForFieldName('consequence');
    const other = stmt.childForFieldName('alternative');
    const loud = (arm: Node | null) => !!arm && calls(arm).some(noisy);
    const [thenLoud, otherLoud] = [loud(then), loud(other)];
    if (thenLoud === otherLoud) continue;
    const when = otherLoud;
    if (
      select &&
      (select.param !== found.param ||
        select.op !== found.op ||
        select.constant !== found.constant ||
        select.when !== when)
    )
      return undefined;
    select = { ...found, when };
    const arm = (when ? other : then)!;
    leftOut.push(arm);
    for (const c of calls(arm)) skipped.add(c.id);
  }
  if (!select || changed(params[select.param] as string)) return undefined;
  return { select, skipped };
}
