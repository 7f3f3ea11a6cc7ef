// Functions of a file that write nothing, read from their bodies: they may wait (`select()` until the
// descriptor is writable) but call no output. A write-in-full loop that waits with such a function in
// its EAGAIN branch still makes one write per call, whatever the wait's name says: a name that reads as
// I/O (`wait_for_write(fd, timeout)`) is only a guess where no body is read, and a body wins over it.
import { libraryWaits } from '../catalogue';
import { quietFunctions, type CFunctionFact } from './functionFacts';

/**
 * Whether a function of `facts` (one file's definitions) writes nothing: everything it calls, down to
 * the library, does no output (`known` answers for names the file does not define) or only waits.
 * Names the file does not define are never silent here (their bodies are not read). Computed once, on
 * the first question: most files never ask.
 */
export function silentFunctions(
  facts: readonly CFunctionFact[],
  known: (name: string) => boolean,
): (name: string) => boolean {
  let silent: ReadonlySet<string> | undefined;
  return (name) => {
    silent ??= quietFunctions(facts, (n) => known(n) || libraryWaits(n));
    return silent.has(name);
  };
}
