// A function-like macro that takes a function's name for a stretch of the file: `#define sm_print(c,
// ...) 0; b += snprintf(b, ...)` inside a function, then `#undef sm_print` before the function's own
// `sm_print(c, buf)` writes what the macro gathered. Between the `#define` and the `#undef` the
// preprocessor reads each `sm_print(` as the macro, not as a call of the function: those uses
// write nothing, and a run of them is no run of writes. The grammar sees the name only, so each use in
// the stretch is renamed (same length, offsets kept) to a name nothing defines: a call whose body is
// not in view, which the analyzer neither reads as a write nor gathers across.

import { LITERALS_AND_COMMENTS } from './comments';
import { lineMatches } from './lineMatches';

/** `#define NAME(` at a line's start: group 1 the name. Sticky: tried only where lineMatches says. */
const DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(/my;

/** `#undef NAME` at a line's start: group 1 the name. Sticky, as {@link DEFINE}. */
const UNDEF = /^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)/my;

/** The name a use in the `index`th stretch is renamed to: `_` and the index in base 36, `_` after. */
function unknownName(length: number, index: number): string | undefined {
  const tag = `_${index.toString(36)}`;
  return tag.length <= length ? tag.padEnd(length, '_') : undefined;
}

/** The end of the `\`-continued directive line that starts at `from`. */
function directiveEnd(text: string, from: number): number {
  let end = from;
  for (;;) {
    end = text.indexOf('\n', end);
    if (end < 0) return text.length;
    if (text[end - 1] === '\\' || (text[end - 1] === '\r' && text[end - 2] === '\\')) end++;
    else return end;
  }
}

/**
 * `text` with the uses of each function-like macro renamed between its `#define` and its `#undef`,
 * for a macro whose name the file also uses outside every such stretch (the function it shadows):
 * a macro defined for good is left to the readers of macros (macroExpansions.ts, macros.ts).
 */
export function renameShadowingMacros(text: string): string {
  if (!text.includes('undef')) return text;
  // Where each name is undefined, in order: one pass over the file, not one per definition.
  const undefs = new Map<string, number[]>();
  for (const m of lineMatches(text, 'undef', UNDEF)) {
    const at = undefs.get(m[1]!);
    if (at) at.push(m.index);
    else undefs.set(m[1]!, [m.index]);
  }
  if (undefs.size === 0) return text;
  const stretches: { name: string; start: number; end: number }[] = [];
  for (const m of lineMatches(text, 'define', DEFINE)) {
    const name = m[1]!;
    const start = directiveEnd(text, m.index);
    const end = undefs.get(name)?.find((at) => at >= start);
    if (end !== undefined) stretches.push({ name, start, end });
  }
  if (stretches.length === 0) return text;
  // Uses are searched in a copy whose literals and comments are spaces: a name in a string stays.
  const code = text.replace(LITERALS_AND_COMMENTS, (c) => ' '.repeat(c.length));
  let out = text;
  stretches.forEach(({ name, start, end }, index) => {
    const use = new RegExp(`\\b${name}\\s*\\(`, 'g');
    const outside = [...code.matchAll(use)].some(
      (u) =>
        !stretches.some((s) => s.name === name && u.index >= s.start && u.index < s.end) &&
        !/^[ \t]*#[ \t]*(?:define|undef)\b/.test(text.slice(text.lastIndexOf('\n', u.index) + 1, u.index)),
    );
    const renamed = unknownName(name.length, index);
    if (!outside || !renamed) return;
    for (const u of code.slice(start, end).matchAll(use)) {
      const at = start + u.index;
      out = out.slice(0, at) + renamed + out.slice(at + name.length);
    }
  });
  return out;
}
