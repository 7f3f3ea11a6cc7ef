// A switch with no `default` whose every case ends in `break`: `switch (version) { case 1: write(fd,
// magic, 8); break; case 2: write(fd, &crc, 4); break; }` after the data of an image was written. Each
// case runs on its own, and when no case matches none runs, as in an else-if chain without a final
// `else`: writes at the start or the end of its arms may join the writes around it, in a hint without a
// fix (gathering means filling the vector case by case). Read as a barrier, the switch hid such runs.
import type { Node } from 'web-tree-sitter';
import type { Arm, BranchStep, Span } from '../model';
import { identifiers } from './syntax';
import { readsOnly } from './writes';

/**
 * The branch step of a closed switch without `default` (see the file's comment): `value` is its
 * parenthesised condition, `pure` the functions known to do no I/O. A value that calls something else
 * or assigns is opaque: it runs before the arms, so only writes that end an arm may join others.
 */
export function partialSwitch(
  span: Span,
  arms: readonly Arm[],
  value: Node,
  pure: ReadonlySet<string>,
): BranchStep {
  const reads = [...identifiers(value)];
  return {
    kind: 'branch',
    span,
    arms,
    tests: reads,
    partial: { condition: value.text, opaque: !readsOnly(value, pure) || undefined },
  };
}
