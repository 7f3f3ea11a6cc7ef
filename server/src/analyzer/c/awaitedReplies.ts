// A helper that writes a request and then hands the same descriptor to a function that reads
// (`ser_send(fd, "%s", cmd); ser_get_line(fd, reply, ...)`, the reader in another file): each call is
// a turn of a dialogue, not one write. Gathered, the second request would leave before the device or
// peer answered the first, and the reply the first call waits for would be read by nobody. The name of
// the reader says nothing (`ser_get_char`, `get_data`): its body reaches a read of the library
// (`read()` after `select()`), in this file or through the tree's other files, and that is what is
// asked. Only reading counts: a function handed the descriptor that logs, counts or closes it is no
// answer awaited. A function whose body is nowhere in view is left as before: nothing is known of it,
// and a file read alone knows no more.
import type { Node } from 'web-tree-sitter';
import { calleeName } from './syntax';
import type { CContext } from './writes';
import type { CFunctionFact } from './functionFacts';

/** The library's reads of what a descriptor (or a stream on one) received: the table for bodies nowhere in view. */
const LIBRARY_READS: ReadonlySet<string> = new Set([
  'read',
  'readv',
  'pread',
  'pread64',
  'preadv',
  'recv',
  'recvfrom',
  'recvmsg',
  'recvmmsg',
  'fread',
  'fgets',
  'fgetc',
  'getc',
  'getline',
  'getdelim',
  'SSL_read',
  'SSL_read_ex',
  'gnutls_record_recv',
]);

/** True when `name` is one of the library's reads ({@link LIBRARY_READS}). */
export function libraryReads(name: string): boolean {
  return LIBRARY_READS.has(name);
}

/**
 * The functions of `facts` (one file's) that read: each calls a library read, one of the file's own
 * functions that reads, or a name `elsewhere` says reads (another file's). A least fixed point: a
 * function reads only through a call that does. Does not modify `facts`.
 */
export function readingFunctions(
  facts: readonly CFunctionFact[],
  elsewhere: (name: string) => boolean,
): Set<string> {
  const own = new Set(facts.map((f) => f.name));
  const reading = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const f of facts) {
      if (reading.has(f.name)) continue;
      const reads = f.calls.some((c) =>
        own.has(c) ? reading.has(c) && c !== f.name : libraryReads(c) || elsewhere(c),
      );
      if (reads) {
        reading.add(f.name);
        changed = true;
      }
    }
  }
  return reading;
}

/**
 * The functions of `files` (each file's function facts, and whether other files see all its functions:
 * a header's) that other files can call and that read: the least fixed point {@link readingFunctions}
 * reaches when each file's `elsewhere` is the names this returns. Worked from each call once (a
 * function found to read makes its callers read), not in rounds over every file, since a tree's facts
 * are read between its passes while the worker threads wait. A name other files see is the first
 * definition of that name in its file (a `static` one before an exported one under another `#if`
 * hides it). Does not modify `files`.
 */
export function treeReaders(files: readonly (readonly [readonly CFunctionFact[], boolean])[]): Set<string> {
  interface Name {
    readonly name: string;
    reads: boolean;
    /** Other files see it (see above). */
    readonly visible: boolean;
    /** The names of its own file whose bodies call it (its own name left out). */
    callers?: Name[];
  }
  // Only a call to a name some file lets others see can read through another file: the rest of the
  // calls (the library's, most of them) are passed over at once.
  const seen = new Set<string>();
  for (const [facts, header] of files) {
    const first = new Set<string>();
    for (const f of facts) {
      if (first.has(f.name)) continue;
      first.add(f.name);
      if (header || f.exported) seen.add(f.name);
    }
  }
  const exported = new Set<string>();
  // Calls to names the calling file does not define: read when another file's such name reads.
  const waiting = new Map<string, Name[]>();
  const found: Name[] = [];
  const read = (name: Name) => {
    if (name.reads) return;
    name.reads = true;
    found.push(name);
  };
  for (const [facts, header] of files) {
    const own = new Map<string, Name>();
    for (const f of facts)
      if (!own.has(f.name)) own.set(f.name, { name: f.name, reads: false, visible: header || f.exported });
    for (const f of facts) {
      const caller = own.get(f.name)!;
      for (const c of f.calls) {
        const callee = own.get(c);
        if (callee) {
          if (c !== f.name) (callee.callers ??= []).push(caller);
        } else if (LIBRARY_READS.has(c)) read(caller);
        else if (seen.has(c)) {
          const list = waiting.get(c);
          if (list) list.push(caller);
          else waiting.set(c, [caller]);
        }
      }
    }
  }
  while (found.length > 0) {
    const name = found.pop()!;
    for (const caller of name.callers ?? []) read(caller);
    if (!name.visible || exported.has(name.name)) continue;
    exported.add(name.name);
    for (const caller of waiting.get(name.name) ?? []) read(caller);
  }
  return exported;
}

/**
 * The first of `calls` (a helper body's calls, in source order) after `write` that `handed` says is
 * given the write's descriptor, runs where the write did not fail (`onFailure` false), is no writer
 * (`writes` false) and calls a function that reads ({@link CContext.readsReply}): the call that awaits
 * the reply to what the helper wrote. Undefined when there is none or the context knows no readers.
 * Does not modify `calls`.
 */
export function awaitedReply(
  write: Node,
  calls: readonly Node[],
  handed: (call: Node) => boolean,
  onFailure: (call: Node) => boolean,
  writes: (call: Node, callee: string) => boolean,
  ctx: CContext,
): Node | undefined {
  const readsReply = ctx.readsReply;
  if (!readsReply) return undefined;
  return calls.find((c) => {
    if (c.startIndex < write.endIndex) return false;
    const callee = calleeName(c);
    return callee !== undefined && readsReply(callee) && !writes(c, callee) && handed(c) && !onFailure(c);
  });
}
