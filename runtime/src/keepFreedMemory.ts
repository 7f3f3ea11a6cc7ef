// Keeps the C heap's freed memory for the rest of a run instead of handing it back to the kernel.
// glibc's malloc returns the free top of a heap to the kernel once it exceeds a trim threshold (128 KiB
// at start), and V8's optimizing compiler, on its background threads, mallocs and frees its working
// memory for every function it compiles: each compile faulted its memory in again, and those page
// faults were a good part of a batch run's minor faults (figures in the CHANGELOG). glibc
// raises the threshold itself when a block it had to mmap is freed (to twice that block's size, for
// blocks up to 32 MiB: the "dynamic mmap threshold" of mallopt(3)), so one large block, never touched,
// given back at the first scavenge, raises it for the whole process, worker threads included.
// Elsewhere (musl, macOS) this is an untouched allocation, freed at once.

/** The freed block's size: over glibc's first mmap threshold, at most its 32 MiB maximum. */
const BLOCK_BYTES = 16 * 1024 * 1024;

let raised = false;

/**
 * Raises glibc's trim threshold for this process (once): a batch run keeps the memory its threads
 * free. For batch commands (writev-lint, writev-cat-blob); not for a long-lived process such as the
 * language server, which should give memory back.
 */
export function keepFreedMemory(): void {
  if (raised) return;
  raised = true;
  // Uninitialized (malloc, not calloc): its pages are never touched, so it costs no fault. Dropped
  // at once, it is freed with the young generation's next scavenge.
  Buffer.allocUnsafeSlow(BLOCK_BYTES);
}
