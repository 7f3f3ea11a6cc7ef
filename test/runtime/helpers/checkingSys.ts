import { createHash } from 'node:crypto';
import { IOV_MAX, newCounts, systemError, type Sys } from '@writev/runtime';

/** One scheduled outcome of a call. `fraction` of a short write scales the bytes requested. */
export type ScheduledFault =
  | { kind: 'ok' }
  | { kind: 'short'; fraction: number }
  | { kind: 'EINTR' }
  | { kind: 'EAGAIN'; burst: number };

/**
 * A Sys that checks every byte it is given against the expected stream as it arrives (no copy of
 * the payload), follows a fault schedule, and records what the property tests assert on: that no
 * call exceeded the limits and how many calls succeeded, failed or came up short.
 */
export class CheckingSys implements Sys {
  readonly counts = newCounts();
  successful = 0;
  failed = 0;
  shorts = 0;
  received = 0;
  private readonly hash = createHash('sha256');
  private call = 0;
  private burstLeft = 0;

  constructor(
    private readonly faults: readonly ScheduledFault[],
    private readonly maxIoSize: number,
  ) {}

  /** SHA-256 of every byte received, in order. */
  digest(): string {
    return this.hash.digest('hex');
  }

  write(_fd: number, buf: Uint8Array): number {
    this.counts.write++;
    return this.accept([buf]);
  }

  writev(_fd: number, bufs: readonly Uint8Array[]): number {
    this.counts.writev++;
    if (bufs.length > IOV_MAX) throw systemError('EINVAL', 'writev');
    return this.accept(bufs);
  }

  waitWritable(): undefined {
    this.counts.waits++;
    return undefined;
  }

  release(): void {}

  private accept(bufs: readonly Uint8Array[]): number {
    const requested = bufs.reduce((sum, b) => sum + b.length, 0);
    if (requested > this.maxIoSize)
      throw new Error(`a call asked for ${requested} bytes, over ${this.maxIoSize}`);
    if (this.burstLeft > 0) {
      this.burstLeft--;
      this.failed++;
      throw systemError('EAGAIN', 'writev');
    }
    const fault = this.faults[this.call++] ?? { kind: 'ok' };
    if (fault.kind === 'EINTR' || fault.kind === 'EAGAIN') {
      if (fault.kind === 'EAGAIN') this.burstLeft = fault.burst - 1;
      this.failed++;
      throw systemError(fault.kind, 'writev');
    }
    let budget = requested;
    if (fault.kind === 'short' && requested > 1) {
      budget = Math.max(1, Math.floor(fault.fraction * (requested - 1)));
      this.shorts++;
    }
    this.successful++;
    let left = budget;
    for (const buf of bufs) {
      if (left === 0) break;
      const take = Math.min(left, buf.length);
      this.hash.update(buf.subarray(0, take));
      left -= take;
    }
    this.received += budget;
    return budget;
  }
}
