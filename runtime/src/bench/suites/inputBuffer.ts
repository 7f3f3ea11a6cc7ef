import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULT_IO_BUFFER_SIZE } from '../../constants';
import { writeInFull } from '../../inFull';
import { createSys } from '../../nodeSys';
import { Fifo } from '../fifo';
import { measureInProcess } from '../measure';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite } from '../suite';
import type { RunSample } from '../result';

/** Git's index-pack input buffer before its change. */
const OLD_BUFFER_SIZE = 4096;

/**
 * Copies a pipe into a file the way index-pack consumes its input: one read into the free part of
 * the buffer, then the bytes read are written out. Returns the read and write counts.
 */
function copyThroughBuffer(
  input: number,
  output: number,
  bufferSize: number,
): { read: number; write: number } {
  const buffer = Buffer.allocUnsafe(bufferSize);
  const sys = createSys();
  let reads = 0;
  for (;;) {
    reads++;
    const n = readSync(input, buffer, 0, bufferSize, null);
    if (n === 0) break;
    writeInFull(output, buffer.subarray(0, n), { sys });
  }
  return { read: reads, write: sys.counts.write };
}

/** The input file, generated once per size in the cache folder (incompressible). */
function inputFile(cacheDir: string, bytes: number): string {
  const path = join(cacheDir, `input-${bytes}.bin`);
  if (!existsSync(path)) {
    const chunk = randomBytes(1 << 20);
    const fd = openSync(path, 'w');
    for (let left = bytes; left > 0; left -= chunk.length)
      writeInFull(fd, chunk.subarray(0, Math.min(left, chunk.length)));
    closeSync(fd);
  }
  return path;
}

/**
 * Input buffer, 4 KiB vs 128 KiB: a pack arriving on a pipe, read and written to a file as Git's
 * index-pack does; raising its buffer to 128 KiB cut its file writes by 94%.
 */
export const inputBufferSuite: Suite = {
  id: 'input-buffer',
  title: 'input buffer 4 KiB vs 128 KiB',
  description:
    "A pack arriving on a pipe, copied to a file as index-pack does, with Git's old and new buffer sizes.",
  cases: ['index-pack'],
  async run(ctx) {
    if (!wantsCase(ctx, 'index-pack')) return [];
    const bytes = bySize(ctx.size, { tiny: 2 << 20, quick: 32 << 20, full: 100 << 20 });
    const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 10 });
    const source = inputFile(ctx.cacheDir, bytes);
    const pipe = new Fifo();
    const target = join(ctx.cacheDir, 'input-copy.bin');
    try {
      const modes: Mode[] = [OLD_BUFFER_SIZE, DEFAULT_IO_BUFFER_SIZE].map((size) => ({
        name: `${size / 1024} KiB buffer`,
        run: async (): Promise<RunSample> => {
          const feeder = spawn('sh', ['-c', 'exec cat "$1" > "$2"', 'feed', source, pipe.path], {
            stdio: 'ignore',
          });
          const input = openSync(pipe.path, 'r');
          const output = openSync(target, 'w');
          let counts = { read: 0, write: 0 };
          const sample = await measureInProcess(() => (counts = copyThroughBuffer(input, output, size)));
          closeSync(input);
          closeSync(output);
          await new Promise((resolve) =>
            feeder.exitCode !== null ? resolve(null) : feeder.once('exit', resolve),
          );
          return { ...sample, syscalls: counts };
        },
      }));
      writeFileSync(target, '');
      return [
        await runCase(
          {
            suite: this.id,
            case: 'index-pack',
            title: `${bytes / 2 ** 20} MiB from a pipe into a file`,
            modes,
            runs,
            warmup: 1,
            references: [modes[0]!.name],
            headline: { mode: modes[1]!.name, reference: modes[0]!.name },
            parameters: { bytes },
          },
          ctx,
        ),
      ];
    } finally {
      pipe.dispose();
    }
  },
};
