// Builds the C quick fix for a run: the buffers go into a `struct iovec` array and one gathered call
// (`writev_in_full`, `writev_or_die`...) replaces the writes, inside the original statement's error
// handling. Statements that stood between the writes move after it (they change nothing the writes
// send, but may free what the earlier writes send, as `strbuf_release()` does).
import { basename } from 'node:path';
import { C_GATHERED_LEADING_ARGS } from '../catalogue';
import type { Fix, Piece, Template, TextEdit, WriteStep } from '../model';
import { indentAt } from '../positions';
import { isBare, LENGTH_MARK, strictest } from '../cTemplates';
import { runWrites } from '../shapes/findings';
import type { WriteRun } from '../shapes/sequences';
import { balancedBraces } from './blockBounds';
import { cComments, keepComments } from './comments';
import { fillArms, oneCall } from './gather';
import { gatheredSafety } from './safety';
import { indentLines, indentUnit, rebase, sameTemplate } from './text';

const SIMPLE_LEN = /^([\w.>\-[\]]+|sizeof\s*\(?[^()]*\)?|strlen\([^()]*\))$/;
const SIMPLE = /^(&?[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*|\[[^\]]*\])*|"([^"\\]|\\.)*")$/;

function base(buf: string): string {
  return SIMPLE.test(buf) ? `(void *)${buf}` : `(void *)(${buf})`;
}

/** The edit that adds `#include <sys/uio.h>` (for `struct iovec`) when nothing in the file provides it. */
export function includeEdit(text: string): TextEdit | undefined {
  if (/sys\/uio\.h|git-compat-util\.h|struct\s+iovec/.test(text)) return undefined;
  const includes = [...text.matchAll(/^#\s*include\b.*$/gm)];
  const last = includes[includes.length - 1];
  if (!last) return { span: { start: 0, end: 0 }, newText: '#include <sys/uio.h>\n' };
  // After the last include's line break, whichever it is (CRLF is two characters).
  const end = (last.index ?? 0) + last[0].length;
  const at = text.startsWith('\r\n', end) ? end + 2 : end < text.length ? end + 1 : end;
  // An include on the last line without a line break gets one before the new line.
  const newText = at === text.length && end === at ? '\n#include <sys/uio.h>' : '#include <sys/uio.h>\n';
  return { span: { start: at, end: at }, newText };
}

/** How a run's writes become one call: the family and the statement around it, or why they cannot. */
type Plan = { readonly family: string; readonly template: Template } | { readonly reason: string };

/**
 * The gathered call for `writes`: their common family and error handling, or, for mixed families,
 * the strictest family when every write ignores its result or all check it the same way. Dying and
 * reporting an error cannot both be kept, nor can an ignored result and a checked one.
 */
function plan(writes: readonly WriteStep[]): Plan {
  const lead = writes[0];
  if (!lead) return { reason: 'the run holds no write' };
  for (const w of writes) {
    if (w.noFix) return { reason: w.noFix };
    if (w.stream || w.family === '') return { reason: `${w.callee}() has no gathered counterpart` };
    if (!w.pieces) return { reason: `the buffers of ${w.callee}() cannot be listed one by one` };
    if (!w.template) {
      const file = w.wrapper?.file;
      return {
        reason: file
          ? `${w.callee}() is defined in ${basename(file)}, and its descriptor may not be visible here`
          : `${w.callee}() has no gathered counterpart`,
      };
    }
  }
  if (oneCall(writes)) return { family: lead.family, template: lead.template as Template };
  const returned = returnedOutcome(writes);
  if (returned) return returned;
  const checked = writes.filter((w) => !isBare(w.template as Template));
  const bare = writes.filter((w) => isBare(w.template as Template));
  const family = strictest(writes.map((w) => w.family));
  if (checked.some((w) => !sameTemplate(w.template as Template, checked[0]!.template as Template)))
    return { reason: 'the writes handle their errors differently' };
  if (!family) return { reason: 'the writes belong to write families with no common gathered call' };
  const dies = writes.find((w) => w.family === 'writev_or_die');
  if (checked.length > 0 && dies) {
    return {
      reason: `${dies.callee}() dies on failure where ${checked[0]!.callee}() lets the caller handle it`,
    };
  }
  if (checked.length > 0 && bare.length > 0) {
    return { reason: `${bare[0]!.callee}() ignores its result where ${checked[0]!.callee}() checks it` };
  }
  return { family, template: (checked[0] ?? lead).template as Template };
}

/**
 * Writes whose failures each return one constant, the last returning its own outcome, that constant
 * where it fails (`if (write(fd, a, n) != n) return 0; return write(fd, b, m) == m;`): the gathered
 * call takes the last one's statement, and returns that constant wherever any of the writes failed, as
 * the function did, and the last one's success value where all went out.
 */
function returnedOutcome(writes: readonly WriteStep[]): Plan | undefined {
  const last = writes[writes.length - 1];
  if (writes.length < 2 || !last?.leaves || last.failureReturn === undefined) return undefined;
  if (writes.some((w) => w.failureReturn !== last.failureReturn || w.condition !== undefined))
    return undefined;
  const family = strictest(writes.map((w) => w.family));
  return family ? { family, template: last.template as Template } : undefined;
}

/** The fix for a run, or why there is none (always one of the two). */
export type CFixResult = { readonly fix: Fix; readonly family: string } | { readonly reason: string };

/**
 * The C fix for a run of writes (and the idioms around them), or why no rewrite keeps its meaning. The
 * comments between the writes are kept above the gathered call, or the fix is withheld for a directive
 * (see keepComments).
 */
export function cFix(run: WriteRun, text: string): CFixResult {
  const built = gathered(run, text);
  if ('reason' in built) return built;
  const kept = keepComments(built.fix, text, cComments);
  return 'reason' in kept ? kept : { fix: kept.fix, family: built.family };
}

/** The gathered call for a run, before its comments are looked at. */
function gathered(run: WriteRun, text: string): CFixResult {
  const writes = runWrites(run);
  const planned = plan(writes);
  if ('reason' in planned) return planned;
  // Writes in different `{ }` blocks: the one statement replacing them would unbalance the braces.
  if (!balancedBraces(text.slice(run.span.start, run.span.end)))
    return { reason: 'the writes stand in different { } blocks, and no one statement can take their place' };
  // On the error path the moved statements would be skipped: only acceptable if the handler dies.
  if (
    run.moved.some((m) => m.calls.length > 0) &&
    /\b(return|goto|break|continue)\b/.test(planned.template.after)
  ) {
    return { reason: 'a statement between the writes would be skipped when the gathered write fails' };
  }
  const conditional = writes.some((w) => w.condition);
  if (conditional && run.head) return { reason: 'a conditional write follows an if/else chain' };
  if (conditional && (planned.template.before + planned.template.after).includes(LENGTH_MARK))
    return { reason: 'the byte count the check compares with depends on the condition' };
  const family = planned.family;
  const indent = indentAt(text, run.span.start);
  const unit = indentUnit(indent);
  const inner = indent + unit;
  const uses = (name: string) =>
    writes.some((w) => w.reads.includes(name)) || run.moved.some((m) => m.reads.includes(name));
  const iov = uses('iov') ? 'gathered_iov' : 'iov';
  const iovcnt = uses('iovcnt') ? 'gathered_iovcnt' : 'iovcnt';
  const count =
    run.writes.reduce((sum, w) => sum + (w.pieces?.length ?? 0), 0) +
    (run.head?.writes[0]?.pieces?.length ?? 0);
  const t = rebase(planned.template, inner);
  let { before, after } = t;
  if (before.includes(LENGTH_MARK) || after.includes(LENGTH_MARK)) {
    // The total differs per branch when the run starts with branch tails: no single expression to compare with.
    if (run.head) return { reason: 'the byte count the check compares with differs per branch' };
    const lens = writes.flatMap((w) =>
      (w.pieces as Piece[]).map((p) => (SIMPLE_LEN.test(p.len ?? '') ? p.len : `(${p.len})`)),
    );
    before = before.replace(LENGTH_MARK, `(${lens.join(' + ')})`);
    after = after.replace(LENGTH_MARK, `(${lens.join(' + ')})`);
  }
  const leading = C_GATHERED_LEADING_ARGS[family];
  const args = `${leading ? `${leading}, ` : ''}${writes[0]!.fdText}, ${iov}, ${conditional ? iovcnt : count}`;
  const call = `${before}${family}(${args})${after}`;
  const moved = run.moved.map((m) => `\n${indent}${text.slice(m.span.start, m.span.end)}`).join('');
  let body: string;
  if (conditional) {
    // Each write fills the next slot, under its own condition: the vector holds what would have gone out.
    const slot = (p: Piece) =>
      `${iov}[${iovcnt}++] = (struct iovec){ .iov_base = ${base(p.buf)}, .iov_len = ${p.len} };`;
    const fills = writes.flatMap((w) => {
      const pieces = w.pieces as Piece[];
      if (!w.condition) return pieces.map((p) => `${inner}${slot(p)}`);
      if (pieces.length === 1) return [`${inner}if ${w.condition}`, `${inner}${unit}${slot(pieces[0]!)}`];
      return [`${inner}if ${w.condition} {`, ...pieces.map((p) => `${inner}${unit}${slot(p)}`), `${inner}}`];
    });
    body = [
      '{',
      `${inner}struct iovec ${iov}[${count}];`,
      `${inner}int ${iovcnt} = 0;`,
      '',
      ...fills,
      `${inner}${call}`,
      `${indent}}`,
    ].join('\n');
  } else if (!run.head) {
    const pieces = writes.flatMap((w) => w.pieces as Piece[]);
    body = [
      '{',
      `${inner}struct iovec ${iov}[] = {`,
      ...pieces.map((p) => `${inner}${unit}{ .iov_base = ${base(p.buf)}, .iov_len = ${p.len} },`),
      `${inner}};`,
      `${inner}${call}`,
      `${indent}}`,
    ].join('\n');
  } else {
    const armPieces = run.head.writes[0]?.pieces?.length ?? 0;
    if (run.head.writes.some((w) => w.pieces?.length !== armPieces))
      return { reason: 'the branches write different numbers of buffers' };
    const assign = (p: Piece, i: number, at: string) =>
      `${iov}[${i}].iov_base = ${base(p.buf)};\n${at}${iov}[${i}].iov_len = ${p.len};`;
    // Each arm now fills the first slots instead of writing; the writes after the branch fill the rest.
    const region = fillArms(run.head, text, (w) => {
      const at = indentAt(text, w.span.start);
      return (w.pieces as Piece[]).map((p, i) => assign(p, i, at)).join(`\n${at}`);
    });
    const rest = run.writes
      .flatMap((w) => w.pieces as Piece[])
      .map((p, i) => `${inner}${assign(p, armPieces + i, inner)}`);
    body = [
      '{',
      `${inner}struct iovec ${iov}[${count}];`,
      `${inner}${indentLines(region, unit)}`,
      ...rest,
      `${inner}${call}`,
      `${indent}}`,
    ].join('\n');
  }
  // The include the array needs is added by the caller, once per file (see includeEdit).
  const edits: TextEdit[] = [{ span: run.span, newText: body + moved }];
  const title = `Gather ${run.syscalls} writes into one ${family}()`;
  return { fix: { title, edits, ...gatheredSafety(run, writes, family) }, family };
}
