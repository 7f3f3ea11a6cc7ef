/**
 * Answers made on a second thread ahead of the writes. Reading an object (inflating it, applying
 * its deltas) and writing it out are both CPU work: on one thread they take turns, and a write
 * that blocks on a full pipe stalls the reading too. Here a worker reads the requests and makes the
 * answers into a shared ring while the main thread only writes them, so both cores work, as Git's
 * fast-import and its frontend do.
 */
import {
  MessageChannel,
  type MessagePort,
  Worker,
  isMainThread,
  receiveMessageOnPort,
  workerData,
} from 'node:worker_threads';
import { writevOrDie } from '../orDie';
import type { WriteOptions } from '../options';
import { hexLength } from '../odb/objectId';
import { ObjectCorruptError, InvalidObjectIdError, RepositoryError } from '../odb/errors';
import { allocateArena, ArenaCarver, ArenaToucher, PageToucher, type ArenaMemory } from '../odb/memoryArena';
import { openRepository, type Destination, type OpenRepositoryOptions } from '../odb/repository';
import {
  allocateRing,
  RingCancelledError,
  RingConsumer,
  RingProducer,
  RingState,
  type RingMemory,
} from './answerRing';
import { parseCommand } from './commands';
import { CatBlobCommandError, NotABlobError } from './errors';
import { LineInput } from './lineInput';
import { lookUpAnswer } from './responder';

/** Answers made ahead of the writes at most, in bytes (default): the read-ahead's memory bound. */
export const DEFAULT_RING_BYTES = 4 * 1024 * 1024;
/**
 * The worker publishes at least this many bytes at a time while requests are waiting (more than
 * the batched responder's `batchBytes` when that is smaller): each publish wakes the writing
 * thread, and a wake cost about 100 µs on this machine's VM; holding more back delays nothing, as
 * the worker goes on making answers meanwhile and publishes before any read that may wait.
 */
const PUBLISH_BYTES = 64 * 1024;
/** One write takes at most this share of the ring, so the worker always has room to go on. */
const WRITE_SHARE = 4;
const WORKER_ROLE = 'writev-cat-blob-answers';
/**
 * The address space reserved for the objects the worker builds (delta bases, answers that are
 * also bases): more than the 96 MiB of Git's default delta-base cache and the reader's pool, so
 * it rarely falls back to memory of its own. Only the pages used are ever mapped.
 */
const ARENA_BYTES = 128 * 1024 * 1024;
/**
 * How far ahead of the worker's use the writing thread maps the arena's pages, and how many it
 * maps at a time between looks at the ring (64 pages: about 1 ms of faults on this VM, so an
 * answer published meanwhile waits no longer than that).
 */
const TOUCH_AHEAD = 8 * 1024 * 1024;
const TOUCH_PAGES = 64;
/** Longest header line: a SHA-256 id, " blob ", a size, LF. */
const HEADER_ROOM = 128;
const LF = Buffer.from('\n');

/** Options of the read-ahead. */
export interface ReadAheadOptions {
  /** How the worker opens the repository (it opens its own, by the git directory). */
  repository?: OpenRepositoryOptions;
  /** Answers made ahead of the writes at most, in bytes (default {@link DEFAULT_RING_BYTES}). */
  ringBytes?: number;
}

/** Where the worker takes over: the input the main thread read and did not use yet. */
export interface Handover {
  readonly buffered: Buffer;
  readonly linesBefore: number;
  readonly ended: boolean;
}

/** What the worker counted. */
export interface AheadSummary {
  answers: number;
  bytes: number;
  lines: number;
  reads: number;
  /** Answers made straight in the ring (see {@link InPlaceAnswer}). */
  inPlace: number;
}

/** What the worker is given. */
interface WorkerData {
  readonly role: typeof WORKER_ROLE;
  readonly gitDir: string;
  readonly repository: OpenRepositoryOptions;
  readonly inputFd: number;
  readonly inputBufferSize: number | undefined;
  readonly handover: Handover;
  readonly batchBytes: number;
  readonly ring: RingMemory;
  /** Memory for the objects the worker builds, which this thread maps ahead (see memoryArena). */
  readonly arena: ArenaMemory;
  readonly port: MessagePort;
}

/** The worker's last word: its counts, or the error that stopped it. */
type Outcome = { readonly summary: AheadSummary } | { readonly error: SentError };

/** An error as it crosses threads: its class by name, message, stack and own fields. */
interface SentError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  readonly fields: Record<string, unknown>;
}

/** The error classes a worker may end with, so the main thread throws the same class. */
const KNOWN_ERRORS: Record<string, { prototype: Error }> = {
  NotABlobError,
  CatBlobCommandError,
  ObjectCorruptError,
  RepositoryError,
  InvalidObjectIdError,
  TypeError,
  RangeError,
};

/**
 * Serves the rest of a cat-blob request stream with a worker: the worker goes on reading `inputFd`
 * after `handover`, making each answer into a ring of `ringBytes`; this thread writes what the
 * worker publishes to `outputFd`, with one `writevInFull` per batch. The worker publishes under the
 * same rule as the batched responder (at `batchBytes`, and before any read that may wait), so an
 * interactive frontend gets each answer before the next request is read, and the bytes are the
 * same. Before an error of the worker is thrown here, every answer before it is written.
 *
 * @throws the worker's error as its own class (see {@link KNOWN_ERRORS}); `WriteError`/
 * `BrokenPipeError` (the worker is then told to stop).
 */
export function serveAhead(
  inputFd: number,
  outputFd: number,
  gitDir: string,
  handover: Handover,
  options: ReadAheadOptions & WriteOptions & { batchBytes: number; inputBufferSize?: number },
): AheadSummary {
  const ring = allocateRing(options.ringBytes ?? DEFAULT_RING_BYTES);
  const arena = allocateArena(ARENA_BYTES);
  const { port1, port2 } = new MessageChannel();
  // A memory source is a function, which cannot cross threads: the worker makes its own.
  const { memory: _local, ...repository } = options.repository ?? {};
  const data: WorkerData = {
    role: WORKER_ROLE,
    gitDir,
    repository,
    inputFd,
    inputBufferSize: options.inputBufferSize,
    handover,
    batchBytes: options.batchBytes,
    ring,
    arena,
    port: port2,
  };
  const worker = new Worker(__filename, { workerData: data, transferList: [port2] });
  // The worker may be blocked reading the input when this thread is done (after a failed write):
  // it must not keep the process alive.
  worker.unref();
  const consumer = new RingConsumer(ring);
  const most = ring.data.byteLength / WRITE_SHARE;
  // While the worker has nothing to write yet (it is resolving delta chains), this thread takes
  // the page faults its next objects would take: see memoryArena.
  // The ring's first lap comes first: the worker writes its first answers there.
  const ringPages = new PageToucher(ring.data);
  const arenaPages = new ArenaToucher(arena, TOUCH_AHEAD);
  const touch = (): boolean => ringPages.touch(TOUCH_PAGES) || arenaPages.touch(TOUCH_PAGES);
  try {
    for (;;) {
      const read = consumer.next(most, touch);
      if ('end' in read) break;
      writevOrDie(outputFd, read.bytes, options);
      consumer.release(read.bytes.reduce((sum, b) => sum + b.length, 0));
    }
  } catch (err) {
    consumer.cancel();
    port1.close();
    throw err;
  }
  const outcome = receiveMessageOnPort(port1)?.message as Outcome | undefined;
  port1.close();
  if (outcome === undefined) throw new Error('the cat-blob worker ended without a word');
  if ('error' in outcome) throw revive(outcome.error);
  return outcome.summary;
}

/** The worker: reads requests, makes answers into the ring, ends with its counts or its error. */
function produce(data: WorkerData): void {
  const ring = new RingProducer(data.ring);
  // The main thread waits on the ring synchronously and cannot see this thread's 'exit' event: if
  // the thread ends any other way than through the ends below (process.exit in a dependency, an
  // error thrown outside the try), the ring must still end, or the writer would wait forever.
  let ended = false;
  process.once('exit', (code) => {
    if (ended) return;
    data.port.postMessage({
      error: {
        name: 'Error',
        message: `the cat-blob worker stopped (exit code ${code})`,
        stack: undefined,
        fields: {},
      },
    } satisfies Outcome);
    ring.abandon();
  });
  let input: LineInput | undefined;
  const counts = { answers: 0, bytes: 0, inPlace: 0 };
  try {
    const carver = new ArenaCarver(data.arena);
    const repo = openRepository(data.gitDir, { ...data.repository, memory: (bytes) => carver.carve(bytes) });
    input = new LineInput(data.inputFd, {
      bufferSize: data.inputBufferSize,
      initial: data.handover.buffered,
      linesBefore: data.handover.linesBefore,
      ended: data.handover.ended,
    });
    const digits = hexLength(repo.algorithm);
    const header = Buffer.allocUnsafe(HEADER_ROOM);
    const publishBytes = Math.max(data.batchBytes, PUBLISH_BYTES);
    const inPlace = new InPlaceAnswer(ring, header);
    for (;;) {
      if (ring.unpublished > 0 && !input.hasBufferedLine()) ring.publish();
      const line = input.readLine();
      if (line === undefined) break;
      const command = parseCommand(line, input.lineNumber, digits);
      if (command.kind === 'done') break;
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
    repo.close();
    const summary = { ...counts, lines: input.lineNumber, reads: input.reads };
    ended = true;
    data.port.postMessage({ summary } satisfies Outcome);
    ring.end(RingState.Finished);
  } catch (err) {
    ended = true;
    if (err instanceof RingCancelledError) return;
    data.port.postMessage({ error: sendable(err) } satisfies Outcome);
    ring.end(RingState.Failed);
  }
}

/**
 * One answer made straight in the ring: the reader is given the room for header, payload and LF
 * at the ring's write position, so the last step of reading the blob (inflating it, or applying
 * its last delta) writes the answer's bytes where the main thread writes them out from, with no
 * copy. When the reader makes the bytes elsewhere (the object is still needed as a delta base, or
 * the room would wrap past the ring's end), the answer is copied into the ring as before.
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

/** `err` in a form that crosses threads; fields that do not are left out. */
function sendable(err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), stack: undefined, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // Not cloneable (a function, a handle): the message still says what happened.
    }
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

/** The error the worker sent, as an instance of its own class where it is one of {@link KNOWN_ERRORS}. */
function revive(sent: SentError): Error {
  const type = Object.hasOwn(KNOWN_ERRORS, sent.name) ? KNOWN_ERRORS[sent.name] : undefined;
  const err = Object.create(type?.prototype ?? Error.prototype) as Error;
  Object.defineProperty(err, 'message', { value: sent.message, writable: true, configurable: true });
  if (sent.stack !== undefined) {
    Object.defineProperty(err, 'stack', { value: sent.stack, writable: true, configurable: true });
  }
  return Object.assign(err, sent.fields);
}

// In the worker this module was started as (the same file, bundled or not), run the producer.
if (!isMainThread && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE) {
  produce(workerData as WorkerData);
}
