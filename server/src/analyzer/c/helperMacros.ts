// Function-like macros over a project's write helper: `#define SEND(fd, b, n) send_traced((fd), (b),
// (n), __func__, __LINE__)` in a header, `send_traced()` a helper another file defines. A helper whose
// only write is such a macro (`return SEND(fd, s, strlen(s));`) writes through that helper as surely as
// one calling it by name, but its reading sees only the macro's name: a macro over a write function of
// the catalogue is read as that write (see macros.ts), one over a helper was read as nothing. Each such
// macro is read as the helper itself, its parameters in the helper's descriptor, buffer and length
// slots, so a helper's body calling it is a helper built on that helper. Only the reading of helpers
// takes these: a write's own statement reads a use of the macro as its expansion (macroExpansions.ts).
import type { CWrapper } from '../wrapper';
import { splitArgs, unparenthesised } from './macros';

/** `#define name(params) body`, continuation lines joined. */
const DEFINITION = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)([\s\S]*)$/;

/** Macros over macros followed at most this deep (`SEND_STR(fd, s)` over `SEND(fd, b, n)`). */
const MAX_DEPTH = 4;

/** A definition read: its parameters and the one call its body makes. */
interface OneCall {
  readonly name: string;
  readonly params: readonly string[];
  readonly callee: string;
  readonly args: readonly string[];
}

/**
 * The one call a definition's body makes, as an expression or a statement (`do { ... } while (0)`,
 * braces, a trailing `;`), or undefined for any other body or a parameter list not read here
 * (variadic ones).
 */
function oneCall(define: string): OneCall | undefined {
  const m = DEFINITION.exec(define.replace(/\\\r?\n/g, ' '));
  if (!m) return undefined;
  const params = m[2]!.trim() === '' ? [] : m[2]!.split(',').map((p) => p.trim());
  if (params.some((p) => !/^[A-Za-z_]\w*$/.test(p))) return undefined;
  const value = m[3]!.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ' ');
  const statement = /^\s*(?:do\s*)?\{([\s\S]*)\}\s*(?:while\s*\(\s*0\s*\))?\s*$/.exec(value);
  const inner = unparenthesised((statement ? statement[1]! : value).trim().replace(/;\s*$/, ''));
  const call = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(inner);
  const args = call && splitArgs(call[2]!);
  if (!call || !args) return undefined;
  return { name: m[1]!, params, callee: call[1]!, args };
}

/**
 * The helper `def` stands for when its call passes `w`'s descriptor, buffer, length and every other
 * parameter `w` reads a call's argument at (flags, the function it writes with, a pace, a selecting
 * argument) straight from the macro's parameters; the length may also be `strlen()` of the buffer,
 * which makes the macro a writer of C strings. The macro's other arguments may call nothing (they are
 * evaluated at each use, between the caller's writes): `__func__`, `__LINE__`, constants.
 */
function overHelper(def: OneCall, w: CWrapper): CWrapper | undefined {
  if (def.args.length < w.arity) return undefined;
  const param = (k: number) => {
    const arg = def.args[k];
    return arg === undefined ? -1 : def.params.indexOf(unparenthesised(arg));
  };
  const slots = new Set<number>();
  const mapped = (k: number | undefined): number | undefined => {
    if (k === undefined) return undefined;
    slots.add(k);
    return param(k);
  };
  let fd = w.fd;
  if ('param' in w.fd) {
    const at = mapped(w.fd.param)!;
    if (at < 0) return undefined;
    fd = { ...w.fd, param: at };
  }
  const buf = w.buf < 0 ? w.buf : mapped(w.buf)!;
  if (buf < 0) return undefined;
  let len = mapped(w.len);
  if (len !== undefined && len < 0) {
    // `strlen(b)` of the buffer parameter: the call passes a C string.
    const counted = /^strlen\s*\(([\s\S]*)\)$/.exec(unparenthesised(def.args[w.len!] ?? ''));
    if (!counted || unparenthesised(counted[1]!) !== def.params[buf]) return undefined;
    len = undefined;
  }
  const others = [w.flags, w.mode, w.pace, w.select?.param].map(mapped);
  if (others.some((k) => k !== undefined && k < 0)) return undefined;
  const [flags, mode, pace, select] = others;
  const rest = def.args.filter((_, k) => !slots.has(k)).join(',');
  if (/\b(?!sizeof\b)[A-Za-z_]\w*\s*\(/.test(rest)) return undefined;
  const { len: _len, flags: _flags, mode: _mode, pace: _pace, select: _select, ...kept } = w;
  return {
    ...kept,
    name: def.name,
    fd,
    buf,
    arity: def.params.length,
    ...(len !== undefined && { len }),
    ...(flags !== undefined && { flags }),
    ...(mode !== undefined && { mode }),
    ...(pace !== undefined && { pace }),
    ...(select !== undefined && w.select && { select: { ...w.select, param: select } }),
  };
}

/**
 * The macros among `defines` (function-like definitions as written: the included headers', then the
 * file's own) that stand for one of the `known` helpers (another file's, the settings'), as helpers of
 * the macro's name, macros over such macros included. `calls` finds a call of a known name in a
 * definition's text: only those are read, then those calling a macro found. A name defined twice
 * (`#ifdef` alternatives) or that `own` (the file's functions) holds is left out, as is a macro over a
 * write function of the catalogue (macros.ts reads those). Does not modify its arguments.
 */
export function helperMacros(
  defines: readonly string[],
  known: ReadonlyMap<string, CWrapper>,
  own: ReadonlySet<string>,
  calls: RegExp,
): CWrapper[] {
  if (defines.length === 0 || known.size === 0) return [];
  const count = new Map<string, number>();
  for (const d of defines) {
    const name = DEFINITION.exec(d)?.[1];
    if (name) count.set(name, (count.get(name) ?? 0) + 1);
  }
  const found = new Map<string, CWrapper>();
  let left = defines;
  let wanted = calls;
  for (let depth = 0; depth < MAX_DEPTH && left.length > 0; depth++) {
    const before = found.size;
    const next: string[] = [];
    for (const text of left) {
      if (!wanted.test(text)) {
        next.push(text);
        continue;
      }
      const d = oneCall(text);
      if (!d || count.get(d.name) !== 1 || own.has(d.name) || known.has(d.name) || found.has(d.name))
        continue;
      const w = known.get(d.callee) ?? found.get(d.callee);
      const helper = w && overHelper(d, w);
      if (helper) found.set(d.name, helper);
    }
    if (found.size === before) break;
    const names = [...found.keys()].slice(before);
    wanted = new RegExp(`\\b(?:${names.join('|')})[\\s\\\\]*\\(`);
    left = next;
  }
  return [...found.values()];
}
