import type { BenchEvent } from '@writev/runtime/bench';

/**
 * The progress notification's and panel's status line for a streamed event ("writev / side-band:
 * one writev, run 2 of 5"), or undefined for events that do not change it.
 */
export function progressText(event: BenchEvent): string | undefined {
  switch (event.type) {
    case 'suite':
      return `Starting ${event.title} (${event.size})`;
    case 'case':
      return `${event.suite} / ${event.case}: ${event.title}`;
    case 'progress':
      return `${event.suite} / ${event.case}: ${event.mode}, run ${event.run} of ${event.runs}`;
    case 'error':
      return `${event.suite} failed: ${event.message}`;
    default:
      return undefined;
  }
}
