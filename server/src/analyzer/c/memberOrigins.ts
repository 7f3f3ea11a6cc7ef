// Members that hold byte streams, read like globals: a member of a struct that every assignment in the
// file (any function, any object of that struct) gives a stream (`p->fd = open(dev, O_RDWR | O_NOCTTY)`,
// `c->sock = accept(...)`, `pfd.fd = socket(AF_INET, SOCK_STREAM, 0)`) or the `-1` placeholder is a
// stream wherever the file writes to it, whichever function opened it: a driver opens its device in its
// init function and writes to it in every other. Keyed by the struct (memberStructs.ts), so another
// struct's member of the same name is not taken along; an assignment whose struct cannot be resolved
// (`a->b->fd = x`) that is not a stream, or the member's address taken (`&p->fd`), leaves the member of
// every struct unknown, as the analyzer cannot tell which struct it changed. A member stored from a local
// has the local's origin (copiedMembers.ts).
import {
  memberExpressions,
  memberFactKey,
  parseMemberFact,
  sameStruct,
  structOfTarget,
  type StructKey,
} from './memberStructs';
import { copiedOrigin } from './copiedMembers';
import { assignedOrigin, streamAssignment, type Origin } from './origins';
import { NO_DEVICES } from './deviceMacros';
import { addrinfoStreams } from './socketTypes';
import { streamPairArrays } from './pairArrays';

/** How far back an assignment's object is looked for (its function's declarations, mostly). */
const SCOPE = 20_000;

/** `x->m = `, `x.m = `, `xs[i].m = ` (and chains): the object text and the member. */
const MEMBER_ASSIGNED =
  /(?<![\w.>])((?:[A-Za-z_]\w*(?:\s*\[[^\][;]*\])?\s*(?:->|\.)\s*)+)([A-Za-z_]\w*)\s*(=(?!=)|[-+*/|&^]=|\+\+|--)/g;

/**
 * The members `text` assigns byte streams only (see the file comment), as keys of memberFactKey with a
 * resolved struct; `functions`: the calls that return a stream.
 */
export function memberStreams(
  text: string,
  functions: ReadonlySet<string>,
  devices: ReadonlySet<string> = NO_DEVICES,
): Set<string> {
  const found = new Set<string>();
  if (!/(?:->|\.)\s*\w+\s*=(?!=)/.test(text)) return found;
  // Only a member some assignment gives a stream is kept: none without a call of a stream function
  // after an `=` or a pipe array (most files), and reading every member assignment was most of this
  // function's time.
  const pairs = streamPairArrays(text);
  if (pairs.size === 0 && !streamAssignment(functions).test(text)) return found;
  const hints = addrinfoStreams(text);
  // First by member name: only members some assignment gives a stream have their structs resolved.
  const assignments: { object: string; member: string; at: number; kind: Origin }[] = [];
  const streamed = new Set<string>();
  for (const m of text.matchAll(MEMBER_ASSIGNED)) {
    const [, object, member, op] = m as unknown as [string, string, string, string];
    const at = m.index + m[0].length;
    const rest = text.slice(at, at + 200);
    let kind: Origin = op === '=' ? assignedOrigin(rest, functions, hints, pairs, devices) : 'other';
    // `p->fd = fd;`: the local's own assignments in its function say what it holds.
    const copied = op === '=' && kind === 'other' ? /^\s*([A-Za-z_]\w*)\s*;/.exec(rest) : null;
    if (copied) kind = copiedOrigin(text, m.index, copied[1]!, functions, hints, pairs, devices);
    if (kind === 'stream') streamed.add(member);
    assignments.push({ object, member, at: m.index, kind });
  }
  if (streamed.size === 0) return found;
  // Per keyed member: its assignments' kinds; and members one assignment of unknown struct spoils.
  const kinds = new Map<string, Origin[]>();
  const spoilt = new Set<string>();
  for (const { object, member, at, kind } of assignments) {
    if (!streamed.has(member)) continue;
    const target = (object + member).replace(/\s+/g, '');
    const struct = structOfTarget(target, text.slice(Math.max(0, at - SCOPE), at), text);
    if (!struct) {
      if (kind === 'other') spoilt.add(member);
      continue;
    }
    const key = memberFactKey(member, struct);
    kinds.set(key, [...(kinds.get(key) ?? []), kind]);
  }
  for (const [key, list] of kinds) {
    const { member } = parseMemberFact(key);
    if (spoilt.has(member) || !list.includes('stream') || list.includes('other')) continue;
    if (new RegExp(`&\\s*\\(?\\s*[\\w.>\\-[\\]]*(?:->|\\.)\\s*${member}\\b`).test(text)) continue;
    found.add(key);
  }
  // Two keys for one struct (one spelled by tag, one by typedef name) must agree.
  for (const key of [...found]) {
    const a = parseMemberFact(key);
    for (const [other, list] of kinds) {
      const b = parseMemberFact(other);
      if (
        b.member === a.member &&
        b.struct &&
        a.struct &&
        sameStruct(a.struct, b.struct) &&
        list.includes('other')
      )
        found.delete(key);
    }
  }
  return found;
}

/**
 * Whether the file's stream members (`keys`) hold `member` of `struct`: the struct resolved and the same.
 */
export function ownStreamMember(
  keys: ReadonlySet<string> | undefined,
): (member: string, struct: StructKey | undefined) => boolean {
  return (member, struct) => {
    if (!keys || keys.size === 0 || !struct) return false;
    for (const k of keys) {
      const f = parseMemberFact(k);
      if (f.member === member && f.struct && sameStruct(f.struct, struct)) return true;
    }
    return false;
  };
}

/**
 * The member expressions of a function (`fnText`, in `fileText`) that the file's stream members
 * (`keys`) make byte streams: those whose object resolves to the struct of a stream member.
 */
export function memberStreamTargets(
  keys: ReadonlySet<string> | undefined,
  fnText: string,
  fileText: string,
): Set<string> {
  const found = new Set<string>();
  if (!keys || keys.size === 0) return found;
  const own = ownStreamMember(keys);
  const members = new Set([...keys].map((k) => parseMemberFact(k).member));
  for (const e of memberExpressions(fnText, members)) {
    const member = /\w+$/.exec(e)![0];
    if (own(member, structOfTarget(e, fnText, fileText))) found.add(e);
  }
  return found;
}
