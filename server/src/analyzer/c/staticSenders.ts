// Write helpers that send static storage: `void wn(unsigned long u) { w(fmt_ul(u)); }`, where
// `fmt_ul` returns one static buffer (see staticReturns.ts). Each call of `wn` formats into that
// buffer and writes it; gathered into one writev, `wn(1); wn(2);` would send the buffer twice as the
// second call left it ("2" twice), since writev reads every buffer when it runs. Such a helper is
// taken as a function returning static storage itself, and a call of it as a call of the functions
// whose storage it sends: the run joiner ends a run where a later call overwrites what an earlier write
// sent, as it does for `w(fmt_ul(1)); w(fmt_ul(2));` and for `wn(1); w(fmt_ul(2));`.
import type { CFunctionFact } from './functionFacts';
import type { CWrapper } from '../wrapper';

/**
 * The helpers of `functions` that send static storage, each with the functions of `statics` whose
 * storage it sends: read as helpers that compute the bytes they write (`formats`: the buffer argument
 * is no pointer the caller holds), whose body calls a function of `statics` (or, to a fixed point,
 * another such helper, whose functions it then sends). A helper writing the caller's own buffer only
 * calls such a function on the side (a log line's address) and is left out. Does not modify its
 * arguments.
 */
export function staticSenders(
  statics: ReadonlySet<string>,
  functions: Iterable<CFunctionFact>,
  wrapper: (name: string) => CWrapper | undefined,
): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  if (statics.size === 0) return found;
  const candidates = [...functions].filter((f) => !statics.has(f.name) && wrapper(f.name)?.formats);
  for (let grew = true; grew;) {
    grew = false;
    for (const f of candidates) {
      const sent = new Set(found.get(f.name));
      for (const c of f.calls) {
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
