// Suppression comments, the same in C and TS/JS (`//` or `/* */`):
//   writev-lint-disable-next-line [code, ...]   the line after the comment
//   writev-lint-disable-line [code, ...]        the comment's own line (at the end of a line of code)
//   writev-lint-disable [code, ...] ... writev-lint-enable [code, ...]   the lines between
// No code means every code; ` -- reason` may follow. A finding is suppressed when a directive covers
// the line of its first write, or the line where it is reported (they differ for a loop or an if/else
// chain, reported from the `for` or `if`). Applied in the analyzer, so the CLI and the language server
// suppress the same findings; unused directives and unknown codes become `unused-directive` findings.
import { findComments, type Comment } from './comments';
import type { Finding, Language, RuleCode, TextEdit } from './model';
import { RULE_CODES } from './model';
import { lineStartAt } from './positions';

const KINDS = ['disable-next-line', 'disable-line', 'disable', 'enable'] as const;
type Kind = (typeof KINDS)[number];
const PREFIX = 'writev-lint-';

/** A suppression comment, parsed. */
interface Directive {
  readonly kind: Kind;
  readonly comment: Comment;
  /** Known codes listed; undefined: every code. */
  readonly codes?: readonly RuleCode[];
  /** Codes listed that no rule has. */
  readonly unknown: readonly string[];
  /** The text after ` -- `, if any. */
  readonly reason?: string;
  /** Zero-based lines of the comment's start and end. */
  readonly line: number;
  readonly endLine: number;
  /** Codes it suppressed at least one finding of ('*' for a directive without codes). */
  readonly used: Set<string>;
}

/** Lines a directive covers, for some codes. */
interface Cover {
  readonly directive: Directive;
  readonly from: number;
  readonly to: number;
  /** Undefined: every code but `except`. */
  readonly codes?: ReadonlySet<string>;
  readonly except: ReadonlySet<string>;
}

/** Offsets where each line starts; lines end at `\r\n`, `\n` or `\r`, as LSP counts them. */
function lineStarts(text: string): number[] {
  const starts = [0];
  const cr = text.includes('\r');
  for (let i = 0; i < text.length; i++) {
    // Most files have no `\r`: jump from `\n` to `\n` with the native search.
    if (!cr) {
      i = text.indexOf('\n', i);
      if (i === -1) break;
      starts.push(i + 1);
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A problem with a directive, reported as an `unused-directive` finding on its comment. */
function problem(comment: Comment, message: string): Finding {
  return {
    code: 'unused-directive',
    severity: 'warning',
    message,
    span: { start: comment.start, end: comment.end },
    related: [],
    syscalls: 0,
    target: '',
  };
}

/** Edit distance small enough to call a name a typo of another. */
function near(word: string, candidates: readonly string[]): string | undefined {
  const close = (a: string, b: string) => {
    if (Math.abs(a.length - b.length) > 2) return false;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    let j = 0;
    while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
    return Math.max(a.length, b.length) - i - j <= 2;
  };
  return candidates.find((c) => close(word.toLowerCase(), c));
}

/** The directives of `text`, and the problems found reading them (unknown directives and codes). */
function directives(text: string, language: Language, starts: readonly number[]) {
  const found: Directive[] = [];
  const problems: Finding[] = [];
  for (const comment of findComments(text, language)) {
    const body = comment.body.replace(/^[\s*]+/, '');
    if (!body.startsWith(PREFIX)) continue;
    const [, name = '', rest = ''] = /^(\S+)\s*([\s\S]*)$/.exec(body) ?? [];
    const kind = KINDS.find((k) => `${PREFIX}${k}` === name);
    if (!kind) {
      const guess = near(
        name,
        KINDS.map((k) => `${PREFIX}${k}`),
      );
      problems.push(problem(comment, `unknown directive ${name}${guess ? `; did you mean ${guess}?` : ''}`));
      continue;
    }
    // ` -- reason` ends the list; in a block comment a closing `*` line may follow.
    const dashes = rest.search(/(?:^|\s)--(?:\s|$)/);
    const list = dashes === -1 ? rest : rest.slice(0, dashes);
    const reason =
      dashes === -1
        ? undefined
        : rest
            .slice(dashes)
            .replace(/^\s*--\s*/, '')
            .trim();
    const names = list.split(/[\s,*]+/).filter((n) => n !== '');
    const codes = names.filter((n): n is RuleCode => (RULE_CODES as readonly string[]).includes(n));
    const unknown = names.filter((n) => !(RULE_CODES as readonly string[]).includes(n));
    for (const code of unknown) {
      const guess = near(code, RULE_CODES);
      problems.push(
        problem(
          comment,
          `unknown code ${code} in ${name}${guess ? `; did you mean ${guess}?` : ` (codes: ${RULE_CODES.join(', ')})`}`,
        ),
      );
    }
    found.push({
      kind,
      comment,
      codes: names.length > 0 ? codes : undefined,
      unknown,
      reason,
      line: lineOf(starts, comment.start),
      endLine: lineOf(starts, Math.max(comment.start, comment.end - 1)),
      used: new Set(),
    });
  }
  return { found, problems };
}

/** The lines each directive covers; `enable` with nothing open to close is a problem. */
function covers(found: readonly Directive[], lastLine: number, problems: Finding[]): Cover[] {
  const done: Cover[] = [];
  let open: Cover[] = [];
  for (const d of found) {
    const codes = d.codes && new Set<string>(d.codes);
    if (d.kind === 'disable-next-line' || d.kind === 'disable-line') {
      const line = d.kind === 'disable-line' ? d.line : d.endLine + 1;
      done.push({ directive: d, from: line, to: line, codes, except: new Set() });
    } else if (d.kind === 'disable') {
      if (!codes || codes.size > 0)
        open.push({ directive: d, from: d.line, to: lastLine, codes, except: new Set() });
    } else if (!d.codes || d.codes.length > 0) {
      let closed = false;
      const still: Cover[] = [];
      for (const o of open) {
        const hit = !codes ? true : o.codes ? [...codes].some((c) => o.codes?.has(c)) : true;
        if (!hit) {
          still.push(o);
          continue;
        }
        closed = true;
        done.push({ ...o, to: d.line });
        if (!codes) continue;
        // Re-enabling some codes leaves the others disabled, from the next line on.
        if (o.codes) {
          const left = new Set([...o.codes].filter((c) => !codes.has(c)));
          if (left.size > 0) still.push({ ...o, from: d.line + 1, codes: left });
        } else {
          still.push({ ...o, from: d.line + 1, except: new Set([...o.except, ...codes]) });
        }
      }
      open = still;
      if (!closed) {
        problems.push(problem(d.comment, `${PREFIX}enable without a ${PREFIX}disable before it`));
      }
    }
  }
  return [...done, ...open];
}

/** The zero-based lines a finding can be suppressed from: its first write's, and its report's. */
function findingLines(finding: Finding, starts: readonly number[]): number[] {
  const writes = finding.related.map((r) => r.span.start);
  const first = writes.length > 0 ? Math.min(...writes) : finding.span.start;
  return [lineOf(starts, first), lineOf(starts, finding.span.start)];
}

/**
 * `findings` without those a suppression comment in `text` covers. With `reportUnused`, adds an
 * `unused-directive` finding for each directive that suppressed nothing (naming the codes that went
 * unused), each unknown directive or code, and each `enable` with nothing to close; sorted by position.
 */
export function applySuppressions(
  text: string,
  language: Language,
  findings: readonly Finding[],
  reportUnused: boolean,
): Finding[] {
  if (!text.includes(PREFIX)) return [...findings];
  const starts = lineStarts(text);
  const { found, problems } = directives(text, language, starts);
  // One-line covers by line, so a file with a directive per function stays linear; blocks are few.
  const byLine = new Map<number, Cover[]>();
  const blocks: Cover[] = [];
  for (const c of covers(found, starts.length - 1, problems)) {
    if (c.from !== c.to) blocks.push(c);
    else byLine.set(c.from, [...(byLine.get(c.from) ?? []), c]);
  }
  const kept = findings.filter((f) => {
    const lines = [...new Set(findingLines(f, starts))];
    let suppressed = false;
    for (const c of [...lines.flatMap((l) => byLine.get(l) ?? []), ...blocks]) {
      if (!lines.some((l) => l >= c.from && l <= c.to)) continue;
      if (c.codes ? !c.codes.has(f.code) : c.except.has(f.code)) continue;
      c.directive.used.add(c.directive.codes ? f.code : '*');
      suppressed = true;
    }
    return !suppressed;
  });
  if (!reportUnused) return kept;
  for (const d of found) {
    if (d.kind === 'enable') continue;
    const name = `${PREFIX}${d.kind}`;
    if (!d.codes) {
      if (d.used.size === 0) {
        const unused = problem(d.comment, `unused ${name} directive (nothing to suppress here)`);
        problems.push({
          ...unused,
          // Removing a comment that suppresses nothing changes no finding and no code: safe, as ruff's RUF100.
          fix: {
            title: `Remove the unused ${name} comment`,
            edits: [removal(text, d.comment)],
            safety: 'safe',
          },
        });
      }
      continue;
    }
    const unused = d.codes.filter((c) => !d.used.has(c));
    if (unused.length > 0) {
      const left = [...d.codes.filter((c) => d.used.has(c)), ...d.unknown];
      const edit =
        left.length > 0
          ? { span: { start: d.comment.start, end: d.comment.end }, newText: rewritten(text, d, left) }
          : removal(text, d.comment);
      const title =
        left.length > 0
          ? `Remove ${unused.join(', ')} from the ${name} comment`
          : `Remove the unused ${name} comment`;
      problems.push({
        ...problem(d.comment, `unused ${name} directive (no ${unused.join(', ')} finding here)`),
        fix: { title, edits: [edit], safety: 'safe' },
      });
    }
  }
  return [...kept, ...problems].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

/**
 * The edit that removes `comment`: its whole line when nothing else is on it, else the comment and the
 * blanks before it.
 */
function removal(text: string, comment: Comment): TextEdit {
  const lineStart = lineStartAt(text, comment.start);
  const eol = /\r\n|\n|\r|$/.exec(text.slice(comment.end)) as RegExpExecArray;
  const lineEnd = comment.end + eol.index;
  const alone =
    /^[ \t]*$/.test(text.slice(lineStart, comment.start)) &&
    /^[ \t]*$/.test(text.slice(comment.end, lineEnd));
  if (alone) return { span: { start: lineStart, end: lineEnd + eol[0].length }, newText: '' };
  const blanks = /[ \t]*$/.exec(text.slice(lineStart, comment.start))?.[0].length ?? 0;
  return { span: { start: comment.start - blanks, end: comment.end }, newText: '' };
}

/** The directive's comment listing only `codes` (its reason kept), in the comment style it had. */
function rewritten(text: string, d: Directive, codes: readonly string[]): string {
  const body = `${PREFIX}${d.kind} ${codes.join(', ')}${d.reason ? ` -- ${d.reason}` : ''}`;
  return text.startsWith('/*', d.comment.start) ? `/* ${body} */` : `// ${body}`;
}

/** The line ending `text` uses first (`\r\n`, `\n` or `\r`); `\n` for a text of one line. */
export function lineEnding(text: string): string {
  const at = /\r\n|\n|\r/.exec(text);
  return at ? at[0] : '\n';
}

/**
 * The edit that disables `code` for the line where `finding` is reported: a
 * `writev-lint-disable-next-line` comment above it, with the line's indentation and the file's line
 * ending (`/* *\/` in C, which every C standard accepts; `//` in TS/JS). When the line above already
 * holds such a comment listing other codes, `code` is added to its list instead.
 */
export function disableLineEdit(
  text: string,
  language: Language,
  finding: Finding,
  code: RuleCode,
): TextEdit {
  const starts = lineStarts(text);
  const line = lineOf(starts, finding.span.start);
  const start = starts[line] as number;
  const indent = /^[ \t]*/.exec(text.slice(start, start + 256))?.[0] ?? '';
  const above = line > 0 ? text.slice(starts[line - 1], start).replace(/\r?\n$|\r$/, '') : '';
  const existing = /^([ \t]*(?:\/\/|\/\*)\s*writev-lint-disable-next-line\s+[\w-]+(?:\s*,\s*[\w-]+)*)/.exec(
    above,
  );
  if (existing?.[1] && !above.includes(' -- ')) {
    const at = (starts[line - 1] as number) + existing[1].length;
    return { span: { start: at, end: at }, newText: `, ${code}` };
  }
  const comment =
    language === 'c' ? `/* ${PREFIX}disable-next-line ${code} */` : `// ${PREFIX}disable-next-line ${code}`;
  return { span: { start, end: start }, newText: `${indent}${comment}${lineEnding(text)}` };
}
