// A line that starts with `}` inside a function-like macro's definition (`#define SAVE(e) do { \` ...
// `} while (0)`) continues the directive: the preprocessor joins it to the `#define` line before the
// grammar sees it. It closes no function, so a re-parse that cuts an error's range at closing lines
// (parser.ts's swallowedRanges) must not cut there: a function that defines such a macro in its body
// and holds an error elsewhere would be cut in two at the macro and never read.

/**
 * True when the line that starts right after the newline at `newline` (an offset in `text`) continues
 * a preprocessor directive: the line before it ends with a backslash.
 */
export function continuesDirective(text: string, newline: number): boolean {
  const before = text[newline - 1] === '\r' ? newline - 2 : newline - 1;
  return before >= 0 && text[before] === '\\';
}
