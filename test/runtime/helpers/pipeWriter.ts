// A child process for the real-descriptor tests: writes a payload layout to fd 1 with the runtime
// and writes a JSON report of what happened to the file named by --report.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  createAsyncSys,
  createSys,
  exitLikeGit,
  writevInFullAsync,
  writevOrDie,
  type WaitStrategy,
} from '@writev/runtime';
import { payloadLayout } from './payload';

const { values } = parseArgs({
  options: {
    bytes: { type: 'string', default: String(64 << 20) },
    seed: { type: 'string', default: '1' },
    nonblocking: { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
    batch: { type: 'string', default: '64' },
    report: { type: 'string' },
    wait: { type: 'string', default: 'auto' },
  },
});

/** The O_NONBLOCK bit of fd 1's flags, read from /proc as Node has no fcntl. */
function isNonBlocking(): boolean {
  const flags = /flags:\s*([0-7]+)/.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))?.[1] ?? '0';
  return (parseInt(flags, 8) & 0o4000) !== 0;
}

async function main(): Promise<void> {
  // Node makes an inherited pipe or socket non-blocking as soon as process.stdout is touched.
  if (values.nonblocking) void process.stdout;
  const bufs = payloadLayout(Number(values.bytes), Number(values.seed));
  const batch = Number(values.batch);
  const report: Record<string, unknown> = { nonblocking: isNonBlocking() };
  const options = { wait: values.wait as WaitStrategy };
  const sys = values.async ? createAsyncSys(options) : createSys(options);
  report.counts = sys.counts;
  const save = (): void => {
    if (values.report) writeFileSync(values.report, JSON.stringify(report));
  };
  try {
    for (let i = 0; i < bufs.length; i += batch) {
      const slice = bufs.slice(i, i + batch);
      if (values.async) await writevInFullAsync(1, slice, { sys: sys as ReturnType<typeof createAsyncSys> });
      else writevOrDie(1, slice, { sys: sys as ReturnType<typeof createSys> });
    }
  } catch (err) {
    const e = err as Error & { code?: string; bytesWritten?: number };
    report.error = { name: e.name, code: e.code, message: e.message, bytesWritten: e.bytesWritten };
    save();
    exitLikeGit(err);
  }
  save();
}

void main();
