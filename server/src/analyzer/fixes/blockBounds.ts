// A C fix replaces the text from a run's first write to its last with one braced statement. When the
// writes stand in different `{ }` blocks (a run that goes into a bare block, see c/bareBlocks.ts), that
// text opens or closes a block the rest of the function still needs: replacing it would leave the
// braces unmatched, so the run is reported without a fix.

/** True when the C text `code` closes every `{` it opens and closes none it did not open. */
export function balancedBraces(code: string): boolean {
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '/' && code[i + 1] === '/') {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
    } else if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 1;
    } else if (c === '"' || c === "'") {
      // A literal ends at the next unescaped quote of its kind (or, malformed, at the line's end).
      for (i++; i < code.length && code[i] !== c && code[i] !== '\n'; i++) if (code[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}
