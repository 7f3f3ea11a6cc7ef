/**
 * Limits shared by the whole writev stack. Each is a default: the functions that use one take an
 * option to override it, so tests can exercise the small limits some platforms have.
 */

/**
 * The largest number of bytes handed to one write or writev call: 8 MiB.
 *
 * Git clamps every write to this because some platforms fail or misbehave on larger single I/O
 * (some allow only about 52 KiB); a smaller write is merely a short write, which the callers above
 * already loop over.
 */
export const MAX_IO_SIZE = 8 * 1024 * 1024;

/** The most buffers one writev call accepts on Linux (`IOV_MAX`); more gives EINVAL. */
export const IOV_MAX = 1024;

/** The largest total a single writev may report (`SSIZE_MAX` on 64-bit platforms). */
export const SSIZE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * The input buffer size for buffered readers: 128 KiB, the size Git's index-pack moved to from
 * 4 KiB, which cut its file writes by 94%.
 */
export const DEFAULT_IO_BUFFER_SIZE = 128 * 1024;

/** The largest pkt-line, header included, in bytes (Git's `LARGE_PACKET_MAX`). */
export const LARGE_PACKET_MAX = 65520;
