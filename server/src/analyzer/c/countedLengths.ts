// A helper that builds its message in an array of its own by a loop and then writes it once: `for (i = 0;
// s[i]; i++) { if (s[i] == '\n') out[n++] = '\r'; out[n++] = s[i]; } if (n) put_all(out, n);`, or the
// same after formatting into a first array (a printf-style helper turning each `\n` into `\r\n`). Its
// length is no measure of the text (`strlen`, what `snprintf` returned) and no copied length: it is a
// count the body keeps as it stores bytes, starting from a number and only growing, or the distance a
// cursor that starts at the array has moved (`q - out`). Either way it is computed where the bytes are,
// from nothing but what the body does, so it is as much the helper's own as a measured length: each call
// is still one write of bytes its arguments decide. A test of that count against zero (`if (n)`, `if (n
// > 0)`) asks whether the body built any text, not any state of the program: a call that built none
// writes none, which sends the same bytes as writing nothing. A length read from a parameter, a global or
// a call's result is none of these: it says nothing of what the body stored.
import type { Node } from 'web-tree-sitter';
import { declaredName, identifiers, withoutCasts } from './syntax';

/** Strips parentheses and casts around `node`. */
function bare(node: Node): Node {
  let at = withoutCasts(node);
  while (at.type === 'parenthesized_expression' && at.namedChild(0)) at = withoutCasts(at.namedChild(0)!);
  return at;
}

/** An upper-case name: a macro or enumeration constant. */
const CONSTANT = /^[A-Z][A-Z0-9_]*$/;

/** Every place `body` gives `name` a value: its declaration's initializer, assignments and updates. */
function valuesOf(name: string, body: Node): Node[] {
  return body
    .descendantsOfType(['assignment_expression', 'init_declarator', 'update_expression'])
    .filter((a): a is Node => {
      if (!a) return false;
      if (a.type === 'init_declarator') return declaredName(a) === name;
      const target = a.childForFieldName(a.type === 'update_expression' ? 'argument' : 'left');
      return !!target && bare(target).text === name;
    });
}

/** Whether `body` declares `name` (a local of its own, not `static`, not a parameter). */
function declaresLocal(name: string, body: Node): boolean {
  return body
    .descendantsOfType('declaration')
    .some(
      (d) =>
        !!d &&
        !d.children.some((k) => k?.type === 'storage_class_specifier' && k.text !== 'register') &&
        d.childrenForFieldName('declarator').some((k) => declaredName(k) === name),
    );
}

/**
 * True when `value` adds no more than constants and the body's own locals (`2`, `CRLF_LEN`, `k`):
 * a step of a count that grows with what the body stores.
 */
function step(value: Node, body: Node): boolean {
  const v = bare(value);
  if (v.type === 'number_literal' || v.type === 'char_literal' || v.type === 'sizeof_expression') return true;
  return [...identifiers(v)].every((n) => CONSTANT.test(n) || declaresLocal(n, body));
}

/**
 * True when the local `name` counts up from a number: its every value is a number (`n = 0`), an
 * increment (`n++`, `++n`) or an addition of constants and locals (`n += k`).
 */
function countsUp(name: string, body: Node): boolean {
  return onlyGrowsFrom(name, body, (value) => bare(value).type === 'number_literal');
}

/**
 * True when the local pointer `cursor` starts at the array `array` (`q = out`, `char *q = out`) and
 * only moves forward from there (`q++`, `q += k`).
 */
function cursorInto(cursor: string, array: string, body: Node): boolean {
  return onlyGrowsFrom(cursor, body, (value) => bare(value).text === array);
}

/**
 * True when the local `name` is set only to a start (`starts`: a plain assignment's value, at least
 * one) and otherwise only grows: an increment (`++`) or an addition of constants and locals (`+=`).
 */
function onlyGrowsFrom(name: string, body: Node, starts: (value: Node) => boolean): boolean {
  if (!declaresLocal(name, body)) return false;
  let started = false;
  for (const a of valuesOf(name, body)) {
    if (a.type === 'update_expression') {
      if (!a.text.includes('++')) return false;
      continue;
    }
    const op = a.type === 'init_declarator' ? '=' : (a.child(1)?.text ?? '');
    const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
    if (!value) return false;
    if (op === '=') {
      if (!starts(value)) return false;
      started = true;
    } else if (op !== '+=' || !step(value, body)) return false;
  }
  return started;
}

/**
 * True when `len` (a write's length argument) is a count the body kept of the bytes it stored into the
 * local array `array` (see the file comment): a local counting up from a number, or a cursor's distance
 * from the array (`q - out`), directly or through a local the body declares and assigns only that
 * distance.
 */
export function countedLength(len: Node, array: string, body: Node): boolean {
  const b = bare(len);
  if (b.type === 'binary_expression') return distance(b, array, body);
  if (b.type !== 'identifier' || b.text === array) return false;
  if (countsUp(b.text, body)) return true;
  if (!declaresLocal(b.text, body)) return false;
  const values = valuesOf(b.text, body);
  return (
    values.length > 0 &&
    values.every((a) => {
      const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
      const op = a.type === 'init_declarator' ? '=' : (a.child(1)?.text ?? '');
      return (
        op === '=' &&
        !!value &&
        bare(value).type === 'binary_expression' &&
        distance(bare(value), array, body)
      );
    })
  );
}

/** `q - out`: how far a cursor that started at the array `array` has moved. */
function distance(b: Node, array: string, body: Node): boolean {
  if (b.childForFieldName('operator')?.text !== '-') return false;
  const left = b.childForFieldName('left');
  const right = b.childForFieldName('right');
  if (!left || !right || bare(right).text !== array || bare(left).type !== 'identifier') return false;
  return cursorInto(bare(left).text, array, body);
}

/**
 * Whether `test` (an `if`'s condition) only asks whether the count `length` is above zero: `n`, `n > 0`,
 * `n != 0`, `n >= 1`, or the same with the sides swapped (`0 < n`).
 */
export function testsCount(test: Node, length: string): boolean {
  const t = bare(test);
  if (t.type === 'identifier') return t.text === length;
  if (t.type !== 'binary_expression') return false;
  const op = t.childForFieldName('operator')?.text ?? '';
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right) return false;
  const zero = (n: Node, k: string) => bare(n).type === 'number_literal' && bare(n).text === k;
  const count = (n: Node) => bare(n).type === 'identifier' && bare(n).text === length;
  if (count(left))
    return ((op === '>' || op === '!=') && zero(right, '0')) || (op === '>=' && zero(right, '1'));
  if (count(right))
    return ((op === '<' || op === '!=') && zero(left, '0')) || (op === '<=' && zero(left, '1'));
  return false;
}
