// Small questions about TypeScript syntax nodes, shared by the TS/JS front end.
import * as ts from 'typescript';

/** The variable an expression is rooted in (`a` for `a.b[i].c`, `this` for `this.fd`). */
export function rootName(node: ts.Expression): string | undefined {
  let at: ts.Expression = node;
  for (;;) {
    if (ts.isIdentifier(at)) return at.text;
    if (at.kind === ts.SyntaxKind.ThisKeyword) return 'this';
    if (ts.isPropertyAccessExpression(at) || ts.isElementAccessExpression(at)) at = at.expression;
    else if (ts.isParenthesizedExpression(at) || ts.isNonNullExpression(at) || ts.isAsExpression(at))
      at = at.expression;
    else return undefined;
  }
}

/** Every variable name `node` reads (property names after a dot are not variables). */
export function identifiers(node: ts.Node, into: Set<string> = new Set()): Set<string> {
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const parent = n.parent;
      const isMember = parent && ts.isPropertyAccessExpression(parent) && parent.name === n;
      const isKey = parent && ts.isPropertyAssignment(parent) && parent.name === n;
      if (!isMember && !isKey) into.add(n.text);
      return;
    }
    if (n.kind === ts.SyntaxKind.ThisKeyword) into.add('this');
    ts.forEachChild(n, visit);
  };
  visit(node);
  return into;
}

/** The last part of a callee (`writeSync` for `fs.writeSync`). */
export function shortName(callee: ts.Expression): string {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
}

/** A descriptor expression in canonical form: whitespace removed. */
export function canonicalTarget(text: string): string {
  return text.replace(/\s+/g, '');
}

/** True for expressions that are plainly strings (literals, templates, concatenations with a literal). */
export function isStringy(expr: ts.Expression): boolean {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr) || ts.isTemplateExpression(expr))
    return true;
  if (ts.isParenthesizedExpression(expr)) return isStringy(expr.expression);
  return (
    ts.isBinaryExpression(expr) &&
    expr.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    (isStringy(expr.left) || isStringy(expr.right))
  );
}

/** Every call and `new` expression in `node` (the node itself included). */
export function callsIn(node: ts.Node): (ts.CallExpression | ts.NewExpression)[] {
  const found: (ts.CallExpression | ts.NewExpression)[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** True when `node` suspends (await, yield): other code may run, and write, in between. */
export function suspends(node: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (ts.isAwaitExpression(n) || ts.isYieldExpression(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
