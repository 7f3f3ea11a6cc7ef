/**
 * Answers made ahead of the writes. Reading an object (inflating it, applying its deltas) and
 * writing it out are both CPU work: on one thread they take turns, and a write that blocks on a
 * full pipe stalls the reading too. Here this thread goes on reading requests and making answers
 * into a shared ring while a worker only writes them, so both cores work, as Git's fast-import and
 * its frontend do.
 *
 * The worker writes rather than reads: reading stays on the thread that has the repository open,
 * its delta-base cache warm and its code compiled, and the worker's start-up overlaps the first
 * answers instead of delaying them.
 */
import { MessageChannel, Worker, isMainThread, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { ArenaCarver } from '../odb/memoryArena';
import { hexLength } from '../odb/objectId';
import type { Destination, Repository } from '../odb/repository';
import type { WriteOptions } from '../options';
import type { SyscallCounts } from '../syscall';
import {
  allocateRing,
  ringIn,
  ringSize,
  RingCancelledError,
  RingProducer,
  RingState,
  type RingMemory,
} from './answerRing';
import { WRITER_ROLE, writeAnswers, type WriterData, type WriterOutcome } from './answerWriter';
import { parseCommand } from './commands';
import type { LineInput } from './lineInput';
import { lookUpAnswer } from './responder';
import { revive } from './threadErrors';

/** Answers made ahead of the writes at most, in bytes (default): the read-ahead's memory bound. */
export const DEFAULT_RING_BYTES = 4 * 1024 * 1024;
/**
 * Answers are published at least this many bytes at a time while requests are waiting (more than
 * the batched responder's `batchBytes` when that is smaller): each publish wakes the writing
 * thread, and a wake costs far more than a copy of a small answer; holding more back delays nothing, as
 * this thread goes on making answers meanwhile and publishes before any read that may wait.
 */
const PUBLISH_BYTES = 64 * 1024;
/** Longest header line: a SHA-256 id, " blob ", a size, LF. */
const HEADER_ROOM = 128;
const LF = Buffer.from('\n');

/** Options of the read-ahead. */
export interface ReadAheadOptions {
  /** Answers made ahead of the writes at most, in bytes (default {@link DEFAULT_RING_BYTES}). */
  ringBytes?: number;
  /**
   * The carver of the arena the repository builds its objects in (the repository's `memory`):
   * the ring is carved from it too, so copies between objects and ring run at `memmove` speed,
   * and the writing thread faults in the arena's pages ahead of use while it has nothing to write.
   * Without it the ring has memory of its own and the writer only writes.
   */
  arena?: ArenaCarver;
}

/** What the read-ahead counted. */
export interface AheadSummary {
  answers: number;
  bytes: number;
  lines: number;
  reads: number;
  /** Answers made straight in the ring (see {@link InPlaceAnswer}). */
  inPlace: number;
}

/**
 * Serves the rest of a cat-blob request stream with a writing thread: this thread reads the
 * requests from `input`, makes each answer with `repo` into a ring of `ringBytes`, and a worker
 * writes what is published to `outputFd`, one `writevOrDie` per batch. Answers are published under
 * the batched responder's rule (at `batchBytes`, and before any read that may wait), so an
 * interactive frontend gets each answer before the next request is read, and the bytes are the
 * same. The worker writes through a `Sys` of its own (the `sys` seam cannot cross threads); its
 * call counts are added to `sys.counts`.
 *
 * Errors: an answer that fails is not written, every one before it is, and then the error is
 * thrown. A failed write stops the answers; its `WriteError`/`BrokenPipeError` is thrown here
 * (first, as Git would have failed on that write before reading further).
 */
export function serveAhead(
  input: LineInput,
  outputFd: number,
  repo: Repository,
  options: ReadAheadOptions & WriteOptions & { batchBytes: number },
): AheadSummary {
  const ring = makeRing(options.ringBytes ?? DEFAULT_RING_BYTES, options.arena);
  const { port1, port2 } = new MessageChannel();
  const data: WriterData = {
    role: WRITER_ROLE,
    outputFd,
    limits: { maxIoSize: options.maxIoSize, iovMax: options.iovMax },
    ring,
    // Only the bytes and control words cross: the writer touches pages, it copies nothing.
    arena: options.arena?.pages,
    port: port2,
  };
  const worker = new Worker(__filename, { workerData: data, transferList: [port2] });
  // The writer may be blocked on a full pipe when this thread is done (after a failed answer): it
  // must not keep the process alive.
  worker.unref();
  const producer = new RingProducer(ring, options.arena?.copier);
  const counts = { answers: 0, bytes: 0, inPlace: 0 };
  let failure: Error | undefined;
  try {
    answerInto(producer, input, repo, Math.max(options.batchBytes, PUBLISH_BYTES), counts);
    producer.end(RingState.Finished);
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    // Every answer put is whole (an answer is put once made): those go out before the error.
    producer.end(RingState.Failed);
  }
  producer.awaitConsumer();
  const outcome = receiveMessageOnPort(port1)?.message as WriterOutcome | undefined;
  port1.close();
  if (outcome !== undefined) addCounts(options.sys?.counts, outcome.counts);
  if (outcome !== undefined && 'error' in outcome) throw revive(outcome.error);
  if (failure !== undefined && !(failure instanceof RingCancelledError)) throw failure;
  if (outcome === undefined) throw new Error('the cat-blob writer thread ended without a word');
  return { ...counts, lines: input.lineNumber, reads: input.reads };
}

/** A ring of at least `bytes`, carved from the arena when there is one with room for it. */
function makeRing(bytes: number, arena: ArenaCarver | undefined): RingMemory {
  const size = ringSize(bytes);
  const room = arena?.carve(size);
  if (arena === undefined || room === undefined) return allocateRing(size);
  return ringIn(arena.pages.data, room.byteOffset, size);
}

/** Reads requests until the end of input or `done`, putting each answer in the ring. */
function answerInto(
  ring: RingProducer,
  input: LineInput,
  repo: Repository,
  publishBytes: number,
  counts: { answers: number; bytes: number; inPlace: number },
): void {
  const digits = hexLength(repo.algorithm);
  const header = Buffer.allocUnsafe(HEADER_ROOM);
  const inPlace = new InPlaceAnswer(ring, header);
  for (;;) {
    if (ring.unpublished > 0 && !input.hasBufferedLine()) ring.publish();
    // A writer that failed stops the answers at the next line: nothing more can reach the output.
    if (ring.cancelled) throw new RingCancelledError();
    const line = input.readLine();
    if (line === undefined) return;
    const command = parseCommand(line, input.lineNumber, digits);
    if (command.kind === 'done') return;
    if (command.kind !== 'cat-blob') continue;
    inPlace.start(command.oid);
    const { text, object } = lookUpAnswer(repo, command.oid, inPlace.destination);
    const length = header.write(text, 0, 'latin1');
    if (object !== undefined && inPlace.holds(object.data)) {
      inPlace.commit();
      counts.inPlace++;
    } else {
      ring.write(header.subarray(0, length));
      if (object !== undefined) {
        ring.write(object.data);
        ring.write(LF);
      }
    }
    // The bytes are in the ring: the reader's memory may be reused.
    repo.releaseShared();
    counts.answers++;
    counts.bytes += length + (object === undefined ? 0 : object.size + 1);
    if (ring.unpublished >= publishBytes) ring.publish();
  }
}

/** Adds the writer's call counts to the caller's. */
function addCounts(into: SyscallCounts | undefined, from: SyscallCounts): void {
  if (into === undefined) return;
  into.write += from.write;
  into.writev += from.writev;
  into.waits += from.waits;
  for (const [code, n] of Object.entries(from.errors)) into.errors[code] = (into.errors[code] ?? 0) + n;
}

/**
 * One answer made straight in the ring: the reader is given the room for header, payload and LF
 * at the ring's write position, so the last step of reading the blob (inflating it, or applying
 * its last delta) writes the answer's bytes where the writer writes them out from, with no copy.
 * When the reader makes the bytes elsewhere (the object is still needed as a delta base, or the
 * room would wrap past the ring's end), the answer is copied into the ring as before.
 */
class InPlaceAnswer {
  private room: Buffer | undefined;
  private headerLength = 0;
  private oid = '';

  constructor(
    private readonly ring: RingProducer,
    private readonly header: Buffer,
  ) {}

  /** Starts the answer to `cat-blob <oid>`: no room is given yet. */
  start(oid: string): void {
    this.oid = oid.toLowerCase();
    this.room = undefined;
  }

  /** The reader's {@link Destination}: room for a blob's answer in the ring, after its header. */
  readonly destination: Destination = (type, size) => {
    if (type !== 'blob') return undefined;
    this.headerLength = this.header.write(`${this.oid} blob ${size}\n`, 0, 'latin1');
    this.room = this.ring.reserve(this.headerLength + size + 1);
    if (this.room === undefined) return undefined;
    this.header.copy(this.room, 0, 0, this.headerLength);
    return this.room.subarray(this.headerLength);
  };

  /** Whether `data` is the payload made in the room given. */
  holds(data: Buffer): boolean {
    const room = this.room;
    return (
      room !== undefined &&
      data.buffer === room.buffer &&
      data.byteOffset === room.byteOffset + this.headerLength &&
      data.length === room.length - this.headerLength - 1
    );
  }

  /** Ends the answer with its LF and puts it in the ring. */
  commit(): void {
    const room = this.room!; // holds() was true: the room was given
    room[room.length - 1] = 0x0a;
    this.ring.commit(room.length);
  }
}

// In the worker this module was started as (the same file, bundled or not), run the writer.
if (!isMainThread && (workerData as { role?: unknown } | null)?.role === WRITER_ROLE) {
  writeAnswers(workerData as WriterData);
}
