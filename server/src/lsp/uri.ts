// file: URIs and paths (the only scheme the analyzer reads from disk; others are analysed by name).
// Clients send what they have: Neovim and Emacs percent-encode a Latin-1 file name byte by byte
// (`caf%E9.c`), which is no UTF-8 path, and a URI may name another host. None of it may throw in a
// handler: the document is still served, by a name that says what it could not decode.
import { pathToFileURL } from 'node:url';

/** What a `file:` URI names on this machine. */
export interface FilePath {
  /** The path: exact, or with U+FFFD where bytes were not UTF-8 (a name for messages and languages). */
  readonly path: string;
  /** Whether `path` names the file on disk exactly. */
  readonly exact: boolean;
  /** The folder holding the file, when that part decodes exactly (config lookup starts there). */
  readonly folder?: string;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** One path segment's percent-escapes decoded as UTF-8; `exact` false when they are not UTF-8. */
function decodeSegment(segment: string): { text: string; exact: boolean } {
  if (!segment.includes('%')) return { text: segment, exact: true };
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const hex = segment[i] === '%' ? segment.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(segment[i] as string, 'utf8'));
  }
  const data = Uint8Array.from(bytes);
  try {
    const text = strict.decode(data);
    // An encoded separator or NUL would name another file than the URI does.
    return { text, exact: !/[/\0]/.test(text) };
  } catch {
    return { text: lenient.decode(data), exact: false };
  }
}

/** Conversions between `file:` URIs and paths. */
export const URI = {
  /**
   * What a `file:` URI names, or undefined for other schemes and for a URI that does not parse.
   * Never throws. A URI naming another host is not exact (its path is not this machine's).
   */
  parse(uri: string): FilePath | undefined {
    if (!uri.startsWith('file:')) return undefined;
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return undefined;
    }
    // Another host's path is not this machine's: the document keeps its URI as its name.
    if (url.hostname !== '' && url.hostname !== 'localhost') return { path: uri, exact: false };
    const segments = url.pathname.split('/').map(decodeSegment);
    const path = segments.map((s) => s.text).join('/') || '/';
    const folderExact = segments.slice(0, -1).every((s) => s.exact);
    const exact = folderExact && segments[segments.length - 1]!.exact;
    const folder = folderExact
      ? segments
          .slice(0, -1)
          .map((s) => s.text)
          .join('/') || '/'
      : undefined;
    return { path, exact, folder };
  },
  /**
   * The path of a `file:` URI (with U+FFFD for bytes that are not UTF-8, see {@link URI.parse}), or
   * the URI itself for other schemes (`untitled:a.c` still has a name). Never throws.
   */
  toPath(uri: string): string {
    return URI.parse(uri)?.path ?? uri;
  },
  /** The `file:` URI of a path. */
  fromPath(path: string): string {
    return pathToFileURL(path).href;
  },
};
