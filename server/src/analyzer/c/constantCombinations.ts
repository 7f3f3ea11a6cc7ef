// A value writer that combines its value with a constant before it writes it: `int code = n & 255;
// return write(pfd, &code, sizeof code);` (a message code masked to a byte), `uint8_t b = kind << 4;`,
// `uint32_t v = htonl(len + 1);`. As for a conversion (convertedValues.ts), each call is one write of
// bytes its caller's argument decides, of the same size every time: gathered, the calls would send
// what they send now, in their order. The helper writes no buffer of its caller, so no fix is offered
// for it (what an iovec would point at is computed inside it), only the finding.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/** Operators that compute a number from two numbers (not a comparison or a logical test). */
const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '&', '|', '^', '<<', '>>']);

/**
 * True when `node` is a constant the compiler folds: a number or character literal, a `sizeof`, an
 * upper-case name (a macro or enumerator by the convention C code follows), or such constants
 * combined by {@link ARITHMETIC} operators.
 */
function constant(node: Node): boolean {
  const n = withoutCasts(node);
  switch (n.type) {
    case 'number_literal':
    case 'char_literal':
    case 'sizeof_expression':
      return true;
    case 'identifier':
      return /^[A-Z][A-Z0-9_]*$/.test(n.text);
    case 'binary_expression': {
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      const op = n.childForFieldName('operator')?.type ?? '';
      return ARITHMETIC.has(op) && !!left && !!right && constant(left) && constant(right);
    }
    default:
      return false;
  }
}

/**
 * The operand of `node` that is not a constant, when `node` combines one operand with a constant by
 * an arithmetic or bitwise operator (`v & 0xff`, `1 + v`, `v << SHIFT`); undefined otherwise. The
 * caller reads what that operand is (a parameter, a conversion of one).
 */
export function combinedOperand(node: Node): Node | undefined {
  if (node.type !== 'binary_expression') return undefined;
  const op = node.childForFieldName('operator')?.type ?? '';
  if (!ARITHMETIC.has(op)) return undefined;
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!left || !right) return undefined;
  if (constant(right) && !constant(left)) return left;
  if (constant(left) && !constant(right)) return right;
  return undefined;
}
