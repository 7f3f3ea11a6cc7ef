// The conditional groups of a text at any depth, read once by a walk over its directive lines with a
// stack of the groups still open: the readers of groups inside statements (innerConditionals.ts) and
// of pairs of groups holding others (nestedPairedConditionals.ts) both start from it.
import { directiveLines } from './pairedConditionals';

/** A conditional group: `#if`, `#ifdef` or `#ifndef` to its `#endif`. */
export interface ConditionalGroup {
  /** The opening directive's keyword (`if`, `ifdef`, `ifndef`) and the rest of its line. */
  readonly keyword: string;
  readonly rest: string;
  /** Its directive lines by offset (start, end): the opening, each `#elif` or `#else`, the `#endif`. */
  readonly lines: readonly (readonly [number, number])[];
  /** Whether an `#else` ends the alternatives: without one, some configuration compiles no arm. */
  readonly complete: boolean;
  /** The index in the list of the group whose arm holds this one, if any. */
  readonly parent?: number;
}

/** A group while the directive lines are walked. */
interface Open {
  readonly keyword: string;
  readonly rest: string;
  readonly lines: (readonly [number, number])[];
  complete: boolean;
  readonly parent?: number;
}

/**
 * The conditional groups of `text` at any depth, in the order they open, each with the index of the
 * group holding it (in the list returned). A group the file leaves open has no `#endif` to end its
 * last arm and is left out (a group inside it then has no parent). The arms of a group are what lies
 * between two of its lines.
 */
export function conditionalGroups(text: string): ConditionalGroup[] {
  const opened: Open[] = [];
  const stack: number[] = [];
  const ended = new Set<number>();
  for (const { keyword, rest, start, end } of directiveLines(text)) {
    const line = [start, end] as const;
    if (/^if(?:n?def)?$/.test(keyword)) {
      const parent = stack[stack.length - 1];
      stack.push(opened.length);
      opened.push({ keyword, rest, lines: [line], complete: false, ...(parent !== undefined && { parent }) });
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) continue;
    if (keyword === 'elif' || keyword === 'else') {
      opened[top]!.lines.push(line);
      opened[top]!.complete = keyword === 'else';
    } else if (keyword === 'endif') {
      opened[top]!.lines.push(line);
      ended.add(top);
      stack.pop();
    }
  }
  // Renumbered without the groups left open (an ended group's parent ended after it).
  const index = new Map<number, number>();
  const found: ConditionalGroup[] = [];
  opened.forEach((group, k) => {
    if (!ended.has(k)) return;
    index.set(k, found.length);
    const parent = group.parent === undefined ? undefined : index.get(group.parent);
    found.push({
      keyword: group.keyword,
      rest: group.rest,
      lines: group.lines,
      complete: group.complete,
      ...(parent !== undefined && { parent }),
    });
  });
  return found;
}
