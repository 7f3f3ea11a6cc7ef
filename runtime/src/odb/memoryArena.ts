/**
 * Memory one thread hands out while another faults its pages in ahead of use.
 *
 * A page fault on fresh anonymous memory costs far more than the kernel populating the same memory
 * in one call. Reading a real history's blobs makes a new object per answer and keeps tens of MiB of
 * delta bases: tens of thousands of faults, a large share of the reader's time (the figures are in
 * the CHANGELOG).
 * JavaScript cannot ask the kernel to populate memory, but a fault taken by any thread maps the page
 * for all of them: so the thread that writes the answers, idle while the reader resolves deep delta
 * chains, touches the arena's pages just ahead of where the reader carves, and the reader finds them
 * mapped.
 */

import type { MemorySource } from './bufferPool';
import { SharedCopier, sharedMemory, type SharedWasmMemory } from './sharedCopy';

/** Control words, each an Int32 of the control array. */
const CARVED = 0; // pages handed out
const CONTROL_WORDS = 1;

/** The page size assumed: touching one word per 4 KiB maps every page on any Linux or macOS. */
export const PAGE_BYTES = 4096;
const PAGE_WORDS = PAGE_BYTES / Int32Array.BYTES_PER_ELEMENT;

/** What the touching thread needs of an arena: its bytes and its control words. */
export interface ArenaPages {
  readonly data: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
}

/**
 * The shared memory of an arena: a shared `WebAssembly.Memory` (so copies inside it run at
 * `memmove` speed, see sharedCopy), its buffer, and the control words both threads see.
 */
export interface ArenaMemory extends ArenaPages {
  readonly memory: SharedWasmMemory;
}

/**
 * Reserves an arena of `bytes` (rounded up to whole 64 KiB pages). Only address space is taken:
 * the system maps a page when it is first written.
 */
export function allocateArena(bytes: number): ArenaMemory {
  const memory = sharedMemory(bytes);
  return {
    memory,
    data: memory.buffer,
    control: new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT),
  };
}

/**
 * The carving end: hands out the arena from its start, in whole pages, never taking anything
 * back (the caller recycles what it carved). Single-threaded. A {@link MemorySource} for a
 * repository's objects, whose deltas are then applied with the arena's {@link SharedCopier}.
 */
export class ArenaCarver implements MemorySource {
  /** Copies inside the arena at `memmove` speed. */
  readonly copier: SharedCopier;
  /** What a thread that touches the arena's pages needs (see {@link ArenaToucher}). */
  readonly pages: ArenaPages;
  private readonly data: SharedArrayBuffer;
  private readonly control: Int32Array;
  private carved = 0;

  constructor(memory: ArenaMemory) {
    this.data = memory.data;
    this.control = new Int32Array(memory.control);
    this.copier = new SharedCopier(memory.memory);
    this.pages = { data: memory.data, control: memory.control };
  }

  /** {@link MemorySource.take}: the same as {@link ArenaCarver.carve}. */
  take(bytes: number): Buffer | undefined {
    return this.carve(bytes);
  }

  /** The bytes not carved yet. */
  get remaining(): number {
    return this.data.byteLength - this.carved;
  }

  /**
   * `size` bytes of the arena, never handed out before (zero: the toucher changes nothing), or
   * undefined when fewer remain.
   */
  carve(size: number): Buffer | undefined {
    const length = Math.ceil(size / PAGE_BYTES) * PAGE_BYTES;
    if (length > this.remaining) return undefined;
    const piece = Buffer.from(this.data, this.carved, size);
    this.carved += length;
    Atomics.store(this.control, CARVED, this.carved / PAGE_BYTES);
    return piece;
  }
}

/**
 * The touching end: faults in the pages after those carved, keeping `ahead` bytes mapped in
 * front of the carver. It never changes a byte: each page is touched with an atomic
 * compare-and-exchange of zero for zero, a write for the processor (so the page is mapped
 * writable, not the shared zero page) that leaves the word as it is even when the carver has
 * already written it.
 */
export class ArenaToucher {
  private readonly words: Int32Array;
  private readonly control: Int32Array;
  private readonly pages: number;
  private touched = 0;

  constructor(
    memory: ArenaPages,
    /** How far in front of the carver pages are mapped, in bytes. */
    private readonly ahead: number,
  ) {
    this.words = new Int32Array(memory.data);
    this.control = new Int32Array(memory.control);
    this.pages = memory.data.byteLength / PAGE_BYTES;
  }

  /** Pages touched so far (the first ones of the arena). */
  get pagesTouched(): number {
    return this.touched;
  }

  /**
   * Touches at most `most` pages in front of the carver; says whether it touched any (false: the
   * carver is far enough behind, or the arena is all mapped).
   */
  touch(most: number): boolean {
    const carved = Atomics.load(this.control, CARVED);
    // Pages the carver already passed were faulted in by it: start after them.
    const from = Math.max(this.touched, carved);
    const to = Math.min(this.pages, carved + Math.ceil(this.ahead / PAGE_BYTES), from + most);
    if (to <= from) return false;
    for (let page = from; page < to; page++) Atomics.compareExchange(this.words, page * PAGE_WORDS, 0, 0);
    this.touched = to;
    return true;
  }
}

/**
 * Faults in every page of a shared buffer, a few at a time, from its start: for memory another
 * thread is about to write from its start on (a ring's first lap). Changes no byte (see
 * {@link ArenaToucher}).
 */
export class PageToucher {
  private readonly words: Int32Array;
  private readonly pages: number;
  private touched = 0;

  /** Touches `size` bytes of `memory` from `at` (a multiple of 4; default: all of it). */
  constructor(memory: SharedArrayBuffer, at = 0, size = memory.byteLength - at) {
    this.words = new Int32Array(memory, at, Math.floor(size / 4));
    this.pages = Math.ceil(size / PAGE_BYTES);
  }

  /** Touches at most `most` more pages; says whether it touched any (false: all are mapped). */
  touch(most: number): boolean {
    const to = Math.min(this.pages, this.touched + most);
    if (to <= this.touched) return false;
    for (let page = this.touched; page < to; page++) {
      Atomics.compareExchange(this.words, page * PAGE_WORDS, 0, 0);
    }
    this.touched = to;
    return true;
  }
}
