// A run of writes grows one step at a time, and each idiom the analyzer knows is a joiner: a named rule
// that reads facts (the fields of the steps, and what the run has gathered so far) and decides whether
// the next step may extend the run, must end it, or joins in a changed form (under a condition, or
// without a fix), and says why. The engine (../sequences.ts) only walks the steps, keeps the run's
// facts and asks the joiners in the order of ./index.ts; no idiom lives in the engine, so an idiom is
// read, tested and changed in its own file, and adding one is its file and a line in that list.
import type { Budget } from '../budget';
import type { NameLookup } from '../branches';
import type { BranchStep, LoopStep, OtherStep, WriteStep } from '../../model';
import type { SentBuffers } from '../sentBuffers';

/** What a run has gathered so far, as the joiners read it (the engine alone changes it). */
export interface RunSoFar {
  /** The run's first write: its descriptor is the run's. */
  readonly lead: WriteStep;
  /** Branch tails the run starts with (an if/else whose every arm ends in a write), if any. */
  readonly head?: { readonly branch: BranchStep; readonly writes: readonly WriteStep[] };
  /** Identifiers of the run's descriptor expression. */
  readonly names: ReadonlySet<string>;
  /** Names the enclosing function declares (parameters and locals); anything else may be global. */
  readonly locals: ReadonlySet<string>;
  /** The straight-line writes so far (after the head, if any), in order. */
  readonly writes: readonly WriteStep[];
  /** Statements read since the last write, which a fix moves after the gathered write. */
  readonly pending: readonly OtherStep[];
  /** How many of `pending` are not comments. */
  readonly prepared: number;
  /** What the writes so far send (identifiers their arguments read). */
  readonly sent: NameLookup;
  /** What the writes so far keep of their results (`(n = write(...))`). */
  readonly results: NameLookup;
  /** Of those, the results no check leaving on failure has tested (a partial count may be there). */
  readonly untested: NameLookup;
  /** Names the moved statements or the pending ones change. */
  readonly changedSoFar: NameLookup;
  /** Names statements in branches the run passed through change. */
  readonly changedInArms: NameLookup;
  /** A moved statement calls something that may do I/O. */
  readonly movedCalls: boolean;
  /** The buffers the writes so far sent, to ask whether a statement changes one. */
  readonly sentBuffers: SentBuffers;
  /** A moved statement changed a buffer a write before it sent. */
  readonly clobbered: boolean;
  /** A branch passed through changed something a write sends. */
  readonly armsClobber: boolean;
  /** The run passed through a branch that writes on every path (an if/else whose every arm writes). */
  readonly everyPath: boolean;
  /** The search's step budget: a joiner that looks into a branch counts what it visits. */
  readonly budget: Budget;
  /** What a joiner remembers of this run under `key` (its own), if anything yet. */
  recalled<S>(key: object): S | undefined;
  /** What a joiner remembers of this run under `key`, made by `create` the first time. */
  memory<S>(key: object, create: () => S): S;
}

/** Why a run ends before a step: the joiner that ended it and its reason. */
export interface End {
  readonly kind: 'end';
  readonly joiner: string;
  readonly why: string;
}

/** What a joiner says of a branch between writes. */
export type BranchVerdict =
  | End
  /** The run goes on past the branch, which holds none of its writes (an early exit). */
  | { readonly kind: 'past' }
  /** The branch is this one statement for the run (it only computes): judged as any statement between. */
  | { readonly kind: 'statement'; readonly step: OtherStep }
  /**
   * These writes of the branch join the run; `changed`: names its statements change; `ends`: why the
   * run ends with them, if it does; `everyPath`: one of them runs on every path through the branch.
   */
  | {
      readonly kind: 'take';
      readonly writes: readonly WriteStep[];
      readonly changed?: readonly string[];
      readonly ends?: End;
      readonly everyPath?: boolean;
    };

/**
 * A joiner's rules, the same for every run (what a joiner must remember of one run, it keeps in the
 * run's memory). Every rule is optional.
 */
export interface Rules {
  /**
   * A write to join: the write as it joins (itself, or under a condition, or without a fix), or why
   * the run ends before it.
   */
  write?: (step: WriteStep, run: RunSoFar) => WriteStep | End;
  /** A write has joined the straight-line part of the run; why the run ends right after it, if it must. */
  after?: (step: WriteStep, run: RunSoFar) => End | undefined;
  /** A statement between writes: why the run cannot cross it, or undefined. */
  cross?: (step: OtherStep, run: RunSoFar) => End | undefined;
  /** A branch between writes: what the run does with it, or undefined when it is not this joiner's idiom. */
  branch?: (step: BranchStep, run: RunSoFar) => BranchVerdict | undefined;
  /** A loop between writes: the one statement it is for the run, or undefined (it ends the run). */
  loop?: (step: LoopStep, run: RunSoFar) => OtherStep | undefined;
  /** The run's writes once it stopped growing: them (possibly changed), or why there is no run. */
  finish?: (writes: readonly WriteStep[], run: RunSoFar) => readonly WriteStep[] | End;
  /** Any write taken into the run (opening it, joining, or from a branch): for joiners that remember. */
  taken?: (step: WriteStep, run: RunSoFar) => void;
}

/** A fact a joiner reads: a field of a step, or of what the run gathered so far. */
export type Fact =
  | `write.${Exclude<keyof WriteStep, 'kind'>}`
  | `other.${Exclude<keyof OtherStep, 'kind'>}`
  | `branch.${Exclude<keyof BranchStep, 'kind'>}`
  | `loop.${Exclude<keyof LoopStep, 'kind'>}`
  | `run.${keyof RunSoFar}`;

/** One idiom: its name, the facts it reads, and its rules. */
export interface Joiner {
  /** Short and unique: what an {@link End} names. */
  readonly name: string;
  readonly facts: readonly Fact[];
  readonly rules: Rules;
}

/** The end a joiner names, built once (runs end often; nothing is allocated per end). */
export function end(joiner: string, why: string): End {
  return { kind: 'end', joiner, why };
}

/**
 * A statement calls something that may do I/O or fail loudly (front ends mark quiet calls
 * `output: false`).
 */
export function callsOut(p: OtherStep): boolean {
  return p.calls.length > 0 && p.output !== false;
}
