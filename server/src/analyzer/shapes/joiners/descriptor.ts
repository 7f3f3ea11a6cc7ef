// A run goes to one descriptor: a write to another (or a stream write among plain ones) ends it.
import { end, type Joiner, type Rules } from './joiner';

const OTHER = end(
  'descriptor',
  'the write goes to another descriptor, or is a stream write among plain ones',
);

const RULES: Rules = {
  write: (step, run) =>
    step.target !== run.lead.target || !!step.stream !== !!run.lead.stream ? OTHER : step,
};

/** Writes join only writes to the same descriptor, of the same kind (stream or plain). */
export const descriptor: Joiner = {
  name: 'descriptor',
  facts: ['write.target', 'write.stream', 'run.lead'],
  rules: RULES,
};
