// Global variables another file opens as message descriptors: log.c defines `int log_fd;` and assigns
// it `socket(AF_UNIX, SOCK_DGRAM, 0)`; main.c declares `extern int log_fd;` and writes to it twice.
// Each write is one datagram, but main.c shows no socket call, so its writes read as a descriptor of
// unknown kind, and two of them as a run. So too an array a `socketpair(AF_UNIX, SOCK_SEQPACKET, 0,
// chan)` fills (`extern int chan[2];`, `write(chan[0], ...)`).
//
// The defining file hands on the variables it defines at file scope (not `static`: no other file can
// name those) that its reading shows to keep message boundaries; they travel with the member facts
// (see messageMembers), as keys of their own form. A file that names one and defines no variable of
// that name itself (its own, static or not, is the one its functions mean) reads it as a message
// descriptor, but where a function declares a local or a parameter of the name (see messagesIn).
import { messageDescriptors } from './messageDescriptors';
import type { CWrapper } from '../wrapper';

/** What starts a global's key among the member facts: no member name does. */
const GLOBAL = '::';

/** The key of the global `name` (`::log_fd`), or of the array `name` (`::chan[]`). */
export function globalFactKey(name: string, array: boolean): string {
  return `${GLOBAL}${name}${array ? '[]' : ''}`;
}

/** The name of a global's key and whether it is an array; undefined for a member's key. */
export function parseGlobalFact(key: string): { name: string; array: boolean } | undefined {
  if (!key.startsWith(GLOBAL)) return undefined;
  const array = key.endsWith('[]');
  return { name: key.slice(GLOBAL.length, array ? -2 : undefined), array };
}

/** True when `key` is a global's (see {@link globalFactKey}), not a member's. */
export function isGlobalFact(key: string): boolean {
  return key.startsWith(GLOBAL);
}

/**
 * A definition of `name` at file scope in `text`: a declaration starting a line (a function's locals
 * are indented), as the one declared variable or one of a list, `extern` ones left out. With
 * `withStatic` false, `static` ones are left out too.
 */
function definesAtFileScope(text: string, name: string, withStatic: boolean): boolean {
  const skip = withStatic
    ? 'extern|typedef|return|else|case|goto'
    : 'static|extern|typedef|return|else|case|goto';
  return new RegExp(
    `^(?!(?:${skip})\\b)[A-Za-z_][^;(){}=#\\n]*[\\s*,]${name}\\s*(?:\\[[^\\]\\n]*\\]\\s*)?[=;,]`,
    'm',
  ).test(text);
}

/**
 * A declaration of `name` in an indented line (a function's local) or as a parameter: the file's
 * message socket at that name may be the local's, not the global's. A statement keyword is no type:
 * `return log_fd;` in the opener that sets the global and hands it back declares nothing.
 */
function declaredInside(text: string, name: string): boolean {
  return new RegExp(
    `^[ \\t]+(?:(?!(?:return|else|case|goto|do|sizeof)\\b)(?:const|unsigned|signed|volatile|register|struct|union|\\w+)\\s+\\**\\s*)+${name}\\s*(?:\\[[^\\]\\n]*\\]\\s*)?[=;,]|[(,]\\s*(?:const\\s+)?\\w+\\s*\\**\\s*${name}\\s*(?:\\[\\s*\\w*\\s*\\]\\s*)?[,)]`,
    'm',
  ).test(text);
}

/**
 * The keys of the variables `text` defines at file scope, not `static`, and shows to keep message
 * boundaries (see the file comment), for the fact base. Empty for most files.
 */
export function messageGlobals(text: string): string[] {
  if (!/\b(?:socket(?:pair)?|open\w*|ioctl)\s*\(/.test(text)) return [];
  const found = messageDescriptors(text);
  const keys: string[] = [];
  const global = (name: string) =>
    /^[A-Za-z_]\w*$/.test(name) && definesAtFileScope(text, name, false) && !declaredInside(text, name);
  for (const t of found.targets) if (global(t)) keys.push(globalFactKey(t, false));
  for (const a of found.arrays) if (global(a)) keys.push(globalFactKey(a, true));
  return keys.sort();
}

/**
 * Of other files' global facts (`keys`, among member facts), the variables and the arrays that `text`
 * names and does not define itself (see the file comment), or that a helper of another file writes and
 * `text` calls (`helpers`: `log_line(s)` writing to `log_fd`, which a third file opens as a datagram
 * socket; not a helper of its own file's `static` of the name, another variable).
 */
export function globalsElsewhere(
  keys: Iterable<string>,
  text: string,
  helpers: Iterable<CWrapper> = [],
): { variables: Set<string>; arrays: Set<string> } {
  const variables = new Set<string>();
  const arrays = new Set<string>();
  let written: Set<string> | undefined;
  for (const key of keys) {
    const fact = parseGlobalFact(key);
    if (!fact) continue;
    if (!new RegExp(`\\b${fact.name}\\b`).test(text)) {
      written ??= helperDescriptors(helpers, text);
      if (fact.array || !written.has(fact.name)) continue;
    }
    if (definesAtFileScope(text, fact.name, true)) continue;
    (fact.array ? arrays : variables).add(fact.name);
  }
  return { variables, arrays };
}

/** The variables other files' `helpers` that `text` calls write to, by name (see globalsElsewhere). */
function helperDescriptors(helpers: Iterable<CWrapper>, text: string): Set<string> {
  const names = new Set<string>();
  for (const w of helpers) {
    if (w.file === undefined || !('text' in w.fd) || w.fd.fileStatic || !/^\w+$/.test(w.name)) continue;
    const root = /^\s*([A-Za-z_]\w*)\s*$/.exec(w.fd.text)?.[1];
    if (root && new RegExp(`\\b${w.name}\\s*\\(`).test(text)) names.add(root);
  }
  return names;
}

/**
 * True when a finding's descriptor (`target`, as reported) is a variable or an element of an array
 * that one of `keys` (other files' member facts) names: the CLI reads the file again with them.
 */
export function namesGlobalFact(target: string, keys: readonly string[]): boolean {
  const root = /^([A-Za-z_]\w*)(\s*\[[^\]]*\])?$/.exec(target.trim());
  if (!root) return false;
  return keys.includes(globalFactKey(root[1]!, root[2] !== undefined));
}
