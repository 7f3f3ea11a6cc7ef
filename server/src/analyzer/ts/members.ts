// Streams reached through members: `this.out`, `this.#stream`, `ctx.out`, `opts.stream`, `res.socket`.
// The analyzer parses each file alone (no Program, so no type checker: a project's types would cost a
// whole-program check per edit), so a member is known to hold a stream from what the file shows: its
// declared type (`out: Writable` on the class, a parameter property, a type literal or an interface of
// the file, `socket` of `http.ServerResponse`), or what it is assigned (`fs.createWriteStream(...)`,
// `net.connect(...)`, `process.stdout`, a parameter typed as a stream).
//
// Whether two writes go to the same stream: the receiver text is the same, and nothing between them
// can change it. A statement that assigns the member or its base, or hands the base to a call, already
// ends a run (its names are the target's). But JS objects are shared: any other call may reach the
// same object through an alias (a closure, a global, another object holding it) and assign the member.
// So a run to a member stream also ends at any call not known to be pure, unless the member cannot be
// assigned outside the constructor: a `#private` field (no code outside the class body can name it) or
// a `readonly` one (the compiler rejects other assignments), assigned nowhere in the class body but in
// the constructor, and read outside the constructor. (A `readonly` member can still be assigned through
// a type that drops the modifier, or `as any`: a program that does so between two writes defeats it.)
// An `await` between writes ends every run anyway: another task may run there.
import * as ts from 'typescript';
import { TS_STREAM_FACTORIES, TS_STREAM_MEMBERS } from '../catalogue';
import { kindOfType, nodeTypeName, qualify } from './bindings';
import type { TsContext } from './writes';

/**
 * A pseudo-name (never a JS identifier) that a target reads when a call anywhere may change it, and
 * that every statement with a call not known to be pure changes (see steps.ts): a run to a member
 * stream that is not stable ends at such a call.
 */
export const SHARED_MEMBER = '(shared member)';

/** What the file shows about an expression: its declared type, the values it is given, its class. */
interface Facts {
  readonly type?: ts.TypeNode;
  /** Every value the expression is assigned (all must be streams for it to be one). */
  readonly values?: readonly ts.Expression[];
  /** `this` in a class's instance code, or a value of a class the file declares. */
  readonly cls?: ts.ClassLikeDeclaration;
  /** A member of a Node type that holds a stream (`res.socket`). */
  readonly stream?: boolean;
  /** The expression denotes the same object until a statement that names it changes it. */
  readonly stable: boolean;
  /** `this` inside the constructor, where members are still being assigned. */
  readonly inConstructor?: boolean;
}

/** A stream receiver reached through members, and the names a change of which ends a run. */
export interface MemberStream {
  readonly targetNames: readonly string[];
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

function memberName(name: ts.MemberName | ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)
    ? name.text
    : undefined;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === kind);
}

/** The class whose instance `this` is at `node`, and whether `node` is in its constructor. */
function thisClass(node: ts.Node): { cls: ts.ClassLikeDeclaration; ctor: boolean } | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isArrowFunction(at)) continue;
    const member =
      ts.isMethodDeclaration(at) ||
      ts.isConstructorDeclaration(at) ||
      ts.isGetAccessorDeclaration(at) ||
      ts.isSetAccessorDeclaration(at) ||
      ts.isPropertyDeclaration(at);
    if (member || ts.isFunctionLike(at) || ts.isClassStaticBlockDeclaration(at)) {
      // A static member's `this` is the class itself; a function expression has its own `this`.
      if (!member || hasModifier(at, ts.SyntaxKind.StaticKeyword) || !ts.isClassLike(at.parent))
        return undefined;
      return { cls: at.parent, ctor: ts.isConstructorDeclaration(at) };
    }
  }
  return undefined;
}

/** The parameter or variable `name` refers to at `from` (nearest enclosing scope first). */
function declarationOf(
  name: string,
  from: ts.Node,
): ts.ParameterDeclaration | ts.VariableDeclaration | undefined {
  for (let at: ts.Node | undefined = from.parent; at; at = at.parent) {
    if (ts.isFunctionLike(at)) {
      const p = at.parameters.find((q) => ts.isIdentifier(q.name) && q.name.text === name);
      if (p) return p;
    }
    if (ts.isBlock(at) || ts.isSourceFile(at) || ts.isModuleBlock(at) || ts.isCaseClause(at)) {
      for (const stmt of at.statements) {
        if (!ts.isVariableStatement(stmt)) continue;
        const d = stmt.declarationList.declarations.find(
          (v) => ts.isIdentifier(v.name) && v.name.text === name,
        );
        if (d) return d;
      }
    }
  }
  return undefined;
}

/** The assignments `<anything>.name = value` in a class body, split by where they are. */
function assignmentsIn(cls: ts.ClassLikeDeclaration, name: string) {
  const inConstructor: ts.Expression[] = [];
  let elsewhere = 0;
  const visit = (n: ts.Node, ctor: boolean): void => {
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      n.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    ) {
      const left = unwrap(n.left);
      if (ts.isPropertyAccessExpression(left) && left.name.text === name) {
        if (ctor && left.expression.kind === ts.SyntaxKind.ThisKeyword) inConstructor.push(n.right);
        else elsewhere++;
      }
      // Destructuring into the member: a change whose value is not read here.
      if (
        (ts.isObjectLiteralExpression(left) || ts.isArrayLiteralExpression(left)) &&
        left.getText().includes(name)
      )
        elsewhere++;
    }
    // `delete`, `++`: counted as changes anywhere (a name that only contains it errs on the safe side).
    if (
      (ts.isDeleteExpression(n) || ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
      n.getText().includes(name)
    )
      elsewhere++;
    // A function made in the constructor (a callback) may run at any later time.
    const inner = ctor && !(ts.isFunctionLike(n) && !ts.isConstructorDeclaration(n));
    ts.forEachChild(n, (c) => visit(c, inner));
  };
  for (const m of cls.members) visit(m, ts.isConstructorDeclaration(m));
  return { inConstructor, elsewhere };
}

/** What the class declares about its instance member `name`. */
function classMember(cls: ts.ClassLikeDeclaration, name: string, self: Facts): Facts | undefined {
  let type: ts.TypeNode | undefined;
  let readonly = false;
  const values: ts.Expression[] = [];
  for (const m of cls.members) {
    if (hasModifier(m, ts.SyntaxKind.StaticKeyword) || !m.name || memberName(m.name) !== name) continue;
    // An accessor may compute a new value on every read.
    if (!ts.isPropertyDeclaration(m)) return undefined;
    type = m.type;
    readonly = hasModifier(m, ts.SyntaxKind.ReadonlyKeyword);
    if (m.initializer) values.push(m.initializer);
  }
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  const param = ctor?.parameters.find(
    (p) => ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length,
  );
  if (param) {
    type = param.type;
    readonly = hasModifier(param, ts.SyntaxKind.ReadonlyKeyword);
    values.push(param.name as ts.Identifier);
  }
  const assigned = assignmentsIn(cls, name);
  values.push(...assigned.inConstructor);
  if (!type && values.length === 0) return undefined;
  const fixed = (readonly || name.startsWith('#')) && assigned.elsewhere === 0;
  return { type, values, stable: self.stable && !self.inConstructor && fixed };
}

/** What a type literal, an interface or class of the file, or a Node type says about member `name`. */
function typeMember(type: ts.TypeNode, name: string, ctx: TsContext): Facts | undefined {
  while (ts.isParenthesizedTypeNode(type)) type = type.type;
  const node = nodeTypeName(type, ctx.bindings);
  if (node) return TS_STREAM_MEMBERS[node]?.includes(name) ? { stream: true, stable: false } : undefined;
  let members: readonly ts.TypeElement[] = [];
  if (ts.isTypeLiteralNode(type)) members = type.members;
  else if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const wanted = type.typeName.text;
    for (const stmt of ctx.file.statements) {
      if (ts.isInterfaceDeclaration(stmt) && stmt.name.text === wanted)
        members = [...members, ...stmt.members];
      if (ts.isTypeAliasDeclaration(stmt) && stmt.name.text === wanted && ts.isTypeLiteralNode(stmt.type))
        members = stmt.type.members;
      if (ts.isClassDeclaration(stmt) && stmt.name?.text === wanted)
        return classMember(stmt, name, { stable: true });
    }
  }
  const sig = members.find((m) => ts.isPropertySignature(m) && memberName(m.name) === name);
  // A plain object's creator may still change it through its own reference, `readonly` or not.
  return sig && ts.isPropertySignature(sig) && sig.type ? { type: sig.type, stable: false } : undefined;
}

/** The facts about `base.name`. */
function member(base: Facts, name: string, ctx: TsContext): Facts | undefined {
  if (base.cls) return classMember(base.cls, name, base);
  if (base.type) return typeMember(base.type, name, ctx);
  const literal = base.values?.length === 1 ? unwrap(base.values[0]!) : undefined;
  if (literal && ts.isObjectLiteralExpression(literal)) {
    for (const p of literal.properties) {
      if (ts.isPropertyAssignment(p) && memberName(p.name) === name)
        return { values: [p.initializer], stable: false };
      if (ts.isShorthandPropertyAssignment(p) && p.name.text === name)
        return { values: [p.name], stable: false };
    }
  }
  return undefined;
}

/** What the file shows about `expr` (an identifier, `this`, or members of them). */
function factsOf(expr: ts.Expression, ctx: TsContext): Facts | undefined {
  const e = unwrap(expr);
  if (e.kind === ts.SyntaxKind.ThisKeyword) {
    const found = thisClass(e);
    return found && { cls: found.cls, stable: true, inConstructor: found.ctor };
  }
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(e.text, e);
    if (!decl) return undefined;
    const constant =
      ts.isVariableDeclaration(decl) && (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
    const values = constant && decl.initializer ? [decl.initializer] : undefined;
    return { type: decl.type, values, stable: true };
  }
  if (ts.isPropertyAccessExpression(e) && !e.questionDotToken) {
    const base = factsOf(e.expression, ctx);
    return base && member(base, e.name.text, ctx);
  }
  if (ts.isAsExpression(e)) return { type: e.type, stable: false };
  return undefined;
}

/** True when the facts say the expression holds a Writable stream (every value it is given is one). */
function holdsStream(facts: Facts, ctx: TsContext, depth = 0): boolean {
  if (facts.stream) return true;
  if (facts.type) return kindOfType(facts.type, ctx.bindings) === 'stream';
  if (!facts.values || facts.values.length === 0 || depth > 4) return false;
  return facts.values.every((v) => isStreamValue(v, ctx, depth + 1));
}

function isStreamValue(value: ts.Expression, ctx: TsContext, depth: number): boolean {
  const v = unwrap(value);
  const text = v.getText(ctx.file).replace(/\s+/g, '');
  if (text === 'process.stdout' || text === 'process.stderr') return true;
  if (ts.isCallExpression(v) || ts.isNewExpression(v))
    return TS_STREAM_FACTORIES.has(qualify(v.expression, ctx.bindings));
  const facts = factsOf(v, ctx);
  // A variable given no type and not a constant: as for a receiver, its declaration's origin decides.
  if (ts.isIdentifier(v) && !facts?.type && !facts?.values)
    return ctx.bindings.kinds.get(v.text) === 'stream';
  return !!facts && holdsStream(facts, ctx, depth);
}

/** The root of a member chain (`this` or an identifier), when the chain is plain property accesses. */
function chainRoot(e: ts.Expression): ts.Expression | undefined {
  let at = unwrap(e);
  while (ts.isPropertyAccessExpression(at) && !at.questionDotToken) at = unwrap(at.expression);
  return ts.isIdentifier(at) || at.kind === ts.SyntaxKind.ThisKeyword ? at : undefined;
}

/** `receiver` (`this.out`, `ctx.out`, `res.socket`) holds a Writable stream as far as the file shows. */
export function memberStream(receiver: ts.Expression, ctx: TsContext): MemberStream | undefined {
  const e = unwrap(receiver);
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  const root = chainRoot(e);
  if (!root) return undefined;
  const facts = factsOf(e, ctx);
  if (!facts || !holdsStream(facts, ctx)) return undefined;
  return { targetNames: memberTargetNames(root, facts.stable) };
}

function memberTargetNames(root: ts.Expression, stable: boolean): string[] {
  // `this` is never rebound; an identifier root may be (`ctx = other`), which ends a run.
  const names = ts.isIdentifier(root) ? [root.text] : stable ? [] : ['this'];
  return stable ? names : [...names, SHARED_MEMBER];
}

/**
 * The names a run to a member descriptor (`ctx.fd`, `this.sock.fd`) must watch: its own, and
 * {@link SHARED_MEMBER} unless every member on the way is stable.
 */
export function memberNames(target: ts.Expression, names: readonly string[], ctx: TsContext): string[] {
  const e = unwrap(target);
  if (!ts.isPropertyAccessExpression(e) || !chainRoot(e)) return [...names];
  const facts = factsOf(e, ctx);
  return facts?.stable ? [...names] : [...names, SHARED_MEMBER];
}
