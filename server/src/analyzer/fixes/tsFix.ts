// Builds the TS/JS quick fix for a run: one gathered call (`writevInFull(fd, [a, b])`, adding its import
// from @writev/runtime when missing; `handle.writev([...])`; `fs.writevSync(fd, [...], pos)`), or, for
// stream writes, `cork()` before and `uncork()` after so Node sends the chunks with one writev (tsCork.ts).
import * as ts from 'typescript';
import { RUNTIME_MODULE } from '../catalogue';
import type { Fix, Piece, TextEdit, WriteStep } from '../model';
import { indentAt } from '../positions';
import { inArm } from '../shapes/branches';
import { runWrites } from '../shapes/findings';
import type { WriteRun } from '../shapes/sequences';
import { keepComments } from './comments';
import { fillArms, oneCall } from './gather';
import { gatheredSafety } from './safety';
import { tsComments } from './tsComments';
import { fillInPlace } from './tsArms';
import { corkRun, type CorkBindings } from './tsCork';
import { indentLines, indentUnit, rebase } from './text';

/**
 * What the TS fix builder needs to know of the file's names, as the front end's bindings resolve them:
 * which local names are imported from which module, and where a new import of the runtime goes.
 */
export interface FixBindings extends CorkBindings {
  /** Local name to what it is bound to: a module namespace (`name` absent) or one of its exports. */
  readonly imports: ReadonlyMap<string, { readonly module: string; readonly name?: string }>;
  /** The named-import declaration from the runtime, if any (a fix adds names to it). */
  readonly runtimeImport?: ts.ImportDeclaration;
  /** Where a new import goes. */
  readonly importAt: number;
  /** The file uses `require` rather than `import` for its modules. */
  readonly commonJs: boolean;
}

/** What the TS fix builder needs to know about the file. */
export interface TsFixContext {
  readonly text: string;
  readonly bindings: FixBindings;
  /** Plain JavaScript: no type annotations in generated code. */
  readonly javascript: boolean;
}

function render(p: Piece): string {
  return p.isString ? `Buffer.from(${p.buf})` : p.buf;
}

/** The callee for a gathered runtime function, and the edit that imports it if needed. */
function runtimeCallee(name: string, ctx: TsFixContext): { callee: string; edit?: TextEdit } {
  for (const [local, b] of ctx.bindings.imports) {
    if (b.module === 'runtime' && b.name === name) return { callee: local };
  }
  for (const [local, b] of ctx.bindings.imports) {
    if (b.module === 'runtime' && !b.name) return { callee: `${local}.${name}` };
  }
  const existing = ctx.bindings.runtimeImport?.importClause?.namedBindings;
  if (existing && ts.isNamedImports(existing) && existing.elements.length > 0) {
    const at = existing.elements.end;
    return { callee: name, edit: { span: { start: at, end: at }, newText: `, ${name}` } };
  }
  const line = ctx.bindings.commonJs
    ? `const { ${name} } = require('${RUNTIME_MODULE}');`
    : `import { ${name} } from '${RUNTIME_MODULE}';`;
  const at = ctx.bindings.importAt;
  return {
    callee: name,
    edit: { span: { start: at, end: at }, newText: at === 0 ? `${line}\n` : `\n${line}` },
  };
}

/** A run's fix, or why it has none. */
export interface TsFixResult {
  readonly fix?: Fix;
  readonly reason?: string;
}

/**
 * The TS/JS fix for a run of writes, or why no rewrite would keep the code's meaning. Stream writes are
 * corked where they stand (see tsCork.ts), whatever the shape of the run around them. The comments
 * between the writes are kept above the new code, or the fix is withheld for a directive (comments.ts).
 */
export function tsFixFor(run: WriteRun, ctx: TsFixContext): TsFixResult {
  const writes = runWrites(run);
  let built: TsFixResult;
  if (writes.length > 0 && writes.every((w) => w.stream)) built = corkRun(run, ctx.text, ctx.bindings);
  else {
    const fix = tsFix(run, ctx);
    built = { fix, reason: fix ? undefined : writes.find((w) => w.noFix)?.noFix };
  }
  if (!built.fix) return built;
  // The comments between the writes go above the new code, or a directive among them withholds the fix.
  const kept = keepComments(built.fix, ctx.text, tsComments);
  return 'reason' in kept ? { reason: kept.reason } : kept;
}

/** The gathered-call fix for a run of writes to a descriptor or FileHandle, if one keeps its meaning. */
function tsFix(run: WriteRun, ctx: TsFixContext): Fix | undefined {
  const writes = runWrites(run);
  const lead = writes[0];
  // Writes in the arms of ifs are reported without a fix by the shapes; here they get one when the
  // vector can be filled where each write stands (tsArms.ts).
  if (!lead || !oneCall(writes) || !lead.template || writes.some((w) => w.noFix && !inArm(w)))
    return undefined;
  const armed = writes.some(inArm);
  const conditional = writes.some((w) => w.condition);
  if (conditional && (run.head || lead.position)) return undefined;
  // Some path must write: a vector empty on every path of a test would still be sent.
  if (armed && (run.moved.length > 0 || writes.every((w) => w.condition))) return undefined;
  let callee = lead.family;
  let importEdit: TextEdit | undefined;
  if (lead.family.endsWith('.writev')) callee = lead.family;
  else if (/writevSync$/.test(lead.family)) {
    if (!lead.family.includes('.') && !ctx.bindings.imports.has('writevSync')) return undefined;
  } else ({ callee, edit: importEdit } = runtimeCallee(lead.family, ctx));
  const indent = indentAt(ctx.text, run.span.start);
  const unit = indentUnit(indent);
  const handle = lead.family.endsWith('.writev');
  const call = (array: string, t: { before: string; after: string }) => {
    const position = lead.position ? `, ${lead.position.at}` : '';
    return `${t.before}${callee}(${handle ? '' : `${lead.fdText}, `}${array}${position})${t.after}`;
  };
  const pieces = (w: WriteStep) => (w.pieces as Piece[]).map(render).join(', ');
  const iovName = () =>
    /\biov\b/.test(ctx.text.slice(run.span.start, run.span.end)) ? 'gatheredBufs' : 'iov';
  const declare = (iov: string) => `const ${iov}${ctx.javascript ? '' : ': Uint8Array[]'} = [];`;
  const moved = run.moved.map((m) => `\n${indent}${ctx.text.slice(m.span.start, m.span.end)}`).join('');
  let body: string;
  if (armed) {
    const iov = iovName();
    const inner = indent + unit;
    const region = fillInPlace(run.span, ctx.text, writes, (w) => `${iov}.push(${pieces(w)});`);
    if (region === undefined) return undefined;
    body = [
      '{',
      `${inner}${declare(iov)}`,
      `${inner}${indentLines(region, unit)}`,
      `${inner}${call(iov, rebase(lead.template, inner))}`,
      `${indent}}`,
    ].join('\n');
  } else if (conditional) {
    // Each write fills the vector under its own test: the vector holds what would have gone out. The
    // block keeps the vector's name free for another run of the same function.
    const iov = iovName();
    const inner = indent + unit;
    const fills: string[] = [];
    writes.forEach((w, k) => {
      const prev = writes[k - 1];
      // Unconditional neighbours share one push.
      if (!w.condition && prev && !prev.condition)
        fills[fills.length - 1] = fills[fills.length - 1]!.replace(/\);$/, `, ${pieces(w)});`);
      else fills.push(`${w.condition ? `if ${w.condition} ` : ''}${iov}.push(${pieces(w)});`);
    });
    body = ['{', declare(iov), ...fills, call(iov, rebase(lead.template, inner))].join(`\n${inner}`);
    body += `\n${indent}}`;
  } else if (!run.head) {
    body = call(`[${writes.map(pieces).join(', ')}]`, rebase(lead.template, indent));
  } else {
    const inner = indent + unit;
    const iov = iovName();
    const region = fillArms(run.head, ctx.text, (w) => `${iov}.push(${pieces(w)});`);
    const rest = run.writes.flatMap((w) => (w.pieces as Piece[]).map(render));
    body = [
      '{',
      `${inner}${declare(iov)}`,
      `${inner}${indentLines(region, unit)}`,
      `${inner}${call(`[${[`...${iov}`, ...rest].join(', ')}]`, rebase(lead.template, inner))}`,
      `${indent}}`,
    ].join('\n');
  }
  const edits: TextEdit[] = [{ span: run.span, newText: body + moved }];
  if (importEdit) edits.unshift(importEdit);
  return {
    title: `Gather ${run.syscalls} writes into one ${callee}()`,
    edits,
    ...gatheredSafety(run, writes, lead.family),
  };
}
