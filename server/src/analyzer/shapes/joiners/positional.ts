// Positional writes (`pwrite(fd, buf, n, off)`) gather only at contiguous offsets: each write's offset
// must be one the previous write says its successor may use. Plain and positional writes never mix.
import type { WriteStep } from '../../model';
import { end, type Joiner, type Rules } from './joiner';

const GAP = end('positional', 'the write is positional and not at the offset where the previous one ends');
const AFTER_ARMS = end('positional', 'a positional write cannot follow writes in the arms of an if/else');

/** True when `next` may follow `prev` in one gathered write: both plain, or at contiguous offsets. */
export function contiguous(prev: WriteStep, next: WriteStep): boolean {
  if (!prev.position && !next.position) return true;
  return !!prev.position && !!next.position && prev.position.next.includes(next.position.at);
}

const RULES: Rules = {
  write(step, run) {
    if (run.head && step.position) return AFTER_ARMS;
    const prev = run.writes[run.writes.length - 1] ?? run.lead;
    return contiguous(prev, step) ? step : GAP;
  },
};

/** A positional write joins only at the offset where the previous write ends. */
export const positional: Joiner = {
  name: 'positional',
  facts: ['write.position', 'run.head', 'run.writes', 'run.lead'],
  rules: RULES,
};
