// Finds TS/JS wrapper functions: a function whose body only writes its buffer parameter to a
// descriptor, e.g. `function emit(buf: Uint8Array) { writeInFull(outFd, buf); }` or
// `const emit = (b) => fs.writeSync(1, b)`. Calls to it count as writes to that descriptor.
import * as ts from 'typescript';
import type { WrapperSetting } from '../settings';
import { identifiers } from './syntax';
import { statementCall, writeStep, type TsContext, type TsWrapper } from './writes';

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function isExported(node: ts.Node): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return !!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function wrapperOf(name: string, fn: FunctionNode, exported: boolean, ctx: TsContext): TsWrapper | undefined {
  const body = fn.body;
  if (!body) return undefined;
  let stmt: ts.Node;
  if (ts.isBlock(body)) {
    if (body.statements.length !== 1) return undefined;
    stmt = body.statements[0]!;
  } else stmt = body;
  const found = statementCall(stmt);
  const write = found && writeStep(stmt, { ...ctx, wrappers: new Map() });
  if (!found || !write?.pieces || write.pieces.length !== 1 || write.position) return undefined;
  const params = fn.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ''));
  const args = found.call.arguments;
  const bufArg = write.stream || write.family.endsWith('.writev') ? args[0] : args[1];
  const buf = bufArg && ts.isIdentifier(bufArg) ? params.indexOf(bufArg.text) : -1;
  if (buf < 0 || write.family.endsWith('.writev')) return undefined;
  let fd: TsWrapper['fd'];
  const fdArg = write.stream ? undefined : args[0];
  const fdParam = fdArg && ts.isIdentifier(fdArg) ? params.indexOf(fdArg.text) : -1;
  if (fdParam >= 0) fd = { param: fdParam };
  else {
    const used = [...identifiers(fdArg ?? (found.call.expression as ts.PropertyAccessExpression).expression)];
    if (used.some((n) => params.includes(n))) return undefined;
    fd = { text: write.fdText, names: used };
  }
  const paramType = fn.parameters[buf]?.type?.getText();
  const isAsync = !!ts.getModifiers(fn)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
  return {
    name,
    exported,
    fd,
    buf,
    family: write.family,
    async: found.awaited && isAsync,
    arity: params.length,
    stream: write.stream,
    bytes: paramType === 'Uint8Array' || paramType === 'Buffer' || !write.pieces[0]!.isString,
  };
}

/** Every wrapper function a TS/JS file defines at its top level. */
export function findWrappers(ctx: TsContext): TsWrapper[] {
  const found: TsWrapper[] = [];
  for (const stmt of ctx.file.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name) {
      const w = wrapperOf(stmt.name.text, stmt, isExported(stmt), ctx);
      if (w) found.push(w);
    } else if (ts.isVariableStatement(stmt)) {
      for (const decl of stmt.declarationList.declarations) {
        const init = decl.initializer;
        if (
          !ts.isIdentifier(decl.name) ||
          !init ||
          !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))
        )
          continue;
        const w = wrapperOf(decl.name.text, init, isExported(stmt), ctx);
        if (w) found.push(w);
      }
    }
  }
  return found;
}

/** A wrapper declared in settings (`writev.wrappers`, language "ts"). */
export function settingWrapper(setting: WrapperSetting): TsWrapper {
  return {
    name: setting.name,
    exported: true,
    fd: { text: setting.fd, names: setting.fd.match(/[A-Za-z_$][\w$]*/g) ?? [] },
    buf: setting.buf,
    family: 'writevInFull',
    async: false,
    arity: setting.buf + 1,
  };
}
