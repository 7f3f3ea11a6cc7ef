// A write helper paced by one of its parameters: serial-line senders pause between bytes for slow
// devices (`n = write(fd, p, d == 0 ? left : 1); usleep(d);`). With a pause of 0 the helper is a plain
// write-in-full loop, and callers (or one-line forwarders) that pass a constant 0 make one write per
// call, which joins runs. Any other pause spreads the bytes out in time on purpose: such a call is no
// write the analyzer joins (a gathered call would send them all at once).
import type { Node } from 'web-tree-sitter';
import { calleeName, callArgs, withoutCasts } from './syntax';

/** Library calls that pause the caller for as long as their argument says (0: no pause). */
const SLEEPS: ReadonlySet<string> = new Set(['usleep', 'sleep', 'msleep', 'Sleep']);

/** True when `node` is the constant 0 (`0`, `0U`, `(useconds_t)0`). */
export function zeroConstant(node: Node | undefined): boolean {
  return !!node && /^0[uUlL]*$/.test(withoutCasts(node).text);
}

/**
 * The parameter a test compares with 0, and which way: `p == 0`, `0 == p`, `!p` hold when it is 0;
 * `p != 0`, `p > 0` and a bare `p` hold when it is not.
 */
function zeroTest(
  test: Node,
  params: readonly (string | undefined)[],
): { readonly param: number; readonly whenZero: boolean } | undefined {
  const t = withoutCasts(test);
  const param = (n: Node | null) =>
    n && withoutCasts(n).type === 'identifier' ? params.indexOf(withoutCasts(n).text) : -1;
  if (t.type === 'identifier') {
    const p = param(t);
    return p >= 0 ? { param: p, whenZero: false } : undefined;
  }
  if (t.type === 'unary_expression' && t.childForFieldName('operator')?.text === '!') {
    const p = param(t.childForFieldName('argument'));
    return p >= 0 ? { param: p, whenZero: true } : undefined;
  }
  if (t.type !== 'binary_expression') return undefined;
  const op = t.childForFieldName('operator')?.text ?? '';
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  const [side, constant] = zeroConstant(right ?? undefined) ? [left, right] : [right, left];
  if (!zeroConstant(constant ?? undefined)) return undefined;
  const p = param(side);
  if (p < 0) return undefined;
  if (op === '==') return { param: p, whenZero: true };
  if (op === '!=' || (op === '>' && side === left)) return { param: p, whenZero: false };
  return undefined;
}

/**
 * The parameter a pause is (`d`, or scaled by a number: `d * 1000`), or -1: a pause of 0 then is no
 * pause at all.
 */
function pauseParam(arg: Node, params: readonly (string | undefined)[]): number {
  const b = withoutCasts(arg);
  if (b.type === 'identifier') return params.indexOf(b.text);
  if (b.type !== 'binary_expression' || b.childForFieldName('operator')?.text !== '*') return -1;
  const sides = [b.childForFieldName('left'), b.childForFieldName('right')].map((n) =>
    n ? withoutCasts(n) : n,
  );
  const named = sides.filter((n) => n?.type === 'identifier');
  const numbers = sides.filter((n) => n?.type === 'number_literal');
  return named.length === 1 && numbers.length === 1 ? params.indexOf(named[0]!.text) : -1;
}

/** The length a helper sends once its pacing parameter is 0, and that parameter (see the file comment). */
export interface Unpaced {
  /** The writer's length argument under a pause of 0 (the arm of `d == 0 ? left : 1` chosen). */
  readonly lenArg: Node | undefined;
  /** The pacing parameter, when the body has one: calls must pass 0 there. */
  readonly pace?: number;
}

/**
 * What the helper whose writer takes `lenArg` sends when unpaced: the length chosen by a test of a
 * parameter against 0 (`d == 0 ? left : 1`), and a pause on a parameter anywhere in `body`
 * (`usleep(d)`). Undefined when the two name different parameters, or the parameter changes in the body.
 * A helper with neither keeps its length and has no pacing parameter.
 */
export function unpaced(
  lenArg: Node | undefined,
  body: Node,
  params: readonly (string | undefined)[],
  changed: (name: string) => boolean,
): Unpaced | undefined {
  let pace: number | undefined;
  let len = lenArg;
  const b = lenArg ? withoutCasts(lenArg) : undefined;
  if (b?.type === 'conditional_expression') {
    const test = b.childForFieldName('condition');
    const zero = test ? zeroTest(test, params) : undefined;
    if (zero) {
      pace = zero.param;
      len = b.childForFieldName(zero.whenZero ? 'consequence' : 'alternative') ?? undefined;
    }
  }
  for (const call of body.descendantsOfType('call_expression')) {
    if (!call || !SLEEPS.has(calleeName(call) ?? '')) continue;
    const args = callArgs(call);
    const param = args.length === 1 ? pauseParam(args[0]!, params) : -1;
    // A pause of a fixed length (or of a local's) is no parameter's: the helper is read as before.
    if (param < 0) continue;
    if (pace !== undefined && pace !== param) return undefined;
    pace = param;
  }
  if (pace === undefined) return { lenArg: len };
  return changed(params[pace] as string) ? undefined : { lenArg: len, pace };
}
