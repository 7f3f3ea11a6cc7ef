// A macro call that ends the line of a definition's type, the function's name starting the next line
// (`static inline int WH_FMT(2, 3)` / `wh_print(struct wh_client *c, const char *fmt, ...)` / `{`): the
// BSD layout of a definition whose head carries a format attribute or a type macro. The grammar cannot
// read a word and a parenthesis there and loses the whole function, so its body is never read as a
// helper and the runs of its callers are missed. parser.ts blanks such a call when it stands on the
// name's line; this rule blanks it when the name stands alone at the start of the next line.

/**
 * Group 1: the type words before the macro (`static inline int`), group 2: the macro's name, group 3:
 * its arguments with their parentheses (each argument one token, as an attribute's or a type macro's
 * are and a parameter list is not); then the line's end and the function's name (group 4) at the very
 * start of the next line, with its `(`. Both lines start at the margin, as a definition at file scope
 * does and a statement inside a body does not.
 */
const WRAPPED_HEAD =
  /^((?:[A-Za-z_]\w*[ \t*]+)+?)([A-Za-z_]\w*)([ \t]*\([ \t]*(?:\w+[ \t]*(?:,[ \t]*\w+[ \t]*)*)?\))[ \t]*\r?\n([A-Za-z_]\w*)[ \t]*\(/gm;

/**
 * True when the parameter list that opens at `open` (a `(`) closes and a body's `{` or a prototype's
 * `;` follows it, past blanks and line ends only: a declaration of the function (a prototype laid out
 * the same way, left as it is, would take the definition after it into its error).
 */
function declares(text: string, open: number): boolean {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      const after = /^\s*(.)/.exec(text.slice(i + 1, i + 400));
      return after?.[1] === '{' || after?.[1] === ';';
    } else if (c === ';' || c === '{' || c === '}') return false;
  }
  return false;
}

/**
 * `text` with each macro call {@link WRAPPED_HEAD} finds blanked (spaces of the same length, the line
 * end kept), when the function's parameter list is followed by its body or a `;` and no word of the head is a
 * construct of C's own (`notAttributes`: `return`, `sizeof`, `__attribute__`...), nor the macro's
 * name or the function's. Offsets stay valid for the original text.
 */
export function blankWrappedHeadMacros(text: string, notAttributes: ReadonlySet<string>): string {
  if (!/\)[ \t]*\r?\n[A-Za-z_]\w*[ \t]*\(/.test(text)) return text;
  let out: string[] | undefined;
  let copied = 0;
  for (const m of text.matchAll(WRAPPED_HEAD)) {
    const [whole, before, name, args, fn] = m as unknown as [string, string, string, string, string];
    const words = before.match(/[A-Za-z_]\w*/g) ?? [];
    if (
      notAttributes.has(name) ||
      notAttributes.has(fn) ||
      /^[ \t]*\([ \t]*void[ \t]*\)$/.test(args) ||
      words.some((w) => notAttributes.has(w) && w !== 'void') ||
      !declares(text, m.index + whole.length - 1)
    )
      continue;
    const start = m.index + before.length;
    const end = start + name.length + args.length;
    (out ??= []).push(text.slice(copied, start), ' '.repeat(end - start));
    copied = end;
  }
  return out ? out.join('') + text.slice(copied) : text;
}
