import type { BenchEvent } from '@writev/runtime/bench';

const EVENT_TYPES = new Set<BenchEvent['type']>([
  'suite',
  'case',
  'progress',
  'result',
  'log',
  'error',
  'done',
]);

/**
 * Splits the benchmark child's stdout into `BenchEvent`s. Chunks may cut a line anywhere (even inside
 * a multi-byte character), so bytes are kept until a newline arrives.
 */
export class JsonLinesDecoder {
  private pending: Buffer = Buffer.alloc(0);

  /**
   * Feeds a chunk; returns the events of every line it completed, in order.
   * @throws {BenchProtocolError} for a line that is not a JSON `BenchEvent`.
   */
  push(chunk: Buffer): BenchEvent[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const events: BenchEvent[] = [];
    let start = 0;
    for (let nl = this.pending.indexOf(10); nl !== -1; nl = this.pending.indexOf(10, start)) {
      const line = this.pending.subarray(start, nl).toString('utf8').trim();
      start = nl + 1;
      if (line !== '') events.push(parseEvent(line));
    }
    this.pending = this.pending.subarray(start);
    return events;
  }

  /**
   * Call at end of stream.
   * @throws {BenchProtocolError} when the stream ended in the middle of a line.
   */
  end(): void {
    const rest = this.pending.toString('utf8').trim();
    if (rest !== '') throw new BenchProtocolError(`the stream ended inside a line: ${preview(rest)}`);
  }
}

/** A line of the benchmark stream that is not a `BenchEvent`. */
export class BenchProtocolError extends Error {
  readonly code = 'EBENCHPROTOCOL';
  constructor(message: string) {
    super(`writev-bench --jsonl: ${message}`);
    this.name = 'BenchProtocolError';
  }
}

function parseEvent(line: string): BenchEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new BenchProtocolError(`not JSON: ${preview(line)}`);
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type as BenchEvent['type'])) {
    throw new BenchProtocolError(`not a benchmark event: ${preview(line)}`);
  }
  return value as BenchEvent;
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}...` : line;
}
