// A function whose body another file holds is read, even when that body calls through a pointer or a
// member (`drv->get_info(drv)`, `(*hook)(x)`): such a body may do anything, so it is no quiet function,
// and it is no unread one either. A call in a later write's arguments is taken to do no output only
// where no body of its name is in the code read (CContext.unread): a tree whose `drivers_info()`
// returns what a loaded driver's callback answers (a callback that queries the device) is no such
// case, and the write before it must stay apart.
import type { CFunctionFact } from './functionFacts';

/**
 * The names of the functions other files can call (exported, or defined in a file its includers share)
 * whose body calls through a pointer or a member, from each file's function facts (`files`: path, facts)
 * and whether a path is shared with its includers (`shared`). Does not modify its arguments.
 */
export function opaqueDefinitions(
  files: Iterable<readonly [string, readonly CFunctionFact[] | undefined]>,
  shared: (path: string) => boolean,
): Set<string> {
  const names = new Set<string>();
  for (const [path, functions] of files) {
    if (!functions?.length) continue;
    let header: boolean | undefined;
    for (const f of functions) if (f.opaque && (f.exported || (header ??= shared(path)))) names.add(f.name);
  }
  return names;
}
