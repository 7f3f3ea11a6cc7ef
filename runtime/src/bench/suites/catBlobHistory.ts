/**
 * A synthetic repository history for the cat-blob tests and benchmark: files of text lines edited
 * commit after commit (lines replaced, inserted and deleted), so that a packed repository holds long
 * delta chains as real histories do. Deterministic for a given seed, written as a `git fast-import`
 * stream, so building even a large repository needs no per-commit git process.
 */

/** The shape of the generated history. */
export interface HistoryShape {
  /** Files in the tree. */
  files: number;
  /** Commits after the initial one. */
  commits: number;
  /** Files edited per commit (each edit makes one new blob). */
  editsPerCommit: number;
  /** Lines per file at the start (each line is about 40 bytes). */
  linesPerFile: number;
  /** Seed of the pseudo-random edits. */
  seed: number;
  /** Extra blobs added in the first commit, by size in bytes (e.g. several MB; 0 gives an empty blob). */
  extraBlobSizes?: number[];
}

/** The number of distinct blob versions a history of `shape` writes at most. */
export function blobsWritten(shape: HistoryShape): number {
  return shape.files + shape.commits * shape.editsPerCommit + (shape.extraBlobSizes?.length ?? 0);
}

const WORDS = (
  'the of and to in is that for it as with was on be by at this from or an are not which have but ' +
  'write writev buffer pipe packet sideband blob object delta index pack offset size commit tree tag ' +
  'read header payload stream request response batch flush error retry kernel syscall vector'
).split(' ');

/** A small deterministic generator (xorshift32), so a history can be rebuilt exactly. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** An integer in [0, n). */
  below(n: number): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state % n;
  }
  line(): string {
    const count = 4 + this.below(8);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(WORDS[this.below(WORDS.length)]!);
    return words.join(' ');
  }
}

/**
 * Calls `emit` with successive chunks of a fast-import stream that builds the history of `shape`
 * on `refs/heads/main`. Chunks are at most a few MB, so a large history streams into a git process
 * without being held in memory.
 */
export function writeHistory(shape: HistoryShape, emit: (chunk: Buffer) => void): void {
  const random = new Random(shape.seed);
  const files: string[][] = [];
  for (let f = 0; f < shape.files; f++) {
    const lines: string[] = [];
    for (let l = 0; l < shape.linesPerFile; l++) lines.push(`${f}:${l} ${random.line()}`);
    files.push(lines);
  }
  let time = 1_700_000_000;
  const parts: Buffer[] = [];
  let pending = 0;
  const push = (part: string | Buffer): void => {
    const buf = typeof part === 'string' ? Buffer.from(part) : part;
    parts.push(buf);
    pending += buf.length;
    if (pending > 4 * 1024 * 1024) flush();
  };
  const flush = (): void => {
    if (parts.length > 0) emit(Buffer.concat(parts));
    parts.length = 0;
    pending = 0;
  };
  const data = (content: string | Buffer): void => {
    const buf = typeof content === 'string' ? Buffer.from(content) : content;
    push(`data ${buf.length}\n`);
    push(buf);
    push('\n');
  };
  const commit = (message: string, changes: () => void): void => {
    push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${time++} +0000\n`);
    data(message);
    changes();
  };
  // Every file number below is under shape.files, the length of `files`.
  const modify = (f: number): void => {
    push(`M 100644 inline src/file${f}.txt\n`);
    data(`${files[f]!.join('\n')}\n`);
  };
  commit('initial', () => {
    for (let f = 0; f < shape.files; f++) modify(f);
    (shape.extraBlobSizes ?? []).forEach((size, i) => {
      push(`M 100644 inline extra/blob${i}.bin\n`);
      data(extraContent(size, shape.seed + i));
    });
  });
  for (let c = 1; c <= shape.commits; c++) {
    commit(`change ${c}`, () => {
      for (let e = 0; e < shape.editsPerCommit; e++) {
        const f = random.below(shape.files);
        edit(files[f]!, random);
        modify(f);
      }
    });
  }
  flush();
}

/** Changes a few lines of a file: replaces, inserts or deletes, keeping its size roughly steady. */
function edit(lines: string[], random: Random): void {
  const changes = 1 + random.below(4);
  for (let i = 0; i < changes; i++) {
    const at = random.below(lines.length + 1);
    const what = random.below(3);
    if (what === 0 && at < lines.length) lines[at] = `${at} ${random.line()}`;
    else if (what === 1 || lines.length < 4) lines.splice(at, 0, random.line());
    else lines.splice(Math.min(at, lines.length - 1), 1);
  }
}

/** Half compressible text, half pseudo-random bytes: a large blob zlib cannot shrink much. */
function extraContent(size: number, seed: number): Buffer {
  const buf = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    if ((i >> 12) % 2 === 0) {
      buf[i] = 97 + (i % 26);
    } else {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      buf[i] = x & 0xff;
    }
  }
  return buf;
}
