// Reading a source file from disk without hanging, without unbounded memory, and without losing a
// byte: the text is decoded so that encoding it again gives back the very bytes that were read.
import { Buffer, isUtf8 } from 'node:buffer';
import type * as Crypto from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type BigIntStats } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';

/** Files larger than this (bytes) are skipped unless the caller raises the limit: generated code. */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A file that is deliberately not analysed (not a regular file, too large); `reason` says why. */
export class SkippedFileError extends Error {
  readonly code = 'ESKIPPED';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: skipped: ${reason}`);
    this.name = 'SkippedFileError';
  }
}

/** How a file's bytes became text, so that {@link encodeSource} can give the same bytes back. */
export interface SourceForm {
  /** `utf8` when the bytes (after a BOM) are valid UTF-8; otherwise `latin1`, one character per byte. */
  readonly encoding: 'utf8' | 'latin1';
  /** The file starts with a UTF-8 byte order mark (not part of the text). */
  readonly bom: boolean;
}

/** What identifies one version of a file on disk: compared before a fix replaces it. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  /** SHA-256 of the bytes read. */
  readonly sha256: string;
  /** Permission bits and owner, which a replacement file must keep. */
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly nlink: number;
}

/** A file as read: its text, how to encode it back, and the stamp of the version read. */
export interface SourceFile {
  readonly path: string;
  readonly bytes: Buffer;
  readonly text: string;
  readonly form: SourceForm;
  readonly stamp: FileStamp;
}

function kindOf(mode: number): string {
  switch (mode & constants.S_IFMT) {
    case constants.S_IFDIR:
      return 'a folder';
    case constants.S_IFIFO:
      return 'a FIFO';
    case constants.S_IFSOCK:
      return 'a socket';
    case constants.S_IFCHR:
      return 'a character device';
    case constants.S_IFBLK:
      return 'a block device';
    default:
      return 'not a regular file';
  }
}

/** The checks on what was opened: a regular file within the size limit. */
function checkOpened(path: string, info: BigIntStats, maxBytes: number): void {
  const mode = Number(info.mode);
  if ((mode & constants.S_IFMT) !== constants.S_IFREG)
    throw new SkippedFileError(path, `${kindOf(mode)}, not a regular file`);
  if (info.size > BigInt(maxBytes))
    throw new SkippedFileError(
      path,
      `${info.size} bytes, larger than the limit of ${maxBytes} bytes (raise it with --max-file-size)`,
    );
}

/**
 * The reads of an opened file, one request (a buffer to fill at a position) at a time, each answered
 * with the bytes read; returns the bytes. One algorithm for the synchronous and asynchronous readers.
 * Reads one byte more than the size: a file that grew since the stat is read to its new end, up to the
 * limit, and never beyond it.
 */
function* readRequests(
  path: string,
  info: BigIntStats,
  maxBytes: number,
): Generator<{ chunk: Buffer; position: number }, Buffer, number> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(requestSize(path, info, maxBytes, total));
    const bytesRead = yield { chunk, position: total };
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  // Most files come in one read: their chunk is the file (concat would copy it).
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * How many bytes the next read of `path` asks for, `total` read so far: the rest of the size it
 * had when opened plus one (to see a file that grew), at least 64 KiB, never past the limit plus
 * one. Both readers ask the same, so they see a file the same way.
 *
 * @throws {@link SkippedFileError} once the file has grown past `maxBytes`.
 */
function requestSize(path: string, info: BigIntStats, maxBytes: number, total: number): number {
  const room = maxBytes + 1 - total;
  if (room <= 0) {
    throw new SkippedFileError(
      path,
      `grew past the limit of ${maxBytes} bytes while being read (raise it with --max-file-size)`,
    );
  }
  return Math.min(room, Math.max(65536, Number(info.size) + 1 - total));
}

function stampOf(bytes: Buffer, info: BigIntStats): FileStamp {
  let sha256: string | undefined;
  return {
    size: bytes.length,
    mtimeNs: info.mtimeNs,
    ino: info.ino,
    dev: info.dev,
    // Hashed on first use: only a fix compares it, and most files of a run are never fixed.
    get sha256() {
      if (sha256 === undefined) {
        // node:crypto on first use too: a batch run's threads never hash, and loading it is a visible
        // part of a worker's start.
        const { createHash } = require('node:crypto') as typeof Crypto;
        sha256 = createHash('sha256').update(bytes).digest('hex');
      }
      return sha256;
    },
    mode: Number(info.mode) & 0o7777,
    uid: Number(info.uid),
    gid: Number(info.gid),
    nlink: Number(info.nlink),
  };
}

/**
 * Reads the bytes of `path` if it is a regular file of at most `maxBytes` bytes. Opens with
 * `O_NONBLOCK` so that a FIFO cannot block the open (a FIFO without a writer would block forever),
 * then checks the type of what was opened. Throws {@link SkippedFileError} for anything else, and the
 * system error (ENOENT, EACCES...) when the file cannot be opened.
 */
export async function readRegularFile(
  path: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<{ bytes: Buffer; stamp: FileStamp }> {
  // Loaded on first use: a batch run's worker threads only read synchronously, and skip its load.
  const { open } = require('node:fs/promises') as typeof FsPromises;
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat({ bigint: true });
    checkOpened(path, info, maxBytes);
    const reads = readRequests(path, info, maxBytes);
    let step = reads.next();
    while (!step.done) {
      const { chunk, position } = step.value;
      step = reads.next((await handle.read(chunk, 0, chunk.length, position)).bytesRead);
    }
    return { bytes: step.value, stamp: stampOf(step.value, info) };
  } finally {
    await handle.close();
  }
}

/**
 * {@link readRegularFile} without leaving the thread: for a batch run (a worker thread reading one
 * file after another), where each of an asynchronous read's five round trips through the thread pool
 * costs more than the read itself (measured: a third of a whole-tree run's wall-clock time idle on a
 * loaded machine).
 */
export function readRegularFileSync(
  path: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): { bytes: Buffer; stamp: FileStamp } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd, { bigint: true });
    checkOpened(path, info, maxBytes);
    const reads = readRequests(path, info, maxBytes);
    let step = reads.next();
    while (!step.done) {
      const { chunk, position } = step.value;
      step = reads.next(readSync(fd, chunk, 0, chunk.length, position));
    }
    return { bytes: step.value, stamp: stampOf(step.value, info) };
  } finally {
    closeSync(fd);
  }
}

/**
 * One thread's buffer for {@link readSourceTextSync}: it grows to the largest file read and is used
 * again for the next, so a batch run does not allocate (and fault in, page by page) a new buffer per
 * file, nor another 64 KiB one per file for the read that finds its
 * end. Its bytes are overwritten by the next read: only the decoded text outlives a call.
 */
export class ReadBuffer {
  private buffer = Buffer.allocUnsafe(256 * 1024);

  /** The buffer, with room for at least `bytes` bytes; the first `keep` bytes are kept. */
  withRoom(bytes: number, keep: number): Buffer {
    if (bytes > this.buffer.length) {
      let size = this.buffer.length;
      while (size < bytes) size *= 2;
      const larger = Buffer.allocUnsafe(size);
      this.buffer.copy(larger, 0, 0, keep);
      this.buffer = larger;
    }
    return this.buffer;
  }
}

/**
 * The bytes of `path` as {@link readRegularFileSync} reads them (the same checks, the same reads: one
 * byte more than the size, then to the end, up to the limit), without the stamp that only writing the
 * file back needs, read into `into`: the view returned is valid until the next read into it.
 */
export function readRegularFileInto(path: string, maxBytes: number, into: ReadBuffer): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd, { bigint: true });
    checkOpened(path, info, maxBytes);
    let total = 0;
    let buffer: Buffer;
    for (;;) {
      const wanted = requestSize(path, info, maxBytes, total);
      buffer = into.withRoom(total + wanted, total);
      const bytesRead = readSync(fd, buffer, total, wanted, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return buffer.subarray(0, total);
  } finally {
    closeSync(fd);
  }
}

/** The text of `path` as {@link readSourceFileSync} decodes it, read with {@link readRegularFileInto}. */
export function readSourceTextSync(
  path: string,
  maxBytes: number,
  into: ReadBuffer,
): { text: string; form: SourceForm } {
  return decodeSource(readRegularFileInto(path, maxBytes, into));
}

/**
 * Decodes source bytes: a UTF-8 BOM is set aside, then the rest is UTF-8 when it is valid UTF-8 and
 * Latin-1 (one character per byte) otherwise, so that every byte survives the round trip
 * (`encodeSource(decodeSource(b).text, form)` equals `b`). Decoding invalid UTF-8 as UTF-8 would turn
 * each bad byte into U+FFFD and lose it.
 */
export function decodeSource(bytes: Buffer): { text: string; form: SourceForm } {
  const bom = bytes.length >= 3 && bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  const encoding = isUtf8(body) ? 'utf8' : 'latin1';
  return { text: body.toString(encoding), form: { encoding, bom } };
}

/** A fixed text that the file's encoding cannot hold (a character above U+00FF in a Latin-1 file). */
export class UnencodableTextError extends Error {
  readonly code = 'EUNENCODABLE';
  constructor(
    readonly offset: number,
    readonly character: string,
  ) {
    super(
      `the fix would put U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')} at character ${offset}, which this file's encoding (Latin-1 bytes) cannot hold`,
    );
    this.name = 'UnencodableTextError';
  }
}

/** The bytes of `text` in `form` (the BOM put back). Throws {@link UnencodableTextError} when lossy. */
export function encodeSource(text: string, form: SourceForm): Buffer {
  if (form.encoding === 'latin1') {
    // eslint-disable-next-line no-control-regex
    const wide = /[^\u0000-\u00ff]/.exec(text);
    if (wide) throw new UnencodableTextError(wide.index, wide[0]);
  }
  const body = Buffer.from(text, form.encoding);
  return form.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** Reads and decodes `path` (see {@link readRegularFile} and {@link decodeSource}). */
export async function readSourceFile(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<SourceFile> {
  const { bytes, stamp } = await readRegularFile(path, maxBytes);
  const { text, form } = decodeSource(bytes);
  return { path, bytes, text, form, stamp };
}

/** {@link readSourceFile} without leaving the thread (see {@link readRegularFileSync}). */
export function readSourceFileSync(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): SourceFile {
  const { bytes, stamp } = readRegularFileSync(path, maxBytes);
  const { text, form } = decodeSource(bytes);
  return { path, bytes, text, form, stamp };
}
