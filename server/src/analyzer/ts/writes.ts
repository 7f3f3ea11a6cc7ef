// Recognises TS/JS statements that are one write: a catalogue function resolved through its import
// (`fs.writeSync`, the runtime's `writeInFull`...), `await handle.write(buf)` on a FileHandle,
// `stream.write(chunk)` on a Writable, or a call to a wrapper of one of these.
import * as ts from 'typescript';
import { TS_PURE_FUNCTIONS, TS_PURE_METHODS, type TsWriteFunction } from '../catalogue';
import type { Piece, Template, WriteStep } from '../model';
import { indentAt } from '../positions';
import type { TsWrapper } from '../wrapper';
import { qualify, type Bindings } from './bindings';
import { memberNames, memberStream } from './members';
import { callsIn, canonicalTarget, identifiers, isStringy, rootName } from './syntax';

export type { TsWrapper } from '../wrapper';

/** What the TS/JS front end knows while reading one file. */
export interface TsContext {
  readonly file: ts.SourceFile;
  readonly text: string;
  readonly bindings: Bindings;
  readonly functions: ReadonlyMap<string, TsWriteFunction>;
  readonly wrappers: ReadonlyMap<string, TsWrapper>;
}

/** True when a call is to a function that only computes. */
export function isPureCall(call: ts.CallExpression | ts.NewExpression, bindings: Bindings): boolean {
  if (!ts.isCallExpression(call)) return false;
  if (TS_PURE_FUNCTIONS.has(qualify(call.expression, bindings))) return true;
  return ts.isPropertyAccessExpression(call.expression) && TS_PURE_METHODS.has(call.expression.name.text);
}

function names(nodes: readonly (ts.Node | undefined)[]): string[] {
  const into = new Set<string>();
  for (const node of nodes) if (node) identifiers(node, into);
  return [...into];
}

function text(node: ts.Node, ctx: TsContext): string {
  return ctx.text.slice(node.getStart(ctx.file), node.end);
}

/**
 * A piece for the buffer `arg`. `bytes`: the callee takes only bytes (the runtime's functions), so no
 * conversion is ever needed; otherwise anything not known to be bytes is encoded with `Buffer.from`.
 */
function pieceOf(arg: ts.Expression, bytes: boolean, ctx: TsContext): Piece {
  return { buf: text(arg, ctx), isString: !bytes && !isBytes(arg, ctx) };
}

function isBytes(arg: ts.Expression, ctx: TsContext): boolean {
  if (isStringy(arg)) return false;
  if (ts.isIdentifier(arg)) return ctx.bindings.types.get(arg.text) === 'bytes';
  if (ts.isCallExpression(arg) || ts.isNewExpression(arg)) {
    const callee = qualify(arg.expression, ctx.bindings);
    return /^Buffer\.(from|alloc|allocUnsafe|concat)$|^Uint8Array$|\.subarray$/.test(callee);
  }
  return false;
}

function piecesOf(
  arg: ts.Expression,
  gathered: boolean,
  ctx: TsContext,
  bytes: boolean,
): Piece[] | undefined {
  if (!gathered) return [pieceOf(arg, bytes, ctx)];
  if (!ts.isArrayLiteralExpression(arg) || arg.elements.some((e) => ts.isSpreadElement(e))) return undefined;
  return arg.elements.map((e) => pieceOf(e, bytes, ctx));
}

/** The statement's call (under `void` and `await`) and whether it is awaited. */
export function statementCall(stmt: ts.Node): { call: ts.CallExpression; awaited: boolean } | undefined {
  let expr: ts.Expression;
  if (ts.isExpressionStatement(stmt)) expr = stmt.expression;
  else if (ts.isReturnStatement(stmt) && stmt.expression) expr = stmt.expression;
  else if (ts.isCallExpression(stmt) || ts.isAwaitExpression(stmt)) expr = stmt;
  else return undefined;
  if (ts.isVoidExpression(expr)) expr = expr.expression;
  const awaited = ts.isAwaitExpression(expr);
  if (ts.isAwaitExpression(expr)) expr = expr.expression;
  return ts.isCallExpression(expr) ? { call: expr, awaited } : undefined;
}

/** The write step for `stmt`, or undefined when it is not a write the analyzer understands fully. */
export function writeStep(stmt: ts.Node, ctx: TsContext): WriteStep | undefined {
  const found = statementCall(stmt);
  if (!found) return undefined;
  const { call, awaited } = found;
  const args = call.arguments;
  // A call with effects inside the arguments would move when the writes are gathered: unsure.
  if (args.some((a) => ts.isSpreadElement(a) || callsIn(a).some((c) => !isPureCall(c, ctx.bindings))))
    return undefined;
  const start = stmt.getStart(ctx.file);
  const template: Template = {
    before: ctx.text.slice(start, call.getStart(ctx.file)),
    after: ctx.text.slice(call.end, stmt.end),
    indent: indentAt(ctx.text, start),
  };
  const base = { kind: 'write' as const, span: { start, end: stmt.end }, template };
  const qualified = qualify(call.expression, ctx.bindings);
  const fn = ctx.functions.get(qualified);
  const fdArg = fn ? args[fn.fd] : undefined;
  if (fdArg && /\+\+|--|[^=!<>]=[^=]/.test(text(fdArg, ctx))) return undefined;
  const target = (fd: ts.Expression) => ({
    target: canonicalTarget(text(fd, ctx)),
    fdText: text(fd, ctx),
    targetNames: memberNames(fd, names([fd]), ctx),
  });
  if (fn) {
    const bufArg = args[fn.buf];
    if (!!fn.async !== awaited || !fdArg || !bufArg) return undefined;
    const callee = call.expression.getText(ctx.file);
    if (qualified === 'fs.writeSync') return fsWriteSync(args, base, callee, ctx, target(fdArg));
    if (args.length !== 2) return undefined;
    return {
      ...base,
      ...target(fdArg),
      callee,
      family: fn.gatheredName ?? '',
      pieces: piecesOf(bufArg, !!fn.gathered, ctx, qualified.startsWith('runtime.')),
      reads: names([bufArg]),
    };
  }
  if (
    ts.isPropertyAccessExpression(call.expression) &&
    call.expression.name.text === 'write' &&
    args.length === 1
  ) {
    const receiver = call.expression.expression;
    const recvText = text(receiver, ctx);
    const root = rootName(receiver);
    const std = recvText === 'process.stdout' || recvText === 'process.stderr';
    // A stream held in a member (`this.out`, `ctx.out`, `res.socket`), as far as the file shows.
    const held = !std && !ts.isIdentifier(receiver) ? memberStream(receiver, ctx) : undefined;
    const kind =
      std || held ? 'stream' : ts.isIdentifier(receiver) && root ? ctx.bindings.kinds.get(root) : undefined;
    if (!kind || (kind === 'handle') !== awaited) return undefined;
    if (call.expression.questionDotToken) return undefined;
    return {
      ...base,
      ...target(receiver),
      ...(held ? { targetNames: held.targetNames } : {}),
      callee: `${recvText}.write`,
      family: kind === 'handle' ? `${recvText}.writev` : 'cork',
      pieces: piecesOf(args[0]!, false, ctx, kind === 'stream'), // args.length === 1, checked above
      reads: names([args[0]!]),
      stream: kind === 'stream' ? true : undefined,
    };
  }
  const wrapper = ts.isIdentifier(call.expression) ? ctx.wrappers.get(call.expression.text) : undefined;
  const wrapperBuf = wrapper && args[wrapper.buf];
  if (!wrapper || !wrapperBuf || wrapper.async !== awaited || args.length < wrapper.arity) return undefined;
  const fd = 'param' in wrapper.fd ? args[wrapper.fd.param] : undefined;
  const fixed = 'text' in wrapper.fd ? wrapper.fd : { text: '', names: [] };
  return {
    ...base,
    ...(fd
      ? target(fd)
      : { target: canonicalTarget(fixed.text), fdText: fixed.text, targetNames: fixed.names }),
    callee: wrapper.name,
    family: wrapper.family,
    pieces: piecesOf(wrapperBuf, false, ctx, wrapper.bytes === true),
    reads: names([wrapperBuf]),
    // A wrapper from another file may write to a descriptor this file cannot name (unless a number).
    template: wrapper.file && !(!fd && /^\d+$/.test(fixed.text)) ? undefined : template,
    wrapper: { name: wrapper.name, file: wrapper.file },
    stream: wrapper.stream,
  };
}

type Base = Pick<WriteStep, 'kind' | 'span' | 'template'>;
type Target = Pick<WriteStep, 'target' | 'fdText' | 'targetNames'>;

/** `fs.writeSync(fd, buf)`, `(fd, buf, offset, length)` or, positional, `(fd, buf, offset, length, pos)`. */
function fsWriteSync(
  args: ts.NodeArray<ts.Expression>,
  base: Base,
  callee: string,
  ctx: TsContext,
  fd: Target,
): WriteStep | undefined {
  const [, buf, offArg, lenArg, atArg] = args;
  if (!buf) return undefined; // the catalogue's buffer slot is 1: the caller checked it is there
  const common = { ...base, ...fd, callee, reads: names(args.slice(1)) };
  if (args.length === 2) return { ...common, family: 'writevInFull', pieces: [pieceOf(buf, false, ctx)] };
  if (!offArg || !lenArg || (args.length !== 4 && args.length !== 5)) return undefined;
  if (isStringy(buf)) return undefined;
  const [off, len] = [text(offArg, ctx), text(lenArg, ctx)];
  const bufText = text(buf, ctx);
  const whole = off === '0' && (len === `${bufText}.length` || len === `${bufText}.byteLength`);
  const piece = whole ? bufText : `${bufText}.subarray(${off}, ${off === '0' ? '' : `${off} + `}${len})`;
  if (args.length === 4 || !atArg) return { ...common, family: 'writevInFull', pieces: [{ buf: piece }] };
  const at = text(atArg, ctx).replace(/\s+/g, '');
  if (at === 'null' || at === 'undefined')
    return { ...common, family: 'writevInFull', pieces: [{ buf: piece }] };
  const lens = [len, `${bufText}.length`, `${bufText}.byteLength`].map((l) => l.replace(/\s+/g, ''));
  const next = lens.flatMap((l) => [`${at}+${l}`, `${l}+${at}`]);
  return {
    ...common,
    family: `${callee.replace(/writeSync$/, 'writevSync')}`,
    pieces: [{ buf: piece }],
    position: { at, next },
  };
}
