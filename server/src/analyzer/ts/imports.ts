// Tidies imports after fixes: a gathered call can leave the function it replaced imported but unused
// (`writeInFull` after every call became `writevInFull`), which `noUnusedLocals` and linters reject.
import * as ts from 'typescript';
import { applyEdits } from '../edits';
import type { TextEdit } from '../model';

function scriptKind(path: string): ts.ScriptKind {
  return /\.[mc]?jsx?$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** A named import (or a name destructured from `require`) and where its element sits. */
interface NamedBinding {
  readonly local: string;
  readonly element: ts.Node;
  readonly siblings: readonly ts.Node[];
  readonly statement: ts.Statement;
}

function namedBindings(file: ts.SourceFile): NamedBinding[] {
  const found: NamedBinding[] = [];
  for (const stmt of file.statements) {
    const clause = ts.isImportDeclaration(stmt) ? stmt.importClause : undefined;
    const named = clause?.namedBindings;
    if (named && ts.isNamedImports(named) && !clause?.name) {
      for (const el of named.elements)
        found.push({ local: el.name.text, element: el, siblings: named.elements, statement: stmt });
    }
    // `import * as fs from 'fs'` and `import fs from 'fs'`: the statement is the one binding.
    const whole =
      clause && !clause.isTypeOnly && (clause.name ? !named : named && ts.isNamespaceImport(named));
    if (clause && whole) {
      const local = clause.name ?? (named as ts.NamespaceImport).name;
      found.push({ local: local.text, element: stmt, siblings: [stmt], statement: stmt });
    }
    if (ts.isVariableStatement(stmt) && stmt.declarationList.declarations.length === 1) {
      const decl = stmt.declarationList.declarations[0]!;
      const init = decl.initializer;
      const isRequire =
        init &&
        ts.isCallExpression(init) &&
        ts.isIdentifier(init.expression) &&
        init.expression.text === 'require';
      if (isRequire && ts.isIdentifier(decl.name)) {
        found.push({ local: decl.name.text, element: stmt, siblings: [stmt], statement: stmt });
      }
      if (isRequire && ts.isObjectBindingPattern(decl.name)) {
        for (const el of decl.name.elements) {
          if (ts.isIdentifier(el.name))
            found.push({ local: el.name.text, element: el, siblings: decl.name.elements, statement: stmt });
        }
      }
    }
  }
  return found;
}

/** How often each name is used as an identifier, outside import and require bindings. */
function uses(file: ts.SourceFile, bindings: readonly NamedBinding[]): Map<string, number> {
  const skip = new Set(bindings.map((b) => b.element));
  const counts = new Map<string, number>();
  const visit = (n: ts.Node): void => {
    if (skip.has(n)) {
      // A require's initializer is still code; only the bound names are skipped.
      if (ts.isVariableStatement(n))
        ts.forEachChild(n.declarationList.declarations[0]!.initializer as ts.Node, visit);
      return;
    }
    if (ts.isIdentifier(n)) counts.set(n.text, (counts.get(n.text) ?? 0) + 1);
    ts.forEachChild(n, visit);
  };
  visit(file);
  return counts;
}

/**
 * `after` (the fixed text of `before`) without the named imports that the fixes left unused: names
 * used in `before` and no longer used in `after`. Other unused imports are left as they were.
 */
export function pruneImports(path: string, before: string, after: string): string {
  const parse = (text: string) =>
    ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, scriptKind(path));
  const old = parse(before);
  const oldUses = uses(old, namedBindings(old));
  const file = parse(after);
  const bindings = namedBindings(file);
  const newUses = uses(file, bindings);
  const dead = bindings.filter((b) => (oldUses.get(b.local) ?? 0) > 0 && !newUses.get(b.local));
  const edits: TextEdit[] = [];
  const byStatement = new Map<ts.Statement, NamedBinding[]>();
  for (const b of dead) byStatement.set(b.statement, [...(byStatement.get(b.statement) ?? []), b]);
  for (const [stmt, gone] of byStatement) {
    // Each group holds at least one binding, and a binding is one of its siblings.
    const siblings = gone[0]!.siblings;
    if (gone.length === siblings.length) {
      const end = after[stmt.end] === '\n' ? stmt.end + 1 : stmt.end;
      edits.push({ span: { start: stmt.getStart(file), end }, newText: '' });
      continue;
    }
    const kept = siblings.filter((s) => !gone.some((g) => g.element === s));
    const text = kept.map((s) => after.slice(s.getStart(file), s.end)).join(', ');
    edits.push({
      span: { start: siblings[0]!.getStart(file), end: siblings[siblings.length - 1]!.end },
      newText: text,
    });
  }
  return applyEdits(after, edits);
}
