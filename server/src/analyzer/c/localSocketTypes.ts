// Openers returning a socket whose type a local variable holds: `int type = SOCK_DGRAM; #ifdef
// SOCK_CLOEXEC type |= SOCK_CLOEXEC; #endif return socket(AF_UNIX, type, 0);`, the portable way to ask
// for close-on-exec where the flag may be missing. The socket named and then returned (`s = socket(AF_UNIX,
// type, 0); return s;`) is already read as one whose type the call leaves to a variable; the one returned
// without a name was not, since a type the caller passes is read at each call (see typedSockets.ts). A
// local is not the caller's: when every value the function gives it names a type keeping message
// boundaries, so does the socket (flags or'ed in with `|=` change no type).
import { MESSAGE_SOCKET } from './messageDescriptors';
import { splitTopLevel } from './topLevelCommas';

/** Socket types keeping message boundaries. */
const MESSAGE_TYPE = /\bSOCK_(?:DGRAM|SEQPACKET|RAW|RDM|PACKET)\b/;

/**
 * True when `value` (a return statement's value, whitespace removed) is `socket(domain, type, ...)`
 * whose `type` is a local of the function `fnText` (declared in its body, not a parameter) that every
 * assignment sets to a message type (see the file comment). Does not read `value`'s domain: a message
 * domain is read by returnedOpening already.
 */
export function localTypeSocket(value: string, fnText: string): boolean {
  const call = /^\(?socket\((.*)\)\)?$/.exec(value);
  const type = call && splitTopLevel(call[1]!)?.[1];
  if (!type || !/^[A-Za-z_]\w*$/.test(type) || MESSAGE_SOCKET.test(type)) return false;
  const open = fnText.indexOf('{');
  if (open < 0) return false;
  const head = fnText.slice(0, open);
  const body = fnText.slice(open);
  // A parameter of that name is the caller's choice (typedSockets.ts reads it at each call).
  if (new RegExp(`\\b${type}\\b`).test(head)) return false;
  if (
    !new RegExp(
      `^[ \\t]*(?:(?:const|unsigned|signed|register)\\s+)*(?:int|long|short)\\s+(?:[^;=]*,\\s*)?${type}\\b`,
      'm',
    ).test(body)
  )
    return false;
  const values = [...body.matchAll(new RegExp(`\\b${type}\\s*=(?!=)\\s*([^;]+);`, 'g'))].map((m) => m[1]!);
  return values.length > 0 && values.every((v) => MESSAGE_TYPE.test(v) && !/\bSOCK_STREAM\b/.test(v));
}
