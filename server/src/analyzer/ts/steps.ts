// Turns the functions (and top-level code) of a TS/JS file into blocks of steps (see model.ts).
// Anything not understood becomes a barrier, so a run never crosses it.
import * as ts from 'typescript';
import { ioName } from '../catalogue';
import type { Arm, Block, OtherStep, Step } from '../model';
import { indentAt } from '../positions';
import { barrierStep, ifChainArms, summaryStep, switchArms } from '../stepRules';
import { qualify } from './bindings';
import { chainStep, conditionalStep, exitBranch, readsOnly } from './idioms';
import { SHARED_MEMBER } from './members';
import { callsIn, identifiers, rootName, shortName, suspends } from './syntax';
import { isPureCall, writeStep, type TsContext } from './writes';

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** Names declared by a binding name (`a`, `{ a, b: [c] }`). */
function boundNames(name: ts.BindingName, into: string[] = []): string[] {
  if (ts.isIdentifier(name)) into.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) boundNames(el.name, into);
  return into;
}

/** Reads one function body (or the file's top level) into blocks. */
class FunctionReader {
  readonly blocks: Block[] = [];

  constructor(
    private readonly ctx: TsContext,
    private readonly locals: ReadonlySet<string>,
  ) {}

  block(statements: readonly ts.Statement[]): Step[] {
    const steps = statements.map((s) => this.step(s));
    if (statements.length > 0) {
      const start = statements[0]!.getStart(this.ctx.file);
      this.blocks.push({ steps, locals: this.locals, indent: indentAt(this.ctx.text, start) });
    }
    return steps;
  }

  private span(node: ts.Node) {
    return { start: node.getStart(this.ctx.file), end: node.end };
  }

  private barrier(node: ts.Node): OtherStep {
    return barrierStep(this.span(node));
  }

  private body(stmt: ts.Statement | undefined): readonly ts.Statement[] {
    if (!stmt) return [];
    return ts.isBlock(stmt) ? stmt.statements : [stmt];
  }

  private step(stmt: ts.Statement): Step {
    const write = writeStep(stmt, this.ctx) ?? chainStep(stmt, this.ctx);
    if (write) return write;
    if (ts.isExpressionStatement(stmt) || ts.isVariableStatement(stmt)) return this.summary(stmt);
    if (ts.isIfStatement(stmt)) {
      return (
        conditionalStep(stmt, this.ctx) ??
        exitBranch(stmt, this.ctx, (statements) => this.arm(statements)) ??
        this.branch(stmt)
      );
    }
    if (
      ts.isForStatement(stmt) ||
      ts.isForOfStatement(stmt) ||
      ts.isForInStatement(stmt) ||
      ts.isWhileStatement(stmt) ||
      ts.isDoStatement(stmt)
    ) {
      return this.loop(stmt);
    }
    if (ts.isBlock(stmt)) this.block(stmt.statements);
    else if (ts.isTryStatement(stmt)) {
      this.block(stmt.tryBlock.statements);
      if (stmt.catchClause) this.block(stmt.catchClause.block.statements);
      if (stmt.finallyBlock) this.block(stmt.finallyBlock.statements);
    } else if (ts.isSwitchStatement(stmt)) return this.switchBranch(stmt);
    else if (ts.isLabeledStatement(stmt)) this.step(stmt.statement);
    return this.barrier(stmt);
  }

  private branch(stmt: ts.IfStatement): Step {
    const { arms, exhaustive } = ifChainArms<ts.IfStatement, ts.Statement>(
      stmt,
      (at) => {
        const then = this.body(at.thenStatement);
        const next = at.elseStatement;
        if (!next) return { then };
        return ts.isIfStatement(next) ? { then, elseIf: next } : { then, else: this.body(next) };
      },
      (statements) => this.arm(statements),
    );
    // Every test of the chain runs before (or between) the arms' writes.
    const tests: ts.Expression[] = [];
    for (let at: ts.Statement | undefined = stmt; at && ts.isIfStatement(at); at = at.elseStatement)
      tests.push(at.expression);
    if (tests.some((t) => suspends(t))) return this.barrier(stmt);
    const pure = tests.every((t) => readsOnly(t, this.ctx));
    if (exhaustive && pure) return { kind: 'branch', span: this.span(stmt), arms };
    // An `if` without `else` (or a chain without one): writes at the ends of its arms may join writes
    // around it, in a hint without a fix. A test with effects runs first: only the arms' last writes may.
    return {
      kind: 'branch',
      span: this.span(stmt),
      arms,
      partial: {
        condition: `(${stmt.expression.getText(this.ctx.file)})`,
        opaque: !pure || undefined,
        exhaustive: exhaustive || undefined,
      },
    };
  }

  /** A switch with a `default` whose every clause ends in `break` (or is the last): a branch step. */
  private switchBranch(stmt: ts.SwitchStatement): Step {
    const clauses = stmt.caseBlock.clauses;
    const breaks = (n: ts.Node): boolean =>
      ts.isBreakStatement(n) ||
      (!ts.isFunctionLike(n) && !!ts.forEachChild(n, (c) => breaks(c) || undefined));
    const { arms, exhaustive } = switchArms<ts.Statement>(
      clauses.map((c) => c.statements),
      clauses.some((c) => ts.isDefaultClause(c)),
      (n) => ts.isBreakStatement(n),
      breaks,
      (statements) => this.arm(statements),
    );
    const impure = callsIn(stmt.expression).some((c) => !isPureCall(c, this.ctx.bindings));
    if (!exhaustive || impure || arms.length < 2) return this.barrier(stmt);
    return { kind: 'branch', span: this.span(stmt), arms };
  }

  private arm(statements: readonly ts.Statement[]): Arm {
    const declares = statements.flatMap((s) =>
      ts.isVariableStatement(s) ? s.declarationList.declarations.flatMap((d) => boundNames(d.name)) : [],
    );
    return { steps: this.block(statements), declares };
  }

  private loop(stmt: ts.IterationStatement): Step {
    const statements = this.body(stmt.statement);
    const body = this.block(statements);
    const varying = new Set<string>();
    const mutated = new Set<string>();
    // What changes per iteration: the header's effects and the body's, except the writes' own arguments.
    // body holds one step per statement.
    statements.forEach((s, i) => body[i]!.kind !== 'write' && this.changed(s, varying, undefined, mutated));
    const header: ts.Node[] = [];
    if (ts.isForStatement(stmt)) {
      if (stmt.initializer) header.push(stmt.initializer);
      if (stmt.condition) header.push(stmt.condition);
      if (stmt.incrementor) header.push(stmt.incrementor);
    } else if (ts.isForOfStatement(stmt) || ts.isForInStatement(stmt)) {
      header.push(stmt.initializer, stmt.expression);
      if (ts.isVariableDeclarationList(stmt.initializer)) {
        for (const d of stmt.initializer.declarations) for (const n of boundNames(d.name)) varying.add(n);
      }
      if (ts.isForOfStatement(stmt) && stmt.awaitModifier) return this.barrier(stmt);
    } else header.push((stmt as ts.WhileStatement | ts.DoStatement).expression);
    for (const h of header) this.changed(h, varying, undefined, mutated);
    const impure = header.some(
      (h) => suspends(h) || callsIn(h).some((c) => !isPureCall(c, this.ctx.bindings)),
    );
    if (impure) return this.barrier(stmt);
    return { kind: 'loop', span: this.span(stmt), body, varying: [...varying], mutated: [...mutated] };
  }

  /**
   * Adds the names `node` may change: assigned, incremented, passed to calls, called methods on. With
   * `members`, records the member paths assigned (`ctx.count++`) and the names changed any other way.
   */
  private changed(
    node: ts.Node,
    into: Set<string>,
    callees?: string[],
    mutated?: Set<string>,
    members?: { readonly paths: string[]; readonly plain: Set<string> },
  ): void {
    // `x = next` rebinds x; `x.len = 0`, `buf.fill(0)` and call arguments may change what x holds.
    const add = (e: ts.Expression | undefined, contents = false, assigned = false) => {
      const root = e ? rootName(e) : undefined;
      if (!root) return;
      into.add(root);
      if (contents || (e && !ts.isIdentifier(e))) mutated?.add(root);
      const path = assigned && e ? memberPath(e) : undefined;
      if (path) members?.paths.push(path);
      else members?.plain.add(root);
    };
    const visit = (n: ts.Node): void => {
      if (ts.isBinaryExpression(n) && ASSIGNMENTS.has(n.operatorToken.kind)) add(n.left, false, true);
      else if (
        (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
        (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)
      ) {
        add(n.operand, false, true);
      } else if (ts.isDeleteExpression(n)) add(n.expression);
      else if (ts.isVariableDeclaration(n))
        for (const name of boundNames(n.name)) {
          into.add(name);
          members?.plain.add(name);
        }
      else if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
        if (!isPureCall(n, this.ctx.bindings)) {
          callees?.push(qualify(n.expression, this.ctx.bindings));
          for (const arg of n.arguments ?? []) add(arg, true);
          if (ts.isPropertyAccessExpression(n.expression)) add(n.expression.expression, true);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
  }

  private summary(stmt: ts.Statement): OtherStep {
    if (suspends(stmt)) return this.barrier(stmt);
    for (const call of callsIn(stmt)) {
      const name = shortName(call.expression);
      const q = qualify(call.expression, this.ctx.bindings);
      if (!name || ioName(name) || this.ctx.functions.has(q) || this.ctx.wrappers.has(name)) {
        return this.barrier(stmt);
      }
    }
    const writes = new Set<string>();
    const callees: string[] = [];
    const members = { paths: [] as string[], plain: new Set<string>() };
    this.changed(stmt, writes, callees, undefined, members);
    // A call may reach any object through an alias and assign its members (see members.ts).
    if (callees.length > 0) writes.add(SHARED_MEMBER);
    const step = summaryStep(this.span(stmt), identifiers(stmt), writes, callees);
    // Names changed only by assigning their members: a descriptor at another member stays the same.
    const paths = members.paths.filter((p) => !members.plain.has(p.replace(/\..*$/, '')));
    return paths.length > 0 ? { ...step, members: paths } : step;
  }
}

/** `a.b.c` or `this.b` (no element access, call or optional chain) without whitespace, else undefined. */
function memberPath(e: ts.Expression): string | undefined {
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  let at: ts.Expression = e;
  while (ts.isPropertyAccessExpression(at) && !at.questionDotToken) at = at.expression;
  if (!ts.isIdentifier(at) && at.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  return e.getText().replace(/\s+/g, '');
}

/** Names declared anywhere in a function: parameters, variables, nested functions. */
function localsOf(fn: ts.Node): Set<string> {
  const locals = new Set<string>();
  const visit = (n: ts.Node): void => {
    if ((ts.isParameter(n) || ts.isVariableDeclaration(n)) && n.name)
      boundNames(n.name, []).forEach((x) => locals.add(x));
    if (ts.isFunctionDeclaration(n) && n.name) locals.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(fn, visit);
  return locals;
}

/** Reads every function body, and the top-level statements, of a TS/JS file into blocks. */
export function readBlocks(ctx: TsContext): Block[] {
  const blocks: Block[] = [];
  const top = new FunctionReader(ctx, localsOf(ctx.file));
  top.block(ctx.file.statements);
  blocks.push(...top.blocks);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body && ts.isBlock(n.body)) {
      const reader = new FunctionReader(ctx, localsOf(n));
      reader.block(n.body.statements);
      blocks.push(...reader.blocks);
    }
    ts.forEachChild(n, visit);
  };
  visit(ctx.file);
  return blocks;
}
