/**
 * A byte ring in shared memory from one thread that makes answers to one that writes them: the
 * answers' bytes are put once into memory both threads see, and handed over by moving a counter,
 * with no message, no copy and no allocation per answer.
 */

import type { SharedCopier } from '../odb/sharedCopy';

/** Control words, each an Int32 of the control array. */
const PUBLISHED = 0; // bytes the producer has published, modulo 2^31
const CONSUMED = 1; // bytes the consumer has written out, modulo 2^31
const STATE = 2; // RUNNING, FINISHED, FAILED or CANCELLED
const PRODUCER_EVENTS = 3; // bumped at every publish and at the end: the consumer waits on it
const CONSUMER_EVENTS = 4; // bumped at every consume, at a cancel and at the end: the producer waits on it
const FINISHED = 5; // 1 once the consumer has written out everything up to the producer's end
const CONTROL_WORDS = 6;

const COUNT_MASK = 0x7fffffff;

/** Where the producer is: still making answers, done, failed (its error follows), or told to stop. */
export const RingState = { Running: 0, Finished: 1, Failed: 2, Cancelled: 3 } as const;

/** How a producer ended. */
export type RingEnd = typeof RingState.Finished | typeof RingState.Failed;

/** The shared memory of a ring: what one thread hands the other to build its end. */
export interface RingMemory {
  /** The memory the ring's bytes lie in, from `at` (default 0) for `size` bytes (default all). */
  readonly data: SharedArrayBuffer;
  readonly at?: number;
  readonly size?: number;
  readonly control: SharedArrayBuffer;
}

/** The ring's bytes in its memory. */
export function ringBytes(memory: RingMemory): Buffer {
  return Buffer.from(memory.data, memory.at ?? 0, memory.size ?? memory.data.byteLength - (memory.at ?? 0));
}

/** The size a ring of at least `bytes` gets: a power of two from 4 KiB up to 1 GiB. */
export function ringSize(bytes: number): number {
  let size = 4096;
  while (size < bytes && size < 2 ** 30) size *= 2;
  return size;
}

/**
 * A ring over `size` bytes (a {@link ringSize}) of shared memory at `at`: for a ring inside memory
 * the answers are also built in, so copies between them stay inside one memory (see sharedCopy).
 */
export function ringIn(data: SharedArrayBuffer, at: number, size: number): RingMemory {
  if (ringSize(size) !== size) throw new RangeError(`a ring's size must be a power of two, got ${size}`);
  return { data, at, size, control: new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT) };
}

/**
 * Allocates a ring of `bytes` bytes, rounded up to a power of two (counts wrap at 2^31, which a
 * power of two up to 2^30 divides, so a count's remainder is its place in the ring).
 */
export function allocateRing(bytes: number): RingMemory {
  return ringIn(new SharedArrayBuffer(ringSize(bytes)), 0, ringSize(bytes));
}

/** Thrown inside the producer when the consumer has stopped reading: nothing more will be written. */
export class RingCancelledError extends Error {
  /** Always `'ECANCELED'`. */
  readonly code = 'ECANCELED';

  constructor() {
    super('the writer of the answers has stopped');
    this.name = 'RingCancelledError';
  }
}

/**
 * The producer's end. Bytes put are not visible to the consumer until {@link RingProducer.publish};
 * when the ring is full, what is put so far is published and the producer waits for room.
 */
export class RingProducer {
  private readonly data: Buffer;
  private readonly control: Int32Array;
  private readonly mask: number;
  /** Bytes put so far (published or not), modulo 2^31. */
  private put = 0;
  private published = 0;

  constructor(
    memory: RingMemory,
    /** Copies from the ring's own memory, when that memory is shared WebAssembly memory. */
    private readonly copier?: SharedCopier,
  ) {
    this.data = ringBytes(memory);
    this.control = new Int32Array(memory.control);
    this.mask = this.data.length - 1;
  }

  /** Bytes put but not yet published. */
  get unpublished(): number {
    return (this.put - this.published) & COUNT_MASK;
  }

  /** Copies `bytes` into the ring, waiting for room as often as needed (any length). */
  write(bytes: Uint8Array): void {
    let from = 0;
    while (from < bytes.length) {
      const room = this.roomFor();
      const at = this.put & this.mask;
      const n = Math.min(room, bytes.length - from, this.data.length - at);
      if (this.copier?.holds(bytes) === true) {
        this.copier.copy(this.data.byteOffset + at, bytes.byteOffset + from, n);
      } else {
        this.data.set(n === bytes.length ? bytes : bytes.subarray(from, from + n), at);
      }
      from += n;
      this.put = (this.put + n) & COUNT_MASK;
    }
  }

  /**
   * A view of the next `n` bytes of the ring, for an answer made in place: the caller fills it and
   * then puts it with {@link RingProducer.commit}, or leaves it (nothing is put until then). Waits,
   * publishing first, until the consumer has written out enough to make the room. Undefined when
   * the `n` bytes would run past the ring's end (they must be one piece of memory): the caller
   * then writes its answer with {@link RingProducer.write}.
   */
  reserve(n: number): Buffer | undefined {
    const at = this.put & this.mask;
    if (n > this.data.length - at) return undefined;
    this.roomFor(n);
    return this.data.subarray(at, at + n);
  }

  /** Puts the first `n` bytes of the view {@link RingProducer.reserve} gave: they are filled. */
  commit(n: number): void {
    this.put = (this.put + n) & COUNT_MASK;
  }

  /** Makes every byte put so far visible to the consumer, and wakes it. */
  publish(): void {
    if (this.put === this.published) return;
    this.published = this.put;
    Atomics.store(this.control, PUBLISHED, this.put);
    Atomics.add(this.control, PRODUCER_EVENTS, 1);
    Atomics.notify(this.control, PRODUCER_EVENTS);
  }

  /** Whether the consumer told the producer to stop (it failed, or stopped reading). */
  get cancelled(): boolean {
    return Atomics.load(this.control, STATE) === RingState.Cancelled;
  }

  /**
   * Waits, after {@link RingProducer.end}, until the consumer has written out everything
   * published ({@link RingConsumer.finish}) or has given up ({@link RingConsumer.cancel}).
   */
  awaitConsumer(): void {
    for (;;) {
      const events = Atomics.load(this.control, CONSUMER_EVENTS);
      if (Atomics.load(this.control, FINISHED) === 1 || this.cancelled) return;
      Atomics.wait(this.control, CONSUMER_EVENTS, events);
    }
  }

  /** Publishes what is left and says the producer is done (`Finished`) or failed (`Failed`). */
  end(state: RingEnd): void {
    this.publish();
    this.settle(state);
  }

  /**
   * Says the producer failed without publishing what is put but unpublished (a half-made answer must
   * not reach the output). Does nothing once the ring has ended.
   */
  abandon(): void {
    this.settle(RingState.Failed);
  }

  /** Moves a running ring to `state` and wakes the consumer; an ended ring stays as it is. */
  private settle(state: RingEnd): void {
    Atomics.compareExchange(this.control, STATE, RingState.Running, state);
    Atomics.add(this.control, PRODUCER_EVENTS, 1);
    Atomics.notify(this.control, PRODUCER_EVENTS);
  }

  /** Free bytes, at least `least`; publishes and waits while there are fewer. */
  private roomFor(least = 1): number {
    for (;;) {
      const events = Atomics.load(this.control, CONSUMER_EVENTS);
      if (Atomics.load(this.control, STATE) === RingState.Cancelled) throw new RingCancelledError();
      const used = (this.put - Atomics.load(this.control, CONSUMED)) & COUNT_MASK;
      const free = this.data.length - used;
      if (free >= least) return free;
      // Too full: the consumer can only make room from bytes it can see.
      this.publish();
      Atomics.wait(this.control, CONSUMER_EVENTS, events);
    }
  }
}

/** What {@link RingConsumer.next} gives: published bytes (one or two views, in order) or the end. */
export type RingRead = { readonly bytes: Buffer[] } | { readonly end: RingEnd };

/** The consumer's end: waits for published bytes and releases them once written. */
export class RingConsumer {
  private readonly data: Buffer;
  private readonly control: Int32Array;
  private readonly mask: number;
  private consumed = 0;

  constructor(memory: RingMemory) {
    this.data = ringBytes(memory);
    this.control = new Int32Array(memory.control);
    this.mask = this.data.length - 1;
  }

  /**
   * Waits until bytes are published or the producer has ended, then gives at most `most` of the
   * published bytes (views of the ring, valid until {@link RingConsumer.release}), or the end once
   * every published byte was given.
   *
   * @param meanwhile - called instead of waiting while nothing is published, for short steps of
   * other work; says whether it did any (when not, the consumer sleeps until the producer wakes it).
   */
  next(most: number, meanwhile?: () => boolean): RingRead {
    for (;;) {
      const events = Atomics.load(this.control, PRODUCER_EVENTS);
      const state = Atomics.load(this.control, STATE);
      const available = (Atomics.load(this.control, PUBLISHED) - this.consumed) & COUNT_MASK;
      if (available > 0) return { bytes: this.views(Math.min(available, most)) };
      if (state === RingState.Finished || state === RingState.Failed) return { end: state };
      if (meanwhile?.() === true) continue;
      Atomics.wait(this.control, PRODUCER_EVENTS, events);
    }
  }

  /** Gives `n` bytes (those just written out) back to the producer. */
  release(n: number): void {
    this.consumed = (this.consumed + n) & COUNT_MASK;
    Atomics.store(this.control, CONSUMED, this.consumed);
    Atomics.add(this.control, CONSUMER_EVENTS, 1);
    Atomics.notify(this.control, CONSUMER_EVENTS);
  }

  /** Says every byte up to the producer's end was written out (after `next` gave the end). */
  finish(): void {
    Atomics.store(this.control, FINISHED, 1);
    Atomics.add(this.control, CONSUMER_EVENTS, 1);
    Atomics.notify(this.control, CONSUMER_EVENTS);
  }

  /** Tells the producer to stop: its next wait for room throws {@link RingCancelledError}. */
  cancel(): void {
    Atomics.compareExchange(this.control, STATE, RingState.Running, RingState.Cancelled);
    Atomics.add(this.control, CONSUMER_EVENTS, 1);
    Atomics.notify(this.control, CONSUMER_EVENTS);
  }

  private views(n: number): Buffer[] {
    const at = this.consumed & this.mask;
    const first = Math.min(n, this.data.length - at);
    const head = this.data.subarray(at, at + first);
    return first === n ? [head] : [head, this.data.subarray(0, n - first)];
  }
}
