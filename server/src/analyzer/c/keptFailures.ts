// A kept result's failure handled by noting it and going on: `n = write(l->fd, buf, len); if (n < 0)
// l->nerror++;` and the next write runs whatever happened. The check only updates state (a counter, a
// flag) and falls through, so the writes after it run on every path, as after an unchecked write; a
// gathered call keeps one such check for all of them. What the check updates is said on the write step
// (`failureSets`), and the run ends before any step that reads it (shapes/joiners/failureState.ts).
// The check may report the failure too (`if (n != sizeof(hdr)) fprintf(stderr, "short write");`): a
// message that goes elsewhere changes nothing the writes after it send.
import type { Node } from 'web-tree-sitter';
import { failureTest } from './failurePaths';
import { calleeName, calls, identifiers, lvaluePath, namedKids, unwrap } from './syntax';
import { readsOnly, type CContext } from './writes';

/** True when the canonical expression `text` is `path` or reaches into it (`c->fd` into `c`). */
function within(text: string, path: string): boolean {
  return text === path || (text.startsWith(path) && /^(->|\.|\[)/.test(text.slice(path.length)));
}

/** What one statement of the failure path updates, if it only updates one lvalue from what it reads. */
function updated(stmt: Node, ctx: CContext): string | undefined {
  const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  const x = expr ? unwrap(expr) : undefined;
  if (x?.type === 'update_expression') {
    const arg = x.childForFieldName('argument');
    return arg ? lvaluePath(arg) : undefined;
  }
  if (x?.type !== 'assignment_expression') return undefined;
  const left = x.childForFieldName('left');
  const right = x.childForFieldName('right');
  // The value only reads (`errno`, a constant): no call that may write, nothing else assigned.
  return left && right && readsOnly(right, ctx.pure) ? lvaluePath(left) : undefined;
}

/** Descriptors a message to the standard streams may reach: a report there could land between the writes. */
const STANDARD = /^(?:0|1|2|STD(?:IN|OUT|ERR)_FILENO|stdin|stdout|stderr)$/;

/** The C library's reports of a failure: they print to a standard stream or the system log. */
const LIBRARY_REPORTS: ReadonlySet<string> = new Set(
  'perror fprintf vfprintf printf vprintf puts fputs syslog vsyslog warn warnx vwarn vwarnx'.split(' '),
);

/** Words of a name that say it reports a failure. */
const REPORT_WORDS: ReadonlySet<string> = new Set('log warn warning err error report msg debug'.split(' '));

/**
 * True when `name` says it reports (`msg_warn`, `log_error`, `i_error`, and run together `msyslog`,
 * `logmsg`): a project's logger, whose message goes to a log or a standard stream, as the C library's
 * reports do.
 */
function reporter(name: string): boolean {
  const words = name.split(/_|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase());
  return words.some((w) => REPORT_WORDS.has(w)) || /(?:log|msg)$/i.test(name);
}

/** True when a call of `name` reports: one of the C library's reports, or a logger named as one. */
export function reportCall(name: string): boolean {
  return LIBRARY_REPORTS.has(name) || reporter(name);
}

/**
 * True when `stmt` only reports: a statement of calls handed nothing of the descriptor, on a descriptor
 * that is not a standard stream the report could go to: the C library's reports, functions that do no
 * output (`strerror`), or a project's logger named as one ({@link reporter}: `msg_warn("write: %m")`),
 * which runs only when the write failed, as the handler of `if (write(...) < 0) msg_warn(...);` does.
 * A write the runs gather (the file's write functions and helpers) is none, nor another call of the
 * project's own (a hook, a complaint helper), which may do anything, the descriptor included.
 */
export function reports(stmt: Node, descriptor: string, ctx: CContext): boolean {
  if (stmt.type !== 'expression_statement' || stmt.hasError || STANDARD.test(descriptor)) return false;
  const found = calls(stmt);
  const names = descriptor.match(/[A-Za-z_]\w*/g) ?? [];
  const read = identifiers(stmt);
  if (found.length === 0 || names.some((n) => read.has(n))) return false;
  return found.every((c) => {
    const name = calleeName(c);
    return (
      name !== undefined &&
      !ctx.functions.has(name) &&
      !ctx.wrappers.has(name) &&
      (LIBRARY_REPORTS.has(name) || ctx.quiet(name) || reporter(name))
    );
  });
}

/**
 * The lvalues `check` updates when it is the failure path of the write whose result is in `result`
 * and goes on after: `if (n < 0) nerr++;`, `if (n != len) { st->failed = 1; st->err = errno; }` (no
 * `else`; the test only reads and holds only when `n` says the write failed or fell short; every
 * statement of the body updates a variable or a member, calling nothing, or only reports the failure
 * elsewhere: see {@link reports}). Undefined for any other
 * statement, and when the body updates the result itself or what the write's descriptor reads.
 */
export function keptFailure(
  check: Node,
  result: string,
  descriptor: string,
  ctx: CContext,
): string[] | undefined {
  if (check.type !== 'if_statement' || check.hasError || check.childForFieldName('alternative'))
    return undefined;
  const test = check.childForFieldName('condition');
  const body = check.childForFieldName('consequence');
  if (!test || !body || !readsOnly(test, ctx.pure) || !failureTest(test, result)) return undefined;
  const stmts = body.type === 'compound_statement' ? namedKids(body) : [body];
  if (stmts.length === 0) return undefined;
  const changed: string[] = [];
  for (const stmt of stmts) {
    if (reports(stmt, descriptor, ctx)) continue;
    const path = updated(stmt, ctx);
    // The result, or the descriptor (`c->fd = -1` on failure): the run after it is another matter.
    if (!path || /^\w+/.exec(path)?.[0] === result || within(descriptor, path)) return undefined;
    changed.push(path);
  }
  return changed;
}
