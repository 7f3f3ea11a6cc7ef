import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureProcess } from '../measure';
import { runCase, type Mode } from '../runCase';
import { bySize, type Suite } from '../suite';
import type { RunSample } from '../result';

/**
 * The write-heavy programs traced: small writes in a hot loop, the workload where a per-call cost
 * shows most. `fs` counts each call itself; the stream goes through Writable.write and its class.
 */
const PROGRAMS = {
  'fs.writeSync': `const fs = require('node:fs');
const fd = fs.openSync('/dev/null', 'w');
const n = Number(process.argv[2]);
for (let i = 0; i < n; i++) {
  fs.writeSync(fd, 'key');
  fs.writeSync(fd, '=' + i + '\\n');
}
`,
  'stream.write': `const fs = require('node:fs');
const out = fs.createWriteStream('/dev/null');
const n = Number(process.argv[2]);
let i = 0;
function more() {
  while (i < n) {
    i++;
    if (!out.write('key=' + i + '\\n')) return out.once('drain', more);
  }
  out.end();
}
more();
`,
} as const;

/**
 * The Node tracer's cost: the same write-heavy program run plainly and under `writev-trace`, whole
 * processes (the tracer's start-up, its preload and the trace file included). The bundled tracer is
 * found where the build lays it out: two folders above this suite (runtime/dist, or dist/ in a .vsix).
 */
export const traceOverheadSuite: Suite = {
  id: 'trace-overhead',
  title: 'writev-trace overhead',
  description:
    'A write-heavy Node program run plainly and under writev-trace: what recording every call costs.',
  async run(ctx) {
    const calls = bySize(ctx.size, { tiny: 20_000, quick: 200_000, full: 1_000_000 });
    const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 10 });
    const dir = join(ctx.cacheDir, 'trace-overhead');
    mkdirSync(dir, { recursive: true });
    const tracer = join(__dirname, '..', '..', 'writev-trace.js');
    const results = [];
    for (const [name, text] of Object.entries(PROGRAMS)) {
      const program = join(dir, `${name}.js`);
      writeFileSync(program, text);
      const run = async (args: string[]): Promise<RunSample> => {
        const result = await measureProcess(process.execPath, args);
        if (result.status !== 0)
          throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
        const { status: _status, stderr: _stderr, ...sample } = result;
        return sample;
      };
      const iterations = name === 'fs.writeSync' ? calls / 2 : calls;
      const modes: Mode[] = [
        { name: 'untraced', run: () => run([program, String(iterations)]) },
        {
          name: 'writev-trace',
          run: () =>
            run([
              tracer,
              '--out',
              join(dir, `${name}.trace.json`),
              '--',
              process.execPath,
              program,
              String(iterations),
            ]),
        },
      ];
      results.push(
        await runCase(
          {
            suite: this.id,
            case: name,
            title: `${calls.toLocaleString('en-US')} small writes with ${name}`,
            modes,
            runs,
            warmup: 1,
            references: ['untraced'],
            parameters: { calls },
          },
          ctx,
        ),
      );
    }
    return results;
  },
};
