// Attributes that only some compilers are given, written inside a definition's head:
//
//   static void
//   #ifdef __GNUC__
//   __attribute__ ((format(printf, 2, 3)))
//   #endif
//   send_reply(struct client *c, const char *format, ...)
//   {
//
// The grammar reads a conditional group only where a whole item or statement may stand, so the head
// is cut in two: the type before the group becomes a declaration missing its name, the rest a
// statement of no function, and the body (a write helper, often: printf-like senders are the ones
// given format attributes) is never read. Read as the compiler that gets the attribute sees it (the
// `#if` arm, as the other `#if` readers choose), the head is one: only the directive lines are blanked,
// the attribute stays for the readers that ask about it (`noreturn`).
import { blankedRanges } from './comments';
import { lineMatches } from './lineMatches';

/**
 * A group of its own (`#if`, `#ifdef` or `#ifndef` to `#endif`, nothing else at its level) holding
 * only attribute specifiers and comments (sticky: see lineMatches.ts). Group 1: the opening directive
 * line; group 2: the `#endif` line.
 */
const ATTRIBUTE_GROUP =
  /^([ \t]*#[ \t]*if(?:n?def)?\b[^\n]*\n)((?:[ \t]*(?:__attribute(?:__)?[ \t]*\(\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)\)[ \t]*|\/\*(?:[^*\n]|\*(?!\/))*\*\/[ \t]*)+\r?\n)+)([ \t]*#[ \t]*endif\b[^\n]*)/my;

/**
 * `text` with the directive lines of each attribute-only conditional group ({@link ATTRIBUTE_GROUP})
 * blanked (spaces, line ends kept), so the head the group sits in reads as one declaration. Offsets
 * stay valid for the original text.
 */
export function blankAttributeGroups(text: string): string {
  if (!text.includes('__attribute')) return text;
  const cuts: (readonly [number, number])[] = [];
  for (const m of lineMatches(text, '#', ATTRIBUTE_GROUP)) {
    const [, opening, body, endif] = m as unknown as [string, string, string, string];
    cuts.push([m.index, m.index + opening.length - 1]);
    const endifStart = m.index + opening.length + body.length;
    cuts.push([endifStart, endifStart + endif.length]);
  }
  return cuts.length === 0 ? text : blankedRanges(text, cuts);
}
