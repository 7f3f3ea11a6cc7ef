// A terminal's settings changed by `ioctl()` between two writes: `ioctl(pty, TIOCSETN, &sg)` is what
// tcsetattr() does with another spelling (older BSD code, telnet and rlogin servers, serial tools), and
// it splits the writes as surely: the terminal reads the bytes written before and after under different
// modes (echo, raw, line editing), and the descriptor it names may be another name of the written one.
// The request decides, not the name: `ioctl(fd, FIONREAD, &n)` or `ioctl(fd, TIOCGWINSZ, &ws)` reads
// what the bytes written do not depend on, and keeps its judgement as any other call's. Read on the
// syntax tree for the rules that see a call, and on a body's text for the function facts (a helper
// `set_raw(fd)` making the request is a wait as a helper calling tcsetattr() is: waitingFunctions.ts).
import type { Node } from 'web-tree-sitter';
import { libraryWaits, terminalRequest } from '../catalogue';
import { callArgs, calleeName, withoutCasts } from './syntax';
import { splitTopLevel } from './topLevelCommas';

/**
 * True when `call` waits as the library's waits do (see catalogue's libraryWaits), or is an `ioctl()`
 * whose request (its second argument, casts and parentheses aside) changes a terminal's settings (see
 * catalogue's terminalRequest).
 */
export function waitingCall(call: Node): boolean {
  const name = calleeName(call);
  if (name === undefined) return false;
  if (libraryWaits(name)) return true;
  return name === 'ioctl' && terminalRequestArgument(callArgs(call)[1]);
}

/** Whether `arg`, an `ioctl()`'s request, names a request that changes a terminal's settings. */
function terminalRequestArgument(arg: Node | undefined): boolean {
  if (!arg) return false;
  const request = withoutCasts(arg);
  return request.type === 'identifier' && terminalRequest(request.text);
}

/** An `ioctl(` call in text (comments and literals blanked). */
const IOCTL_CALL = /\bioctl\s*\(/g;

/** A request as written: a name, in parentheses or behind casts (`(unsigned long)TIOCSETN`). */
const REQUEST = /^(?:\(\s*[\w\s]+\)\s*)*\(*\s*([A-Za-z_]\w*)\s*\)*$/;

/**
 * True when the text `body` (a function's body or a macro's expansion, comments and literals blanked)
 * calls `ioctl()` with a request that changes a terminal's settings, as {@link waitingCall} reads a
 * call.
 */
export function makesTerminalRequest(body: string): boolean {
  if (!body.includes('ioctl')) return false;
  IOCTL_CALL.lastIndex = 0;
  for (let m = IOCTL_CALL.exec(body); m; m = IOCTL_CALL.exec(body)) {
    const from = m.index + m[0].length;
    let depth = 1;
    let k = from;
    for (; k < body.length && depth > 0; k++) {
      const c = body.charCodeAt(k);
      if (c === 40) depth++;
      else if (c === 41) depth--;
    }
    if (depth > 0) return false;
    const request = splitTopLevel(body.slice(from, k - 1))?.[1];
    const name = request === undefined ? undefined : REQUEST.exec(request.trim())?.[1];
    if (name !== undefined && terminalRequest(name)) return true;
  }
  return false;
}
