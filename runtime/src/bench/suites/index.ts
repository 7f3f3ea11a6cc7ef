import type { Suite } from '../suite';
import { catBlobSuite } from './catBlob';
import { eagainWaitSuite } from './eagainWait';
import { inputBufferSuite } from './inputBuffer';
import { sidebandSuite } from './sideband';
import { traceOverheadSuite } from './traceOverhead';
import { writeVsWritevSuite } from './writeVsWritev';

/** Every benchmark suite, in the order they run by default. Add new suites here. */
export const SUITES: readonly Suite[] = [
  writeVsWritevSuite,
  inputBufferSuite,
  eagainWaitSuite,
  sidebandSuite,
  catBlobSuite,
  traceOverheadSuite,
];
