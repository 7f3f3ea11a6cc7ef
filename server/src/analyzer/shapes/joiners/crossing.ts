// A statement between writes must be quiet (see `quiet` in ../branches.ts): no I/O, no change of the
// descriptor or of global state. A global set between is left to the next write (the globals joiner),
// which it keeps from joining.
import { quiet } from '../branches';
import { end, type Joiner, type Rules } from './joiner';

const LOUD = end('crossing', 'a statement between may do I/O or change the descriptor');

const RULES: Rules = {
  cross: (step, run) =>
    quiet(step.setsGlobal ? { ...step, setsGlobal: false } : step, run.names, run.locals, run.lead.target)
      ? undefined
      : LOUD,
};

/** A statement that is not quiet ends the run. */
export const crossing: Joiner = {
  name: 'crossing',
  facts: [
    'other.barrier',
    'other.reads',
    'other.writes',
    'other.members',
    'other.handed',
    'other.output',
    'other.printsApart',
    'run.names',
    'run.locals',
    'run.lead',
  ],
  rules: RULES,
};
