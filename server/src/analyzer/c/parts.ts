// The top-level parts of a C file, for a batch run that parses only the parts that can hold something
// to find. A part ends after a line starting with `}` (the end of a top-level definition in nearly
// every C style, the same cut the parser's error recovery makes), unless that line is inside a
// comment or string, or inside a preprocessor conditional (`#if` ... `#endif`): a part then holds
// whole conditionals, so that each parses alone as it does in the whole file.

/**
 * Comments, strings and character literals (whose `}` and `#if` do not count), conditional
 * directives (group 1) and lines starting with `}` (group 2). An unterminated comment runs to the end.
 */
const TOKENS =
  /\/\*[\s\S]*?(?:\*\/|(?![\s\S]))|\/\/(?:[^\n\\]|\\[\s\S])*|"(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?|^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b|^(\})/gm;

/**
 * The offsets where the top-level parts of `text` start, then `text.length`: `[0, ..., text.length]`,
 * strictly increasing. Part i is `[cuts[i], cuts[i + 1])`. A cut is just after a line that starts with
 * `}` outside comments, strings and preprocessor conditionals.
 */
export function partCuts(text: string): number[] {
  const cuts = [0];
  let depth = 0;
  // The end of the last `}` line, until a token shows that a comment or string runs over it.
  let pending = -1;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m !== null; m = TOKENS.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (pending !== -1) {
      if (start >= pending) {
        if (pending < text.length) cuts.push(pending);
        pending = -1;
      } else if (end > pending) pending = -1; // a comment opened on the `}` line runs on
    }
    const directive = m[1];
    if (directive !== undefined) {
      if (directive === 'endif') depth = Math.max(0, depth - 1);
      else depth++;
    } else if (m[2] !== undefined && depth === 0) {
      const newline = text.indexOf('\n', end);
      pending = newline === -1 ? text.length : newline + 1;
    }
  }
  if (pending !== -1 && pending < text.length) cuts.push(pending);
  cuts.push(text.length);
  return cuts;
}

/**
 * The ranges `[start, end)` to parse: the parts (from {@link partCuts}) for which `wanted` says yes and
 * that `done` does not hold yet, adjacent ones joined. Adds the chosen parts' indices to `done`.
 */
export function chooseParts(
  text: string,
  cuts: readonly number[],
  wanted: (part: string) => boolean,
  done: Set<number>,
): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    if (done.has(i)) continue;
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    if (!wanted(text.slice(start, end))) continue;
    done.add(i);
    const last = ranges[ranges.length - 1];
    if (last && last[1] === start) last[1] = end;
    else ranges.push([start, end]);
  }
  return ranges;
}
