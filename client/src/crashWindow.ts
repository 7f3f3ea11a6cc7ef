/**
 * Counts crashes in a sliding window, to restart a crashing server a few times but not forever.
 * Pure (the clock is injectable), so the policy is unit-tested.
 */
export class CrashWindow {
  /** Length of the window. */
  static readonly minutes = 3;
  /** Crashes within the window after which the server is left stopped. */
  static readonly limit = 5;
  private times: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes a crash now. */
  record(): void {
    this.times.push(this.now());
  }

  /** Crashes within the window. */
  count(): number {
    const since = this.now() - CrashWindow.minutes * 60_000;
    this.times = this.times.filter((t) => t > since);
    return this.times.length;
  }

  /** True once the server crashed {@link CrashWindow.limit} times within the window. */
  exhausted(): boolean {
    return this.count() >= CrashWindow.limit;
  }

  /** Forgets every crash (after a restart the user asked for). */
  reset(): void {
    this.times = [];
  }
}
