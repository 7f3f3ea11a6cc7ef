// Comments a fix would delete. A gathered call replaces the statements from the first write to the
// last, and whatever stood between them that the new text does not carry (a note on one write, another
// tool's directive) would vanish without a word. Every fix passes through keepComments: a plain comment
// moves, in order, to the lines just above the gathered call; a directive that speaks about its own
// line or the next (`eslint-disable-next-line`, `@ts-expect-error`, `NOLINT`) cannot move without
// changing what it covers, so its fix is withheld and the finding says why.
import type { Fix, Span } from '../model';
import { indentAt } from '../positions';

/** A comment: its span in the text it was found in, and its text (delimiters included). */
export interface Comment {
  readonly span: Span;
  readonly text: string;
}

/**
 * The comments of C source `text` (which starts outside any comment or literal): `//` to the end of the
 * line (a backslash before the line break continues it, as the preprocessor does) and `/* ... *\/`;
 * string and character literals are skipped.
 */
export function cComments(text: string): Comment[] {
  const found: Comment[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      // To the closing quote; a line break ends an unterminated literal as the compiler would complain.
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      let end = i + 2;
      for (; end < text.length; end++) {
        if (text[end] === '\n' || text[end] === '\r') {
          // A backslash right before the break (CRLF counted as one) continues the comment.
          if (text[end - 1] === '\\') {
            if (text[end] === '\r' && text[end + 1] === '\n') end++;
            continue;
          }
          break;
        }
      }
      found.push({ span: { start: i, end }, text: text.slice(i, end) });
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      found.push({ span: { start: i, end }, text: text.slice(i, end) });
      i = end - 1;
    }
  }
  return found;
}

/**
 * Directives of other tools (and our own) that apply to their own line, the next one or a region: moved
 * above a gathered call they would cover other code, so a fix that would move one is withheld.
 */
const DIRECTIVE =
  /\b(?:eslint-(?:disable|enable)|jshint|tslint:|prettier-ignore|biome-ignore|deno-lint-ignore|istanbul\s+ignore|[cv]8\s+ignore|NOLINT|NOSONAR|LCOV_EXCL|clang-format\s+(?:off|on)|cppcheck-suppress|coverity\[|writev-lint-(?:disable|enable))|@ts-(?:expect-error|ignore|nocheck)\b/;

/** An ESLint configuration comment (`/* eslint no-console: off *\/`): it applies from where it stands. */
const ESLINT_CONFIG = /^\/\*\s*eslint\s/;

/** Whether `comment` is a directive for a tool (see {@link DIRECTIVE}). */
export function isDirective(comment: string): boolean {
  return DIRECTIVE.test(comment) || ESLINT_CONFIG.test(comment);
}

/** Comments alike when they differ only in whitespace (a fix may re-indent a block comment's lines). */
function squash(comment: string): string {
  return comment.replace(/\s+/g, ' ').trim();
}

/** A fix, or why there is none. */
export type KeptComments = { readonly fix: Fix } | { readonly reason: string };

/**
 * `fix` with every comment its edits would delete from `text` put back, in order, on lines of their own
 * just above the replacement (at the indent of the replaced statement); or, when one of them is a
 * directive, the reason the fix is withheld. `comments` lists the comments of a piece of source in the
 * fix's language. Does not modify `fix`.
 */
export function keepComments(fix: Fix, text: string, comments: (source: string) => Comment[]): KeptComments {
  const edits = [];
  for (const edit of fix.edits) {
    const replaced = text.slice(edit.span.start, edit.span.end);
    if (edit.span.start === edit.span.end || (!replaced.includes('//') && !replaced.includes('/*'))) {
      edits.push(edit);
      continue;
    }
    // What the new text still carries, by content: a comment kept twice in the old text must be kept twice.
    const carried = new Map<string, number>();
    for (const c of comments(edit.newText))
      carried.set(squash(c.text), (carried.get(squash(c.text)) ?? 0) + 1);
    const lost: string[] = [];
    for (const c of comments(replaced)) {
      const left = carried.get(squash(c.text)) ?? 0;
      if (left > 0) carried.set(squash(c.text), left - 1);
      else lost.push(c.text);
    }
    if (lost.length === 0) {
      edits.push(edit);
      continue;
    }
    const directive = lost.find(isDirective);
    if (directive !== undefined) {
      const shown = directive.length > 60 ? `${directive.slice(0, 57)}...` : directive;
      return {
        reason: `the comment \`${shown.replace(/\s+/g, ' ')}\` between the writes is a directive tied to its place; moved above the gathered call it would cover other code`,
      };
    }
    const indent = indentAt(text, edit.span.start);
    edits.push({ ...edit, newText: `${lost.join(`\n${indent}`)}\n${indent}${edit.newText}` });
  }
  return { fix: { ...fix, edits } };
}
