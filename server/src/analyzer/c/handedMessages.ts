// Message sockets handed to another file's functions. A project opens a datagram or SOCK_SEQPACKET
// socket in one file and hands it to a helper of another (`s = socket(AF_INET, SOCK_DGRAM, 0);
// put_reply(s, code, text);`): where the helper writes to that parameter twice, each write is one
// message, and its writes are not one byte stream to gather. The helper's file cannot see the call;
// each file tells the fact base which functions it hands a message socket, and at which argument, and
// the helper's file reads those parameters as message descriptors (see messageParameters.ts). Read from
// the text alone, and only in a file whose text names a message socket type: the same search the
// file's own message descriptors start from.
import { C_WRITE_FUNCTIONS } from '../catalogue';
import { argumentTexts } from './boundWriters';
import { libraryQuiet } from './functionFacts';
import { functionMessageDescriptors, isMessageDescriptor, MESSAGE_SOCKET } from './messageDescriptors';
import { canonicalTarget } from './syntax';
import type { CFunctionFact } from './functionFacts';
import { type ParameterIndex, indexesByName } from './parameterIndexes';

/** A call handing a message descriptor: the function called, and the argument's index. */
export type HandedMessage = ParameterIndex;

/** The callers' messages by function: the indexes of its parameters some call hands a message socket. */
export type HandedMessages = ReadonlyMap<string, ReadonlySet<number>>;

/** No function handed a message socket. */
export const NO_HANDED: HandedMessages = new Map();

/** Comments, string and character literals: blanked before the braces are counted. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** A call's name and its `(`. */
const CALL = /\b([A-Za-z_]\w*)\s*\(/g;

/** Words followed by `(` that call nothing. */
const NOT_CALLS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'defined', '__attribute__']);

/** The C library's write functions: their descriptor is no parameter of the project's. */
const LIBRARY_WRITES: ReadonlySet<string> = new Set(C_WRITE_FUNCTIONS.map((f) => f.name));

/**
 * The calls of `text`'s functions that hand a descriptor the function opened as a message socket
 * (see messageDescriptors.ts) to a function the file does not define `static` (`statics`), each
 * function and index once, sorted. The library's write functions (`sendto(s, ...)`) and quiet ones are
 * left out; its other calls (`close(s)`) are the fact base's to drop, which knows the tree's
 * definitions. Empty unless the text names a message socket type.
 */
export function handedMessages(text: string, statics: ReadonlySet<string>): HandedMessage[] {
  if (!MESSAGE_SOCKET.test(text)) return [];
  const clean = text.replace(NOISE, (m) => m.replace(/[^\n]/g, ' '));
  const found = new Map<string, Set<number>>();
  for (const [open, close] of topLevelBodies(clean)) {
    const body = clean.slice(open, close + 1);
    if (!MESSAGE_SOCKET.test(text.slice(open, close + 1)) && !body.includes('accept')) continue;
    const held = functionMessageDescriptors(text.slice(open, close + 1));
    if (held.targets.size === 0 && held.arrays.size === 0) continue;
    for (const m of body.matchAll(CALL)) {
      const name = m[1] as string;
      if (NOT_CALLS.has(name) || statics.has(name) || LIBRARY_WRITES.has(name) || libraryQuiet(name))
        continue;
      const args = argumentTexts(body, m.index + m[0].length);
      args?.forEach((arg, i) => {
        if (!isMessageDescriptor(canonicalTarget(arg), held)) return;
        const set = found.get(name) ?? new Set<number>();
        set.add(i);
        found.set(name, set);
      });
    }
  }
  return [...found]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([name, indexes]) => [...indexes].sort((a, b) => a - b).map((i) => [name, i] as const));
}

/** The `{` and `}` of each brace pair at depth 0 of `clean` (a text without comments and literals). */
export function topLevelBodies(clean: string): [number, number][] {
  const bodies: [number, number][] = [];
  let depth = 0;
  let open = -1;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    if (c === 123 /* { */) {
      if (depth++ === 0) open = i;
    } else if (c === 125 /* } */ && depth > 0 && --depth === 0) bodies.push([open, i]);
  }
  return bodies;
}

/**
 * {@link handedMessages} of a file whose function facts are `functions`: only a file whose functions
 * call `socket()` or `socketpair()` opens a message socket of its own, and the facts say so without a
 * search of the text.
 */
export function fileHandedMessages(text: string, functions: readonly CFunctionFact[]): HandedMessage[] {
  if (!functions.some((f) => f.calls.some((c) => c === 'socket' || c === 'socketpair'))) return [];
  if (lastHanded?.text === text && lastHanded.functions === functions) return lastHanded.handed;
  const handed = handedMessages(text, new Set(functions.filter((f) => !f.exported).map((f) => f.name)));
  lastHanded = { text, functions, handed };
  return handed;
}

/**
 * The answer for the text and facts asked last: a file's analysis asks it for its findings, then again
 * of the same text and facts for the fact base, and each answer read every body of the file. Shared:
 * not to be modified.
 */
let lastHanded:
  | { readonly text: string; readonly functions: readonly CFunctionFact[]; readonly handed: HandedMessage[] }
  | undefined;

/** `elsewhere` (the tree's answer) with a file's own `handed` calls added. */
export function withHanded(elsewhere: HandedMessages, handed: readonly HandedMessage[]): HandedMessages {
  return handed.length === 0 ? elsewhere : indexesByName(handed, elsewhere);
}
