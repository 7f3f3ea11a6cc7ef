// A branch a run passes through may compute what its own arm then sends (`if (!ipc) { id =
// htonl(cmd); write(fd, &id, 4); }`): that is the arm preparing its write, not a change of bytes the
// run already queued. `through` (branches.ts) judges each statement in an arm against what was sent
// before it, the arm's own earlier writes included; what is left to ask once the branch is passed is
// whether an arm changed a name that a write *before the branch* sent.

/**
 * The names among `changed` (what a branch's arms change) that `sentBefore` (what the run's writes read
 * before the branch's writes were taken) holds: a change of bytes already queued. A name computed in
 * an arm and sent only by that arm's own later write is its preparation and is left out. Does not
 * modify its arguments.
 */
export function changedAfterSending(
  changed: readonly string[],
  sentBefore: { has(name: string): boolean },
): string[] {
  return changed.filter((n) => sentBefore.has(n));
}
