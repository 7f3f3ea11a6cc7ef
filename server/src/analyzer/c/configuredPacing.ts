// A write helper that paces its writes only under a configured rate: `if (conn->throttle > 0) { send a
// slice; sleep(1); ... } else { push_all(conn->sock, buf, len); }`. The test reads the state the
// helper is handed or a global (a member of a parameter, a global variable), which the program sets
// from its configuration, and no call can decide it, unlike a parameter a caller passes a constant to
// (see selectedBranches.ts). With the rate off, the common configuration, each call is the one write of
// the other arm, and a run of such calls is one a user expects to hear of. With it on, the pauses are
// the point: gathered, the bytes would leave at once. The helper is read as its unpaced arm makes it,
// and its calls carry the assumption in the message, with no fix (a fix would change what the paced
// configuration sends when). The findings keep the severity the run's descriptor gives: the default
// configuration is the one the assumption names.
import type { Node } from 'web-tree-sitter';
import { waitingCall } from './terminalRequests';
import type { CWrapper } from '../wrapper';
import { calleeName, calls, declaredName, withoutCasts } from './syntax';

/** The arm of a configured rate the helper is read without, and the test that chooses it. */
export interface ConfiguredPacing {
  /** The calls of the paced arm (by node id): the helper's reading leaves them out. */
  readonly skipped: ReadonlySet<number>;
  /** The test, as the code spells it, under whose truth (`paced`) the helper paces. */
  readonly test: string;
  /** Whether the helper paces when the test is true (`rate > 0`) or when it is false (`!rate`). */
  readonly paced: boolean;
}

const LOOPS = new Set(['while_statement', 'for_statement', 'do_statement']);

/** Whether `node` lies in a loop inside `body`: a test made once a round is no configuration's. */
function inLoop(node: Node, body: Node): boolean {
  for (let at = node.parent; at && at.id !== body.id; at = at.parent) if (LOOPS.has(at.type)) return true;
  return false;
}

/**
 * Whether `test` reads only configured state: a member of a parameter (`c->rate`, `c->cfg.rate`) or a
 * global, compared with a number or taken for its truth. No call (a test of a result), no local (a
 * value the helper computed), no bare parameter (a caller's choice, read by selectedBranches.ts).
 */
function settingTest(
  test: Node,
  params: readonly (string | undefined)[],
  locals: ReadonlySet<string>,
): boolean {
  let t = withoutCasts(test);
  while (t.type === 'parenthesized_expression' && t.namedChild(0)) t = withoutCasts(t.namedChild(0)!);
  if (t.descendantsOfType(['call_expression', 'assignment_expression', 'update_expression']).length > 0)
    return false;
  let member = false;
  for (const id of t.descendantsOfType('identifier')) {
    if (!id) continue;
    if (locals.has(id.text)) return false;
    const field =
      id.parent?.type === 'field_expression' && id.parent.childForFieldName('argument')?.id === id.id;
    if (params.includes(id.text)) {
      if (!field) return false;
      member = true;
    } else member = true;
  }
  return member;
}

/** Whether `arm` waits (a library wait or a terminal's change, see terminalRequests.ts) anywhere in it. */
function waits(arm: Node): boolean {
  return calls(arm).some(waitingCall);
}

/** The names `body` declares (its locals, at any depth). */
function declaredLocals(body: Node): Set<string> {
  const names = new Set<string>();
  for (const decl of body.descendantsOfType('declaration'))
    for (const d of decl?.childrenForFieldName('declarator') ?? []) {
      const name = declaredName(d);
      if (name) names.add(name);
    }
  return names;
}

/**
 * The paced arm of `body` (a helper's) when it has exactly one `if` with an `else`, outside any loop,
 * whose test reads only configured state (see {@link settingTest}) and whose one arm waits between
 * writes and the other does not; undefined otherwise.
 */
export function configuredPacing(
  body: Node,
  params: readonly (string | undefined)[],
): ConfiguredPacing | undefined {
  let locals: Set<string> | undefined;
  let found: ConfiguredPacing | undefined;
  for (const stmt of body.descendantsOfType('if_statement')) {
    if (!stmt || inLoop(stmt, body)) continue;
    const test = stmt.childForFieldName('condition');
    const then = stmt.childForFieldName('consequence');
    const other = stmt.childForFieldName('alternative');
    if (!test || !then || !other) continue;
    const [thenWaits, otherWaits] = [waits(then), waits(other)];
    if (thenWaits === otherWaits) continue;
    if (!settingTest(test, params, (locals ??= declaredLocals(body)))) continue;
    // Two such tests: which configuration is the common one is no longer one question.
    if (found) return undefined;
    const arm = thenWaits ? then : other;
    const skipped = new Set(calls(arm).map((c) => c.id));
    let shown = withoutCasts(test);
    while (shown.type === 'parenthesized_expression' && shown.namedChild(0)) shown = shown.namedChild(0)!;
    found = { skipped, test: shown.text.replace(/\s+/g, ' '), paced: thenWaits };
  }
  return found;
}

/** The assumption a helper `name` read under {@link configuredPacing} is read with, as its messages say. */
export function pacedAssumption(name: string, pacing: ConfiguredPacing): string {
  const unpaced = pacing.paced ? 'false' : 'true';
  return `read as one write a call, assuming ${pacing.test} is ${unpaced} (${name}() paces its writes otherwise)`;
}

/**
 * `helper` (read from `fn`'s body) with the assumption of a helper it calls (`wrappers`: the helpers
 * known so far): a printf-style front formatting into a buffer and handing it to a paced writer is
 * read under that writer's assumption, and its findings must say so.
 */
export function assumingAsCalled(
  helper: CWrapper,
  fn: Node,
  wrappers: ReadonlyMap<string, CWrapper>,
): CWrapper {
  const body = fn.childForFieldName('body');
  if (helper.assumes || !body) return helper;
  for (const c of calls(body)) {
    const assumes = wrappers.get(calleeName(c) ?? '')?.assumes;
    if (assumes) return { ...helper, assumes, noFix: helper.noFix ? `${helper.noFix}; ${assumes}` : assumes };
  }
  return helper;
}
