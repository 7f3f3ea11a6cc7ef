// file: URIs and paths (the only scheme the analyzer reads from disk; others are analysed by name).
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Conversions between `file:` URIs and paths. */
export const URI = {
  /** The path of a `file:` URI, or the URI itself for other schemes (`untitled:a.c` still has a name). */
  toPath(uri: string): string {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  },
  /** The `file:` URI of a path. */
  fromPath(path: string): string {
    return pathToFileURL(path).href;
  },
};
