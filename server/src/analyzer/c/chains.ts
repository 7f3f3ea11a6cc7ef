// Statements that hold a write in a form other than "one call, checked or not": several writes chained
// in one condition (`if (w(fd, hdr, 4) < 0 || w(fd, buf, n) < 0 || fsync(fd) < 0) return -1;`), and a
// write under a condition without `else` (`if (negated) write_or_die(fd, "^", 1);`).
import type { Node } from 'web-tree-sitter';
import { keptRetry } from './keptRetries';
import { assigningTest } from './assigningTests';
import { strictest } from '../cTemplates';
import type { Piece, WriteStep } from '../model';
import { assumedCalls } from '../shapes/assumptions';
import { throughCountCasts } from './castCounts';
import { COMMA_PRELUDE, preludeEffects, preludeReads, withPrelude } from './commaPreludes';
import { keptFailure } from './keptFailures';
import { leavingFailureChain } from './failureChains';
import { accumulating, accumulationAfter, statusSays, zeroSucceeds } from './accumulations';
import { reportedOnly } from './reportedCounts';
import { storedTestIn, storedTestReason, testsSuccess } from './storedTests';
import { assertionMacro } from './macroStatements';
import { namedAssertion } from './namedAssertions';
import { neverReturns, openTrailingBlocks } from './noReturnCalls';
import { callArgs, calleeName, calls, identifiers, namedKids, plainAssignment, unwrap } from './syntax';
import {
  assignedTruth,
  callsInArguments,
  callWrite,
  checkOf,
  failureTest,
  keptResult,
  returnedConstant,
  SUCCESS_CHECKS,
  type Check,
  hasEffects,
  readsOnly,
  sameLength,
  statementCall,
  templateAround,
  keptResultStep,
  writeStep,
  type CallWrite,
  type CContext,
} from './writes';

/** Why a chain whose writes follow tests of its own has no fix: those tests may guard the arguments. */
const LEADING_TESTS =
  'the tests before the writes may be what makes their arguments safe to evaluate, and a gathered call fills its iovec first';

/** The terms of a chain of `op` (`||` or `&&`), left to right; one term when `node` is no such chain. */
function terms(node: Node, op: string): Node[] {
  const n = unwrap(node);
  if (n.type === 'binary_expression' && n.childForFieldName('operator')?.text === op) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left && right) return [...terms(left, op), ...terms(right, op)];
  }
  return [n];
}

/** Check kinds a `||` chain of writes may use (each says the write failed). */
const FAILURE_CHECKS = ['<0', '<=0', '==-1', '!=', 'truthy', 'falsy'];

/**
 * A check guarded by tests in the same term: `negated && write(...) < 0` (in a `||` chain of failure
 * checks, or alone) or `len == 0 || write(...) > 0` (in a `&&` chain of success checks). The guards must
 * only read; the write runs when they let it. Undefined when `term` is no such thing.
 */
function guardedCheck(
  term: Node,
  inner: '&&' | '||',
  ctx: CContext,
): { check: Check; guards: Node[]; term: Node } | undefined {
  const parts = terms(term, inner);
  const last = parts[parts.length - 1];
  const guards = parts.slice(0, -1);
  const check = last ? checkOf(last, ctx.codes) : undefined;
  if (!last || !check || guards.length === 0) return undefined;
  if (guards.some((g) => checkOf(g, ctx.codes) || !readsOnly(g, ctx.pure))) return undefined;
  return { check, guards, term: last };
}

/**
 * True when `stmt` is `if (chain) {}` or `if (chain);` (no `else`): nothing depends on the chain's
 * outcome, so a bare `write(...)` in it is tested only for being non-zero, as code that quiets an
 * unused-result warning writes it. Each write then runs unless the one before it wrote nothing.
 */
function ignoredTruths(stmt: Node): boolean {
  if (stmt.type !== 'if_statement' || stmt.childForFieldName('alternative')) return false;
  const body = stmt.childForFieldName('consequence');
  if (!body) return false;
  if (body.type === 'expression_statement') return body.namedChildCount === 0;
  return body.type === 'compound_statement' && namedKids(body).every((k) => k.type === 'comment');
}

/** Why writes chained by `&&` on their bare results have no fix. */
const TRUTHS =
  'each write runs when the one before it returned non-zero, failures (-1) included; a gathered call would stop at the first failure';

/** Why a write under a guard inside a chained condition has no fix. */
const MIXED_CHECKS =
  "the chained writes are checked in different ways; one gathered call has one check, which is the reader's choice";

const GUARDED =
  'a write in the chained condition runs only when the test before it lets it; gathering them means filling the vector under those tests by hand';

/**
 * An `if` or `return` whose condition starts with two or more checked writes to one descriptor joined
 * by `||` (each a failure check: `< 0`, `== -1`, `!= its length`...) or by `&&` (each a success check:
 * `== its length`, `>= 0`...). The writes prefix is the sequence; the rest of the chain
 * (`|| close(fd) < 0`) stays after the gathered call. A term may guard its write with tests that only
 * read (`(negated && w(...) < 0) ||`, `(len == 0 || w(...) > 0) &&`): reported without a fix.
 */
export function chainStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.hasError) return undefined;
  // `ok = put(a) && put(b);`: the chain's result kept in a variable.
  // `int ok = put(a) && put(b);` too: the declaration keeps it as the assignment does.
  const kept =
    stmt.type === 'expression_statement' || stmt.type === 'declaration' ? keptChain(stmt) : undefined;
  const cond =
    stmt.type === 'if_statement'
      ? stmt.childForFieldName('condition')
      : stmt.type === 'return_statement'
        ? returnedTest(stmt.namedChild(0))
        : (kept?.value ?? null);
  if (!cond) return undefined;
  const test = unwrap(cond);
  const op = test.type === 'binary_expression' ? test.childForFieldName('operator')?.text : undefined;
  if (op !== '||' && op !== '&&') return undefined;
  // `if (write(a) && write(b)) {}`: the results tested only to quiet a warning (see ignoredTruths).
  const ignored = op === '&&' && ignoredTruths(stmt);
  const allowed = (kind: string) =>
    op === '||' ? FAILURE_CHECKS.includes(kind) : SUCCESS_CHECKS.has(kind) || (ignored && kind === 'truthy');
  const writes: {
    write: CallWrite;
    call: Node;
    len?: Node;
    assigned?: string;
    guarded: boolean;
    guardReads: string[];
    prelude?: NonNullable<WriteStep['argumentCalls']>;
  }[] = [];
  const list = terms(test, op);
  // `if (!ready || write(fd, a, n) != n || ...)`: tests that only read may come first. The writes then
  // run only when those tests let the chain go on, so the chain is a run of its own (`alone`), and the
  // tests stay in front of the gathered call.
  let lead = 0;
  while (lead < list.length - 2 && calls(list[lead]!).length === 0 && readsOnly(list[lead]!, ctx.pure))
    lead++;
  const leadReads = list.slice(0, lead).flatMap((t) => [...identifiers(t)]);
  let kind: string | undefined;
  let mixed = false;
  for (const term of list.slice(lead)) {
    // `(i = htonl(n), write(fd, &i, 4)) != 4 ||`: a comma expression computes before its write.
    const plain = checkOf(term, ctx.codes, true);
    const guarded = plain ? undefined : guardedCheck(term, op === '||' ? '&&' : '||', ctx);
    const check = guarded?.check ?? plain;
    if (!check) break;
    const write = callWrite(check.call, ctx);
    // A status helper's bare call says it succeeded (`put(a) && put(b)`), its negation that it failed;
    // one zero on success says it succeeded when tested `== 0` (`put(a) == 0 && put(b) == 0`).
    const zeroSuccess = op === '&&' && check.kind === 'falsy' && !!write && zeroSucceeds(write);
    const status =
      (write?.truthyOnSuccess && (check.kind === 'truthy' || check.kind === 'falsy')) || zeroSuccess
        ? `status-${check.kind}`
        : undefined;
    const statusAllowed = zeroSuccess || status === (op === '&&' ? 'status-truthy' : 'status-falsy');
    // `put(a) == 0 || put(b) == 0` of such a helper: the second runs only when the first failed.
    if (op === '||' && check.kind === 'falsy' && write && zeroSucceeds(write)) break;
    if (!statusAllowed && !allowed(check.kind)) break;
    // Checks of different forms (`!= 5 || ... <= 0 || ... != 2`) all test for failure: the writes are
    // one checked sequence, but one gathered call has one check, which no fix can choose for them. A
    // status helper's truth value is no count: it does not mix with one.
    if (kind !== undefined && (status ?? check.kind) !== kind) {
      if (status !== undefined || kind.startsWith('status-')) break;
      mixed = true;
    }
    kind ??= status ?? check.kind;
    if (!write || write.own || write.syscalls !== undefined || assignedTruth(check, write)) break;
    if (writes.length > 0 && write.target !== writes[0]!.write.target) break;
    // A later call's arguments run before the earlier writes once gathered (see argumentCalls): none
    // that may do I/O, and none given a buffer an earlier write sent.
    const moved = writes.length > 0 ? write.argumentCalls : undefined;
    if (moved?.io || moved?.changes.some((n) => writes.some((w) => w.write.reads.includes(n)))) break;
    // What a comma expression computes runs between the writes too (see commaPreludes.ts).
    const prelude = check.prelude && preludeEffects(check.prelude, ctx);
    const sent = (n: string) => writes.some((w) => w.write.reads.includes(n));
    if (prelude && writes.length > 0 && (prelude.io || prelude.changes.some(sent))) break;
    if (check.len && !sameLength(check.len.text, write.checkLen)) break;
    const assigned = check.assigned?.text;
    if (assigned && write.targetNames.includes(assigned)) break;
    const guardReads = guarded ? guarded.guards.flatMap((g) => [...identifiers(g)]) : [];
    writes.push({
      write,
      call: check.call,
      len: check.len,
      assigned,
      guarded: guarded !== undefined,
      guardReads: [...guardReads, ...(check.prelude ? preludeReads(check.prelude) : [])],
      prelude,
    });
  }
  if (writes.length < 2) return undefined;
  const first = writes[0]!;
  const last = writes[writes.length - 1]!;
  const family = strictest(writes.map((w) => w.write.family));
  const all = writes.map((w) => w.write);
  const pieces = all.every((w) => w.pieces) ? all.flatMap((w) => w.pieces as Piece[]) : undefined;
  const fixable = all.every((w) => w.fixable) && family !== undefined && family !== '';
  const assigns = [...writes.flatMap((w) => (w.assigned ? [w.assigned] : [])), ...(kept ? [kept.name] : [])];
  const assumes = writes.slice(1).flatMap((w) => w.write.argumentCalls?.assumed ?? []);
  const noFix =
    family === undefined
      ? 'the chained writes belong to different write families'
      : lead > 0
        ? LEADING_TESTS
        : writes.some((w) => w.guarded)
          ? GUARDED
          : kind === 'truthy' && op === '&&'
            ? TRUTHS
            : // What a write's own reason says (an assumption about a helper) comes first.
              (all.find((w) => w.noFix)?.noFix ??
              (mixed ? MIXED_CHECKS : undefined) ??
              (writes.some((w) => w.prelude) ? COMMA_PRELUDE : undefined) ??
              (assigns[0] !== undefined ? keptResult(first.write.callee, assigns[0]) : undefined));
  return {
    kind: 'write',
    span: { start: stmt.startIndex, end: stmt.endIndex },
    target: first.write.target,
    fdText: first.write.fdText,
    targetNames: first.write.targetNames,
    callee: [...new Set(all.map((w) => w.callee))].join('/'),
    family: family ?? first.write.family,
    pieces,
    reads: [
      ...new Set([...all.flatMap((w) => w.reads), ...writes.flatMap((w) => w.guardReads), ...leadReads]),
    ],
    template:
      fixable && !noFix
        ? templateAround(stmt, first.call.startIndex, last.call.endIndex, last.len, ctx.text)
        : undefined,
    syscalls: writes.length,
    calls: writes.map((w) => ({ start: w.call.startIndex, end: w.call.endIndex })),
    chain: true,
    // Tests after the writes (`|| close(fd) < 0`) may end the descriptor's use: nothing joins after.
    alone: writes.length < list.length || stmt.type === 'return_statement',
    noFix,
    condition: writes.every((w) => w.guarded) ? `(${test.text})` : undefined,
    assigns: assigns.length > 0 ? assigns : undefined,
    // One write on a descriptor of unknown kind makes the whole chain an assumption.
    ...(all.some((w) => w.assumed) && { assumed: true }),
    ...(assumes.length > 0 && { assumes: assumedCalls(assumes) }),
    // The first write's prelude runs before it: a run the chain joins sees it as computation between.
    ...(first.prelude && { argumentCalls: withPrelude(first.write.argumentCalls, first.prelude) }),
  };
}

/**
 * `failed = write(fd, a, n) != n;` and then `failed |= write(fd, "\\n", 1) != 1;` (or a helper's
 * status, `err |= put(fd, a, n);`, or successes: `ok &= write(fd, a, n) == n;`, `ok &= put(fd, a, n);`
 * of a helper true on success), the first one possibly a declaration (`int ok = put(fd, a, n);`,
 * accumulations.ts): each write checked, the failures gathered in one variable that is tested after the
 * last. One write each, reported without a fix (the test of the variable would need rewriting for the
 * total).
 */
export function accumulatedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  const found = stmt.hasError ? undefined : accumulating(stmt);
  if (!found) return undefined;
  const { name, op, right } = found;
  const accumulation = accumulated(op, name, right);
  const { value } = accumulation;
  // `int ok = put(fd, a, n);` opens the accumulation the next statement continues (`ok &= ...`).
  const opens = op === '=' && value === right ? accumulationAfter(stmt, name) : undefined;
  const successes = opens === undefined ? accumulation.successes : opens === 'successes';
  const check = value ? checkOf(value, ctx.codes) : undefined;
  if (!check) return undefined;
  const write = callWrite(check.call, ctx);
  // A status helper's truth value (`ok &= put(...)`, `err |= !put(...)`, `ok = ok && put(...) == 0`)
  // says success or failure by what the helper returns; a plain `name = put(...)` keeps it instead,
  // unless an accumulation continues it.
  const truth = check.kind === 'truthy' || check.kind === 'falsy';
  const says =
    truth && write && (op !== '=' || value !== right || opens) ? statusSays(check.kind, write) : undefined;
  if (says !== undefined) {
    if (says !== (successes ? 'success' : 'failure')) return undefined;
  } else {
    // Successes and-ed together (`ok &= write(...) == n;`) say the same as failures or-ed.
    if (successes ? !SUCCESS_CHECKS.has(check.kind) : !FAILURE_CHECKS.includes(check.kind)) return undefined;
    // `n = write(...)` keeps a count, not a failure: resultChecked reads that form. A helper's status
    // or-ed in (`err |= put(fd, s, n);`, nonzero on failure) is a failure gathered.
    const status = op === '|=' && check.kind === 'truthy' && !!write?.wrapper && !write.truthyOnSuccess;
    if (truth && !status) return undefined;
  }
  if (!write || write.own || write.syscalls !== undefined || write.targetNames.includes(name))
    return undefined;
  if (check.len && !sameLength(check.len.text, write.checkLen)) return undefined;
  return keptResultStep(
    write,
    stmt,
    check.call,
    name,
    `the ${successes ? 'successes' : 'failures'} are accumulated in ${name}, whose test a gathered call would need rewritten for the total`,
  );
}

/**
 * What an accumulating assignment to `name` by `op` checks, and whether it gathers successes: `&=`, and
 * `name = name && <check>` (the earlier verdict guards the write, as in a chain); or failures: `|=`,
 * `+=`, `=`, and `name = name || <check>`.
 */
function accumulated(
  op: string,
  name: string,
  right: Node | null,
): { value: Node | null | undefined; successes: boolean } {
  const value = right ? unwrap(right) : undefined;
  const inner = value?.type === 'binary_expression' ? value.childForFieldName('operator')?.text : undefined;
  const first = value?.childForFieldName('left');
  if (op === '=' && (inner === '&&' || inner === '||') && first && unwrap(first).text === name)
    return { value: value?.childForFieldName('right'), successes: inner === '&&' };
  return { value: right, successes: op === '&=' };
}

/**
 * The test a return statement's value makes: the value itself, or the condition choosing between two
 * results (`return put(a) == 0 && put(b) == 0 ? 0 : -1;`).
 */
function returnedTest(value: Node | null): Node | null {
  const at = value ? unwrap(value) : null;
  return at?.type === 'conditional_expression' ? at.childForFieldName('condition') : value;
}

/** `name = <chain>;` (a plain assignment to a variable): the variable and the chain. */
function keptChain(stmt: Node): { name: string; value: Node } | undefined {
  if (stmt.type === 'declaration') return plainAssignment(stmt);
  const expr = stmt.namedChild(0);
  if (expr?.type !== 'assignment_expression' || expr.childForFieldName('operator')?.text !== '=')
    return undefined;
  const left = expr.childForFieldName('left');
  const value = expr.childForFieldName('right');
  return left?.type === 'identifier' && value ? { name: left.text, value } : undefined;
}

/**
 * The single statement of a body (`{ stmt; }` or `stmt`), if it has just one. Comments beside it do not
 * count: every fix keeps the comments of what it replaces (fixes/comments.ts).
 */
function only(body: Node | null): Node | undefined {
  if (!body) return undefined;
  if (body.type !== 'compound_statement') return body;
  const kids = namedKids(body).filter((c) => c.type !== 'comment');
  return kids.length === 1 ? kids[0] : undefined;
}

/**
 * `if (cond) <write>;` without `else`: the write runs or not, and a fix can fill its slot of the vector
 * under the same test. A test that calls or assigns (`if (do_abort(c)) send_msg(...)`) runs before the
 * write: such a write may open a run, and joins one only as {@link testCalls} says.
 * Also the test and the write in one condition: `if (negated && write(fd, "^", 1) < 0) return -1;`.
 */
export function conditionalStep(
  stmt: Node,
  ctx: CContext,
  locals?: ReadonlySet<string>,
): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError || stmt.childForFieldName('alternative'))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  if (!cond) return undefined;
  const check = checkOf(cond, ctx.codes);
  const guarded = check ? undefined : guardedCheck(cond, '&&', ctx);
  if (guarded) return guardedWrite(stmt, guarded, ctx);
  // A test of another call's result (`if (do_abort(c))`) is a test with effects, not a checked write.
  if (check && callWrite(check.call, ctx)) return undefined;
  const inner = only(stmt.childForFieldName('consequence'));
  const call = inner && statementCall(inner, ctx);
  const write = inner && call && writeStep(inner, call, ctx);
  if (!write) return undefined;
  const before = testCalls(cond, write, ctx, locals);
  return {
    ...write,
    span: { start: stmt.startIndex, end: stmt.endIndex },
    condition: cond.text,
    calls: write.calls ?? [{ start: call.startIndex, end: call.endIndex }],
    reads: [...new Set([...write.reads, ...identifiers(cond)])],
    ...(before && { argumentCalls: before }),
  };
}

/**
 * What the test of a conditional write calls, merged with what the write's own arguments call: the
 * test runs before the write, so the write may open a run whatever its test does, and join one only as
 * a write with such calls in its arguments would.
 */
function testCalls(
  cond: Node,
  write: WriteStep,
  ctx: CContext,
  locals?: ReadonlySet<string>,
): WriteStep['argumentCalls'] {
  if (readsOnly(cond, ctx.pure)) return write.argumentCalls;
  const own = write.argumentCalls;
  // A test that only keeps what it tests in the function's own variables (see assigningTests.ts), none
  // of them the write's descriptor.
  const assigning = locals && assigningTest(cond, ctx, locals);
  if (assigning && !assigning.changes.some((n) => write.targetNames.includes(n)))
    return {
      calls: [...(own?.calls ?? []), ...assigning.calls],
      changes: [...(own?.changes ?? []), ...assigning.changes],
      ...(own?.assumed && { assumed: own.assumed }),
      ...(own?.io && { io: true }),
    };
  const found = callsInArguments(cond, ctx);
  const callees = calls(cond).flatMap((c) => calleeName(c) ?? []);
  return {
    calls: [...(own?.calls ?? []), ...(found?.calls ?? callees)],
    changes: [...(own?.changes ?? []), ...(found?.changes ?? [])],
    ...((!found || found.assumed || own?.io) && { io: true }),
  };
}

/** `if (guard && write(...) < 0) handler`: the write under the guard, the handler kept for the fix. */
function guardedWrite(
  stmt: Node,
  { check, guards, term }: { check: Check; guards: Node[]; term: Node },
  ctx: CContext,
): WriteStep | undefined {
  if (!FAILURE_CHECKS.includes(check.kind)) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write || write.own || assignedTruth(check, write)) return undefined;
  if (check.len && !sameLength(check.len.text, write.checkLen)) return undefined;
  const assigned = check.assigned?.text;
  if (assigned && write.targetNames.includes(assigned)) return undefined;
  const first = guards[0]!; // guardedCheck returns at least one guard
  const last = guards[guards.length - 1]!;
  const condition = `(${ctx.text.slice(first.startIndex, last.endIndex)})`;
  // The gathered call keeps the statement without the guard: `if (` + call + `) < 0) handler`.
  const skip = { start: first.startIndex, end: term.startIndex };
  const { checkLen: _len, own: _own, fixable, ...rest } = write;
  return {
    kind: 'write',
    ...rest,
    span: { start: stmt.startIndex, end: stmt.endIndex },
    template: fixable
      ? templateAround(stmt, check.call.startIndex, check.call.endIndex, check.len, ctx.text, skip)
      : undefined,
    condition,
    calls: [{ start: check.call.startIndex, end: check.call.endIndex }],
    reads: [...new Set([...write.reads, ...guards.flatMap((g) => [...identifiers(g)])])],
    ...(assigned && { assigns: [assigned], noFix: write.noFix ?? keptResult(write.callee, assigned) }),
  };
}

/** Why a write whose result later statements check has no fix. */
function resultCheckedReason(callee: string): string {
  return `the result of ${callee}() is kept and checked by the statements after it; a gathered call would need those checks rewritten for the total`;
}

/**
 * True when `body` leaves: its last statement is `return ...;`, `goto ...;`, `break;`, `continue;` or a
 * call that never returns (`exit(1)`, or a helper or macro that ends in one: see noReturnCalls.ts),
 * after statements that make no write (an error message). A trailing block, or `do { ... } while (0)`,
 * is read as its statements.
 */
function leaves(body: Node | null, ctx: CContext, descriptor: readonly string[]): boolean {
  const stmts = openTrailingBlocks(
    !body ? [] : body.type === 'compound_statement' ? namedKids(body) : [body],
  );
  const last = stmts[stmts.length - 1];
  if (!last) return false;
  const call = last.type === 'expression_statement' ? last.namedChild(0) : null;
  const callee = call?.type === 'call_expression' ? calleeName(call) : undefined;
  const exits =
    ['return_statement', 'goto_statement', 'break_statement', 'continue_statement'].includes(last.type) ||
    (callee !== undefined && neverReturns(callee, ctx));
  if (!exits) return false;
  return stmts.slice(0, -1).every((s) => message(s, ctx, descriptor));
}

/**
 * True when `stmt` only reports a failure before leaving: calls that may print anywhere but are none
 * of the writes a run gathers (the file's own functions, its write helpers), or an if/else whose tests
 * only read and whose arms only report (`if (ret < 0) perror(...); else fprintf(stderr, "short")`:
 * the message chosen by the kind of failure) and that hands the descriptor (`descriptor`, its names) to
 * nothing.
 */
function message(stmt: Node, ctx: CContext, descriptor: readonly string[]): boolean {
  if (stmt.type === 'expression_statement')
    return calls(stmt).every((c) => {
      const name = calleeName(c);
      return name !== undefined && !ctx.functions.has(name) && !ctx.wrappers.has(name);
    });
  // A call under a test that is handed the descriptor may write to it, whatever its name.
  if (descriptor.some((d) => identifiers(stmt).has(d))) return false;
  if (stmt.type !== 'if_statement' || stmt.hasError) return false;
  const test = stmt.childForFieldName('condition');
  if (!test || !readsOnly(test, ctx.pure)) return false;
  const arms = [stmt.childForFieldName('consequence'), stmt.childForFieldName('alternative')];
  return arms.every((arm) => {
    // An else clause holds its statement (`else if`, `else {...}`) as its one named child.
    const body = arm?.type === 'else_clause' ? arm.namedChild(0) : arm;
    if (!body) return arm === null;
    const inner = body.type === 'compound_statement' ? namedKids(body) : [body];
    return inner.every((s) => message(s, ctx, descriptor));
  });
}

/**
 * True when `stmt` is `assert(test)` whose test reads `result` and only reads (`assert(n == len);`):
 * a check that aborts on failure, which leaves as surely as a `return` (compiled out with NDEBUG, the
 * result is then unchecked, which a run may take as well). So is a project's assertion macro given the
 * result (`CHECK_IO(n);` defined as `assert(io_ok(n))`, see assertionMacro) when what it calls besides
 * does no output, and a library's assertion the analyzer knows only by its name (`PR_ASSERT(n > 0);`,
 * see namedAssertion).
 */
export function assertion(stmt: Node, result: string, ctx: CContext): boolean {
  const call = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  if (call?.type !== 'call_expression' || stmt.hasError) return false;
  const name = calleeName(call);
  const test = call.childForFieldName('arguments');
  if (!name || !test || !identifiers(test).has(result) || !readsOnly(test, ctx.pure)) return false;
  if (name === 'assert' || namedAssertion(name, ctx)) return true;
  const macro = assertionMacro(name, ctx.text, ctx.included);
  const asserted = macro && callArgs(call)[macro.param];
  return (
    !!asserted &&
    identifiers(asserted).has(result) &&
    macro.calls.every((c) => ctx.pure.has(c) || ctx.quiet(c))
  );
}

/**
 * The call whose result `stmt` keeps: `ret = call(...);` or `ssize_t ret = call(...);` (one declarator),
 * also converted to a number on the way (`ret = (int)call(...);`, see castCounts.ts).
 */
export function keptIn(stmt: Node): { call: Node; result: string } | undefined {
  // `while ((n = write(...)) == -1 && errno == EINTR);` keeps what its one call returned, as this does.
  if (stmt.type === 'while_statement') return keptRetry(stmt);
  const kept = plainAssignment(stmt);
  const call = kept ? throughCountCasts(kept.value) : undefined;
  if (!kept || call?.type !== 'call_expression') return undefined;
  return { call, result: kept.name };
}

/**
 * True when the statements after `statements[i]` never use `name`: each that names it only discards it
 * (`(void)name;`) or assigns it the result of a call (`name = write(...)`, where that call is read).
 */
function unused(statements: readonly Node[], i: number, name: string): boolean {
  for (let j = i + 1; j < statements.length; j++) {
    const stmt = statements[j]!;
    if (!identifiers(stmt).has(name)) continue;
    const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    // `(void)name;` (unwrap reads through the cast).
    const value = expr ? unwrap(expr) : undefined;
    if (expr?.type === 'cast_expression' && value?.type === 'identifier' && value.text === name) continue;
    const kept = keptIn(stmt);
    if (kept?.result === name && !identifiers(kept.call).has(name)) continue;
    return false;
  }
  return true;
}

/**
 * True when `stmt` uses `name` only to test it: `if (n < 0) ...` whose arms use it the same way (or not
 * at all), `assert(n == len);`, `(void)n;`, `return n;` (the caller tests it), or it keeps a write's
 * result in it again (`n = write(...)` not reading n). A computation (`p += n;`, `total += n;`, `f(n)`),
 * a loop testing it (a retry) are uses of the count, which a gathered call would change. A report of
 * it elsewhere (`do_debug("wrote %d bytes", n);`, see reportedCounts.ts) only tells the count: the
 * finding says a gathered call would set it to the total, and has no fix.
 */
function testUse(stmt: Node, name: string, ctx: CContext, descriptor: string): boolean {
  if (!identifiers(stmt).has(name)) return true;
  if (stmt.hasError) return false;
  // `fail: if (n < 0) perror(...);`, a label another check jumps to: the statement is what counts.
  if (stmt.type === 'labeled_statement') {
    const inner = namedKids(stmt).filter((k) => k.type !== 'statement_identifier');
    return inner.every((s) => testUse(s, name, ctx, descriptor));
  }
  if (overwrites(stmt, name, ctx)) return true;
  if (reportedOnly(stmt, name, descriptor, ctx)) return true;
  if (stmt.type === 'if_statement') {
    const cond = stmt.childForFieldName('condition');
    if (!cond || !readsOnly(cond, ctx.pure)) return false;
    const arms = [
      stmt.childForFieldName('consequence'),
      stmt.childForFieldName('alternative')?.namedChild(0),
    ];
    return arms.every((arm) => {
      if (!arm) return true;
      const body = arm.type === 'compound_statement' ? namedKids(arm) : [arm];
      return body.every((s) => testUse(s, name, ctx, descriptor));
    });
  }
  if (stmt.type === 'return_statement') return readsOnly(stmt, ctx.pure) || testedBeforeLast(stmt, name, ctx);
  if (assertion(stmt, name, ctx)) return true;
  const kept = keptIn(stmt);
  if (kept?.result === name && !identifiers(kept.call).has(name)) return true;
  const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  const value = expr ? unwrap(expr) : undefined;
  return expr?.type === 'cast_expression' && value?.type === 'identifier' && value.text === name;
}

/**
 * `return failed || put(fd, b, n);` (or `&&`): `name` read only in the terms before the last, which only
 * read; the last may call anything (a write, see returnedWrites.ts). The function returns the truth of
 * the chain, never the count.
 */
function testedBeforeLast(stmt: Node, name: string, ctx: CContext): boolean {
  const value = stmt.namedChild(0);
  const bare = value ? unwrap(value) : undefined;
  const op = bare?.type === 'binary_expression' ? bare.childForFieldName('operator')?.text : undefined;
  if (!bare || (op !== '||' && op !== '&&')) return false;
  const before = terms(bare, op);
  const last = before.pop();
  return !!last && !identifiers(last).has(name) && before.every((t) => readsOnly(t, ctx.pure));
}

/**
 * True when `stmt` gives `name` a new value that does not read it (`ret = 1;`, `ret = 0;` in the arms
 * of the last check, `if (ret != n) ret = 1; else ret = 0;`): the count is dropped, not counted with.
 */
function overwrites(stmt: Node, name: string, ctx: CContext): boolean {
  const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  const x = expr ? unwrap(expr) : undefined;
  if (x?.type !== 'assignment_expression' || x.childForFieldName('operator')?.text !== '=') return false;
  const left = x.childForFieldName('left');
  const right = x.childForFieldName('right');
  return (
    left?.type === 'identifier' &&
    left.text === name &&
    !!right &&
    !identifiers(right).has(name) &&
    readsOnly(right, ctx.pure)
  );
}

/**
 * True when the statements after `statements[i]` use `name` only in tests ({@link testUse}) until a
 * statement keeps another write's result in it: the write's result is tested, never counted with.
 */
function testedOnly(
  statements: readonly Node[],
  i: number,
  name: string,
  ctx: CContext,
  descriptor: string,
): boolean {
  for (let j = i + 1; j < statements.length; j++) {
    const stmt = statements[j]!;
    if (!testUse(stmt, name, ctx, descriptor)) return false;
    const kept = keptIn(stmt);
    if (kept?.result === name && callWrite(kept.call, ctx)) return true;
  }
  return true;
}

/**
 * `ret = write(fd, buf, n);` followed by checks of `ret` that leave (`if (ret < 0) return -1;` and
 * `if ((size_t)ret != n) return -1;`): one write whose error handling spans those statements. Returns
 * the write step, spanning the checks, and how many statements it covers (the checks become empty
 * steps after it); undefined when `statements[i]` is no such write. Reported without a fix.
 * `assert(ret == n);` is such a check (it aborts). Unchecked, the write is still one when its result
 * is unused, or kept in a local of the function (`names.locals`) whose address it never takes
 * (`names.addressed`) and that later statements only test ({@link testedOnly}): the results joiner
 * ends a run at any step between its writes that reads the result.
 */
export function resultChecked(
  statements: readonly Node[],
  i: number,
  ctx: CContext,
  names?: { readonly locals: ReadonlySet<string>; readonly addressed: ReadonlySet<string> },
): { step: WriteStep; covers: number } | undefined {
  const stmt = statements[i];
  if (!stmt || stmt.hasError) return undefined;
  // `ok = (write(...) == n);` keeps the write's test instead of its count (see storedTests.ts).
  const counted = keptIn(stmt);
  const stored = counted ? undefined : storedTestIn(stmt, ctx);
  const kept = counted ?? stored;
  if (!kept) return undefined;
  const { call, result } = kept;
  const write = callWrite(call, ctx);
  if (!write || write.own || write.targetNames.includes(result)) return undefined;
  let last = i;
  let leaving = false;
  const failureSets: string[] = [];
  for (let j = i + 1; j < statements.length; j++) {
    const check = statements[j];
    if (check && assertion(check, result, ctx)) {
      last = j;
      leaving = true;
      continue;
    }
    // `if (n < 0) nerr++;`: the failure noted, the writes after run on every path.
    const kept = check && keptFailure(check, result, write.target, ctx);
    if (kept) {
      failureSets.push(...kept);
      last = j;
      continue;
    }
    // `if (n < 0) return -1; else if (n != len) return -1;`: one check split by its messages.
    if (
      check?.childForFieldName('alternative') &&
      leavingFailureChain(check, result, stored?.kind, ctx, (body) => leaves(body, ctx, write.targetNames))
    ) {
      last = j;
      leaving = true;
      continue;
    }
    const cond = check?.type === 'if_statement' ? check.childForFieldName('condition') : null;
    if (!check || !cond || check.hasError || check.childForFieldName('alternative')) break;
    if (!identifiers(cond).has(result) || !readsOnly(cond, ctx.pure)) break;
    // `if (n == len) return 0;`: what follows runs only when the write failed.
    if (testsSuccess(cond, result, stored?.kind)) break;
    // `if (rc == 0) ...`, `if (!rc) ...` of a helper returning 0 on success: its success as it spells it.
    const spelled = counted && checkOf(cond, ctx.codes, false, { name: result, call });
    if (spelled && !spelled.assigned && failureTest(spelled.kind, write) === false) break;
    if (!leaves(check.childForFieldName('consequence'), ctx, write.targetNames)) break;
    last = j;
    leaving = true;
  }
  // Unchecked, the result may still be unused: only discarded (`(void)ret;`) or overwritten by the
  // next call, as code that silences an unused-result warning writes it. Or it is a local no call can
  // reach (its address never taken): every later read of it is a statement of this block, which ends a run there
  // (the results joiner), so a run only ever takes the write with its result read after the run.
  // Unchecked, a pointer to it may read it anywhere (`*seen`), under no name of it.
  const own = !!names?.locals.has(result) && !names.addressed.has(result);
  if (
    last === i &&
    (names?.addressed.has(result) ||
      !(unused(statements, i, result) || (own && testedOnly(statements, i, result, ctx, write.target))))
  )
    return undefined;
  const end = statements[last]!; // i < last < statements.length
  const reason =
    last !== i
      ? resultCheckedReason(write.callee)
      : stored
        ? storedTestReason(write.callee, result)
        : keptResult(write.callee, result);
  return {
    step: {
      ...keptResultStep(write, stmt, call, result, reason),
      span: { start: stmt.startIndex, end: end.endIndex },
      ...(leaving && { resultTested: true }),
      ...(failureSets.length > 0 && { failureSets }),
    },
    covers: last - i + 1,
  };
}

/** Why a write whose result the function returns has no fix. */
function returnedResult(callee: string): string {
  return `the function returns what ${callee}() returns, and a gathered call would return the total of all the writes`;
}

/**
 * `return write(...);`, `return write(...) < 0 ? -1 : 0;` or `return write(...) == n;`: the last write
 * of a run. Returning the test's outcome (chosen values, or the comparison's truth) keeps its meaning
 * with the gathered call (a fix); returning the count does not.
 */
export function returnStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'return_statement' || stmt.hasError) return undefined;
  const value = stmt.namedChild(0);
  const bare = value ? unwrap(value) : undefined;
  if (!bare) return undefined;
  let call: Node | undefined;
  let check: Check | undefined;
  if (bare.type === 'call_expression') call = bare;
  else if (bare.type === 'conditional_expression') {
    const test = bare.childForFieldName('condition');
    const arms = ['consequence', 'alternative'].map((f) => bare.childForFieldName(f));
    // The arms only state the outcome (`-1`, `0`, `error(...)` would be I/O).
    if (!test || arms.some((a) => !a || calls(a).length > 0 || hasEffects(a))) return undefined;
    check = checkOf(test, ctx.codes);
    call = check?.call;
    if (check?.assigned) return undefined;
  } else if (bare.type === 'binary_expression' || bare.type === 'unary_expression') {
    // `return write(fd, p, n) == n;`, `return send(...) >= 0;`, `return !put(...);`: the function
    // returns whether the write succeeded, a status helpers give instead of a count.
    check = checkOf(bare, ctx.codes);
    if (!check || check.assigned || check.kind === 'truthy') return undefined;
    call = check.call;
  }
  if (!call) return undefined;
  const write = callWrite(call, ctx);
  if (!write || write.own) return undefined;
  if (check?.len && !sameLength(check.len.text, write.checkLen)) return undefined;
  const { checkLen: _len, own: _own, fixable, ...rest } = write;
  // What the function returns where the write failed: the chosen constant, or the comparison's falsity.
  const failed = check ? failureTest(check.kind, write) : undefined;
  const failureReturn =
    failed === undefined
      ? undefined
      : bare.type === 'conditional_expression'
        ? returnedConstant(bare.childForFieldName(failed ? 'consequence' : 'alternative'))
        : failed
          ? '1'
          : '0';
  return {
    kind: 'write',
    ...rest,
    ...(failureReturn !== undefined && { failureReturn }),
    span: { start: stmt.startIndex, end: stmt.endIndex },
    template:
      fixable && check
        ? templateAround(stmt, call.startIndex, call.endIndex, check.len, ctx.text)
        : undefined,
    noFix: write.noFix ?? (check ? undefined : returnedResult(write.callee)),
    leaves: true,
  };
}
