// Writes through a function pointer held in a struct member: `client->socket_write(client, buf, len)`,
// where the code stores write helpers in that member (`client->socket_write = socket_write_plain;`,
// or `.write = pipe_write,` in an operations table). The member is an interface, and its
// implementations are the functions stored in it, in this file or in any other of the tree (a
// connection's `send` set in the transport's file, called from the protocol's): when one of them is a
// write helper, the others that are write helpers take the same parameters, and none is known to do no
// output (a queue filling a buffer) or to write several times (a framing writer), a call through the
// member writes what those helpers' buffer and length parameters say, to the object it is given. One
// whose effect the analyzer cannot read (a TLS record writer, a pointer handed to a setter) is taken as
// another writer of the same call, as the corpus's labels take such members: one write per call. The
// object stands for the descriptor, whose kind the code does not show, and no fix can call the
// pointer's gathered twin, since it has none. Implementations that take no descriptor and all write to
// one fixed connection (`conn->sockout`, the thread's connection a macro or a global names; or its
// TLS session, `conn->session`) make a member whose calls write to that object, as a parameter's
// members stand for it above: two calls in one function write to the same connection. Implementations
// that all write to one member of the connection they are handed (`write(c->fd, ...)` in each) make a
// member whose calls write to that member of the argument: `con->send(con, b, n)` writes to
// `con->fd`, a byte stream or a datagram socket as the caller's code shows it.
import { C_WRITE_FUNCTIONS } from '../catalogue';
import type { CWrapper } from '../wrapper';
import { libraryQuiet, quietFunctions, type CFunctionFact } from './functionFacts';

/** The name a call through member `m` is looked up by among the wrappers: `->m`. */
export function memberCallee(member: string): string {
  return `->${member}`;
}

/** One function a file stores in a struct member (see {@link memberFunctions}). */
export interface MemberFunction {
  readonly member: string;
  readonly fn: string;
  /** The file defines `fn`: its body is in view there. */
  readonly own?: true;
  /** `own`, and its body does no output, as far as the file shows. */
  readonly quiet?: true;
  /** `own`, and its body calls write functions or the file's write helpers more than once. */
  readonly several?: true;
}

/**
 * What the tree's other files store in struct members, by member name: the write helpers among those
 * functions, or null when one of them does no output or writes several times. Functions whose effect
 * is not known are left out.
 */
export type Implementations = ReadonlyMap<string, readonly CWrapper[] | null>;

const ASSIGNED = /(?:->|\.)\s*([A-Za-z_]\w*)\s*=\s*&?\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*[,;}]/g;

/**
 * A choice of two stored in a member (`c->send = tls ? tls_send : plain_send;`): either may be called
 * through it, so both are its implementations. Read apart from {@link ASSIGNED}, which takes the
 * condition's first name for a value and would leave the other implementation out of the member's.
 */
const CHOSEN =
  /(?:->|\.)\s*([A-Za-z_]\w*)\s*=[^=;?{}][^;?{}]*\?\s*&?\s*([A-Za-z_]\w*)\s*:\s*&?\s*([A-Za-z_]\w*)\s*[,;)}]/g;

/** Values stored in a member that are no function: a member cleared. */
const NO_FUNCTION = new Set(['NULL', 'nullptr']);

const NO_TWIN = (member: string) =>
  `the write goes through the function pointer ${member}, whose implementations have no gathered twin to call instead`;

/** {@link assignments}' last answer: a file's rounds of helper readings ask it of the same text. */
let last: { text: string; assigned: ReadonlyMap<string, ReadonlySet<string>> } | undefined;

/** The functions `text` stores in each member it assigns one (and the names of other values). */
function assignments(text: string): ReadonlyMap<string, ReadonlySet<string>> {
  if (last?.text === text) return last.assigned;
  const assigned = new Map<string, Set<string>>();
  const add = (member: string, fn: string) => {
    if (NO_FUNCTION.has(fn)) return;
    let set = assigned.get(member);
    if (!set) assigned.set(member, (set = new Set()));
    set.add(fn);
  };
  for (const m of text.matchAll(ASSIGNED)) add(m[1]!, m[2]!);
  if (text.includes('?'))
    for (const m of text.matchAll(CHOSEN)) {
      add(m[1]!, m[2]!);
      add(m[1]!, m[3]!);
    }
  last = { text, assigned };
  return assigned;
}

/**
 * The names `text` stores in struct members (`x->m = f;`, `.m = f,`), for the tree's fact base: each
 * member with each name once, with what the file's own definitions (`facts`) show of it, and
 * `writers` the file's write helpers. Most are values, not functions: only members some helper is
 * stored in matter (see memberWriters).
 */
export function memberFunctions(
  text: string,
  facts: readonly CFunctionFact[],
  writers: ReadonlySet<string>,
  told?: readonly MemberFunction[],
): MemberFunction[] {
  const assigned = told ? toldAssignments(told) : assignments(text);
  if (assigned.size === 0) return [];
  const defined = new Map(facts.map((f) => [f.name, f]));
  let quiet: ReadonlySet<string> | undefined;
  const found: MemberFunction[] = [];
  for (const [member, fns] of assigned)
    for (const fn of fns) {
      const fact = defined.get(fn);
      if (!fact) {
        found.push({ member, fn });
        continue;
      }
      quiet ??= quietFunctions(facts, libraryQuiet);
      found.push({
        member,
        fn,
        own: true,
        ...(quiet.has(fn) && { quiet: true }),
        ...(!writers.has(fn) && writesSeveralTimes(fact, writers) && { several: true }),
      });
    }
  return found;
}

/**
 * The members and functions an earlier reading of the same text found stored ({@link memberFunctions}
 * lists every one): the fact base's first pass has searched the text for them already.
 */
function toldAssignments(told: readonly MemberFunction[]): ReadonlyMap<string, ReadonlySet<string>> {
  const assigned = new Map<string, Set<string>>();
  for (const { member, fn } of told) {
    let set = assigned.get(member);
    if (!set) assigned.set(member, (set = new Set()));
    set.add(fn);
  }
  return assigned;
}

const WRITE_FUNCTIONS: ReadonlySet<string> = new Set(C_WRITE_FUNCTIONS.map((f) => f.name));

/** Whether `fact`'s body calls two writers, or one twice (`writers`: the file's helpers). */
function writesSeveralTimes(fact: CFunctionFact, writers: ReadonlySet<string>): boolean {
  const writes = fact.calls.filter((c) => WRITE_FUNCTIONS.has(c) || writers.has(c));
  return writes.length > 1 || writes.some((c) => fact.repeated?.includes(c));
}

/**
 * Wrappers for the members of `text` that hold write helpers: `wrappers` are the helpers known so far
 * (the file's and the workspace's), `quiet` says which functions do no output, `elsewhere` what the
 * tree's other files store in members. One wrapper per member, when every writer stored in it takes
 * its buffer (and length) at the same positions.
 */
export function memberWriters(
  text: string,
  wrappers: ReadonlyMap<string, CWrapper>,
  quiet: (name: string) => boolean,
  elsewhere?: Implementations,
): CWrapper[] {
  const assigned = assignments(text);
  const members = elsewhere ? new Set([...assigned.keys(), ...elsewhere.keys()]) : assigned.keys();
  const found: CWrapper[] = [];
  for (const member of members) {
    const others = elsewhere?.get(member);
    if (others === null) continue;
    const fns = [...(assigned.get(member) ?? [])];
    if (fns.some((f) => !wrappers.has(f) && quiet(f))) continue;
    const writers = [
      ...fns.map((f) => wrappers.get(f)).filter((w): w is CWrapper => w !== undefined),
      ...(others ?? []),
    ];
    if (writers.length === 0) continue;
    const first = writers[0]!;
    if (first.buf < 0 || first.syscalls !== undefined || first.formats) continue;
    const fd = first.fd;
    // A descriptor no argument names: the connection each implementation finds for itself, the same
    // object for all of them (see the file comment); never a file's own static, another in each file.
    if ('text' in fd && (fd.fileStatic || fixedObject(fd.text) === undefined)) continue;
    const sameTarget = (t: CWrapper['fd']) =>
      'param' in fd
        ? 'param' in t && t.param === fd.param && !t.element && !t.deref && !t.accessor
        : 'text' in t && !t.fileStatic && fixedObject(t.text) === fixedObject(fd.text);
    const same = writers.every(
      (w) =>
        sameTarget(w.fd) &&
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
    // Every implementation writes to one member of the connection it is handed (`c->fd` of `c`): a
    // call writes to that member of its argument, whose kind the caller's file may show (a datagram
    // socket stored there keeps the call's writes apart). Members that differ leave the object.
    const through =
      'param' in fd && writers.every((w) => 'param' in w.fd && w.fd.member === fd.member)
        ? fd.member
        : undefined;
    found.push({
      name: memberCallee(member),
      exported: false,
      fd:
        'param' in fd
          ? { param: fd.param, ...(through !== undefined && { member: through }) }
          : { text: fixedObject(fd.text)!, names: [fixedObject(fd.text)!] },
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

/**
 * The object a fixed descriptor is a member of (`conn` of `conn->sockout`, of `conn.tls->session`;
 * `get_conn()` of `get_conn()->fd`, an accessor's), or the plain name a fixed descriptor is (`out_fd`);
 * undefined for anything else computed (a call given arguments, an index).
 */
function fixedObject(text: string): string | undefined {
  const m = /^\s*([A-Za-z_]\w*(?:\s*\(\s*\))?)\s*((?:(?:->|\.)\s*[A-Za-z_]\w*\s*)*)$/.exec(text);
  return m ? m[1]!.replace(/\s+/g, '') : undefined;
}
