// Turns runs into findings: the code, severity, message, range and related locations a user sees.
import type { AnalyzerSettings } from '../settings';
import type { Finding, Fix, WriteStep } from '../model';
import type { LoopRun } from './loops';
import type { WriteRun } from './sequences';

function label(write: WriteStep, k: number, n: number): string {
  const via = write.wrapper ? ` through wrapper ${write.wrapper.name}()` : '';
  return `write ${k} of ${n}: ${write.callee}()${via}`;
}

/** Why no fix is offered, when a write of the run knows (empty otherwise). */
function noFixReason(writes: readonly WriteStep[]): string {
  const reason = writes.find((w) => w.noFix)?.noFix;
  return reason ? ` (no automatic fix: ${reason})` : '';
}

/** The writes of a run in source order (arm writes first). */
export function runWrites(run: WriteRun): WriteStep[] {
  return [...(run.head?.writes ?? []), ...run.writes];
}

/** The finding for a run of writes (shapes 1 to 4), with `fix` when the language could build one. */
export function sequenceFinding(run: WriteRun, settings: AnalyzerSettings, fix: Fix | undefined): Finding {
  const writes = runWrites(run);
  const lead = writes[0];
  const n = run.syscalls;
  const message = lead.stream
    ? `${n} write() calls in a row on ${run.target}: cork() it before them and uncork() after, and Node sends them with one writev`
    : `${n} syscalls to ${run.target} can become one: gather these writes into one ${lead.family}()` +
      (run.head ? ' after the if/else' : '') +
      (fix ? '' : noFixReason(writes));
  return {
    code: 'adjacent-writes',
    severity: lead.stream ? 'information' : settings.severity.adjacentWrites,
    message,
    span: run.span,
    related: writes.map((write, k) => ({ span: write.span, message: label(write, k + 1, writes.length) })),
    syscalls: n,
    target: run.target,
    fix,
  };
}

/** The finding for a loop that writes per iteration (shape 5). */
export function loopFinding(run: LoopRun, settings: AnalyzerSettings): Finding {
  const callees = [...new Set(run.writes.map((w) => `${w.callee}()`))].join(', ');
  return {
    code: 'loop-writes',
    severity: settings.severity.loopWrites,
    message:
      `${run.writes.length === 1 ? 'one syscall' : `${run.writes.length} syscalls`} per iteration to ` +
      `${run.target} (${callees}): collect the buffers and send them with one ${run.writes[0].family}() after the loop`,
    span: run.loop.span,
    related: run.writes.map((write, k) => ({
      span: write.span,
      message: label(write, k + 1, run.writes.length),
    })),
    syscalls: run.writes.length,
    target: run.target,
  };
}
