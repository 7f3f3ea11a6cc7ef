// Why a function's body was not read as a project's write helper (helperBodies.ts, and the gates of
// wrappers.ts before it): a constant per test that refused it, with the node it failed at, for a
// development census of helpers whose calls stay silent (scripts/why-quiet.js).
// Shipped behaviour never sets an observer; unset, a refusal costs one test of a module variable.
import type { Node } from 'web-tree-sitter';

/**
 * The test a body failed (see helperBodies.ts `helperOf` for each): its shape (`too-long`, `names-two-writes`,
 * `no-parameters`), its write call (`no-write`, `second-write`, `writer-unfit`, `pointer-call`,
 * `mode-call`, `writer-handed`), its descriptor (`descriptor`, `pointee-changed`, `descriptor-moved`,
 * `descriptor-elsewhere`, `descriptor-given`), what it does after (`awaits-reply`, `global-io-after`), its buffer (`copies-buffer`, `buffer-loop`,
 * `buffer-source`, `buffering`, `buffer-holds-descriptor`, `object-changed`, `buffer-is-descriptor`,
 * `local-buffer`, `formatter`, `handed-on`, `format-handed-on`), its length (`length`,
 * `length-is-buffer`, `clamped`), its pace (`paced`, `pace-conflict`) and its loop
 * (`loop-not-advancing`, `offset-without-loop`), and whether every configuration compiles its write
 * (`configured-write`: see configuredWrites.ts).
 */
export type HelperRefusal =
  | 'too-long'
  | 'names-two-writes'
  | 'no-parameters'
  | 'mode-call'
  | 'pointer-call'
  | 'second-write'
  | 'writer-unfit'
  | 'writer-handed'
  | 'no-write'
  | 'descriptor'
  | 'pointee-changed'
  | 'descriptor-moved'
  | 'descriptor-elsewhere'
  | 'handed-on'
  | 'format-handed-on'
  | 'descriptor-given'
  | 'awaits-reply'
  | 'global-io-after'
  | 'copies-buffer'
  | 'paced'
  | 'pace-conflict'
  | 'buffer-loop'
  | 'buffer-source'
  | 'buffering'
  | 'buffer-holds-descriptor'
  | 'object-changed'
  | 'buffer-is-descriptor'
  | 'local-buffer'
  | 'formatter'
  | 'length'
  | 'length-is-buffer'
  | 'clamped'
  | 'loop-not-advancing'
  | 'offset-without-loop'
  | 'configured-write';

/**
 * Why a call of a write function, macro or helper inside a body is no write a helper may make (see
 * helperBodies.ts `writerSlots`): a gathered call, a fixed argument other than the callee's, an
 * addressed send, a macro whose slots are not read, a wrapper of several writes or of a format, a pace,
 * a branch or mode not selected, flags not constant, a descriptor taken as an element or a pointee.
 */
export type SlotRefusal =
  | 'gathered'
  | 'fixed-argument'
  | 'addressed'
  | 'macro-slots'
  | 'not-a-writer'
  | 'several-writes'
  | 'format'
  | 'pace'
  | 'not-selected'
  | 'not-writer-mode'
  | 'flags'
  | 'indirect-descriptor';

/** One refusal: the test, the node it failed at (absent: the function as a whole), and a detail. */
export interface HelperRefusalRecord {
  readonly why: HelperRefusal;
  readonly at?: Node;
  /** For `writer-unfit`: why the call's slots were refused. */
  readonly slot?: SlotRefusal;
}

let observer: ((refusal: HelperRefusalRecord) => void) | undefined;

/** Sets (or with undefined, clears) the observer of refusals; returns the one it replaces. */
export function observeHelperRefusals(
  next: ((refusal: HelperRefusalRecord) => void) | undefined,
): ((refusal: HelperRefusalRecord) => void) | undefined {
  const previous = observer;
  observer = next;
  return previous;
}

/** Tells the observer, if a tool set one, that a body was refused `why` at `at`; returns undefined. */
export function refused(why: HelperRefusal, at?: Node, slot?: SlotRefusal): undefined {
  if (observer) observer({ why, at, ...(slot && { slot }) });
  return undefined;
}
