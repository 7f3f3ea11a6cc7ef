// `#define S "\n"` and `#undef S` among a function's statements: the preprocessor acts on them before
// anything runs, so at run time they are no statement. Read as a barrier (the default for what the
// reader does not know), they ended a run of writes to one descriptor that only names a string through
// the macro:
//
//     write(STDOUT_FILENO, argv[i], strlen(argv[i]));
//   #define S "\n"
//     write(STDOUT_FILENO, S, -1 + sizeof S);
//   #undef S
//
// What such a line does change is what its name means to the code after it, which is what an
// assignment does to a variable: it becomes a step that changes that name's binding (never the bytes
// behind it). The run engine then reads it as it reads `c = name[0];` between two writes: a later write
// that sends the name is computed between, and no fix moves the line after the writes that need it;
// a write that sent it before keeps its bytes. A directive naming the descriptor ends the run as any
// change of the descriptor does. A name the function calls (`#define write traced_write`) would change
// which function a later write calls: such a line stays a barrier.
import type { Node } from 'web-tree-sitter';
import type { OtherStep, Span } from '../model';
import { calleeName, calls } from './syntax';

/** The name a `#define` or `#undef` line among statements defines or removes, or undefined. */
function definedName(stmt: Node): string | undefined {
  if (stmt.type === 'preproc_def' || stmt.type === 'preproc_function_def')
    return stmt.childForFieldName('name')?.text;
  if (stmt.type !== 'preproc_call') return undefined;
  if (stmt.childForFieldName('directive')?.text.replace(/\s+/g, '') !== '#undef') return undefined;
  const name = stmt.childForFieldName('argument')?.text.trim();
  return name && /^[A-Za-z_]\w*$/.test(name) ? name : undefined;
}

/** The function definition `node` stands in, if any. */
function enclosingFunction(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) if (at.type === 'function_definition') return at;
  return undefined;
}

/**
 * The step of a `#define NAME ...` or `#undef NAME` line standing among a function's statements: it
 * calls nothing and changes the binding of NAME only (`mutated` empty: no bytes a write sent change).
 * Undefined for any other statement, and for a directive whose name the function calls (it would
 * change what a later call is).
 */
export function definingDirectiveStep(stmt: Node, span: Span): OtherStep | undefined {
  const name = definedName(stmt);
  if (!name) return undefined;
  const fn = enclosingFunction(stmt);
  const body = fn?.childForFieldName('body');
  if (!body || calls(body).some((c) => calleeName(c) === name)) return undefined;
  // The line's span without its line break: a fix that moves it puts it on a line of its own.
  const end = span.start + stmt.text.trimEnd().length;
  return {
    kind: 'other',
    span: { start: span.start, end },
    reads: [],
    writes: [name],
    mutated: [],
    calls: [],
    barrier: false,
  };
}
