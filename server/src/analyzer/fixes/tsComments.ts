// The comments of TS/JS source, for keepComments (comments.ts). Apart from the C lexer so that a
// C-only run never loads the TypeScript compiler.
import * as ts from 'typescript';
import type { Comment } from './comments';

/** The comments in trivia (whitespace and comments only) from `start` to `end` of `text`. */
function triviaComments(text: string, start: number, end: number, into: Comment[]): void {
  const trivia = text.slice(start, end);
  if (!trivia.includes('/')) return;
  for (const m of trivia.matchAll(/\/\/[^\r\n]*|\/\*[\s\S]*?(?:\*\/|$)/g)) {
    const at = start + (m.index ?? 0);
    into.push({ span: { start: at, end: at + m[0].length }, text: m[0] });
  }
}

/**
 * The comments of TS/JS statements `text`, found in the trivia between the tokens of its syntax tree, so
 * that strings, template literals and regular expressions are never mistaken for comments.
 */
export function tsComments(text: string): Comment[] {
  if (!text.includes('//') && !text.includes('/*')) return [];
  const file = ts.createSourceFile('fix.ts', text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: Comment[] = [];
  const visit = (node: ts.Node) => {
    const children = node.getChildren(file);
    if (children.length === 0 || node.kind === ts.SyntaxKind.JsxText) {
      triviaComments(text, node.pos, node.getStart(file), found);
      return;
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return found.sort((a, b) => a.span.start - b.span.start);
}
