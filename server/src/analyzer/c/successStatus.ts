// A write tested for success that only records it in a local status: `if (write(fd, val, n) == n) ret =
// 0;` after `int ret = -1;`. Nothing runs on the failure path (the status keeps its failure value), and
// on success one constant is stored, so the write is one checked write like `if (write(...) != n) ret =
// -1;` with the test turned round. The writes before it may join it in a run: one gathered call whose
// total stands in the test sets the status only when every byte went out, which is what the last
// write's test meant for the bytes it sent. The test would need rewriting for the total, so the write
// is reported without a fix.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { declaredName, namedKids, unwrap } from './syntax';
import { callWrite, checkOf, keptResultStep, sameLength, type CContext } from './writes';

/** A number, a character, or a name in capitals (an enum or macro constant such as `STATUS_OK`). */
const CONSTANT = /^(?:-?\s*(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*|'(?:\\.|[^'\\])'|[A-Z][A-Z0-9_]*|true|false)$/;

/** The statement of `body` when it is a single `name = constant;` (braces or none), as its two parts. */
function storedConstant(body: Node | null): { name: string } | undefined {
  if (!body) return undefined;
  const kids =
    body.type === 'compound_statement' ? namedKids(body).filter((k) => k.type !== 'comment') : [body];
  const only = kids.length === 1 ? kids[0] : undefined;
  if (only?.type !== 'expression_statement') return undefined;
  const assign = only.namedChild(0) ? unwrap(only.namedChild(0) as Node) : undefined;
  if (assign?.type !== 'assignment_expression' || assign.childForFieldName('operator')?.text !== '=')
    return undefined;
  const left = assign.childForFieldName('left');
  const right = assign.childForFieldName('right');
  if (left?.type !== 'identifier' || !right || !CONSTANT.test(unwrap(right).text.trim())) return undefined;
  return { name: left.text };
}

/** True when `name` is declared in the body of the function around `node` (a local, not a global). */
function declaredLocally(name: string, node: Node): boolean {
  let fn: Node | null = node.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const body = fn?.childForFieldName('body');
  if (!body) return false;
  return body
    .descendantsOfType('declaration')
    .some((d) => !!d && d.childrenForFieldName('declarator').some((x) => !!x && declaredName(x) === name));
}

/**
 * The write step of `if (<write tested for success>) <local> = <constant>;` (no `else`, the consequence
 * that one assignment), see the file comment; undefined for any other statement. A plain write's
 * success is `== len` with the length it was given; a status helper's is its own (`== 0` or `!put(...)`
 * for one returning 0 on success, the bare call for one returning non-zero on success).
 */
export function successStatusStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError || stmt.childForFieldName('alternative'))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  const stored = storedConstant(stmt.childForFieldName('consequence'));
  if (!cond || !stored || !declaredLocally(stored.name, stmt)) return undefined;
  const check = checkOf(cond, ctx.codes);
  if (!check || check.assigned) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write || write.own || write.syscalls !== undefined || write.targetNames.includes(stored.name))
    return undefined;
  const succeeds = write.truthyOnSuccess
    ? check.kind === 'truthy'
    : write.zeroOnSuccess
      ? check.kind === 'falsy'
      : check.kind === '==' && !!check.len && sameLength(check.len.text, write.checkLen);
  if (!succeeds) return undefined;
  return keptResultStep(
    write,
    stmt,
    check.call,
    stored.name,
    `${stored.name} is set only when this write sent everything, a test a gathered call would need rewritten for the total`,
  );
}
