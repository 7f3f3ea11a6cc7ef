// Comments in C text, found past string and character literals (each alternative tried in turn, the
// literals first), so that a `//` or `/*` inside a literal is no comment. Readers of raw text blank
// them before they look for directives, definitions or calls, each in the way its offsets need.

/** A literal (kept by the callers) or a comment (starting with `/`), in source order. */
export const LITERALS_AND_COMMENTS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
