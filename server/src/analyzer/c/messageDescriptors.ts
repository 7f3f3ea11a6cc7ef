// Descriptors the file shows to keep message boundaries: a datagram, sequenced-packet or raw socket (or
// one whose type the call leaves to a variable), a socketpair of those kinds (and its ends wherever they
// are stored), or a device or kernel file opened by its literal path. One write there is
// one message (or one command), so gathering writes would change what the peer receives: whatever the
// analyzer assumes about descriptors of unknown kind, these stay quiet.
//
// Read from the text alone, for every assignment in the file: a member assigned such a socket anywhere
// in the file (`ctx->sock = socket(AF_NETLINK, SOCK_RAW, 0)`) makes every descriptor at that member
// name in the file a message descriptor, except one whose struct is known to be another than every
// struct those assignments resolve to (a server's `struct udp_peer` and `struct tcp_client` both
// holding an `fd`); where either struct cannot be resolved, it errs on the quiet side. Across files the
// member fact is keyed by its struct (see memberStructs.ts): another program's datagram `af->fd` says
// nothing of this driver's own `p->fd`.
//
// A descriptor the file hands to `ioctl()` with a device request (anything but the terminal, console,
// socket and file-flag families: see consoleRequests.ts) is a device: each write there is one command or
// one bus transaction.

import {
  memberExpressions,
  memberFactKey,
  parseMemberFact,
  sameStruct,
  seesStruct,
  structOfTarget,
  type StructKey,
} from './memberStructs';
import { addrinfoStreams, isStreamSocketCall } from './socketTypes';
import { openerName, typedMessageCall, typedStreamCall } from './typedSockets';
import { pairFilledArrays, pointerOpenedTargets } from './pointerOpeners';
import { returnedOpening } from './returnedOpenings';
import { localTypeSocket } from './localSocketTypes';
import { acceptedFrom } from './acceptedSockets';
import { namesDevice, NO_DEVICES } from './deviceMacros';
import { terminalRequest } from './consoleRequests';

/** Socket types and families where one send is one message. */
export const MESSAGE_SOCKET =
  /\bSOCK_(DGRAM|SEQPACKET|RAW|RDM|PACKET)\b|\bAF_(NETLINK|PACKET|CAN)\b|\bIPPROTO_(UDP|ICMP)/;

/**
 * `target = socket(...)` and `target = open(...)`-like calls: the target and the call's arguments.
 * Searched for by {@link assignedCalls}, which finds what this pattern's global search finds.
 */
export const ASSIGNED_CALL = /([A-Za-z_][\w.>\-[\]]*?)\s*=\s*(?:\(\s*int\s*\)\s*)?(\w+)\s*\(([^;]{0,300})/g;

/** What follows an assignment's `=` in {@link ASSIGNED_CALL}, read where the `=` is. */
const ASSIGNED_CALL_TAIL = /\s*(?:\(\s*int\s*\)\s*)?(\w+)\s*\(([^;]{0,300})/y;

/** Characters of an {@link ASSIGNED_CALL} target after its first: `[\w.>\-[\]]`. */
function isTargetChar(code: number): boolean {
  return (
    isTargetStart(code) ||
    (code >= 48 && code <= 57) ||
    code === 46 ||
    code === 62 ||
    code === 45 ||
    code === 91 ||
    code === 93
  );
}

/** Characters an {@link ASSIGNED_CALL} target may start with: `[A-Za-z_]`. */
function isTargetStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/**
 * What `\s` matches (ECMAScript's WhiteSpace and LineTerminator): tested by code, as the search
 * before each `=` of a file asks of every character it passes.
 */
function isWhiteSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * The matches of {@link ASSIGNED_CALL} in `text`, in order, as its global search finds them: the
 * target, the callee, the arguments, and where the match starts. Found from each `=` rather than
 * tried at every letter of the file (most of a file's analysis of message descriptors was that
 * search). A target can only be the whole run of target characters before the `=` and its spaces
 * (none of them is a space or `=`), so the first letter of that run not inside the last match is
 * where the pattern's search would start the match, if the tail after `=` matches at all.
 */
export function assignedCalls(
  text: string,
): { target: string; callee: string; args: string; index: number }[] {
  const found: { target: string; callee: string; args: string; index: number }[] = [];
  let from = 0;
  for (let eq = text.indexOf('='); eq >= 0; eq = text.indexOf('=', Math.max(eq + 1, from))) {
    let end = eq;
    while (end > from && isWhiteSpace(text.charCodeAt(end - 1))) end--;
    let start = end;
    while (start > from && isTargetChar(text.charCodeAt(start - 1))) start--;
    while (start < end && !isTargetStart(text.charCodeAt(start))) start++;
    if (start === end) continue;
    ASSIGNED_CALL_TAIL.lastIndex = eq + 1;
    const tail = ASSIGNED_CALL_TAIL.exec(text);
    if (!tail) continue;
    found.push({ target: text.slice(start, end), callee: tail[1]!, args: tail[2]!, index: start });
    from = ASSIGNED_CALL_TAIL.lastIndex;
  }
  return found;
}

/** `target = name[0];` or `name[1]`: an end of a pair array stored whole (the target, the array). */
const STORED_END = /([A-Za-z_][\w.>\-[\]]*?)\s*=\s*\(?\s*([A-Za-z_]\w*)\s*\[\s*[01]\s*\]\s*\)?\s*;/g;

/** `socketpair(domain, type, protocol, name)`: the type and the array. */
export const SOCKETPAIR =
  /\bsocketpair\s*\(([^;]{0,300}?),\s*&?\s*([A-Za-z_][\w.>-]*)\s*(?:\[\s*0\s*\])?\s*\)/g;

/** `ioctl(target, REQUEST`: the descriptor and the request. */
const IOCTL = /\bioctl\s*\(\s*([A-Za-z_][\w.>\-[\]]*?)\s*,\s*([^,)]+)/g;

/** A call of `socket()` or an `open*()` function (sticky: see {@link foundAt}). */
const OPENING_CALL = /\bsocket\s*\(|\bopen\w*\s*\(/y;

/** A call of `socket()`, `socketpair()`, an `open*()` function or `ioctl()` (sticky: see {@link foundAt}). */
const DESCRIPTOR_CALL = /\bsocket(?:pair)?\s*\(|\bopen\w*\s*\(|\bioctl\s*\(/y;

/**
 * Whether sticky `pattern`, each of whose alternatives starts with one of `words`, matches somewhere
 * in `text`: what a search of the pattern answers, tried only where a word stands. Every file of a
 * tree is asked, and a search trying every character was a visible part of reading one.
 */
function foundAt(text: string, words: readonly string[], pattern: RegExp): boolean {
  for (const word of words)
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      pattern.lastIndex = at;
      if (pattern.test(text)) return true;
    }
  return false;
}

/** What a file shows about message descriptors, by canonical text and by last member name. */
export interface MessageDescriptors {
  /** Canonical descriptor texts (`sock`, `ctx->fd`, `sv[1]`). */
  readonly targets: ReadonlySet<string>;
  /** Member names assigned a message descriptor (`fd` of `ctx->fd`). */
  readonly members: ReadonlySet<string>;
  /** Arrays filled by a message socketpair (`sv` of `sv[0]`, `sv[1]`). */
  readonly arrays: ReadonlySet<string>;
  /** The same members keyed by their struct for the fact base (see memberFactKey). */
  readonly keys?: ReadonlySet<string>;
  /** Member facts of other files (keys), resolved per function by {@link messagesIn}. */
  readonly elsewhere?: ReadonlySet<string>;
  /**
   * The object declarations the file's headers carry (see headerObjects.ts), by which {@link elsewhere}
   * resolves a global the file declares nowhere itself.
   */
  readonly declarations?: ReadonlySet<string>;
  /**
   * Variables another file defines and opens as message descriptors, which this file names and does not
   * define (see messageGlobals.ts): message descriptors where no local or parameter of the name hides them.
   */
  readonly globals?: ReadonlySet<string>;
  /** Arrays another file defines and fills with a message socketpair, as {@link globals}. */
  readonly globalArrays?: ReadonlySet<string>;
  /** Functions of the file that return a message descriptor (see {@link messageReturning}). */
  readonly returning?: ReadonlySet<string>;
  /**
   * Member expressions of one function (canonical, `c->fd`) whose struct is not the struct of any of
   * the file's message members of that name (see {@link otherStructMembers}): not message descriptors.
   */
  readonly otherStructs?: ReadonlySet<string>;
  /** The macros naming a device's path the file was read with (see deviceMacros.ts). */
  readonly devices?: ReadonlySet<string>;
}

const canonical = (text: string) => text.replace(/\s+/g, '');

/** The last member name of a descriptor text (`fd` of `ctx->fd`), if it is a member. */
function member(target: string): string | undefined {
  return /(?:->|\.)(\w+)$/.exec(target)?.[1];
}

/**
 * The message descriptors the file `text` shows (see the file comment). A file's analysis reads them
 * for its descriptors (with the device paths its macros name), for the accessors of its parts and for
 * the fact base's global and member facts (without): the last two answers are kept for the others
 * (its search of every assignment is most of its cost, and a file with device macros asks both ways,
 * in either order).
 */
export function messageDescriptors(
  text: string,
  devices: ReadonlySet<string> = NO_DEVICES,
): MessageDescriptors {
  const kept = lastFiles.find((f) => f.text === text && f.devices === devices);
  if (kept) return kept.found;
  const found = descriptorsIn(text, undefined, devices);
  lastFiles.unshift({ text, devices, found });
  lastFiles.length = Math.min(lastFiles.length, KEPT_FILES);
  return found;
}

/**
 * `found` (the file `text`'s message descriptors) with what the file assigns from its own functions
 * that return one (`returning`, see {@link messageReturning}): `fd = open_udp(port)` is a datagram
 * socket as `fd = socket(AF_INET, SOCK_DGRAM, 0)` is.
 */
export function withReturning(
  found: MessageDescriptors,
  text: string,
  returning: ReadonlySet<string>,
  devices: ReadonlySet<string> = NO_DEVICES,
): MessageDescriptors {
  if (returning.size === 0) return found;
  return {
    ...descriptorsIn(text, returning, devices),
    ...(found.elsewhere && { elsewhere: found.elsewhere }),
    ...(found.declarations && { declarations: found.declarations }),
    returning,
  };
}

/**
 * The functions among `fns` (name and body text) whose every return gives a descriptor their own text
 * shows to keep message boundaries (`int s; if ((s = socket(AF_INET, SOCK_DGRAM, 0)) < 0) return -1;
 * return s;`), or -1.
 */
export function messageReturning(
  fns: readonly { name: string; text: string }[],
  devices: ReadonlySet<string> = NO_DEVICES,
): Set<string> {
  const found = new Set<string>();
  for (const { name, text } of fns) {
    if (!foundAt(text, ['socket', 'open', 'ioctl'], DESCRIPTOR_CALL)) continue;
    const own = descriptorsIn(text, undefined, devices).targets;
    const values = [...text.matchAll(RETURNED)].map((m) => canonical(m[1] ?? ''));
    // The opening call may be the returned value itself (see returnedOpenings.ts), its type a local
    // (see localSocketTypes.ts).
    const message = (v: string) => own.has(v) || returnedOpening(v, devices) || localTypeSocket(v, text);
    if (values.some(message) && values.every((v) => message(v) || SENTINEL.test(v))) found.add(name);
  }
  return found;
}

/** A `return` statement's value, up to its `;`. */
const RETURNED = /\breturn\b\s*([^;]*);/g;

/** A failure's value: -1 or a negative constant, maybe in parentheses. */
const SENTINEL = /^\(?-(\d+|[A-Z][A-Z0-9_]*)\)?$/;

/** The texts {@link messageDescriptors} read last (the latest first), and what it found there. */
const lastFiles: {
  readonly text: string;
  readonly devices: ReadonlySet<string>;
  readonly found: MessageDescriptors;
}[] = [];
const KEPT_FILES = 2;

/**
 * The message descriptors one function's text `fnText` opens itself (see the file comment), read apart
 * from the rest of its file: a local of the name in another function is another descriptor.
 */
export function functionMessageDescriptors(fnText: string): MessageDescriptors {
  return descriptorsIn(fnText);
}

/** The message descriptors `text` shows (see the file comment). */
function descriptorsIn(
  text: string,
  returning?: ReadonlySet<string>,
  devices: ReadonlySet<string> = NO_DEVICES,
): MessageDescriptors {
  const targets = new Set<string>();
  const members = new Set<string>();
  const arrays = new Set<string>();
  const keys = new Set<string>();
  // The struct is looked for in what precedes the assignment: its function's parameters and locals.
  const key = (t: string, m: string, at: number) =>
    keys.add(memberFactKey(m, structOfTarget(t, text.slice(0, at), text)));
  // A target (a variable, or an array of two ends) kept in `into`, and the member it names, if any.
  const keep = (into: Set<string>, target: string, at: number) => {
    const t = canonical(target);
    into.add(t);
    const m = member(t);
    if (m) {
      members.add(m);
      key(t, m, at);
    }
  };
  const add = (target: string, at = 0) => keep(targets, target, at);
  const addArray = (array: string, at: number) => keep(arrays, array, at);
  if (foundAt(text, ['socket', 'open'], OPENING_CALL)) {
    const hints = addrinfoStreams(text);
    for (const { target, callee, args, index } of assignedCalls(text))
      if (isMessageOpening(callee, args, hints, devices)) add(target, index);
  }
  if (returning && [...returning].some((name) => text.includes(openerName(name)))) {
    for (const { target, callee, args, index } of assignedCalls(text))
      if (
        (returning.has(callee) && !typedStreamCall(callee, args, returning)) ||
        typedMessageCall(callee, args, returning)
      )
        add(target, index);
    // A variable handed by address to an opener storing a message socket there (see pointerOpeners.ts).
    for (const { target, index } of pointerOpenedTargets(text, returning)) add(target, index);
    // An array handed to an opener filling it with a message socketpair (see pointerOpeners.ts).
    for (const { target, index } of pairFilledArrays(text, returning)) addArray(target, index);
    // A call of one written to directly (`write(conn_fd(), ...)`): the call is the descriptor.
    for (const name of returning)
      if (/^\w+$/.test(name) && new RegExp(`\\b${name}\\s*\\(\\s*\\)`).test(text)) targets.add(`${name}()`);
  }
  for (const [target, at] of deviceRequests(text)) add(target, at);
  if (text.includes('socketpair')) {
    for (const m of text.matchAll(SOCKETPAIR)) {
      const [, head, array] = m as unknown as [string, string, string];
      if (MESSAGE_SOCKET.test(head)) addArray(array, m.index);
    }
    // An end of such a pair stored away (`d->peer = sv[0]`) is a message descriptor where it is kept.
    if (arrays.size > 0)
      for (const m of text.matchAll(STORED_END)) if (arrays.has(canonical(m[2]!))) add(m[1]!, m.index);
  }
  // A connection accepted on a listener of those kinds (see acceptedSockets.ts).
  if (targets.size > 0 && text.includes('accept'))
    for (const c of acceptedFrom(assignedCalls(text), (l) => targets.has(l))) add(c.target, c.index);
  return { targets, members, arrays, keys, ...(devices.size > 0 && { devices }) };
}

/**
 * True when `callee(args)` (the arguments' text) opens a descriptor that keeps message boundaries: a
 * socket whose type the call does not spell as a stream (it may be a datagram socket; `hints`: the
 * file's addrinfo hints ask for streams only), or a device or kernel file opened by its literal path.
 */
export function isMessageOpening(
  callee: string,
  args: string,
  hints: boolean,
  devices: ReadonlySet<string> = NO_DEVICES,
): boolean {
  if (callee === 'socket') return MESSAGE_SOCKET.test(args) || !isStreamSocketCall(args, hints);
  return /^(open|open64|openat|xopen|creat)$/.test(callee) && namesDevice(args, devices);
}

/** The descriptors `text` hands to `ioctl()` with a device request, with where (see the file comment). */
function deviceRequests(text: string): [string, number][] {
  if (!text.includes('ioctl')) return [];
  const found: [string, number][] = [];
  for (const m of text.matchAll(IOCTL)) {
    const [, target, request] = m as unknown as [string, string, string];
    if (!terminalRequest(request)) found.push([target, m.index]);
  }
  return found;
}

/**
 * The descriptors (canonical text) `text` hands to `ioctl()` with a device request: devices, even where
 * they come from `open()`, which otherwise makes a byte stream.
 */
export function deviceDescriptors(text: string): Set<string> {
  return new Set(deviceRequests(text).map(([t]) => canonical(t)));
}

/**
 * {@link deviceDescriptors} of a whole file. Every function of the file that writes asks about the
 * file's: the last file's answer is kept.
 */
export function fileDeviceDescriptors(text: string): ReadonlySet<string> {
  if (lastDevices?.text !== text) lastDevices = { text, found: deviceDescriptors(text) };
  return lastDevices.found;
}

/** The text {@link fileDeviceDescriptors} read last, and what it found there. */
let lastDevices: { readonly text: string; readonly found: ReadonlySet<string> } | undefined;

/** True when `target` (canonical) is a descriptor `found` shows to keep message boundaries. */
export function isMessageDescriptor(target: string, found: MessageDescriptors): boolean {
  if (found.targets.has(target)) return true;
  const m = member(target);
  if (m && found.members.has(m) && !found.otherStructs?.has(target)) return true;
  const array = /^(.*)\[[^\]]*\]$/.exec(target)?.[1];
  if (array === undefined) return false;
  if (found.arrays.has(array)) return true;
  const am = member(array);
  return am !== undefined && found.members.has(am) && !found.otherStructs?.has(array);
}

/**
 * The member expressions of a function (`fnText`) at a name the file assigns message descriptors to
 * (`found.members`) whose struct is known and is none of the structs those assignments were made to:
 * `c->fd` of a `struct tcp_conn *c` is not the `fd` the file gave a datagram socket in `struct udp_peer`.
 * A message assignment whose struct cannot be resolved holds for every struct (the quiet side), and so
 * does every assignment where the expression's own struct cannot be resolved.
 */
function otherStructMembers(found: MessageDescriptors, fnText: string, fileText: string): Set<string> {
  const exempt = new Set<string>();
  if (found.members.size === 0 || !found.keys) return exempt;
  const byMember = new Map<string, (StructKey | undefined)[]>();
  for (const k of found.keys) {
    const { member: m, struct } = parseMemberFact(k);
    byMember.set(m, [...(byMember.get(m) ?? []), struct]);
  }
  for (const e of memberExpressions(fnText, found.members)) {
    const facts = byMember.get(member(e)!) ?? [];
    if (facts.length === 0 || facts.some((f) => !f)) continue;
    const struct = structOfTarget(e, fnText, fileText);
    if (struct && !facts.some((f) => sameStruct(f!, struct))) exempt.add(e);
  }
  return exempt;
}

/**
 * `found` as one function sees it. A local variable of the function (`declared`: declared in its body)
 * is not the variable of the same name that another function opened, so only the function's own text
 * (`fnText`) makes it a message descriptor. Its parameters (`params`) keep the file's answer while the
 * file calls the function (`name`), since a caller may pass them the socket it opened; a function the
 * file never calls or takes the address of is called from other files, which another function's local
 * cannot reach. Members and arrays keep the file's answer, as the file comment says. Other files'
 * member facts ({@link MessageDescriptors.elsewhere}) apply to the function's member expressions of
 * the same struct (see {@link elsewhereTargets}); `fileText` is the whole file, `ownStream` says where
 * the file itself puts a byte stream in the member.
 */
export function messagesIn(
  found: MessageDescriptors,
  fnText: string,
  declared: ReadonlySet<string>,
  params: readonly string[] = [],
  reached: () => boolean = () => true,
  fileText?: string,
  ownStream?: (member: string, struct: StructKey | undefined) => boolean,
): MessageDescriptors {
  const own = (t: string) => declared.has(t) || params.includes(t);
  let result = found;
  if ([...found.targets].some(own)) {
    const keptParams = reached();
    const mine = descriptorsIn(fnText, found.returning, found.devices).targets;
    const kept = (t: string) => mine.has(t) || !(declared.has(t) || (params.includes(t) && !keptParams));
    result = { ...found, targets: new Set([...found.targets].filter(kept)) };
  }
  // A local array another function of the file filled (by a socketpair or an opener filling its
  // parameter) is that function's, not this one's of the same name.
  if ([...found.arrays].some((a) => declared.has(a))) {
    const mine = descriptorsIn(fnText, found.returning, found.devices).arrays;
    result = { ...result, arrays: new Set([...found.arrays].filter((a) => mine.has(a) || !declared.has(a))) };
  }
  if (found.globals?.size || found.globalArrays?.size) {
    // Another file's variable, unless the function's own of that name hides it.
    const seen = (names: ReadonlySet<string> | undefined) => [...(names ?? [])].filter((n) => !own(n));
    const variables = seen(found.globals);
    const arrays = seen(found.globalArrays);
    if (variables.length > 0) result = { ...result, targets: new Set([...result.targets, ...variables]) };
    if (arrays.length > 0) result = { ...result, arrays: new Set([...result.arrays, ...arrays]) };
  }
  if (fileText !== undefined) {
    const otherStructs = otherStructMembers(found, fnText, fileText);
    if (otherStructs.size > 0) result = { ...result, otherStructs };
  }
  if (found.elsewhere && found.elsewhere.size > 0 && fileText !== undefined) {
    const headers = found.declarations && [...found.declarations].join('\n');
    const more = elsewhereTargets(found.elsewhere, fnText, fileText, ownStream, headers);
    if (more.size > 0) result = { ...result, targets: new Set([...result.targets, ...more]) };
  }
  // A connection the function accepts on a listener it sees as a message socket, its own or another
  // file's global or member (see acceptedSockets.ts).
  if (fnText.includes('accept')) {
    const seen = result;
    const accepted = acceptedFrom(assignedCalls(fnText), (l) => isMessageDescriptor(l, seen));
    if (accepted.length > 0)
      result = {
        ...result,
        targets: new Set([...result.targets, ...accepted.map((c) => canonical(c.target))]),
      };
  }
  return result;
}

/**
 * The member expressions of a function (`fnText`) that other files' member facts (`keys`) make message
 * descriptors. A fact whose struct is unknown holds for every member of its name (the quiet side); a
 * keyed fact holds where the expression's struct is the same, or, where that cannot be resolved, in a
 * file that names the struct at all (a file that cannot see a struct cannot hold one of its members).
 * The file's own assignment of a byte stream to the member of that struct (`ownStream`) takes
 * precedence over a fact whose struct is unknown or only seen; not over one proven the same struct.
 * `headers`: the declarations the file's headers carry (see headerObjects.ts), which tell the struct of
 * a global the file declares nowhere itself.
 */
export function elsewhereTargets(
  keys: ReadonlySet<string>,
  fnText: string,
  fileText: string,
  ownStream: (member: string, struct: StructKey | undefined) => boolean = () => false,
  headers?: string,
): Set<string> {
  const byMember = new Map<string, (StructKey | undefined)[]>();
  for (const k of keys) {
    const { member: m, struct } = parseMemberFact(k);
    byMember.set(m, [...(byMember.get(m) ?? []), struct]);
  }
  const found = new Set<string>();
  for (const e of memberExpressions(fnText, new Set(byMember.keys()))) {
    const m = member(e)!;
    const struct = structOfTarget(e, fnText, fileText, headers);
    const facts = byMember.get(m) ?? [];
    if (struct && facts.some((f) => f && sameStruct(f, struct))) {
      found.add(e);
      continue;
    }
    if (ownStream(m, struct)) continue;
    if (facts.some((f) => !f || (!struct && seesStruct(fileText, f)))) found.add(e);
  }
  return found;
}

/**
 * True when `text` uses function `name` otherwise than by defining or declaring it: a call, or its
 * address taken (a callback). Read from the text: a mention after a type (`int name(`) is a
 * definition or a prototype.
 */
export function usedInFile(text: string, name: string): boolean {
  // Asked for several functions of one file: the last file's code is kept.
  if (lastCode?.text !== text)
    lastCode = { text, code: text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"/g, ' ') };
  const code = lastCode.code;
  for (const m of code.matchAll(new RegExp(`\\b${name}\\b(\\s*\\()?`, 'g'))) {
    if (m[1] === undefined) return true;
    const before = code.slice(Math.max(0, m.index - 80), m.index);
    if (!/[\w*]\s+\**$/.test(before) || /\b(?:return|else|case)\s+$/.test(before)) return true;
  }
  return false;
}

/** The text {@link usedInFile} read last, without its comments and strings. */
let lastCode: { readonly text: string; readonly code: string } | undefined;

/**
 * The members `text` assigns a message descriptor, keyed by their struct (see memberFactKey), for the
 * fact base: another file that writes to `conn->dgram` cannot see the `socket(AF_INET, SOCK_DGRAM, 0)`
 * this file put there. Empty without a `socket(`, `open(` or `ioctl(` call (most files).
 */
export function messageMembers(text: string): string[] {
  if (!foundAt(text, ['socket', 'open', 'ioctl'], DESCRIPTOR_CALL)) return [];
  return [...(messageDescriptors(text).keys ?? [])].sort();
}

/**
 * `found` with the member facts other files hold (`elsewhere`, keys) to resolve per function, and the
 * object declarations of the file's headers (`declarations`) to resolve them by.
 */
export function withMembers(
  found: MessageDescriptors,
  elsewhere: ReadonlySet<string>,
  declarations: readonly string[] = [],
): MessageDescriptors {
  if (elsewhere.size === 0) return found;
  return { ...found, elsewhere, ...(declarations.length > 0 && { declarations: new Set(declarations) }) };
}

/** `found` with other files' global variables and arrays this file names (see messageGlobals.ts). */
export function withGlobals(
  found: MessageDescriptors,
  globals: { variables: ReadonlySet<string>; arrays: ReadonlySet<string> },
): MessageDescriptors {
  if (globals.variables.size === 0 && globals.arrays.size === 0) return found;
  return { ...found, globals: globals.variables, globalArrays: globals.arrays };
}
