// A tiny HTTP/1.1 responder over a raw descriptor: status line, headers and body, three syscalls.
import * as fs from 'node:fs';
import { open } from 'node:fs/promises';
import { writeInFull } from '@writev/runtime';

export function respond(fd: number, status: string, headers: Buffer, body: Uint8Array): void {
  fs.writeSync(fd, `HTTP/1.1 ${status}\r\n`);
  fs.writeSync(fd, headers);
  fs.writeSync(fd, body);
}

/** The same with the runtime's full writes: still one syscall per buffer. */
export function respondInFull(fd: number, head: Uint8Array, body: Uint8Array): void {
  writeInFull(fd, head);
  writeInFull(fd, body);
}

/** Saving a response to disk through a FileHandle: handle.writev takes both buffers at once. */
export async function saveResponse(path: string, head: Uint8Array, body: Uint8Array): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.write(head);
    await handle.write(body);
  } finally {
    await handle.close();
  }
}
