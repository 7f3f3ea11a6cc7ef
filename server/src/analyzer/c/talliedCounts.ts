// Byte counts tallied for a report: `sent += put(fd, "DATA");` statement after statement, the
// total only handed to a log at the end (`log_info("sent %d bytes", sent)`). The tally
// decides nothing: no test reads it, no computation, no other call, so each write of a run is still one
// write, and one gathered call adds the total of the same bytes once. The totals differ only after a
// short or failed write, when the tally was already no count of what arrived, and only in a message.
// The finding says so and has no fix (the gathered call's count must be added to the tally by hand).
//
// A local tally the function returns is as unread when no caller reads the result: a `static` function
// whose every call in the file stands as a statement of its own (discardedResults.ts), as in
// `len += write(fd, host, n); ... return len;` for a prompt that callers only draw.
//
// The tally is a local of the function, read from its syntax tree, or a variable of the file, read
// from the file's text (a function may come from a parse of part of the file, see parser.ts
// `functions`, and the declarations and the other functions are outside it): declared at file scope,
// never `extern`, and used only so in every function that does not declare its own of the same name.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { accumulating } from './accumulations';
import { resultDiscarded } from './discardedResults';
import { reportCall } from './keptFailures';
import { codeOnly, functionSpans } from './settledGlobals';
import { calleeName, callArgs, functionName, identifiers, unwrap } from './syntax';
import { callWrite, keptResultStep, type CContext } from './writes';

/** The function definition around `node`, if any. */
function enclosingFunction(node: Node): Node | undefined {
  for (let n = node.parent; n; n = n.parent) if (n.type === 'function_definition') return n;
  return undefined;
}

/** True when `use` (an identifier) is the left side of `use += ...;`, a statement of its own. */
function tallies(use: Node): boolean {
  const assign = use.parent;
  if (assign?.type !== 'assignment_expression' || assign.childForFieldName('left')?.id !== use.id)
    return false;
  return (
    assign.childForFieldName('operator')?.text === '+=' && assign.parent?.type === 'expression_statement'
  );
}

/** True when `use` is the name a declaration declares (`int n = 0;`, `int n;`). */
function declares(use: Node): boolean {
  const parent = use.parent;
  if (parent?.type === 'declaration') return true;
  return parent?.type === 'init_declarator' && parent.childForFieldName('declarator')?.id === use.id;
}

/** True when `use` is (inside) an argument of a call that reports: a C library report or a logger. */
function reported(use: Node): boolean {
  for (let n: Node | null = use.parent; n; n = n.parent) {
    if (n.type === 'argument_list') {
      const call = n.parent;
      const name = call ? calleeName(call) : undefined;
      return !!call && !!name && reportCall(name) && callArgs(call).some((a) => identifiers(a).has(use.text));
    }
    if (n.type.endsWith('statement') || n.type === 'compound_statement') return false;
  }
  return false;
}

/** True when `use` is returned: `return n;`, or the first term of `return n + ...;`. */
function returned(use: Node): boolean {
  const parent = use.parent;
  if (parent?.type === 'return_statement') return true;
  return (
    parent?.type === 'binary_expression' &&
    parent.childForFieldName('operator')?.text === '+' &&
    parent.childForFieldName('left')?.id === use.id &&
    parent.parent?.type === 'return_statement'
  );
}

/**
 * How a local of `fn`'s body is used: `reported` when only as its declaration, tallies and reports,
 * `returned` when also returned (see the file's comment), undefined when anything else reads it.
 */
function localTally(body: Node, name: string): 'reported' | 'returned' | undefined {
  const uses = body.descendantsOfType('identifier').filter((n) => n.text === name);
  const others = uses.filter((use) => !declares(use) && !tallies(use) && !reported(use));
  if (others.length === 0) return 'reported';
  return others.every(returned) ? 'returned' : undefined;
}

/** Words that may stand before a name without declaring it (`return n;`). */
const NOT_TYPES = /\b(?:return|else|case|goto|sizeof|do)\s*$/;

/** The files read last, and the answer by variable. */
let lastFile: { readonly text: string; readonly answers: Map<string, boolean> } | undefined;

/**
 * True when the file `text` declares `name` at file scope (not `extern`) and every function that does
 * not declare its own `name` (a local or a parameter) uses it only as `name += ...;`, `name = <number>;`
 * or a whole argument of a report.
 */
function fileTally(text: string, name: string): boolean {
  if (lastFile?.text !== text) lastFile = { text, answers: new Map() };
  const known = lastFile.answers.get(name);
  if (known !== undefined) return known;
  const answer = fileTallyOf(codeOnly(text), name);
  lastFile.answers.set(name, answer);
  return answer;
}

/**
 * `code` with the later alternatives of every conditional blanked (from `#else` or `#elif` to the
 * group's `#endif`, offsets and line ends kept): each alternative may open a block of its own
 * (`#ifdef INET6` / `for (...) {` / `#else` / `for (...) {` / `#endif`), and counting both would leave
 * every later function inside the first.
 */
function firstAlternatives(code: string): string {
  if (!/^[ \t]*#[ \t]*(?:else|elif)\b/m.test(code)) return code;
  const skipping: boolean[] = [];
  return code
    .split('\n')
    .map((line) => {
      const keyword = /^[ \t]*#[ \t]*(\w+)/.exec(line)?.[1];
      if (keyword && /^if(?:n?def)?$/.test(keyword)) skipping.push(false);
      else if (keyword === 'else' || keyword === 'elif') {
        if (skipping.length > 0) skipping[skipping.length - 1] = true;
      } else if (keyword === 'endif') skipping.pop();
      return skipping.includes(true) || keyword === 'else' || keyword === 'elif'
        ? ' '.repeat(line.length)
        : line;
    })
    .join('\n');
}

function fileTallyOf(text: string, name: string): boolean {
  const code = firstAlternatives(text);
  const spans = functionSpans(code);
  const inside = (at: number) => spans.find((s) => s.from <= at && at < s.to);
  const declaration = new RegExp(
    `^(?:static[ \\t]+)?[A-Za-z_][\\w \\t*]*[ \\t*]${name}[ \\t]*(?:=[ \\t]*-?\\d+[ \\t]*)?;`,
    'gm',
  );
  const declared = [...code.matchAll(declaration)].filter((m) => !inside(m.index));
  if (declared.length === 0 || new RegExp(`^extern\\b[^;{}()]*\\b${name}\\b`, 'm').test(code)) return false;
  const own = new RegExp(
    `(?:^|[;{(,])[ \\t]*(?:(?:const|static|register|unsigned|signed|struct|long|short)[ \\t]+)*[A-Za-z_]\\w*[ \\t*]+${name}[ \\t]*(?:[=;,)\\[])`,
    'm',
  );
  const shadowing = new Set(
    spans.filter((s) => {
      const head = code.slice(Math.max(0, s.from - 400), s.from);
      const params = /\(([^;{}()]*)\)[^;{}()]*$/.exec(head)?.[1] ?? '';
      const body = code.slice(s.from, s.to);
      const local = [...body.matchAll(new RegExp(own.source, 'gm'))].some(
        (m) => !NOT_TYPES.test(body.slice(0, m.index + m[0].indexOf(name))),
      );
      return local || new RegExp(`\\b${name}\\b`).test(params);
    }),
  );
  for (const m of code.matchAll(new RegExp(`(?<![.>]\\s*)\\b${name}\\b`, 'g'))) {
    const span = inside(m.index);
    if (!span) {
      if (!declared.some((d) => d.index <= m.index && m.index < d.index + d[0].length)) return false;
      continue;
    }
    if (shadowing.has(span)) continue;
    const before = code.slice(span.from, m.index);
    const after = code.slice(m.index + name.length);
    // After a statement, a block's brace, an if's or a loop's condition, or an else.
    const statementStart = /(?:[;{})]|\belse)[ \t\n]*$/.test(before);
    if (statementStart && /^[ \t]*\+=/.test(after)) continue;
    if (statementStart && /^[ \t]*=[ \t]*\d+[ \t]*;/.test(after)) continue;
    if (reportArgument(before, after)) continue;
    return false;
  }
  return true;
}

/** True when the name between `before` and `after` is a whole argument of a call that reports. */
function reportArgument(before: string, after: string): boolean {
  if (!/[(,][ \t\n]*$/.test(before) || !/^[ \t\n]*[,)]/.test(after)) return false;
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) {
        const callee = /([A-Za-z_]\w*)[ \t]*$/.exec(before.slice(0, i))?.[1];
        return callee !== undefined && reportCall(callee);
      }
      depth--;
    } else if ((c === ';' || c === '{' || c === '}') && depth === 0) return false;
  }
  return false;
}

/**
 * The write step of `name += <write>;` when `name` is a byte count only tallied and reported (see the
 * file's comment); undefined for any other statement.
 */
export function talliedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  const found = stmt.hasError ? undefined : accumulating(stmt);
  if (found?.op !== '+=' || stmt.type !== 'expression_statement') return undefined;
  const call = unwrap(found.right);
  if (call.type !== 'call_expression') return undefined;
  const write = callWrite(call, ctx);
  if (!write || write.own || write.syscalls !== undefined || write.targetNames.includes(found.name))
    return undefined;
  const fn = enclosingFunction(stmt);
  const body = fn?.childForFieldName('body');
  if (!fn || !body) return undefined;
  const local = body.descendantsOfType('identifier').some((n) => n.text === found.name && declares(n));
  const use = local ? localTally(body, found.name) : fileTally(ctx.text, found.name) ? 'reported' : undefined;
  if (!use) return undefined;
  if (use === 'returned') {
    const name = functionName(fn);
    if (!name || !resultDiscarded(ctx.text, name)) return undefined;
  }
  const reader =
    use === 'reported' ? 'only a report reads' : `${functionName(fn)}() returns to callers that drop it`;
  return keptResultStep(
    write,
    stmt,
    call,
    found.name,
    `the counts are tallied in ${found.name}, which ${reader}: a gathered call's count must be added to it once`,
  );
}
