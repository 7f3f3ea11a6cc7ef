/**
 * Pure bookkeeping over a list of buffers that is being written out: where the next byte comes
 * from, and which views to pass next. Views are `subarray`s: payload bytes are never copied, and
 * the caller's array and buffers are never modified.
 */

/** A position in a list of buffers: the buffer's index and the byte offset inside it. */
export interface Cursor {
  readonly index: number;
  readonly offset: number;
}

/** The start of a list of buffers. */
export const START: Cursor = { index: 0, offset: 0 };

/** The total length of `bufs` in bytes. */
export function totalLength(bufs: readonly Uint8Array[]): number {
  let total = 0;
  for (const buf of bufs) total += buf.length;
  return total;
}

/** The cursor `n` bytes after `at`. */
export function advance(bufs: readonly Uint8Array[], at: Cursor, n: number): Cursor {
  let { index, offset } = at;
  let left = n;
  while (index < bufs.length && left >= bufs[index]!.length - offset) {
    left -= bufs[index]!.length - offset;
    index++;
    offset = 0;
  }
  return { index, offset: offset + left };
}

/**
 * The non-empty views starting at `at` that one call could take: at most `iovMax` of them, and
 * no more once they reach `maxIoSize` bytes. The first view is cut at the cursor. Empty buffers are
 * skipped so that they do not use up the kernel's `IOV_MAX` slots.
 */
export function pendingViews(
  bufs: readonly Uint8Array[],
  at: Cursor,
  iovMax: number,
  maxIoSize: number,
): Uint8Array[] {
  const views: Uint8Array[] = [];
  let bytes = 0;
  for (let i = at.index; i < bufs.length && views.length < iovMax && bytes < maxIoSize; i++) {
    const buf = bufs[i]!;
    const view = i === at.index && at.offset > 0 ? buf.subarray(at.offset) : buf;
    if (view.length > 0) views.push(view);
    bytes += view.length;
  }
  return views;
}

/**
 * How many leading buffers fit one call: at most `iovMax` of them, and together at most
 * `maxIoSize` bytes. 0 means the first buffer alone is larger than `maxIoSize`.
 */
export function leadingThatFit(bufs: readonly Uint8Array[], maxIoSize: number, iovMax: number): number {
  let count = 0;
  let bytes = 0;
  for (const buf of bufs) {
    if (count === iovMax || bytes + buf.length > maxIoSize) break;
    bytes += buf.length;
    count++;
  }
  return count;
}
