// Results per function text. Findings in a function depend only on its text and on the context
// (settings, known wrappers), so after an edit only the edited function is read again: this is what
// keeps the editor's diagnostics fast on large files. Offsets are stored relative to the function.
//
// Memory: each entry holds a whole function's text, and typing in a long function makes a new text
// per keystroke, so the memo is bounded in bytes (least recently used entries go first), and an entry
// is kept for the documents that used it in their latest analyses only: an edited function's old
// text is dropped at the document's next analysis but one, and a closed document's entries at once.
//
// Found by position first: an entry a document's analysis before used for a function that lies wholly
// before or after the edit (see textChanges.ts) is its entry now, without the text hashed and compared
// (each of a 4,000-line file's functions looked up by text at every keystroke, in the findings memo and
// in each round of the wrappers', was a tenth of an edit's analysis).
import type { Finding, Span } from '../model';
import { earlierOffset, type TextChange } from './textChanges';

/** The finding with every offset moved by `delta`. */
export function shiftFinding(f: Finding, delta: number): Finding {
  const move = (s: Span): Span => ({ start: s.start + delta, end: s.end + delta });
  return {
    ...f,
    span: move(f.span),
    related: f.related.map((r) => ({ ...r, span: move(r.span) })),
    fix: f.fix && { ...f.fix, edits: f.fix.edits.map((e) => ({ ...e, span: move(e.span) })) },
  };
}

/** The default bound of one memo: a few hundred ordinary functions, or a few very long ones. */
export const MEMO_MAX_BYTES = 16 * 1024 * 1024;

/**
 * An estimate of the bytes `value` holds (strings at two bytes a character, a few words per object
 * and property). Iterative, so no value is too deep to measure.
 */
export function estimateBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') bytes += 16 + 2 * v.length;
    else if (typeof v === 'object' && v !== null) {
      const items: unknown[] = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
      bytes += 32 + 8 * items.length;
      stack.push(...items);
    } else bytes += 8;
  }
  return bytes;
}

/**
 * A fresh copy of `text`. A slice of a document shares the document's whole text in V8, so a key
 * kept as sliced would hold every version of the document typed so far, and no byte count of the
 * memo's own would see it.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

interface Entry<T> {
  /** The key as stored (a copy: see {@link detached}). */
  readonly key: string;
  readonly value: T;
  readonly bytes: number;
  /** The documents whose latest analyses used this entry; empty for a batch run's entries. */
  readonly owners: Set<string>;
}

/**
 * Where a key stands in the document being analysed: the key is `lead` (default empty) followed by
 * the document's text from `start` on.
 */
export interface Place {
  readonly start: number;
  readonly lead?: string;
}

/** The entry an analysis used for the key at a place (see {@link Place}), by the place's start. */
interface Placed<T> {
  readonly entry: Entry<T>;
  readonly lead: string;
}

/** A document's use of the memo. */
interface OwnerUse<T> {
  /** The keys its latest analysis used, and those the one before used. */
  current: Set<string>;
  previous: Set<string>;
  /** The entries its latest analysis used by place, and those the one before used. */
  placing: Map<number, Placed<T>>;
  placed: Map<number, Placed<T>>;
  /** How the text being analysed differs from the one analysed before (see FunctionMemo.begin). */
  change: TextChange | undefined;
}

/** What a memo holds, by its own count. */
export interface MemoUse {
  readonly entries: number;
  /** Bytes held (the keys' text and an estimate of the values), at most `maxBytes`. */
  readonly bytes: number;
  readonly maxBytes: number;
  /** Documents with entries. */
  readonly owners: number;
}

/**
 * A cache from function text to a result, emptied when its context changes, holding at most
 * `maxBytes` (by {@link estimateBytes} of each value and two bytes per character of each key).
 * Values are stored as copies (`structuredClone`), so a value never keeps a document's text alive.
 */
export class FunctionMemo<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private context = '';
  private bytes = 0;
  /** Per document: what its latest analyses used. */
  private readonly owners = new Map<string, OwnerUse<T>>();
  /** The document being analysed, between {@link FunctionMemo.begin} and {@link FunctionMemo.end}. */
  private active: string | undefined;

  constructor(readonly maxBytes = MEMO_MAX_BYTES) {}

  /**
   * The cached result for `text` under `context`, computing and storing it when missing. Between
   * {@link FunctionMemo.begin} and {@link FunctionMemo.end} the entry is kept for that document.
   * `place`: where `text` stands in the document (see {@link Place}), so that an unchanged function
   * finds its entry by position.
   */
  get(context: string, text: string, compute: () => T, place?: Place): T {
    if (context !== this.context) this.clear();
    // An equal context's latest string is kept too: the calls of the same analysis pass that very
    // string, then found equal by reference rather than character by character.
    this.context = context;
    const owner = this.active;
    const use = owner === undefined ? undefined : this.ownerOf(owner);
    let entry = (use && place && this.placedEntry(use, text, place)) || this.entries.get(text);
    if (entry) {
      // Most recently used last: eviction takes from the front. Under the stored key: `text` may be a
      // slice of the document, which would keep the whole document's text (see detached).
      this.entries.delete(entry.key);
      this.entries.set(entry.key, entry);
    } else {
      const value = structuredClone(compute());
      const key = detached(text);
      entry = { key, value, bytes: 2 * key.length + estimateBytes(value), owners: new Set() };
      if (entry.bytes > this.maxBytes) return value; // Bigger than the whole memo: not kept.
      this.entries.set(key, entry);
      this.bytes += entry.bytes;
      this.evict();
    }
    if (owner !== undefined && use) {
      entry.owners.add(owner);
      use.current.add(entry.key);
      if (place) use.placing.set(place.start, { entry, lead: place.lead ?? '' });
    }
    return entry.value;
  }

  /**
   * The entry the analysis before used at the same place as `text` now, when the place lies wholly
   * before or after the change (its text is the same characters, the entry's key), under the same
   * lead, and the entry is still held.
   */
  private placedEntry(use: OwnerUse<T>, text: string, place: Place): Entry<T> | undefined {
    if (!use.change) return undefined;
    const lead = place.lead ?? '';
    const before = earlierOffset(use.change, place.start, place.start + text.length - lead.length);
    const placed = before === undefined ? undefined : use.placed.get(before);
    if (!placed || placed.lead !== lead || placed.entry.key.length !== text.length) return undefined;
    // The key kept is the very string stored: found by reference, its hash known.
    return this.entries.get(placed.entry.key) === placed.entry ? placed.entry : undefined;
  }

  /**
   * Starts a new analysis of document `owner`: the entries only its analysis before the last one
   * used (an edited function's old text) are dropped. Two analyses are kept, not one, so that an
   * analysis of the same version again, or an undo, still finds what the last one computed.
   * `change`: how the text now analysed differs from the one the document's analysis before read
   * (see textChanges.ts); without it, entries are found by text only.
   */
  begin(owner: string, change?: TextChange): void {
    const use = this.ownerOf(owner);
    for (const key of use.previous) if (!use.current.has(key)) this.release(key, owner);
    use.previous = use.current;
    use.current = new Set();
    use.placed = use.placing;
    use.placing = new Map();
    use.change = change;
    this.active = owner;
  }

  /** Ends the analysis {@link FunctionMemo.begin} started. */
  end(): void {
    this.active = undefined;
  }

  /** Drops what only document `owner` used (it was closed). */
  forget(owner: string): void {
    const use = this.owners.get(owner);
    if (!use) return;
    this.owners.delete(owner);
    for (const key of [...use.current, ...use.previous]) this.release(key, owner);
  }

  /** Empties the memo (the analysis under way, if any, goes on filling it). */
  clear(): void {
    this.entries.clear();
    this.owners.clear();
    this.bytes = 0;
  }

  /** What the memo holds now. */
  use(): MemoUse {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      owners: this.owners.size,
    };
  }

  private ownerOf(owner: string): OwnerUse<T> {
    let use = this.owners.get(owner);
    if (!use) {
      use = {
        current: new Set(),
        previous: new Set(),
        placing: new Map(),
        placed: new Map(),
        change: undefined,
      };
      this.owners.set(owner, use);
    }
    return use;
  }

  /** `owner` no longer uses the entry for `key`; an entry no document uses any more goes. */
  private release(key: string, owner: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.owners.delete(owner);
    if (entry.owners.size === 0) this.remove(key, entry);
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    // The documents' lists let go of the key too, or they would keep its text.
    for (const owner of entry.owners) {
      const use = this.owners.get(owner);
      use?.current.delete(key);
      use?.previous.delete(key);
    }
  }

  /** Drops the least recently used entries until the memo is within its bound. */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(key, entry);
    }
  }
}
