// The fix for a run of writes to a Node stream: `cork()` before the run and `uncork()` after it, so the
// stream hands the queued chunks to its `_writev` at once (one writev syscall for a socket, a file
// stream or a pipe).
//
// Why cork rather than collecting the chunks and writing once: every write stays where it stands,
// under its own test or in its own arm of an if/else, so the chunks, their order, the stream's default
// encoding, object mode and each write's callback are those of the original on every path. Collecting
// into one chunk would encode strings ourselves, merge the objects of an object-mode stream, and call
// one callback instead of several.
//
// What cork changes, and how the fix keeps it: while corked the chunks wait in the stream's buffer.
// If the run is left before `uncork()` (a `return` or `break` between the writes, or an exception from
// a statement or a write of an invalid chunk), they would wait until the stream ends, or be lost if
// the process dies: so unless nothing in the run can leave it, `uncork()` goes in a `finally`. A write
// whose result is used (`ok = out.write(x)`, backpressure) would see the earlier chunks still queued:
// such runs get no fix. Errors are the stream's events in both cases (`'error'` once; a failed
// `_writev` fails each write's callback with the one error).
import type { Fix, Span, WriteStep } from '../model';
import { indentAt } from '../positions';
import { runWrites } from '../shapes/findings';
import type { WriteRun } from '../shapes/sequences';
import { gatheredSafety, SAFE } from './safety';
import { indentUnit } from './text';

/** The cork fix for a run, or why there is none (always one of the two). */
export type CorkResult = { readonly fix: Fix } | { readonly reason: string };

/** A statement that is only the write: its result is not used. */
function bare(w: WriteStep): boolean {
  const t = w.template;
  return !!t && /^(void\s+)?$/.test(t.before.trim()) && /^;?$/.test(t.after.trim());
}

/**
 * What a cork fix needs to know of the file's names: the variables declared (or initialised) as a
 * string or as bytes. The front end's bindings provide it.
 */
export interface CorkBindings {
  readonly types: ReadonlyMap<string, 'string' | 'bytes'>;
}

/** A chunk whose write cannot throw: a plain string literal, or a name declared a string or bytes. */
function safeChunk(buf: string, bindings: CorkBindings): boolean {
  if (/^'([^'\\\n]|\\.)*'$|^"([^"\\\n]|\\.)*"$|^`[^`$\\]*`$/.test(buf)) return true;
  return /^[A-Za-z_$][\w$]*$/.test(buf) && bindings.types.has(buf);
}

/** A test that reads names only (`(neg)`, `(!a && b)`): it cannot throw. */
function safeCondition(condition: string | undefined): boolean {
  return condition === undefined || /^[\s()!&|A-Za-z_$\d]*$/.test(condition);
}

/** The text of `span` outside the `inner` spans (in order, inside it). */
function outside(text: string, span: Span, inner: readonly Span[]): string {
  let at = span.start;
  let rest = '';
  for (const s of inner) {
    rest += text.slice(at, s.start);
    at = s.end;
  }
  return rest + text.slice(at, span.end);
}

/** Names a declaration among the statements that stand between the writes could hide if used later. */
function hiddenDeclaration(run: WriteRun, text: string): string | undefined {
  const after = text.slice(run.span.end);
  for (const m of run.moved) {
    if (!/^(const|let|class|function|using)\b/.test(text.slice(m.span.start, m.span.end))) continue;
    const used = m.writes.find(
      (n) => /^[\w$]+$/.test(n) && new RegExp(`(^|[^\\w$.])${n.replace(/\$/g, '\\$')}\\b`).test(after),
    );
    if (used) return used;
  }
  return undefined;
}

/**
 * One indentation step of the file: a tab where `indent` has one, else the smallest indentation of
 * any line (a method's body in a 2-space file sits 4 spaces in, but a step is still 2).
 */
function stepOf(text: string, indent: string): string {
  if (indent.includes('\t')) return '\t';
  let least = Infinity;
  for (const m of text.matchAll(/^( +)[^\s*]/gm)) least = Math.min(least, m[1]!.length);
  return least === Infinity || least > 8 ? indentUnit(indent) : ' '.repeat(least);
}

/** Prefixes every non-empty line after the first with `extra`. */
function indentBody(body: string, extra: string): string {
  return body.replace(/(\r\n|\r|\n)(?=[^\r\n])/g, `$1${extra}`);
}

/** Cork `run`'s stream before it and uncork it after, in a `finally` unless nothing can leave the run. */
export function corkRun(run: WriteRun, text: string, bindings: CorkBindings): CorkResult {
  const writes = runWrites(run);
  const lead = writes[0];
  if (!lead || run.head) return { reason: 'the run starts inside an if/else' };
  if (writes.some((w) => !w.template)) return { reason: `${lead.callee}() may write to another stream` };
  if (!writes.every(bare))
    return {
      reason: 'a write\u2019s result is used; corked, the stream would count the earlier chunks as queued',
    };
  const stream = lead.fdText;
  const body = text.slice(run.span.start, run.span.end);
  const indent = indentAt(text, run.span.start);
  // Nothing but the writes (comments aside), each of a chunk that cannot throw under a test that
  // cannot either: the run always reaches its end.
  const between = outside(
    text,
    run.span,
    writes.map((w) => w.span),
  ).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const plain =
    between.trim() === '' &&
    writes.every(
      (w) => safeCondition(w.condition) && (w.pieces ?? []).every((p) => safeChunk(p.buf, bindings)),
    );
  if (plain) {
    return {
      fix: {
        title: `Cork ${stream} around ${run.syscalls} writes (one writev)`,
        // Nothing stands between the writes: the chunks leave in one writev at the end of the run.
        ...SAFE,
        edits: [
          { span: { start: run.span.start, end: run.span.start }, newText: `${stream}.cork();\n${indent}` },
          { span: { start: run.span.end, end: run.span.end }, newText: `\n${indent}${stream}.uncork();` },
        ],
      },
    };
  }
  const hidden = hiddenDeclaration(run, text);
  if (hidden) {
    return {
      reason: `uncork() must go in a finally, and the try block would hide \`${hidden}\`, declared between the writes and used after them`,
    };
  }
  const unit = stepOf(text, indent);
  // Lines of a template literal that spans lines are bytes, not indentation: leave them as they are.
  const multiLineTemplate = /`[^`]*(\r\n|\r|\n)[^`]*`/.test(body);
  const newText = [
    `${stream}.cork();`,
    `${indent}try {`,
    `${indent}${unit}${multiLineTemplate ? body : indentBody(body, unit)}`,
    `${indent}} finally {`,
    `${indent}${unit}${stream}.uncork();`,
    `${indent}}`,
  ].join('\n');
  return {
    fix: {
      title: `Cork ${stream} around ${run.syscalls} writes (one writev), uncorking in a finally`,
      ...gatheredSafety(run, writes, lead.family, true),
      edits: [{ span: run.span, newText }],
    },
  };
}
