// Facts about functions' parameters that files tell the fact base as (function name, parameter index)
// pairs, gathered by function: a call handing a message socket at an argument (handedMessages.ts), a
// definition calling a parameter as a writer (handedWriters.ts).

/** One function's parameter, named by the function and the parameter's index. */
export type ParameterIndex = readonly [name: string, index: number];

/** `marks` by function name, each function with the indexes marked; added to `into`'s copy if given. */
export function indexesByName(
  marks: Iterable<ParameterIndex>,
  into?: ReadonlyMap<string, ReadonlySet<number>>,
): Map<string, Set<number>> {
  const byName = new Map<string, Set<number>>(
    into ? [...into].map(([name, set]) => [name, new Set(set)]) : [],
  );
  for (const [name, index] of marks) {
    const set = byName.get(name);
    if (set) set.add(index);
    else byName.set(name, new Set([index]));
  }
  return byName;
}
