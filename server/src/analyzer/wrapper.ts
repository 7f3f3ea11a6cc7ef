// What the analyzer knows of a wrapper function (a function whose calls count as writes), in
// both languages. The front ends find wrappers in syntax; the workspace index and the write readers
// only need these records, so they live here, apart from any parser.
import type { Template } from './model';

/**
 * Where a wrapper writes: one of its parameters (by index), or a fixed expression (`out_fd`,
 * `process.stdout`) with the identifiers it reads.
 */
export type WrapperTarget =
  | {
      readonly param: number;
      /** C: a member of the parameter the wrapper writes to (`->fd` of `f->fd`). */
      readonly member?: string;
      /**
       * C: a global array whose element at the parameter the wrapper writes to (`fds` of `fds[c]`):
       * a call given `A` writes to `fds[A]`.
       */
      readonly element?: string;
      /**
       * C: the descriptor the parameter points at (`*sock` of `int *sock`): a call given `&s` writes
       * to `s`.
       */
      readonly deref?: true;
      /**
       * C: an accessor of the object the parameter is that hands back its descriptor (see
       * c/accessorTargets.ts): a call given `A` writes to `accessor(A)`.
       */
      readonly accessor?: string;
    }
  | {
      readonly text: string;
      readonly names: readonly string[];
      /**
       * C: the descriptor is a `static` variable of the wrapper's own `.c` file (see
       * fileStatics.ts): in another file the same name is another variable.
       */
      readonly fileStatic?: true;
    };

/** What every wrapper record holds, whatever its language. */
export interface Wrapper {
  readonly name: string;
  /** The file that defines it, for wrappers found elsewhere in the workspace. */
  readonly file?: string;
  /** Visible outside its file (C: not `static`; TS/JS: exported). */
  readonly exported: boolean;
  /** The descriptor the wrapper writes to. */
  readonly fd: WrapperTarget;
  /** Parameter index of the buffer (C: -1 for a wrapper that writes a constant, see `constant`). */
  readonly buf: number;
  /** The gathered function a run of calls becomes. */
  readonly family: string;
  /** The fewest arguments a call must pass. */
  readonly arity: number;
}

/** A C function whose body only writes to a descriptor, or writes a frame per call. */
export interface CWrapper extends Wrapper {
  /** Parameter index of the length (absent: a C string, `strlen`). */
  readonly len?: number;
  /** The buffer and length a constant-writing wrapper (`packet_flush(fd)` writing "0000") sends. */
  readonly constant?: { readonly buf: string; readonly len: string };
  /** A wrapper with its own error handling: its statement around the write (calls must be bare). */
  readonly template?: Template;
  /** A framing wrapper: the writes each call makes (a header, then the payload). Absent: one. */
  readonly syscalls?: number;
  /** Why calls to it cannot be gathered by a fix (a printf-style helper formats its buffer first). */
  readonly noFix?: string;
  /**
   * Its buffer parameter is not the bytes it writes: a printf-style helper's format, or a value whose
   * bytes it writes (`put_byte(fd, c)`).
   */
  readonly formats?: boolean;
  /**
   * With `formats`: its buffer parameter stands for the bytes it writes, whatever computes them inside
   * (the object it points at, `write_all(fd, (char *)pkt, packet_size(pkt))`; a value it encodes); a
   * helper passing that parameter on is such a writer too.
   */
  readonly object?: true;
  /**
   * With `formats`: a printf-style helper, formatting its arguments into text of its own when called.
   * What a call sent is that text, made there: a later change of an argument's memory (a buffer, the
   * static storage a formatter returns) changes nothing it sent.
   */
  readonly printf?: true;
  /**
   * With `formats`: the functions whose result its buffer argument is (`fmt_ul` of `w(fmt_ul(u))`):
   * each call sends what they return (see c/staticSenders.ts). Absent: none.
   */
  readonly sends?: readonly string[];
  /**
   * It returns a status, true on success and 0 on failure (every return a constant): chained as
   * `put(a) && put(b)`, each call runs only when the one before it succeeded.
   */
  readonly truthyOnSuccess?: boolean;
  /**
   * It returns 0 on success and a non-zero code on failure (every return a constant, never a byte
   * count): `if ((ret = put(...))) return ret;` tests it for failure.
   */
  readonly zeroOnSuccess?: boolean;
  /**
   * Its result says whether it wrote, not how the write went: it writes only on paths that return a
   * non-zero constant and returns 0 where it wrote nothing (see c/unwrittenCodes.ts). A caller's `if
   * (h(...)) return;` leaves where it wrote, so the call is no checked write of a run.
   */
  readonly wroteCode?: boolean;
  /**
   * The name it returns where its write did not fail, when its file gives that name no value (a
   * header's enum member: see c/namedStatuses.ts): a caller whose codes give it 0 reads the helper as
   * {@link zeroOnSuccess}.
   */
  readonly successName?: string;
  /**
   * Each call is one plain `write(2)`/`send(2)` (no loop over short writes): on a descriptor that keeps
   * message boundaries each call is one message, so calls join only where the caller's descriptor is
   * known to be, or assumed to be, a byte stream.
   */
  readonly messages?: boolean;
  /**
   * Parameter index of the `send()` flags the helper passes on: a call whose flags ask for out-of-band
   * data (or that the analyzer cannot read as constants) is no plain part of a byte stream.
   */
  readonly flags?: number;
  /**
   * Parameter index of the function it writes with (`atomicio(vwrite, fd, buf, n)`): a call writes only
   * when that argument names a write function; `atomicio(read, ...)` reads.
   */
  readonly mode?: number;
  /**
   * Parameter index of the pause a paced helper takes (`usleep(d)` between its writes, or `d == 0 ?
   * left : 1` bytes at a time): a call is its one write only when it passes a constant 0 there; any
   * other pause spreads the bytes out on purpose, and that call is no write to join.
   */
  readonly pace?: number;
  /**
   * C: the configuration its reading assumes (see c/configuredPacing.ts): it paces its writes under a
   * test of configured state, and is read as the other arm makes it, one write a call. Said in the
   * message of every finding it takes part in, with no fix; helpers calling it inherit it.
   */
  readonly assumes?: string;
  /**
   * C: the test on a parameter that decides whether the helper does other I/O besides its write (`if
   * (do_write) write(...) else read(...)`, `if (offset >= 0) lseek(...)`): a call is its one write only
   * when it passes a constant under which that test takes the quiet arm.
   */
  readonly select?: BranchSelect;
  /**
   * C: what the helper's test of its parameters reads to pick between the connection's TLS session and
   * its descriptor (a parameter, and its member path such as `->secure`, or `''` for all of it): a
   * caller that changes it between two calls sends them by different paths (see sessionChoices.ts).
   */
  readonly chooses?: readonly { readonly param: number; readonly path: string }[];
}

/**
 * A parameter compared with a constant, and the truth of that comparison a call must give. The constant
 * is a number, or a name (a macro or an enumeration member: then `op` is `==` or `!=`, and only a call
 * passing that name decides the test).
 */
export interface BranchSelect {
  readonly param: number;
  readonly op: '==' | '!=' | '<' | '<=' | '>' | '>=';
  readonly constant: number | string;
  readonly when: boolean;
}

/** A TS/JS function whose body only writes its buffer parameter to a descriptor. */
export interface TsWrapper extends Wrapper {
  /** Calls must be awaited (the wrapper is async). */
  readonly async: boolean;
  /** Its buffer parameter only takes bytes (a runtime function's, or declared `Uint8Array`/`Buffer`). */
  readonly bytes?: boolean;
  /** It writes to a stream (`process.stdout.write`): calls are corked, not gathered. */
  readonly stream?: boolean;
}

/**
 * A module path without its extension (`./out.js` and `./out.ts` are one module): the key the
 * workspace index finds TS/JS wrappers by. Kept apart from the TS front end so using it does not load
 * the compiler.
 */
export function moduleKey(path: string): string {
  return path.replace(/\.(d\.)?[mc]?[jt]sx?$/, '');
}
