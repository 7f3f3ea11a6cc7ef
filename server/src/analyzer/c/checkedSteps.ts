// `__builtin_add_overflow(written, n, &written)` is `written += n` that also says whether it wrapped:
// code that guards its arithmetic (a write-in-full loop counting what it sent) steps its count that
// way. Read as the step it is, the count grows as a loop's count must (helperBodies.ts bodyFacts).
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, withoutCasts } from './syntax';

const spelled = (n: Node | undefined) => n?.text.replace(/\s+/g, '');

/**
 * The name `call` steps and how, when it is a compiler's checked addition or subtraction storing into
 * its first operand (`__builtin_add_overflow(x, n, &x)`: `'+'`; `__builtin_sub_overflow(x, n, &x)`:
 * `'-'`), casts aside; undefined for any other call.
 */
export function checkedStep(call: Node): { name: string; sign: '+' | '-' } | undefined {
  const callee = calleeName(call);
  const sign =
    callee === '__builtin_add_overflow' ? '+' : callee === '__builtin_sub_overflow' ? '-' : undefined;
  if (!sign) return undefined;
  const [first, , result] = callArgs(call);
  if (!first || !result) return undefined;
  const target = withoutCasts(result);
  if (target.type !== 'pointer_expression' || target.child(0)?.text !== '&') return undefined;
  const name = withoutCasts(first);
  if (name.type !== 'identifier' || spelled(target.childForFieldName('argument') ?? undefined) !== name.text)
    return undefined;
  return { name: name.text, sign };
}
