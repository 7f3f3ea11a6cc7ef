// What the C front end made of a file and of each function it read, for a development census of code
// where the analyzer stays silent (scripts/why-quiet.js): an observer that a tool sets and the front
// end calls once per file it reads past the first look and once per function it reads into steps for
// its findings (not a helper's body read to know what it writes).
// Shipped behaviour never sets one; unset, the front end pays one test of a module variable per file
// and per function read.
import type { Node } from 'web-tree-sitter';
import type { Block } from '../model';
import type { FileStreams } from './origins';
import type { CContext } from './writes';

/** A file read past the first look: the context its functions are read with. */
export interface FileReading {
  /** The file's context (every function's reading starts from it). */
  readonly ctx: CContext;
  /** What the file says about where descriptors come from. */
  readonly streams: FileStreams;
}

/** A function read into blocks of steps for its findings. */
export interface FunctionReading {
  /** The definition read (valid only during the call: its tree is released after the analysis). */
  readonly fn: Node;
  /** The context it was read with, the function's own stream and message facts included. */
  readonly ctx: CContext;
  /** The blocks the reader made of it. */
  readonly blocks: readonly Block[];
}

/** The callbacks of a reading observer; either may be left out. */
export interface ReadingObserver {
  readonly file?: (reading: FileReading) => void;
  readonly function?: (reading: FunctionReading) => void;
}

let observer: ReadingObserver | undefined;

/** Sets (or with undefined, clears) the observer of readings; returns the one it replaces. */
export function observeReadings(next: ReadingObserver | undefined): ReadingObserver | undefined {
  const previous = observer;
  observer = next;
  return previous;
}

/** The observer, if a tool set one. */
export function readingObserver(): ReadingObserver | undefined {
  return observer;
}
