// Which language a file is, from its name alone: its own module, so that the file walk can ask without
// loading the analyzer (and its grammar) into a thread that does not analyse.
import type { Language } from './model';

/** The language of a file, from its name; undefined for files the analyzer does not read. */
export function languageOf(path: string): Language | undefined {
  if (/\.[ch]$/i.test(path)) return 'c';
  if (/\.[mc]?tsx?$/i.test(path)) return 'typescript';
  if (/\.[mc]?jsx?$/i.test(path)) return 'javascript';
  return undefined;
}
