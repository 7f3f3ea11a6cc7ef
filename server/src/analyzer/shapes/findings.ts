// Turns runs into findings: the code, severity, message, range and related locations a user sees.
import type { AnalyzerSettings } from '../settings';
import type { Finding, Fix, Span, WriteStep } from '../model';
import type { LoopRun } from './loops';
import type { WriteRun } from './sequences';

/**
 * A descriptor's text as its finding shows it: what follows an `@` qualifies the name by where it
 * lives (a C helper's write to its own file's static, as another file calls it: `fd@src/log.c`), so
 * that runs tell it from the caller's own `fd`; the finding says the name as the code spells it.
 */
function shown(target: string): string {
  const at = target.indexOf('@');
  return at < 0 ? target : target.slice(0, at);
}

function label(write: WriteStep, k: number, n: number): string {
  const via = write.wrapper ? ` through wrapper ${write.wrapper.name}()` : '';
  return `write ${k} of ${n}: ${write.callee}()${via}`;
}

/** The gathered call's name as the message shows it. */
function gathered(family: string): string {
  return family === '' ? 'gathered write' : `${family}()`;
}

/** One related location per write call (a chain's calls each get one). */
function related(writes: readonly WriteStep[]): { span: Span; message: string }[] {
  const spans = writes.flatMap((w) => (w.calls ?? [w.span]).map((span) => ({ span, write: w })));
  return spans.map(({ span, write }, k) => ({ span, message: label(write, k + 1, spans.length) }));
}

/** The writes of a run in source order (arm writes first). */
export function runWrites(run: WriteRun): WriteStep[] {
  return [...(run.head?.writes ?? []), ...run.writes];
}

/** What the fix builder found: the gathered family it chose, or why there is no fix. */
export interface FixNote {
  readonly family?: string;
  readonly reason?: string;
}

/**
 * The finding for a run of writes, with `fix` when the language could build one, and
 * the reason in the message when it could not.
 */
export function sequenceFinding(
  run: WriteRun,
  settings: AnalyzerSettings,
  fix: Fix | undefined,
  note: FixNote = {},
): Finding {
  const writes = runWrites(run);
  const lead = writes[0]!; // a run holds at least two writes
  const n = run.syscalls;
  const count = writes.some((w) => w.condition) ? `up to ${n}` : `${n}`;
  if (writes.some((w) => w.assumed)) return assumedFinding(run, writes, settings, count);
  // What the run takes for granted is said whatever else keeps the fix out.
  const assumes = [...new Set(writes.flatMap((w) => w.assumes ?? []))].map((a) => `; ${a}`).join('');
  const message = lead.stream
    ? `${n} write() calls in a row on ${shown(run.target)}: cork() it before them and uncork() after, and Node sends them with one writev` +
      (!fix && note.reason ? ` (no automatic fix: ${note.reason})` : '')
    : `${count} syscalls to ${shown(run.target)} can become one: gather these writes into one ${gathered(note.family ?? lead.family)}` +
      (run.head ? ' after the if/else' : '') +
      (!fix && note.reason ? ` (no automatic fix: ${note.reason}${assumes})` : '');
  return {
    code: 'adjacent-writes',
    severity: lead.stream ? 'information' : settings.severity.adjacentWrites,
    message,
    span: run.span,
    related: related(writes),
    syscalls: n,
    target: shown(run.target),
    fix,
  };
}

/**
 * The finding for a run on a descriptor whose kind the code does not show: right only for a byte
 * stream, so it says so, has its own code (a user can lower or silence it apart), and has no fix.
 */
function assumedFinding(
  run: WriteRun,
  writes: readonly WriteStep[],
  settings: AnalyzerSettings,
  count: string,
): Finding {
  // What else keeps a fix out (a helper read from its calls alone) is said too.
  const reasons = [
    ...new Set(writes.flatMap((w) => [...(w.noFix ? [w.noFix] : []), ...(w.assumes ? [w.assumes] : [])])),
  ];
  return {
    code: 'adjacent-writes-unknown-fd',
    severity: settings.severity.adjacentWritesUnknownFd,
    message:
      `if ${shown(run.target)} is a byte stream (a file, pipe or stream socket), ${count} syscalls to it can become one: ` +
      `gather these writes into one ${gathered(writes[0]!.family)} (no automatic fix: the code does not show what ${shown(run.target)} is; ` +
      'on a datagram socket or a device each write is one message' +
      reasons.map((r) => `; ${r}`).join('') +
      ')',
    span: run.span,
    related: related(writes),
    syscalls: run.syscalls,
    target: shown(run.target),
  };
}

/** The finding for a loop that writes per iteration. */
export function loopFinding(run: LoopRun, settings: AnalyzerSettings): Finding {
  const callees = [...new Set(run.writes.map((w) => `${w.callee}()`))].join(', ');
  // A call to a framing wrapper makes several syscalls itself.
  const n = run.writes.reduce((sum, w) => sum + (w.syscalls ?? 1), 0);
  const family = run.writes[0]!.family;
  // A stream gathers by corking around the loop, not by one call after it.
  const advice =
    family === 'cork'
      ? `cork() the stream before the loop and uncork() it after, so its writes go out as one writev`
      : `collect the buffers and send them with one ${gathered(family)} after the loop`;
  return {
    code: 'loop-writes',
    severity: settings.severity.loopWrites,
    message:
      `${n === 1 ? 'one syscall' : `${n} syscalls`} per iteration to ` +
      `${shown(run.target)} (${callees}): ${advice}`,
    span: run.loop.span,
    related: run.writes.map((write, k) => ({
      span: write.span,
      message: label(write, k + 1, run.writes.length),
    })),
    syscalls: n,
    target: shown(run.target),
  };
}
