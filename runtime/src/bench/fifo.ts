import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A named pipe in a private temporary folder. It behaves as the pipes a shell makes between two
 * commands; `child_process.spawn` would give a Unix socket pair instead, which behaves differently.
 */
export class Fifo {
  private readonly dir = mkdtempSync(join(tmpdir(), 'writev-pipe-'));
  /** The FIFO's path. */
  readonly path = join(this.dir, 'fifo');

  constructor() {
    execFileSync('mkfifo', [this.path]);
  }

  /** Removes the FIFO. */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A real pipe whose far end a separate process drains as fast as it can, so benchmarks measure the
 * writer and the kernel's pipe path, as Git's measurements did.
 */
export class DrainedPipe extends Fifo {
  /**
   * Starts a drainer (`cat` into /dev/null) and opens the write end. The returned `done` resolves
   * once the writer closed the fd and the drainer read everything.
   */
  open(): { fd: number; done: () => Promise<void> } {
    const drainer = this.startDrainer();
    const fd = openSync(this.path, 'w'); // blocks until the drainer has opened its end
    return {
      fd,
      done: async () => {
        closeSync(fd);
        await exited(drainer);
      },
    };
  }

  /**
   * Starts a drainer for a child process that writes into the FIFO itself: pass `fd` as the
   * child's stdout, close it in this process once the child is spawned, then await `drained`.
   */
  openForChild(): { fd: number; drained: Promise<void> } {
    const drainer = this.startDrainer();
    const fd = openSync(this.path, 'w');
    return { fd, drained: exited(drainer) };
  }

  private startDrainer(): ChildProcess {
    return spawn('sh', ['-c', 'exec cat "$1" > /dev/null', 'drain', this.path], { stdio: 'ignore' });
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}
