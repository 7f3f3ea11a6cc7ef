// Loops: one write per loop iteration to a descriptor that stays the same, where the buffer changes
// from one iteration to the next and nothing else in the body does I/O. Information only, no fix: the
// rewrite (collect the buffers, one gathered write after the loop) needs the program's limits in mind.
import type { Block, LoopStep, WriteStep } from '../model';
import { addressOf } from './joiners/address';

/** The variable whose member a buffer takes the address of (`&hdr.len`), if it is one. */
function memberOf(buf: string): string | undefined {
  return /^(?:\(\s*[\w\s*]+\)\s*)*&\s*\(?\s*([A-Za-z_]\w*)(?:\s*\.\s*\w+)+\s*\)?$/.exec(buf)?.[1];
}

/** A loop that writes once (or more) per iteration to one descriptor. */
export interface LoopRun {
  readonly loop: LoopStep;
  readonly writes: readonly WriteStep[];
  readonly target: string;
}

/** Finds the loops of one block that write per iteration. */
export function findLoopWrites(block: Block): LoopRun[] {
  const found: LoopRun[] = [];
  for (const step of block.steps) {
    if (step.kind !== 'loop') continue;
    const run = loopRun(step);
    if (run) found.push(run);
  }
  return found;
}

function loopRun(loop: LoopStep): LoopRun | undefined {
  const varying = new Set(loop.varying);
  const mutated = new Set(loop.mutated);
  const writes: WriteStep[] = [];
  for (const step of loop.body) {
    if (step.kind === 'write') writes.push(step);
    else if (step.kind !== 'other' || step.barrier || step.calls.length > 0) return undefined;
  }
  const first = writes[0];
  if (first === undefined) return undefined;
  const target = first.target;
  const names = new Set(first.targetNames);
  for (const write of writes) {
    // On a descriptor of unknown kind each write may be one message: a loop of them stays quiet.
    if (write.target !== target || write.position || write.assumed) return undefined;
    // Its arguments call something that may do I/O: gathering the iterations would reorder it.
    if (write.argumentCalls?.io || write.argumentCalls?.assumed) return undefined;
    // It sends static storage a function returns (see joiners/staticReturns.ts): each iteration's call
    // overwrites the last one's result.
    if (write.staticSent) return undefined;
    // The descriptor itself changes per iteration: not one descriptor.
    if (write.targetNames.some((name) => varying.has(name))) return undefined;
    // The same buffer each time (refilled in place, as in a read/write copy loop) cannot be gathered.
    if (!write.reads.some((name) => varying.has(name) && !names.has(name))) return undefined;
    if (write.reads.some((name) => mutated.has(name) && !names.has(name))) return undefined;
  }
  // A body that uses what a write returned (`p += n; left -= n;`) is a loop retrying one write until
  // all of it is out, not one write per item.
  const results = new Set(writes.flatMap((w) => w.assigns ?? []));
  // A header advancing by the result (`for (off = 0; off < nr; off += nw)`) finishes one write.
  if (loop.tests?.some((name) => results.has(name))) return undefined;
  // One buffer sent a fixed size per call (`write(fd, s, N); s += N;`): its pieces are contiguous,
  // so the loop is one capped write of that buffer, not items to collect (c/cappedSlices.ts).
  const slices = new Set(loop.slices);
  if (writes.some((w) => (w.pieces ?? []).some((p) => slices.has(p.buf)))) return undefined;
  // One variable sent by address and rewritten each iteration (`v = p->lo; write(fd, &v, 4)`):
  // collecting its address N times would send the last value N times after the loop.
  const rewritten = (w: WriteStep) =>
    (w.pieces ?? []).some((p) => varying.has(addressOf(p.buf) ?? '') || varying.has(memberOf(p.buf) ?? ''));
  if (writes.some(rewritten)) return undefined;
  for (const step of loop.body) {
    if (step.kind === 'other' && step.reads.some((name) => names.has(name) || results.has(name)))
      return undefined;
  }
  return { loop, writes, target };
}
