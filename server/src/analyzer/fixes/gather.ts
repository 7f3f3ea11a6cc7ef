// What the C and TS/JS fix builders decide alike about a run: whether its writes become one call as
// they stand, and how the arms of a leading if/else chain are rewritten to fill the gathered vector
// instead of writing. Each builder supplies only the syntax of its language.
import type { Template, WriteStep } from '../model';
import type { WriteRun } from '../shapes/sequences';
import { sameTemplate } from './text';

/**
 * True when the writes can become one gathered call as they stand: every write has a gathered
 * family (the lead's), buffers that can be listed, and error handling alike to the lead's.
 */
export function oneCall(writes: readonly WriteStep[]): boolean {
  const lead: Template | undefined = writes[0]?.template;
  const family = writes[0]?.family;
  return (
    lead !== undefined &&
    writes.every(
      (w) =>
        w.family === family &&
        w.family !== '' &&
        w.pieces !== undefined &&
        w.template !== undefined &&
        sameTemplate(w.template, lead),
    )
  );
}

/**
 * The text of the run's leading branch with each arm's write statement replaced by `fill(write)` (the
 * statements that put its buffers into the vector); the rest of the branch is kept as written.
 */
export function fillArms(
  head: NonNullable<WriteRun['head']>,
  text: string,
  fill: (write: WriteStep) => string,
): string {
  const branch = head.branch.span;
  let region = text.slice(branch.start, branch.end);
  // From the last write back, so the offsets of the earlier ones still hold.
  for (const w of [...head.writes].reverse()) {
    region = region.slice(0, w.span.start - branch.start) + fill(w) + region.slice(w.span.end - branch.start);
  }
  return region;
}
