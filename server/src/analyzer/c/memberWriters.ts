// Writes through a function pointer held in a struct member: `client->socket_write(client, buf, len)`,
// where the file stores its write helpers in that member (`client->socket_write = socket_write_plain;`,
// or `.write = pipe_write,` in an operations table). The member is an interface, and its
// implementations are the functions the file assigns to it: when one of them is a write helper and
// none is known to do no output, a call through the member writes what that helper's buffer and
// length parameters say, to the object it is given. The object stands for the descriptor, whose kind
// the code does not show, and no fix can call the pointer's gathered twin, since it has none.
import type { CWrapper } from '../wrapper';

/** The name a call through member `m` is looked up by among the wrappers: `->m`. */
export function memberCallee(member: string): string {
  return `->${member}`;
}

const ASSIGNED = /(?:->|\.)\s*([A-Za-z_]\w*)\s*=\s*&?\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*[,;}]/g;

const NO_TWIN = (member: string) =>
  `the write goes through the function pointer ${member}, whose implementations have no gathered twin to call instead`;

/**
 * Wrappers for the members of `text` that hold write helpers: `wrappers` are the helpers known so far
 * (the file's and the workspace's), `quiet` says which functions do no output. One wrapper per member,
 * when every writer assigned to it takes its buffer (and length) at the same positions.
 */
export function memberWriters(
  text: string,
  wrappers: ReadonlyMap<string, CWrapper>,
  quiet: (name: string) => boolean,
): CWrapper[] {
  const assigned = new Map<string, Set<string>>();
  for (const m of text.matchAll(ASSIGNED)) {
    const [, member, fn] = m as unknown as [string, string, string];
    let set = assigned.get(member);
    if (!set) assigned.set(member, (set = new Set()));
    set.add(fn);
  }
  const found: CWrapper[] = [];
  for (const [member, fns] of assigned) {
    const writers = [...fns].map((f) => wrappers.get(f)).filter((w): w is CWrapper => w !== undefined);
    if (writers.length === 0 || [...fns].some((f) => !wrappers.has(f) && quiet(f))) continue;
    const first = writers[0]!;
    if (!('param' in first.fd) || first.buf < 0 || first.syscalls !== undefined || first.formats) continue;
    const fdParam = first.fd.param;
    const same = writers.every(
      (w) =>
        'param' in w.fd &&
        w.fd.param === fdParam &&
        !w.fd.element &&
        !w.fd.deref &&
        w.buf === first.buf &&
        w.len === first.len &&
        w.syscalls === undefined &&
        !w.formats &&
        // A member call passes what it likes: a helper that writes only given some argument is none.
        w.pace === undefined &&
        w.select === undefined &&
        w.mode === undefined,
    );
    if (!same) continue;
    found.push({
      name: memberCallee(member),
      exported: false,
      fd: { param: fdParam },
      buf: first.buf,
      ...(first.len !== undefined && { len: first.len }),
      family: '',
      arity: Math.max(...writers.map((w) => w.arity)),
      noFix: NO_TWIN(member),
      ...(writers.every((w) => w.messages) && { messages: true }),
    });
  }
  return found;
}
