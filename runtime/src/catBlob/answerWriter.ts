/**
 * The writing thread of a read-ahead cat-blob session: it writes what the answering thread
 * publishes in the ring, one `writevOrDie` per batch, and while nothing is published it faults in
 * the pages the answering thread will write next (the ring's first lap, then the arena its
 * repository builds objects in: see odb/memoryArena).
 */
import type { MessagePort } from 'node:worker_threads';
import { createSys } from '../nodeSys';
import { writevOrDie } from '../orDie';
import { ArenaToucher, PageToucher, type ArenaPages } from '../odb/memoryArena';
import type { WriteLimits } from '../options';
import type { SyscallCounts } from '../syscall';
import { RingConsumer, type RingMemory } from './answerRing';
import { sendable, type SentError } from './threadErrors';

/** Tells the writer's worker from any other worker started from the same (bundled) file. */
export const WRITER_ROLE = 'writev-cat-blob-writer';
/** One write takes at most this share of the ring, so the answering thread always has room to go on. */
const WRITE_SHARE = 4;
/**
 * How far ahead of the answering thread's use the arena's pages are mapped, and how many are
 * mapped at a time between looks at the ring (few enough that an answer published meanwhile waits
 * no longer than those pages' faults take).
 */
const TOUCH_AHEAD = 8 * 1024 * 1024;
const TOUCH_PAGES = 64;

/** What the writer's worker is given. */
export interface WriterData {
  readonly role: typeof WRITER_ROLE;
  readonly outputFd: number;
  readonly limits: WriteLimits;
  readonly ring: RingMemory;
  /** The memory the answering thread's repository builds objects in, when it uses one. */
  readonly arena: ArenaPages | undefined;
  readonly port: MessagePort;
}

/** What the writer says at its end, always before it lets the answering thread go on. */
export type WriterOutcome =
  { readonly counts: SyscallCounts } | { readonly counts: SyscallCounts; readonly error: SentError };

/** The writer's worker: writes everything published until the end, or its first failure. */
export function writeAnswers(data: WriterData): void {
  const ring = new RingConsumer(data.ring);
  const sys = createSys();
  // The answering thread waits on the ring synchronously and cannot see this thread's 'exit'
  // event: if the thread ends any other way than through the ends below (process.exit in a
  // dependency, an error thrown outside the try), the ring must still say so.
  let ended = false;
  process.once('exit', (code) => {
    if (ended) return;
    const message = `the cat-blob writer thread stopped (exit code ${code})`;
    const error = { name: 'Error', message, stack: undefined, fields: {} };
    data.port.postMessage({ counts: sys.counts, error } satisfies WriterOutcome);
    ring.cancel();
  });
  const ringPages = new PageToucher(data.ring.data, data.ring.at, data.ring.size);
  const arenaPages = data.arena && new ArenaToucher(data.arena, TOUCH_AHEAD);
  const touch = (): boolean => ringPages.touch(TOUCH_PAGES) || (arenaPages?.touch(TOUCH_PAGES) ?? false);
  const most = (data.ring.size ?? data.ring.data.byteLength) / WRITE_SHARE;
  const options = { ...data.limits, sys };
  try {
    for (;;) {
      const read = ring.next(most, touch);
      if ('end' in read) break;
      writevOrDie(data.outputFd, read.bytes, options);
      ring.release(read.bytes.reduce((sum, b) => sum + b.length, 0));
    }
    ended = true;
    data.port.postMessage({ counts: sys.counts } satisfies WriterOutcome);
    ring.finish();
  } catch (err) {
    ended = true;
    data.port.postMessage({ counts: sys.counts, error: sendable(err) } satisfies WriterOutcome);
    ring.cancel();
  }
}
