// Builds the C quick fix for a run: the buffers go into a `struct iovec` array and one gathered call
// (`writev_in_full`, `writev_or_die`...) replaces the writes, inside the original statement's error
// handling. Statements that stood between the writes move after it (they change nothing the writes
// send, but may free what the earlier writes send, as `strbuf_release()` does).
import type { Fix, Piece, TextEdit, WriteStep } from '../model';
import { indentAt } from '../positions';
import { LENGTH_MARK } from '../c/writes';
import { runWrites } from '../shapes/findings';
import type { WriteRun } from '../shapes/sequences';
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

/** Checks that every write can join one gathered call with the same error handling. */
function joinable(writes: readonly WriteStep[]): boolean {
  const lead = writes[0];
  return writes.every(
    (w) =>
      w.template !== undefined &&
      w.pieces !== undefined &&
      w.family !== '' &&
      w.family === lead.family &&
      !w.stream &&
      sameTemplate(w.template, lead.template as NonNullable<WriteStep['template']>),
  );
}

/** The C fix for a run (shapes 1 to 4), or undefined when no rewrite would keep the code's meaning. */
export function cFix(run: WriteRun, text: string): Fix | undefined {
  const writes = runWrites(run);
  const lead = writes[0];
  if (!joinable(writes) || !lead.template) return undefined;
  // On the error path the moved statements would be skipped: only acceptable if the handler dies.
  if (
    run.moved.some((m) => m.calls.length > 0) &&
    /\b(return|goto|break|continue)\b/.test(lead.template.after)
  ) {
    return undefined;
  }
  const indent = indentAt(text, run.span.start);
  const unit = indentUnit(indent);
  const inner = indent + unit;
  const taken = writes.some((w) => w.reads.includes('iov')) || run.moved.some((m) => m.reads.includes('iov'));
  const iov = taken ? 'gathered_iov' : 'iov';
  const count =
    run.writes.reduce((sum, w) => sum + (w.pieces?.length ?? 0), 0) +
    (run.head?.writes[0].pieces?.length ?? 0);
  const t = rebase(lead.template, inner);
  let after = t.after;
  if (after.includes(LENGTH_MARK)) {
    // The total differs per branch in shape 3: no single expression to compare with.
    if (run.head) return undefined;
    const lens = writes.flatMap((w) =>
      (w.pieces as Piece[]).map((p) => (SIMPLE_LEN.test(p.len ?? '') ? p.len : `(${p.len})`)),
    );
    after = after.replace(LENGTH_MARK, `(${lens.join(' + ')})`);
  }
  const call = `${t.before}${lead.family}(${lead.fdText}, ${iov}, ${count})${after}`;
  const moved = run.moved.map((m) => `\n${indent}${text.slice(m.span.start, m.span.end)}`).join('');
  let body: string;
  if (!run.head) {
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
    const armPieces = run.head.writes[0].pieces?.length ?? 0;
    if (run.head.writes.some((w) => w.pieces?.length !== armPieces)) return undefined;
    const assign = (p: Piece, i: number, at: string) =>
      `${iov}[${i}].iov_base = ${base(p.buf)};\n${at}${iov}[${i}].iov_len = ${p.len};`;
    // Each arm now fills the first slots instead of writing; the writes after the branch fill the rest.
    const branch = run.head.branch.span;
    let region = text.slice(branch.start, branch.end);
    for (const w of [...run.head.writes].reverse()) {
      const at = indentAt(text, w.span.start);
      const fill = (w.pieces as Piece[]).map((p, i) => assign(p, i, at)).join(`\n${at}`);
      region = region.slice(0, w.span.start - branch.start) + fill + region.slice(w.span.end - branch.start);
    }
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
  return { title: `Gather ${run.syscalls} writes into one ${lead.family}()`, edits };
}
