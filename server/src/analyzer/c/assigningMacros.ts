// Statement macros that only assign what they are handed (`#define TERMINATE(s) { s[sizeof(s)-1] =
// '\0'; }`, `#define ZERO(x) memset(&(x), 0, sizeof(x))`): their expansion is code of the caller that
// changes the caller's own objects, no output and no jump. A function using one (a time formatter
// ending its static buffer with such a macro from a project header) does no more output than the same
// assignment written out, so the macro makes it no more opaque than that assignment would. What such a
// macro changes is whatever its caller hands it: a caller handing it a file-scope name changes that
// name (see handedNames), which is how a call of that caller between two writes still ends a run that
// sent the name. Only upper-case names are read so: C spells macros so, and a caller's call of an
// upper-case name is then taken to maybe change what it is given whatever that name turns out to be.
import { assignedNames } from './assignedGlobals';
import { splitTopLevel } from './topLevelCommas';

/** An upper-case name, as C spells macros. */
const MACRO_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Words that leave the caller's code from inside an expansion. */
const JUMPS = /\b(?:return|goto|break|continue)\b/;

/**
 * Whether the macro `name` of parameters `params` and body `body` (comments and literals blanked)
 * only assigns objects its arguments name, or locals it declares: an upper-case name, no jump out of
 * its caller, and every name its body assigns or fills (see assignedNames) one of `params`. `calls`:
 * the names its body calls; a parameter among them (a callback) makes it anything but this.
 */
export function assignsOnlyArguments(
  name: string,
  params: readonly string[],
  body: string,
  calls: readonly string[],
): boolean {
  if (!MACRO_NAME.test(name) || JUMPS.test(body)) return false;
  if (calls.some((c) => params.includes(c))) return false;
  const assigned = assignedNames(body, new Set());
  return assigned.length > 0 && assigned.every((n) => params.includes(n));
}

/** An argument naming an object: `buf`, `&hdr`, `conf.name`, `p->x`, `line[i]`, casts and parentheses aside. */
const OBJECT_ARGUMENT =
  /^\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*\(?\s*([A-Za-z_]\w*)(?:\s*(?:\.|->)\s*\w+|\s*\[[^\]]*\])*\s*\)?\s*$/;

/**
 * The names whose objects `body` (a function's body, comments and literals blanked) hands to a call
 * of an upper-case name among `calls` (the names it calls: `TERMINATE(buf)`, `FD_SET(fd, &set)`): such
 * a call may be a macro assigning them (see {@link assignsOnlyArguments}). Each argument that names an
 * object gives its root name; an expression (`n + 1`, a call, a comparison) gives none. Whether a name
 * is the body's own or a parameter is for the caller to tell.
 */
export function handedNames(body: string, calls: readonly string[]): string[] {
  const found = new Set<string>();
  for (const name of calls) {
    if (!MACRO_NAME.test(name)) continue;
    for (let at = body.indexOf(name); at >= 0; at = body.indexOf(name, at + name.length)) {
      if (at > 0 && isWordCode(body.charCodeAt(at - 1))) continue;
      let open = at + name.length;
      while (open < body.length && /\s/.test(body[open]!)) open++;
      if (body[open] !== '(') continue;
      const close = closing(body, open + 1);
      if (close < 0) continue;
      for (const arg of splitTopLevel(body.slice(open + 1, close)) ?? []) {
        const object = OBJECT_ARGUMENT.exec(arg);
        if (object && !MACRO_NAME.test(object[1]!)) found.add(object[1]!);
      }
    }
  }
  return [...found];
}

/** Whether a character code may be part of a C name. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** The index of the `)` closing the parenthesis opened just before `from`, or -1 (none before a `;`). */
function closing(text: string, from: number): number {
  let depth = 1;
  for (let k = from; k < text.length; k++) {
    const c = text[k];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return k;
    else if (c === ';' || c === '{' || c === '}') return -1;
  }
  return -1;
}
