// Write helpers that send static storage: `void wn(unsigned long u) { w(fmt_ul(u)); }`, where
// `fmt_ul` returns one static buffer (see staticReturns.ts). Each call of `wn` formats into that
// buffer and writes it; gathered into one writev, `wn(1); wn(2);` would send the buffer twice as the
// second call left it ("2" twice), since writev reads every buffer when it runs. Such a helper is
// taken as a function returning static storage itself, and a call of it as a call of the functions
// whose storage it sends: the run joiner ends a run where a later call overwrites what an earlier write
// sent, as it does for `w(fmt_ul(1)); w(fmt_ul(2));` and for `wn(1); w(fmt_ul(2));`.
import type { Node } from 'web-tree-sitter';
import type { CFunctionFact } from './functionFacts';
import type { CWrapper } from '../wrapper';
import { calleeName, calls, declaredName } from './syntax';

/**
 * The functions whose result a helper's buffer argument `buf` is (`fmt_ul(u)` in `w(fmt_ul(u))`), or,
 * for a local, whose result `body` assigns it (`s = fmt_ul(u); w(s);`): what a call of the helper
 * sends, where it sends a function's result (see {@link CWrapper.sends}). A function called on the
 * side (`strerror()` in a log line of the failure) is none of them.
 */
export function sentResults(buf: Node, body: Node): string[] {
  const found = new Set<string>();
  const add = (node: Node) => {
    for (const call of calls(node)) {
      const name = calleeName(call);
      if (name) found.add(name);
    }
  };
  add(buf);
  if (buf.type === 'identifier')
    for (const n of body.descendantsOfType(['init_declarator', 'assignment_expression'])) {
      if (!n) continue;
      const target =
        n.type === 'init_declarator'
          ? declaredName(n.childForFieldName('declarator'))
          : n.childForFieldName('left')?.type === 'identifier'
            ? n.childForFieldName('left')!.text
            : undefined;
      const value = n.childForFieldName(n.type === 'init_declarator' ? 'value' : 'right');
      if (target === buf.text && value) add(value);
    }
  return [...found].sort();
}

/**
 * The helpers of `functions` that send static storage, each with the functions of `statics` whose
 * storage it sends: read as helpers that send a function's result (see {@link CWrapper.sends}), one of
 * `statics` (or, to a fixed point, another such helper, whose functions it then sends). A helper that
 * only calls such a function on the side (`strerror()` in its failure's log line) sends none of it.
 * Does not modify its arguments.
 */
export function staticSenders(
  statics: ReadonlySet<string>,
  functions: Iterable<CFunctionFact>,
  wrapper: (name: string) => CWrapper | undefined,
): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  if (statics.size === 0) return found;
  const candidates = [...functions].flatMap((f) => {
    const sends = statics.has(f.name) ? undefined : wrapper(f.name)?.sends;
    return sends ? [{ name: f.name, sends }] : [];
  });
  for (let grew = true; grew;) {
    grew = false;
    for (const f of candidates) {
      const sent = new Set(found.get(f.name));
      for (const c of f.sends) {
        if (c === f.name) continue;
        if (statics.has(c)) sent.add(c);
        for (const s of found.get(c) ?? []) sent.add(s);
      }
      if (sent.size > (found.get(f.name)?.length ?? 0)) {
        found.set(f.name, [...sent].sort());
        grew = true;
      }
    }
  }
  return found;
}

/** `statics` with the senders' names added (itself when there are none). */
export function withSenders(
  statics: ReadonlySet<string>,
  senders: ReadonlyMap<string, readonly string[]>,
): ReadonlySet<string> {
  return senders.size === 0 ? statics : new Set([...statics, ...senders.keys()]);
}
