// A function-like macro may print its argument's own spelling: `#define PRINT_INT(var) do {
// dprintf(fd, #var "=%d ", status->var); } while (0)`, the `#` turning the argument into a string
// literal (C's stringizing). A use expands to a call with that literal in place (`dprintf(fd, "pid"
// "=%d ", status->pid)`), so the macro's writes can be read at its uses as any macro's are (see
// macroExpansions.ts). Pasting (`##`) builds new names, which stays unread.
import { TOKEN } from './macros';

/**
 * True when every `#` of `body` (a macro body with its literals blanked out) stringizes one of
 * `params` (or `__VA_ARGS__` for a variadic macro), and none pastes (`##`).
 */
export function stringizesOnly(body: string, params: readonly string[], variadic: boolean): boolean {
  if (body.includes('##')) return false;
  const tokens = body.match(TOKEN) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== '#') continue;
    const next = nextWord(tokens, i);
    const name = next < 0 ? undefined : tokens[next];
    if (!name || !(params.includes(name) || (variadic && name === '__VA_ARGS__'))) return false;
  }
  return true;
}

/** The index of the first token after `i` that is not white space, or -1. */
export function nextWord(tokens: readonly string[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) if (!/^\s$/.test(tokens[j]!)) return j;
  return -1;
}

/**
 * The string literal `#` makes of an argument: its text trimmed, white space runs made one space,
 * backslashes and double quotes escaped.
 */
export function stringized(arg: string): string {
  const text = arg.trim().replace(/\s+/g, ' ');
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
