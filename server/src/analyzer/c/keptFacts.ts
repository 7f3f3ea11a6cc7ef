// The function facts of documents open in an editor, read again only where the text changed. Each
// keystroke analyses the whole file again, and reading every definition's calls and parameters was
// a large part of that, though a keystroke changes one function. A definition's facts depend only on
// the stretch of text they are read from (see definitionReading): one that lies wholly before the
// edit, or wholly after it, reads the same characters as in the document's previous version, and its
// facts are taken from there. Compared by position, not looked up by text: hashing each definition's
// text to find it again cost about as much as reading it.
import { cFunctionFacts, definitionReading, type CFunctionFact } from './functionFacts';
import { sameEnds } from './textChanges';

/** How two versions of a text agree: the length of their common start and of their common end. */
type Same = ReturnType<typeof sameEnds>;

/** One definition's reading in a version of a document. */
interface Reading {
  /** Where the text read starts (see definitionReading) and where the body's `}` stands. */
  readonly from: number;
  readonly close: number;
  /** What was read: undefined when the text there is no definition. */
  readonly fact: CFunctionFact | undefined;
}

/** A document's last version (blanked as cFunctionFacts blanks it), with its readings by `{`. */
interface Version {
  readonly clean: string;
  readonly readings: ReadonlyMap<number, Reading>;
}

/** The function facts of kept documents, each reusing its previous version's readings. */
export class KeptFacts {
  private readonly versions = new Map<string, Version>();

  /**
   * {@link cFunctionFacts} of `text`, the version of document `key` being analysed: equal to a fresh
   * reading. The readings are kept for the document's next version.
   */
  facts(key: string, text: string): CFunctionFact[] {
    const last = this.versions.get(key);
    const readings = new Map<number, Reading>();
    let kept: { clean: string; same: Same | undefined } | undefined;
    const facts = cFunctionFacts(text, (clean, open, close) => {
      kept ??= { clean, same: last && sameEnds(last.clean, clean) };
      const earlier = last && kept.same && earlierReading(last, kept.same, clean.length, open, close);
      const reading = earlier ?? { close, ...definitionReading(clean, open, close) };
      readings.set(open, reading);
      return reading.fact;
    });
    // A text without definitions keeps nothing to reuse.
    if (kept) this.versions.set(key, { clean: kept.clean, readings });
    else this.versions.delete(key);
    return facts;
  }

  /** Drops what is kept for document `key` (it was closed). */
  forget(key: string): void {
    this.versions.delete(key);
  }
}

/**
 * The reading of `last` for the body `clean[open..close]` (of a text of `length`) over the same
 * characters (`from` to `close`, see definitionReading), at the same offsets: within the common
 * start, or within the common end (moved by the change of length). Undefined when the stretch touches
 * the change or the last version read no body there.
 */
function earlierReading(
  last: Version,
  same: Same,
  length: number,
  open: number,
  close: number,
): Reading | undefined {
  // Within the common start: everything before the body's end is the same.
  if (close <= same.prefix) {
    const reading = last.readings.get(open);
    return reading?.close === close ? reading : undefined;
  }
  const moved = length - last.clean.length;
  const reading = last.readings.get(open - moved);
  return reading && reading.close === close - moved && reading.from + moved >= length - same.suffix
    ? { ...reading, from: reading.from + moved, close }
    : undefined;
}
