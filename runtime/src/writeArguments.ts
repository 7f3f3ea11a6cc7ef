/**
 * Checks the arguments of the public write functions before any byte moves. The stack counts in
 * bytes everywhere (`length`, `subarray`), which is only right for a `Uint8Array`: a `Uint16Array`
 * would be counted in elements, and a value that is not a buffer at all has no length, so a
 * `writevInFull` given one would add up `NaN` and return having written nothing. So every
 * `ArrayBufferView` (Buffer, any TypedArray, DataView) is turned into a `Uint8Array` over the same
 * bytes (a view, never a copy), and anything else is a `TypeError` naming the argument.
 */

/** The largest descriptor the kernel's `int` can hold. */
const FD_MAX = 0x7fffffff;

/** A short description of what was passed instead, for the error message. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object';
  }
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 20))})`;
  if (typeof value === 'symbol') return `symbol ${value.toString()}`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return `${typeof value} ${String(value)}`;
  }
  return 'undefined'; // all typeof leaves
}

/**
 * Checks that `fd` is a file descriptor: a number that is a non-negative integer the kernel can
 * hold.
 *
 * @param name - the argument's name in the message, e.g. `'fd'`.
 * @throws TypeError when it is not a number, RangeError when it is not such an integer.
 */
export function checkFd(fd: unknown, name = 'fd'): asserts fd is number {
  if (typeof fd !== 'number') {
    throw new TypeError(
      `${name} must be a file descriptor (a non-negative integer), got ${describeValue(fd)}`,
    );
  }
  if (!Number.isInteger(fd) || fd < 0 || fd > FD_MAX) {
    throw new RangeError(`${name} must be a file descriptor (a non-negative integer), got ${fd}`);
  }
}

/**
 * The bytes of `buf` as a `Uint8Array`: `buf` itself when it already is one (a Buffer included),
 * otherwise a view of the same memory (`byteOffset`, `byteLength`), so a `Uint16Array` of 4
 * elements is 8 bytes and a DataView into a larger ArrayBuffer covers only its own window.
 *
 * @param name - the argument's name in the message, e.g. `'buf'` or `'bufs[3]'`.
 * @throws TypeError when `buf` is not an ArrayBufferView (an ArrayBuffer itself is not one).
 */
export function byteView(buf: unknown, name: string): Uint8Array {
  if (buf instanceof Uint8Array) return buf;
  if (ArrayBuffer.isView(buf)) return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  throw new TypeError(`${name} must be a Buffer, TypedArray or DataView, got ${describeValue(buf)}`);
}

/**
 * The buffers of `bufs` as `Uint8Array`s (see {@link byteView}): `bufs` itself when every element
 * already is one, else a new array; never a copy of any payload byte. Does not modify `bufs`.
 *
 * @param name - the argument's name in the message; elements are named `name[i]`.
 * @throws TypeError when `bufs` is not an array (a single Buffer included: it is iterable, but
 *   its elements are numbers) or an element is not an ArrayBufferView.
 */
export function byteViews(bufs: unknown, name = 'bufs'): readonly Uint8Array[] {
  if (!Array.isArray(bufs)) {
    throw new TypeError(
      `${name} must be an array of Buffers, TypedArrays or DataViews, got ${describeValue(bufs)}`,
    );
  }
  let views: Uint8Array[] | undefined;
  for (let i = 0; i < bufs.length; i++) {
    const buf: unknown = bufs[i];
    if (buf instanceof Uint8Array) {
      views?.push(buf);
      continue;
    }
    views ??= (bufs as Uint8Array[]).slice(0, i);
    views.push(byteView(buf, `${name}[${i}]`));
  }
  return views ?? (bufs as Uint8Array[]);
}
