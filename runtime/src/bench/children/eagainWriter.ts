// A benchmark child: writes --bytes to a non-blocking descriptor with the given wait strategy and
// prints the counts of its Sys as one JSON line on stderr. `--target pipe` writes to fd 1 (the
// caller makes it a pipe); `--target socket` writes into a `cat` child's stdin, the non-blocking
// Unix socket pair that `child_process.spawn` creates.
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createSys } from '../../nodeSys';
import { writevInFull } from '../../inFull';
import type { WaitStrategy } from '../../waitWritable';

const { values } = parseArgs({
  options: {
    bytes: { type: 'string', default: String(100 << 20) },
    wait: { type: 'string', default: 'auto' },
    target: { type: 'string', default: 'pipe' },
  },
});

/** The descriptor behind a spawned child's stdin: Node keeps it on the stream's private handle. */
function socketFdOf(stream: NodeJS.WritableStream): number {
  const fd = (stream as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('cannot reach the socket pair descriptor');
  return fd;
}

async function main(): Promise<void> {
  const sys = createSys({ wait: values.wait as WaitStrategy });
  const chunk = Buffer.alloc(1 << 20, 0x42);
  let fd = 1;
  let drainer: ChildProcess | undefined;
  if (values.target === 'socket') {
    drainer = spawn('cat', [], { stdio: ['pipe', 'ignore', 'inherit'] });
    fd = socketFdOf(drainer.stdin!);
  } else {
    void process.stdout; // makes the inherited pipe non-blocking, as any Node program touching it does
  }
  for (let left = Number(values.bytes); left > 0; left -= chunk.length) {
    writevInFull(fd, [chunk.subarray(0, Math.min(left, chunk.length))], { sys });
  }
  if (drainer) {
    const child = drainer;
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
  process.stderr.write(`${JSON.stringify(sys.counts)}\n`);
}

void main();
