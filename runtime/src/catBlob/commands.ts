import { CatBlobCommandError } from './errors';

/** A command of a fast-import stream that a cat-blob responder obeys. */
export type Command =
  | { readonly kind: 'cat-blob'; readonly oid: string }
  | { readonly kind: 'comment' }
  | { readonly kind: 'done' };

/**
 * Parses one line of a fast-import stream for a responder that answers `cat-blob` only. Comments
 * (`#...`) are part of the format and skipped; `done` ends the stream, as in fast-import; anything
 * else is an error worded as git fast-import words it, naming the line:
 * "Unsupported command: ...", "Invalid dataref: ...", "Garbage after SHA1: ...", and
 * "mark :N not declared" (no command of this stream can declare a mark).
 *
 * @param hexLength - digits of a full object id: 40 (SHA-1) or 64 (SHA-256).
 * @throws {@link CatBlobCommandError}.
 */
export function parseCommand(line: string, lineNumber: number, hexLength: number): Command {
  if (line.startsWith('#')) return { kind: 'comment' };
  if (line === 'done') return { kind: 'done' };
  if (!line.startsWith('cat-blob '))
    throw new CatBlobCommandError(`Unsupported command: ${line}`, line, lineNumber);
  const ref = line.slice('cat-blob '.length);
  const mark = /^:(\d+)/.exec(ref);
  if (mark) throw new CatBlobCommandError(`mark :${mark[1]} not declared`, line, lineNumber);
  let digits = 0;
  while (digits < ref.length && digits < hexLength && isHex(ref.charCodeAt(digits))) digits++;
  if (digits < hexLength) throw new CatBlobCommandError(`Invalid dataref: ${line}`, line, lineNumber);
  if (ref.length > hexLength) throw new CatBlobCommandError(`Garbage after SHA1: ${line}`, line, lineNumber);
  return { kind: 'cat-blob', oid: ref.toLowerCase() };
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}
