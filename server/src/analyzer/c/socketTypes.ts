// Which `socket()` calls make byte streams, by their type argument. `SOCK_STREAM` (with any flags
// or'ed in) says so; so does an address from `getaddrinfo()` (`socket(ai->ai_family,
// ai->ai_socktype, ai->ai_protocol)`) in a file whose hints ask for stream sockets only: every result
// then has `ai_socktype == SOCK_STREAM`. Hints that leave the type open, or a file that asks for
// another type anywhere, keep such a socket of unknown type. A type argument that names a type keeping
// message boundaries beside `SOCK_STREAM` (`udp ? SOCK_DGRAM : SOCK_STREAM`) is chosen when the program
// runs: such a socket is no byte stream (one of its writes may be one datagram).

/** Socket types where one send is one message (the type argument's part of MESSAGE_SOCKET). */
const MESSAGE_TYPE = /\bSOCK_(DGRAM|SEQPACKET|RAW|RDM|PACKET)\b/;

/** `hints.ai_socktype = X` or `.ai_socktype = X` in an initializer: the X. */
const HINT = /\bai_socktype\s*=(?!=)\s*([^;,}\n]+)/g;

/** Whether `text` sets the addrinfo socket type it asks for, and only ever to `SOCK_STREAM`. */
export function addrinfoStreams(text: string): boolean {
  if (!text.includes('ai_socktype')) return false;
  let stream = false;
  for (const m of text.matchAll(HINT)) {
    if (/^\s*\(?\s*SOCK_STREAM\b/.test(m[1] ?? '')) stream = true;
    else return false;
  }
  return stream;
}

/**
 * Whether a `socket()` call's type argument (`type`, its text) makes a byte stream; `hints`: the file's
 * {@link addrinfoStreams}.
 */
export function isStreamType(type: string, hints: boolean): boolean {
  if (MESSAGE_TYPE.test(type)) return false;
  if (/\bSOCK_STREAM\b/.test(type)) return true;
  return hints && /^\s*\(?\s*[A-Za-z_][\w.>\-[\]]*(?:\.|->)\s*ai_socktype\s*\)?\s*$/.test(type);
}

/**
 * {@link isStreamType} for a `socket(` call read from the text alone: `args` is what follows the
 * parenthesis (the arguments, and maybe more of the statement).
 */
export function isStreamSocketCall(args: string, hints: boolean): boolean {
  const type = args.split(',')[1] ?? '';
  if (MESSAGE_TYPE.test(type)) return false;
  return /\bSOCK_STREAM\b/.test(args) || isStreamType(type, hints);
}
