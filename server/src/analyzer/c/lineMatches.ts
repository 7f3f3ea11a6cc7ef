// Directives found from a word they hold. Several readers search every file of a tree for directive
// lines with a pattern anchored at a line's start (`^[ \t]*#[ \t]*define ...`, multiline); a search
// tries that anchor at every character of the file, most of which start no line and hold no `#`. The
// same matches are found by trying the pattern only at the start of the lines that hold the word
// every match holds on its first line (`#`, `define`).

/**
 * The matches of `pattern` in `text`, as a global multiline search of it finds them (in order, each
 * search going on from the end of the match before), for a sticky pattern (flags `my`) each of whose
 * matches starts where a line starts and holds `word` before the end of that first line. Tried only
 * at the start of each line holding `word`. Does not keep `pattern.lastIndex`.
 */
export function lineMatches(text: string, word: string, pattern: RegExp): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  // Where the search goes on from, and the last line start tried.
  let from = 0;
  let tried = -1;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    // Back to the start of the line, no further than a line that needs no trying: one tried, or one
    // the search has gone past (a line of many words is passed over once).
    const floor = Math.max(from, tried + 1);
    let line = at;
    while (line > floor && !isLineEnd(text.charCodeAt(line - 1))) line--;
    if (line < floor || (line === floor && floor > 0 && !isLineEnd(text.charCodeAt(floor - 1)))) continue;
    tried = line;
    pattern.lastIndex = line;
    const m = pattern.exec(text);
    if (!m) continue;
    found.push(m);
    from = pattern.lastIndex;
  }
  return found;
}

/** The characters after which `^` matches in a multiline pattern. */
function isLineEnd(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}
