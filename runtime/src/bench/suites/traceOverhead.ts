import { closeSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DrainedPipe } from '../fifo';
import { measureProcess, type StdioEnd } from '../measure';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite } from '../suite';
import type { RunSample } from '../result';

/** Where a program's small writes go: a real file on disk, or stdout on a pipe another process drains. */
type Target = 'file' | 'pipe';

/**
 * The write-heavy programs traced: `calls` small writes (5 to 12 bytes) in a hot loop, the workload
 * where a per-call cost shows most. argv: the number of calls, then the file to write (absent: stdout).
 * `fs.writeSync` makes one system call per call; `stream.write` goes through Writable.write and the
 * stream's class (a file stream gathers the chunks that wait into one writev; stdout on a pipe writes
 * each chunk at once).
 */
const PROGRAMS = {
  'fs.writeSync': `const fs = require('node:fs');
const n = Number(process.argv[2]);
const fd = process.argv[3] ? fs.openSync(process.argv[3], 'w') : 1;
for (let i = 0; i < n / 2; i++) {
  fs.writeSync(fd, 'key');
  fs.writeSync(fd, '=' + i + '\\n');
}
`,
  'stream.write': `const fs = require('node:fs');
const n = Number(process.argv[2]);
const out = process.argv[3] ? fs.createWriteStream(process.argv[3]) : process.stdout;
let i = 0;
function more() {
  while (i < n) {
    i++;
    if (!out.write('key=' + i + '\\n')) return out.once('drain', more);
  }
  if (out !== process.stdout) out.end();
}
more();
`,
} as const;

/** The calls a trace counted at the program's own lines. */
function tracedCalls(tracePath: string, program: string): number {
  const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as { sites: { file: string; calls: number }[] };
  return trace.sites.filter((s) => s.file === program).reduce((n, s) => n + s.calls, 0);
}

/**
 * The Node tracer's cost: the same write-heavy program run plainly and under `writev-trace`, whole
 * processes (the tracer's start-up, its preload and the trace file included), interleaved run by run.
 * Each program writes to a real file and to a drained pipe; `/dev/null` would hide the write's own cost
 * and make any per-call overhead look larger than a real program would see. The traced runs check that
 * the trace counted every `fs.writeSync` call. The bundled tracer is found where the build lays it out:
 * two folders above this suite (runtime/dist, or dist/ in a .vsix).
 */
export const traceOverheadSuite: Suite = {
  id: 'trace-overhead',
  title: 'writev-trace overhead',
  description:
    'A write-heavy Node program (to a file and to a drained pipe) run plainly, under writev-trace, and under writev-trace with a stack capture per call (no numbered call sites): what recording every call costs.',
  cases: [
    'fs.writeSync to a file',
    'fs.writeSync to a pipe',
    'stream.write to a file',
    'stream.write to a pipe',
    'start-up',
  ],
  async run(ctx) {
    const calls = bySize(ctx.size, { tiny: 20_000, quick: 200_000, full: 1_000_000 });
    const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 10 });
    const dir = join(ctx.cacheDir, 'trace-overhead');
    mkdirSync(dir, { recursive: true });
    const tracer = join(__dirname, '..', '..', 'writev-trace.js');
    const pipe = new DrainedPipe();
    const results = [];
    /** CPU seconds of every run of the current case, by mode, warm-ups first. */
    const cpu = new Map<string, number[]>();
    // Each program to each target; then the program with no write at all: the fixed cost (the tracer's
    // own process, the preload, the trace file) apart from the cost per call.
    const cases = [
      ...(['fs.writeSync', 'stream.write'] as const).flatMap((name) =>
        (['file', 'pipe'] as const).map((target) => ({ name, target, n: calls })),
      ),
      { name: 'fs.writeSync' as const, target: 'file' as const, n: 0 },
    ];
    try {
      for (const { name, target, n } of cases) {
        const id = n === 0 ? 'start-up' : `${name} to a ${target}`;
        if (!wantsCase(ctx, id)) continue;
        const program = join(dir, `${name}.js`);
        writeFileSync(program, PROGRAMS[name]);
        const args = [program, String(n), ...(target === 'file' ? [join(dir, `${name}.out`)] : [])];
        const tracePath = join(dir, `${name}-${target}.trace.json`);
        const traced = [tracer, '--out', tracePath, '--', process.execPath, ...args];
        const tracedRun = (env?: NodeJS.ProcessEnv) => async () => {
          const sample = await runOnce(traced, target, pipe, env);
          const counted = tracedCalls(tracePath, program);
          if (name === 'fs.writeSync' && counted !== n)
            throw new Error(`writev-trace counted ${counted} of ${n} fs.writeSync calls`);
          return { ...sample, extra: { ...sample.extra, tracedCalls: counted } };
        };
        const modes: Mode[] = [
          { name: 'untraced', run: () => runOnce(args, target, pipe) },
          { name: 'writev-trace', run: tracedRun() },
          // The tracer as it was before call sites were numbered: a stack capture per call.
          { name: 'captures only', run: tracedRun({ ...process.env, WRITEV_TRACE_REWRITE: '0' }) },
        ].map((mode) => withCpuSpread(mode, cpu));
        const where = target === 'file' ? 'a file' : 'a drained pipe';
        cpu.clear();
        const result = await runCase(
          {
            suite: this.id,
            case: id,
            title:
              n === 0
                ? 'A program that writes nothing: the fixed cost'
                : `${n.toLocaleString('en-US')} small writes with ${name} to ${where}`,
            modes,
            runs,
            warmup: WARMUP,
            references: ['untraced'],
            headline: { mode: 'writev-trace', reference: 'untraced' },
            parameters: { calls: n, target },
          },
          ctx,
        );
        for (const measured of result.results) {
          const seconds = (cpu.get(measured.command) ?? []).slice(WARMUP);
          if (seconds.length > 0)
            measured.extra = {
              ...measured.extra,
              cpuMin: Math.min(...seconds),
              cpuMax: Math.max(...seconds),
            };
        }
        results.push(result);
      }
    } finally {
      pipe.dispose();
    }
    return results;
  },
};

/** Warm-up runs per mode, before the measured ones. */
const WARMUP = 1;

/** `mode`, noting the CPU seconds of each of its runs in `cpu` (the median alone hides the spread). */
function withCpuSpread(mode: Mode, cpu: Map<string, number[]>): Mode {
  return {
    name: mode.name,
    async run() {
      const sample = await mode.run();
      const seconds = sample.extra?.cpuSeconds;
      if (seconds !== undefined) {
        const list = cpu.get(mode.name) ?? [];
        list.push(seconds);
        cpu.set(mode.name, list);
      }
      return sample;
    },
  };
}

/** Runs node with `args` once, stdout on the drained pipe for the `pipe` target, and measures it. */
async function runOnce(
  args: string[],
  target: Target,
  pipe: DrainedPipe,
  env?: NodeJS.ProcessEnv,
): Promise<RunSample> {
  let stdout: StdioEnd = 'ignore';
  let drained: Promise<void> = Promise.resolve();
  if (target === 'pipe') {
    const end = pipe.openForChild();
    stdout = end.fd;
    drained = end.drained;
  }
  const running = measureProcess(process.execPath, args, { stdio: ['ignore', stdout], env });
  if (typeof stdout === 'number') closeSync(stdout);
  const [result] = await Promise.all([running, drained]);
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
  const { status: _status, stderr: _stderr, ...sample } = result;
  // On a shared machine the wall clock also measures the neighbours: CPU time says what the tracer costs.
  if (sample.user !== undefined && sample.system !== undefined)
    sample.extra = { cpuSeconds: sample.user + sample.system };
  return sample;
}
