/**
 * Copies within one shared memory at the speed of `memmove`.
 *
 * V8 copies `SharedArrayBuffer` memory from JavaScript (`TypedArray#set`, `copyWithin`,
 * `Buffer#copy`) with relaxed atomic accesses, about half the speed of a plain copy, and each `set`
 * needs a view object, which costs more than the few dozen bytes a delta usually copies.
 * WebAssembly's `memory.copy` on a shared memory is a plain `memmove`, and a call to it is cheap. So memory
 * that two threads share is a shared `WebAssembly.Memory`, and copies inside it go through this
 * one-instruction module.
 *
 * The module, written by hand (WebAssembly text format):
 *
 *     (module
 *       (import "e" "m" (memory 1 65536 shared))
 *       (func (export "copy") (param $to i32) (param $from i32) (param $length i32)
 *         (memory.copy (local.get $to) (local.get $from) (local.get $length))))
 */

/** The module above, in WebAssembly's binary format. */
const MODULE_BYTES = Uint8Array.from([
  // magic, version
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  // type section: one type, (i32 i32 i32) -> ()
  0x01, 0x07, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00,
  // import section: "e" "m", a shared memory of 1 to 65536 pages
  0x02, 0x0b, 0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x03, 0x01, 0x80, 0x80, 0x04,
  // function section: one function of type 0
  0x03, 0x02, 0x01, 0x00,
  // export section: "copy", function 0
  0x07, 0x08, 0x01, 0x04, 0x63, 0x6f, 0x70, 0x79, 0x00, 0x00,
  // code section: no locals; local.get 0, local.get 1, local.get 2, memory.copy 0 0, end
  0x0a, 0x0e, 0x01, 0x0c, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfc, 0x0a, 0x00, 0x00, 0x0b,
]);

/**
 * A shared `WebAssembly.Memory`. Node has the WebAssembly API, but neither its type declarations
 * (v20) nor TypeScript's ES libraries declare it: the little used here is declared here.
 */
export interface SharedWasmMemory {
  readonly buffer: SharedArrayBuffer;
}

/** The parts of the global `WebAssembly` object used here. */
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => SharedWasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
let compiled: object | undefined;

/** WebAssembly pages are 64 KiB. */
export const WASM_PAGE_BYTES = 64 * 1024;

/** Copies inside one shared memory (see the module's comment). */
export class SharedCopier {
  /** The memory's buffer: copies are between views of it. */
  readonly buffer: SharedArrayBuffer;
  /**
   * Copies `length` bytes from offset `from` to offset `to` of {@link SharedCopier.buffer}, as
   * `memmove` (the ranges may overlap).
   *
   * @throws `WebAssembly.RuntimeError` when a range runs past the memory.
   */
  readonly copy: (to: number, from: number, length: number) => void;

  constructor(memory: SharedWasmMemory) {
    compiled ??= new wasm.Module(MODULE_BYTES);
    const instance = new wasm.Instance(compiled, { e: { m: memory } });
    this.copy = instance.exports.copy as (to: number, from: number, length: number) => void;
    this.buffer = memory.buffer;
  }

  /** Whether `view` lies in this memory. */
  holds(view: Uint8Array): boolean {
    return view.buffer === this.buffer;
  }
}

/** A shared memory of at least `bytes` (whole 64 KiB pages), fixed in size. */
export function sharedMemory(bytes: number): SharedWasmMemory {
  const pages = Math.max(1, Math.ceil(bytes / WASM_PAGE_BYTES));
  return new wasm.Memory({ initial: pages, maximum: pages, shared: true });
}
