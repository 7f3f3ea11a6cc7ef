import { IOV_MAX, newCounts, systemError, type AsyncSys, type Sys } from '@writev/runtime';

/** What the sink does with one call. */
export type Fault =
  | { kind: 'ok' }
  | { kind: 'short'; bytes: number }
  | { kind: 'error'; code: string }
  | { kind: 'eagain-burst'; length: number };

/** One call as the sink saw it. */
export interface SeenCall {
  call: 'write' | 'writev';
  fd: number;
  buffers: number;
  requested: number;
  written: number;
  error?: string;
}

/**
 * A Sys whose "kernel" appends to memory and fails as a schedule says: the fault injection seam of
 * the runtime's tests. `schedule(n)` decides the n-th call (0-based). Like Linux, a writev of more
 * than IOV_MAX buffers is EINVAL.
 */
export class SinkSys implements Sys {
  readonly counts = newCounts();
  readonly calls: SeenCall[] = [];
  readonly waits: number[] = [];
  private readonly chunks: Buffer[] = [];
  private burst = 0;

  constructor(private readonly schedule: (call: number) => Fault = () => ({ kind: 'ok' })) {}

  /** Every byte the sink accepted, in order. */
  received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  write(fd: number, buf: Uint8Array): number {
    this.counts.write++;
    return this.accept('write', fd, [buf]);
  }

  writev(fd: number, bufs: readonly Uint8Array[]): number {
    this.counts.writev++;
    if (bufs.length > IOV_MAX) throw systemError('EINVAL', 'writev');
    return this.accept('writev', fd, bufs);
  }

  waitWritable(_fd: number, attempt: number): undefined {
    this.counts.waits++;
    this.waits.push(attempt);
    return undefined;
  }

  release(): void {
    throw new Error('the sink never hands out a blocking twin');
  }

  private accept(call: 'write' | 'writev', fd: number, bufs: readonly Uint8Array[]): number {
    const requested = bufs.reduce((sum, b) => sum + b.length, 0);
    const seen: SeenCall = { call, fd, buffers: bufs.length, requested, written: 0 };
    this.calls.push(seen);
    let fault =
      this.burst > 0 ? { kind: 'error' as const, code: 'EAGAIN' } : this.schedule(this.calls.length - 1);
    if (this.burst > 0) this.burst--;
    if (fault.kind === 'eagain-burst') {
      this.burst = fault.length - 1;
      fault = { kind: 'error', code: 'EAGAIN' };
    }
    if (fault.kind === 'error') {
      seen.error = fault.code;
      this.counts.errors[fault.code] = (this.counts.errors[fault.code] ?? 0) + 1;
      throw systemError(fault.code, call);
    }
    let budget = fault.kind === 'short' ? Math.min(fault.bytes, requested) : requested;
    seen.written = budget;
    for (const buf of bufs) {
      if (budget === 0) break;
      const take = Math.min(budget, buf.length);
      this.chunks.push(Buffer.from(buf.subarray(0, take)));
      budget -= take;
    }
    return seen.written;
  }
}

/** The same sink behind promises, for the async twins. */
export function asyncSink(sink: SinkSys): AsyncSys {
  return {
    counts: sink.counts,
    write: async (fd, buf) => sink.write(fd, buf),
    writev: async (fd, bufs) => sink.writev(fd, bufs),
    waitWritable: async (fd, attempt) => sink.waitWritable(fd, attempt),
    release: async () => sink.release(),
  };
}

/** Faults from a fixed list, then success. */
export function scripted(...faults: Fault[]): (call: number) => Fault {
  return (call) => faults[call] ?? { kind: 'ok' };
}

/** `n` bytes of a recognisable pattern, distinct per `tag`. */
export function bytes(n: number, tag = 0): Buffer {
  const buf = Buffer.alloc(n);
  for (let i = 0; i < n; i++) buf[i] = (i * 31 + tag * 7 + 1) & 0xff;
  return buf;
}
