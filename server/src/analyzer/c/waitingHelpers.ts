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
  // Each file's reading asks about other files' names it calls only: one whose calls name none of the
  // names found in the last round reads as it did, and keeps its answer (undefined: it calls nothing
  // that waits, so far). Most files call nothing that waits; the calls are looked at once.
  const calling = files.map(([facts]) => {
    const own = new Set(facts.map((f) => f.name));
    const called = new Set<string>();
    let waits = false;
    for (const f of facts)
      for (const c of f.calls) {
        if (libraryWaits(c) || (c === 'ioctl' && f.setsTerminal)) waits = true;
        // A library wait's name too: a tree may define one, and found it changes what is quiet.
        if (!own.has(c)) called.add(c);
      }
    return { own, called, waits };
  });
  const answers: (ReadonlySet<string> | undefined)[] = files.map(() => undefined);
  const found = new Set<string>();
  let added: readonly string[] | undefined;
  for (let grew = true; grew;) {
    grew = false;
    const counts = new Map<string, number>();
    files.forEach(([facts], i) => {
      const { own, called, waits } = calling[i]!;
      const asks = (names: readonly string[]) => names.some((n) => called.has(n));
      if (added === undefined ? waits : asks(added)) {
        const elsewhere = (name: string) => found.has(name) && !own.has(name);
        const ownQuiet = quietFunctions(facts, (name) => quiet(name) || elsewhere(name));
        const waiting = waitingFunctions(facts, (name) => ownQuiet.has(name), elsewhere);
        answers[i] = new Set([...shown[i]!].filter((name) => waiting.has(name)));
      }
      for (const name of answers[i] ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    const grown: string[] = [];
    for (const [name, n] of counts)
      if (!found.has(name) && n === visible.get(name)) {
        found.add(name);
        grown.push(name);
        grew = true;
      }
    added = grown;
  }
  return found;
}

/** The told form of a writable wait (see {@link treeWritableWaits}): `name#index`. */
const WRITABLE_ENTRY = /^([A-Za-z_]\w*)#(\d+)$/;

/**
 * The functions other files can call (a header's, another file's exported one) whose one wait is for
 * one parameter's descriptor to take output (CFunctionFact.awaitsWritable, see writableWaits.ts), each
 * as `name#index` with the index of that parameter: told to the callers' files with the waiting
 * functions, so that a call there can be read against the descriptor it hands in that place. A name
 * two files show is one only where every definition waits on the same parameter. Does not modify
 * `files`.
 */
export function treeWritableWaits(
  files: readonly (readonly [readonly CFunctionFact[], boolean])[],
): Set<string> {
  const index = new Map<string, number | undefined>();
  for (const [facts, shared] of files) {
    for (const f of facts) {
      if (!shared && !f.exported) continue;
      const at = f.awaitsWritable;
      index.set(f.name, index.has(f.name) && index.get(f.name) !== at ? undefined : at);
    }
  }
  const found = new Set<string>();
  for (const [name, at] of index) if (at !== undefined) found.add(`${name}#${at}`);
  return found;
}

/**
 * The writable waits among told names (`name#index` entries of {@link treeWritableWaits}; plain names
 * are waiting functions), by name. Does not modify `told`.
 */
export function toldWritableWaits(told: Iterable<string>): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of told) {
    const m = WRITABLE_ENTRY.exec(entry);
    if (m) found.set(m[1]!, Number(m[2]));
  }
  return found;
}

/**
 * A file's writable waits by name, with the index of the parameter each waits on: its own definitions'
 * (`facts`, whose names are `own`; a name defined twice is one where both wait on the same parameter),
 * then those other files define (`told`, see {@link toldWritableWaits}) under names it does not define.
 * Does not modify its arguments.
 */
export function writableWaitIndex(
  facts: readonly CFunctionFact[],
  own: ReadonlySet<string>,
  told: Iterable<string>,
): Map<string, number> {
  const found = new Map<string, number>();
  for (const [name, at] of toldWritableWaits(told)) if (!own.has(name)) found.set(name, at);
  const ownIndex = new Map<string, number | undefined>();
  for (const f of facts) {
    const at = f.awaitsWritable;
    ownIndex.set(f.name, ownIndex.has(f.name) && ownIndex.get(f.name) !== at ? undefined : at);
  }
  for (const [name, at] of ownIndex) if (at !== undefined) found.set(name, at);
  return found;
}
