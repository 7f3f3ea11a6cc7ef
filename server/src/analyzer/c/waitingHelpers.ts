// Waiting helpers other files call: `void pause_ms(int ms) { nanosleep(...); }` in one file, and
// `write(fd, "\x1b", 1); pause_ms(5); write(fd, "c", 1);` in another. The caller's file alone reads
// waitingFunctions.ts from the bodies it shows (its own functions, its headers' macros); the pause
// between the writes is as deliberate when the body is in another file, and the tree's facts hold that
// body. Read as the tree's readers are (see awaitedReplies.ts): once over every file's function facts,
// to a least fixed point across files, and handed to each file's analysis as a fact of the tree.
import { quietFunctions, type CFunctionFact } from './functionFacts';
import { libraryWaits } from '../catalogue';
import { waitingFunctions } from './waitingFunctions';

/**
 * The functions other files can call (a header's, or another file's exported one) that only wait, as
 * {@link waitingFunctions} reads a file's own, another file's such helpers included. `files`: each
 * file's function facts, and whether its definitions are its includers' own (a header's); `quiet`: the
 * names the tree's fact base knows to do no output (other files' functions and the library). Only the
 * files that call a function that waits are read; a name two files define waits only where both do.
 * Does not modify `files`.
 */
export function treeWaiting(
  files: readonly (readonly [readonly CFunctionFact[], boolean])[],
  quiet: (name: string) => boolean,
): Set<string> {
  // How many files let others see a definition of each name: a name two files define waits only where
  // the helper waits in each.
  const visible = new Map<string, number>();
  const shown = files.map(
    ([facts, shared]) => new Set(facts.filter((f) => shared || f.exported).map((f) => f.name)),
  );
  for (const names of shown) for (const name of names) visible.set(name, (visible.get(name) ?? 0) + 1);
  const found = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    const counts = new Map<string, number>();
    files.forEach(([facts], i) => {
      // Most files call nothing that waits: passed over without a reading.
      if (!facts.some((f) => f.calls.some((c) => libraryWaits(c) || found.has(c)))) return;
      const own = new Set(facts.map((f) => f.name));
      const elsewhere = (name: string) => found.has(name) && !own.has(name);
      const ownQuiet = quietFunctions(facts, (name) => quiet(name) || elsewhere(name));
      const waiting = waitingFunctions(facts, (name) => ownQuiet.has(name), elsewhere);
      for (const name of shown[i]!) if (waiting.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    for (const [name, n] of counts)
      if (!found.has(name) && n === visible.get(name)) {
        found.add(name);
        grew = true;
      }
  }
  return found;
}
