// A `goto` handed to a macro as an argument (`WRITE_OR_FAIL(buf, len, goto out)`: the action the macro
// takes when its write fails). The grammar reads `return`, `break` or a braced block there as an
// argument, but not `goto label`, and the whole call becomes an ERROR node: the write in it is lost.

/** `goto label` before a call's `,` or `)` (group 1: the blanks between); what comes before is tested apart. */
const JUMP_ARGUMENT = /goto([ \t]+)[A-Za-z_]\w*(?=[ \t\r\n]*[,)])/g;

/**
 * `text` with each `goto label` argument joined into one word (the blanks between made `_`, the same
 * length), so the call parses; where the grammar puts the argument's node, the original text still
 * reads `goto label` (macro expansion takes arguments from the original text). C itself never puts a
 * `goto` after `(` or `,`, so nothing else changes; one in a literal or a comment is left as it is.
 */
export function joinJumpArguments(text: string): string {
  if (!text.includes('goto')) return text;
  let out: string[] | undefined;
  let copied = 0;
  for (const m of text.matchAll(JUMP_ARGUMENT)) {
    if (!/[(,][ \t\r\n]*$/.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    if (insideLiteralOrComment(text, m.index)) continue;
    const from = m.index + 4;
    const to = from + m[1]!.length;
    (out ??= []).push(text.slice(copied, from), '_'.repeat(to - from));
    copied = to;
  }
  return out ? out.join('') + text.slice(copied) : text;
}

/** Whether `at` lies in a literal or a comment of its line (a `/*` comment opened on an earlier line aside). */
function insideLiteralOrComment(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '/' && line[i + 1] === '/') return true;
    else if (c === '/' && line[i + 1] === '*') {
      const close = line.indexOf('*/', i + 2);
      if (close === -1) return true;
      i = close + 1;
    }
  }
  return quote !== '';
}
