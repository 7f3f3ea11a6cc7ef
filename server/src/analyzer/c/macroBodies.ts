// Function-like macros whose body is several writes (`#define SEND_END(fd, m) { send(fd, m, sizeof m,
// 0); SEND_EOF(fd); }`, or `if (verbose) { write(2, a, ..); write(2, b, ..); }`). A use of one is that
// many syscalls at the use site, as the same code written out would be; the fix belongs in the body,
// where one change serves every use, so a use is reported without a fix of its own, its related
// locations the body's writes.
import type { CWriteFunction } from '../catalogue';
import type { Span } from '../model';
import { splitArgs, substitute, TOKEN, type CMacro } from './macros';
import { leadingIf } from './macroStatements';

/** One write of a macro body: the write function and its arguments, spelled in the macro's parameters. */
export interface MacroWrite {
  readonly callee: string;
  readonly args: readonly string[];
  /**
   * The name the body's statement calls (the write function, or a macro of the file that expands to
   * this write) and the statement's place among the body's statements: where the write is written.
   */
  readonly written?: { readonly name: string; readonly statement: number };
}

/** The writes a macro body makes in order, and what its expansion is otherwise. */
export interface MacroBody {
  readonly writes: readonly MacroWrite[];
  /** The body runs its writes only when this holds (`if (verbose) { ... }`), as written in the body. */
  readonly guard?: string;
  /** The line of the `#define` (1-based), where the fix goes. */
  readonly line: number;
  /**
   * Where each write's statement is in the file (one span per write, in order), for a body defined in
   * the file that uses it: a use's finding points at the writes the fix changes. Absent: not known.
   */
  readonly calls?: readonly Span[];
}

/** What leaves the code around the expansion: the macro then ends a run (see macroStatements.ts). */
const LEAVES = /\b(?:return|goto|break|continue|exit|_exit|abort|longjmp|siglongjmp)\b/;

/** `(void) call(...)`: the cast only quiets a warning about the ignored result. */
const VOID_CAST = /^\(\s*void\s*\)\s*/;

/** A declaration of one local (`char buf[2]`, `int n = 0`): its name. */
const DECLARATION =
  /^(?:(?:const|unsigned|signed|static|volatile)\s+)*[A-Za-z_]\w*[\s*]+([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=[\s\S]*)?$/;

/** An assignment to a name or an element of one (`buf[0] = c`): the name. */
const ASSIGNMENT = /^([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=[^=][\s\S]*$/;

/** `text` without the braces (or `do { } while (0)`) a statement macro wraps its statements in. */
function unwrapped(text: string): string {
  const statement = /^\s*(?:do\s*)?\{([\s\S]*)\}\s*(?:while\s*\(\s*0\s*\))?\s*;?\s*$/.exec(text);
  return statement ? statement[1]! : text;
}

/** `if (guard) rest` as a body: the guard and the rest, or undefined (an `else` is no plain guard). */
function guarded(text: string): { guard: string; rest: string } | undefined {
  const found = leadingIf(text);
  if (!found || /\belse\b/.test(found.rest)) return undefined;
  return { guard: found.test.trim(), rest: found.rest };
}

/** The statements of `text` split at its top-level semicolons; undefined if one holds a block. */
function statements(text: string): string[] | undefined {
  const found: string[] = [];
  let depth = 0;
  let current = '';
  for (const token of text.match(TOKEN) ?? []) {
    if (token === '{' || token === '}') return undefined;
    if (token === '(' || token === '[') depth++;
    if (token === ')' || token === ']') depth--;
    if (depth < 0) return undefined;
    if (token === ';' && depth === 0) {
      if (current.trim() !== '') found.push(current.trim());
      current = '';
    } else current += token;
  }
  if (current.trim() !== '') found.push(current.trim());
  return depth === 0 ? found : undefined;
}

/**
 * The writes one statement of a body makes, in the macro's parameters: a call to a write function, or
 * to a macro of the file already read (one write, or a body of several without a guard, its arguments
 * put in place). Undefined when the statement is not a write.
 */
function writesOf(
  statement: string,
  functions: ReadonlyMap<string, CWriteFunction>,
  macros: ReadonlyMap<string, CMacro>,
): MacroWrite[] | undefined {
  const call = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(statement.replace(VOID_CAST, ''));
  if (!call) return undefined;
  const args = splitArgs(call[2]!);
  if (!args) return undefined;
  const fn = functions.get(call[1]!);
  if (fn)
    return !fn.gathered && args.length === (fn.arity ?? args.length)
      ? [{ callee: fn.name, args }]
      : undefined;
  const nested = macros.get(call[1]!);
  if (!nested || nested.params.length !== args.length || nested.body?.guard !== undefined) return undefined;
  const inner = nested.body?.writes ?? [{ callee: nested.callee, args: nested.args }];
  return inner.map((w) => ({
    callee: w.callee,
    args: w.args.map((a) => substitute(a, nested.params, args)),
  }));
}

/**
 * The body of a function-like macro (`value`, continuation lines joined) read as two writes or more:
 * optionally under one `if` without `else`, locals of the body declared and filled first (`char
 * b[2]; b[0] = c;`, no call), then only writes (and `extern` declarations anywhere). Undefined for
 * anything else, and for a body that may leave (a `return` in it ends the run instead). `macros`: the
 * file's macros read so far.
 */
export function macroBody(
  value: string,
  line: number,
  functions: ReadonlyMap<string, CWriteFunction>,
  macros: ReadonlyMap<string, CMacro>,
): MacroBody | undefined {
  if (LEAVES.test(value)) return undefined;
  let text = unwrapped(value);
  const condition = guarded(text);
  if (condition) text = unwrapped(condition.rest);
  const list = statements(text);
  if (!list) return undefined;
  const writes: MacroWrite[] = [];
  const locals = new Set<string>();
  for (const [k, statement] of list.entries()) {
    // A function declared in the body (`extern int write(int, const void *, unsigned);`) runs nothing.
    if (/^extern\b/.test(statement)) continue;
    const made = writesOf(statement, functions, macros);
    if (made) {
      const name = /^[A-Za-z_]\w*/.exec(statement.replace(VOID_CAST, ''))![0];
      writes.push(...made.map((w) => ({ ...w, written: { name, statement: k } })));
      continue;
    }
    // Preparing the body's own buffers happens before its first write, calls nothing and changes
    // nothing of the caller's: past the first write it would sit between two writes.
    if (writes.length > 0 || /\b(?!sizeof\b)[A-Za-z_]\w*\s*\(/.test(statement)) return undefined;
    const declared = DECLARATION.exec(statement);
    const assigned = ASSIGNMENT.exec(statement);
    if (declared && !/^return\b/.test(statement)) locals.add(declared[1]!);
    else if (!assigned || !locals.has(assigned[1]!)) return undefined;
  }
  if (writes.length < 2) return undefined;
  return { writes, line, ...(condition && { guard: condition.guard }) };
}

/**
 * Where each write of `body` is in the file: `value` is the definition's value as written (continuation
 * lines kept) and `start` its offset. Each write's statement is found in order by the name it calls;
 * undefined when one is not found (the body then points at its `#define` only).
 */
export function bodyCalls(body: MacroBody, value: string, start: number): Span[] | undefined {
  const found: Span[] = [];
  let from = 0;
  let last: { statement: number; span: Span } | undefined;
  for (const write of body.writes) {
    if (!write.written) return undefined;
    if (last?.statement !== write.written.statement) {
      const at = new RegExp(`\\b${write.written.name}\\s*\\(`, 'g');
      at.lastIndex = from;
      const match = at.exec(value);
      if (!match) return undefined;
      from = match.index + match[0].length;
      last = {
        statement: write.written.statement,
        span: { start: start + match.index, end: start + match.index + write.written.name.length },
      };
    }
    found.push(last.span);
  }
  return found;
}
