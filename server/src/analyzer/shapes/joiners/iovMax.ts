// One writev takes at most IOV_MAX buffers (1024 on Linux): a longer run is not one gathered write.
import { end, type Joiner, type Rules } from './joiner';

/** Linux's IOV_MAX: the most buffers one writev takes, so the most writes one run gathers. */
const MAX_WRITES = 1024;

const FULL = end('iovMax', 'the run holds as many writes as one writev takes');

const RULES: Rules = {
  write: (step, run) => (run.writes.length >= MAX_WRITES ? FULL : step),
  branch: (_step, run) => (!run.head && run.writes.length >= MAX_WRITES ? FULL : undefined),
};

/** Ends a run that holds as many writes as one gathered write takes. */
export const iovMax: Joiner = { name: 'iovMax', facts: ['run.writes', 'run.head'], rules: RULES };
