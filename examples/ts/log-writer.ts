// A log writer: a wrapper that writes to a fixed descriptor, a loop of per-record writes, and
// stdout writes that Node can gather when the stream is corked.
import { writeInFull } from '@writev/runtime';

const LOG_FD = 2;

function emit(buf: Uint8Array): void {
  writeInFull(LOG_FD, buf);
}

export function logRecord(level: string, message: string): void {
  emit(Buffer.from(`[${level}] `));
  emit(Buffer.from(message));
  emit(Buffer.from('\n'));
}

export function flushRecords(fd: number, records: readonly Uint8Array[]): void {
  for (const record of records) {
    writeInFull(fd, record);
  }
}

export function printTable(rows: readonly string[]): void {
  process.stdout.write('name  size\n');
  process.stdout.write(rows.join('\n'));
  process.stdout.write('\n');
}
