import { createSys } from '../../nodeSys';
import type { Sys } from '../../syscall';
import { writeInFull, writevInFull } from '../../inFull';
import { IOV_MAX } from '../../constants';
import { DrainedPipe } from '../fifo';
import { measureInProcess } from '../measure';
import { runCase, type Mode } from '../runCase';
import { bySize, wantsCase, type Suite } from '../suite';
import type { RunSample } from '../result';

/** Records per batched writev: two buffers each, so a batch fills IOV_MAX. */
const RECORDS_PER_BATCH = IOV_MAX / 2;

/**
 * A 5-byte header (like a pkt-line's length and band) and a payload, sent `count` times, per
 * `style`, through a fresh counting Sys.
 */
function send(
  fd: number,
  style: 'two writes' | 'one writev' | 'batched writev',
  payload: Buffer,
  count: number,
): Sys {
  const sys = createSys();
  const header = Buffer.from(`${(payload.length + 5).toString(16).padStart(4, '0')}\x01`);
  if (style === 'two writes') {
    for (let i = 0; i < count; i++) {
      writeInFull(fd, header, { sys });
      writeInFull(fd, payload, { sys });
    }
  } else if (style === 'one writev') {
    const record = [header, payload];
    for (let i = 0; i < count; i++) writevInFull(fd, record, { sys });
  } else {
    const batch: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      batch.push(header, payload);
      if (batch.length === 2 * RECORDS_PER_BATCH) writevInFull(fd, batch.splice(0), { sys });
    }
    writevInFull(fd, batch, { sys });
  }
  return sys;
}

/**
 * Write vs writev: the same records into a drained pipe, sent with two writes each (the old way),
 * one writev each (Git's new way), or gathered 512 records to a writev.
 */
export const writeVsWritevSuite: Suite = {
  id: 'writev',
  title: 'write vs writev',
  description: 'Header + payload records into a drained pipe: two writes, one writev, or batched writevs.',
  cases: ['side-band', 'side-band-64k'],
  async run(ctx) {
    const total = bySize(ctx.size, { tiny: 1 << 20, quick: 16 << 20, full: 100 << 20 });
    const runs = ctx.runs ?? bySize(ctx.size, { tiny: 2, quick: 5, full: 10 });
    const pipe = new DrainedPipe();
    try {
      const results = [];
      for (const payloadSize of [995, 65515]) {
        const id = payloadSize === 995 ? 'side-band' : 'side-band-64k';
        if (!wantsCase(ctx, id)) continue;
        const payload = Buffer.alloc(payloadSize, 0x5a);
        const count = Math.ceil(total / (payloadSize + 5));
        const modes: Mode[] = (['two writes', 'one writev', 'batched writev'] as const).map((style) => ({
          name: style,
          run: async (): Promise<RunSample> => {
            const { fd, done } = pipe.open();
            let sys: Sys | undefined;
            const sample = await measureInProcess(() => (sys = send(fd, style, payload, count)));
            await done();
            const { write, writev } = sys!.counts;
            return { ...sample, syscalls: { write, writev, EAGAIN: sys!.counts.errors.EAGAIN ?? 0 } };
          },
        }));
        results.push(
          await runCase(
            {
              suite: this.id,
              case: id,
              title: `${(total / 2 ** 20).toFixed(0)} MiB as ${payloadSize + 5}-byte records`,
              modes,
              runs,
              warmup: 1,
              references: ['two writes'],
              headline: { mode: 'batched writev', reference: 'two writes' },
              parameters: { bytes: count * (payloadSize + 5), records: count },
            },
            ctx,
          ),
        );
      }
      return results;
    } finally {
      pipe.dispose();
    }
  },
};
