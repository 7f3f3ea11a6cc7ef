/**
 * Checks a descriptor number a user gave a command-line tool (`--cat-blob-fd=N`) before anything is
 * written to it. Node opens descriptors of its own before any script runs (libuv's epoll and
 * eventfd descriptors, the pipes that wake its threads and deliver signals), and they take the
 * lowest free numbers, so `N` may name one of them when the caller passed nothing there. Writing to
 * them is not an I/O error: the answer vanishes into a wake-up pipe (exit 0, output lost) or libuv
 * reads the bytes back as pointers and crashes.
 *
 * Telling them apart by FD_CLOEXEC does not work: Node marks every inherited descriptor
 * close-on-exec at start-up (measured with strace on Node 20: `fcntl(N, F_SETFD, FD_CLOEXEC)` for
 * each open one), so inherited and internal ones carry the same flag. What does tell them apart on
 * Linux is what they are: Node's are anonymous inodes (eventfd, eventpoll, io_uring) or pipes whose
 * read end is open in this very process, while a descriptor given by another process is a file,
 * a device, a socket or a pipe whose reader is elsewhere.
 */
import { fstatSync, readdirSync, readFileSync, readlinkSync, writeSync, type Stats } from 'node:fs';
import { UnusableDescriptorError } from './errors';
import { hasCode } from './errno';
import { checkFd } from './writeArguments';

/** The access mode bits of open(2)'s flags. */
const O_ACCMODE = 0o3;
const O_RDONLY = 0o0;
const O_RDWR = 0o2;

/** Why a descriptor is refused, and the words that say so. */
type Problem = [UnusableDescriptorError['reason'], string];

/** What /proc says about a descriptor, or `undefined` where there is no /proc. */
interface ProcView {
  /** The open(2) flags of the file description (fdinfo's `flags:`, octal). */
  flags: number;
  /** What `/proc/self/fd/N` points at: a path, `pipe:[inode]`, `socket:[inode]`, `anon_inode:...`. */
  target: string;
}

function procView(fd: number): ProcView | undefined {
  let info: string;
  let target: string;
  try {
    info = readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1');
    target = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined; // no /proc (macOS, a container without it): the portable checks remain
  }
  const flags = /^flags:\s*([0-7]+)$/m.exec(info)?.[1];
  return flags === undefined ? undefined : { flags: parseInt(flags, 8), target };
}

/** Another descriptor of this process holding the other end of the same pipe, if any. */
function otherEndHere(fd: number, view: ProcView): number | undefined {
  const mode = view.flags & O_ACCMODE;
  for (const name of readdirSync('/proc/self/fd')) {
    const other = Number(name);
    if (other === fd) continue;
    const peer = procView(other);
    if (peer?.target === view.target && (peer.flags & O_ACCMODE) !== mode) return other;
  }
  return undefined;
}

/** The problem with `fd` as /proc describes it, or `undefined` when it is fit to write to. */
function problemOnLinux(fd: number, view: ProcView): Problem | undefined {
  const notOurs = 'not one given to this process';
  if (view.target.startsWith('anon_inode:')) {
    return ['internal', `is one of Node's own descriptors (${view.target}), ${notOurs}`];
  }
  if (view.target.startsWith('pipe:')) {
    // Node's wake-up and signal pipes have both ends here. A pipe given by another process has
    // its other end there (a frontend that leaks the read end into its child must close it, as
    // Git's run-command does: a writer holding its own reader never sees EPIPE).
    const other = otherEndHere(fd, view);
    if (other !== undefined) {
      return [
        'internal',
        `is one of Node's own descriptors (${view.target}, whose other end is descriptor ${other} ` +
          `of this same process), ${notOurs}`,
      ];
    }
  }
  const mode = view.flags & O_ACCMODE;
  if (mode === O_RDONLY) return ['read-only', `is open for reading only (${view.target})`];
  // Node puts /dev/null, opened read-write, in place of a standard descriptor that was closed
  // (`>&-`), so the answers would vanish; a user redirecting to /dev/null opens it write-only.
  if (fd <= 2 && view.target === '/dev/null' && mode === O_RDWR) {
    return ['closed-at-start', 'was closed when the process started (Node put /dev/null in its place)'];
  }
  return undefined;
}

/** The portable checks: what fstat says, and whether a zero-byte write is accepted. */
function problemElsewhere(fd: number, stat: Stats): Problem | undefined {
  const known =
    stat.isFile() || stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice() || stat.isBlockDevice();
  if (!known) return ['internal', 'is not a file, pipe, socket or device (one of the runtime’s own?)'];
  // A zero-byte write transfers nothing but is refused with EBADF on a descriptor not open for
  // writing. Not on a socket: there it could send an empty datagram.
  if (stat.isSocket()) return undefined;
  try {
    writeSync(fd, new Uint8Array(0), 0, 0);
  } catch (err) {
    const code = hasCode(err, 'EBADF') ? 'read-only' : 'internal';
    return [code, `refuses writes (${(err as { code?: string }).code ?? String(err)})`];
  }
  return undefined;
}

/**
 * Checks that `fd` is a descriptor this process was given to write to: open, open for writing, and
 * not one of Node's own. Writes nothing (except, where there is no /proc, a zero-byte `write(2)`
 * that transfers no data).
 *
 * On Linux it reads `/proc/self/fdinfo/N` and `/proc/self/fd/N`: read-only descriptors, anonymous
 * inodes (eventfd, eventpoll, io_uring), pipes whose read end is also open in this process, and a
 * standard descriptor Node replaced with /dev/null because it was closed are refused. Elsewhere it
 * refuses descriptors `fstat` cannot name as a file, pipe, socket or device, and those a zero-byte
 * write finds not writable.
 *
 * @param label - how the user named it, e.g. `'--cat-blob-fd=7'`, for the message.
 * @param options - `useProc: false` runs the portable checks even where /proc exists (tests).
 * @throws {@link UnusableDescriptorError} naming the descriptor and the reason.
 */
export function checkOutputDescriptor(
  fd: number,
  label = `descriptor ${fd}`,
  options: { useProc?: boolean } = {},
): void {
  checkFd(fd);
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (err) {
    if (!hasCode(err, 'EBADF')) throw err;
    throw new UnusableDescriptorError(fd, label, 'not-open', 'is not open');
  }
  const view = options.useProc === false ? undefined : procView(fd);
  const problem = view === undefined ? problemElsewhere(fd, stat) : problemOnLinux(fd, view);
  if (problem !== undefined) throw new UnusableDescriptorError(fd, label, ...problem);
}
