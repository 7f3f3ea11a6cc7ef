// A function of the project that only waits: `void Sleep(unsigned ms) { usleep(ms * 1000); }`, a
// portability wrapper around the library's sleep. Called between two writes it splits them on purpose
// as a direct `usleep()` does (a reset pulse on a GPIO line: `0` written, a wait, then `1`; a serial
// device's pacing), so it ends a run the same way (see steps.ts). Read from the bodies the file shows
// (its own functions and its headers' macros, and other files' waiting helpers: see waitingHelpers.ts),
// never from a name: what else it calls must do no output, and at least one call must wait, directly
// or through another such function.
import { libraryWaits } from '../catalogue';
import type { CFunctionFact } from './functionFacts';

/**
 * The functions of `facts` that only wait: each calls no function through a pointer, calls a library
 * wait (`usleep`, `nanosleep`, `poll`; see libraryWaits; an `ioctl()` changing a terminal's settings,
 * see CFunctionFact.setsTerminal) or another function of `facts` that only
 * waits, and whose every other call `quiet` says does no output. Read to a least fixed point (a
 * function calling itself and nothing that waits does not wait). `elsewhere`: the names other files
 * define that only wait, asked of names `facts` does not define. Does not modify `facts`.
 */
export function waitingFunctions(
  facts: readonly CFunctionFact[],
  quiet: (name: string) => boolean,
  elsewhere: (name: string) => boolean = () => false,
): Set<string> {
  // A name defined twice (under `#if` alternatives) waits only where every definition does.
  const byName = new Map<string, CFunctionFact[]>();
  for (const f of facts) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const waiting = new Set<string>();
  const only = (f: CFunctionFact) => {
    // Waiting for the descriptor to take output only bounds how long its write may block.
    if (f.awaitsWritable !== undefined) return false;
    // Its `ioctl()` changes a terminal's settings, as tcsetattr() does (see terminalRequests.ts).
    const waits = (c: string) =>
      c !== f.name &&
      (libraryWaits(c) ||
        (c === 'ioctl' && f.setsTerminal === true) ||
        waiting.has(c) ||
        (!byName.has(c) && elsewhere(c)));
    return !f.opaque && f.calls.some(waits) && f.calls.every((c) => waits(c) || (c !== f.name && quiet(c)));
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, defs] of byName) {
      if (waiting.has(name) || !defs.every(only)) continue;
      waiting.add(name);
      changed = true;
    }
  }
  return waiting;
}
