// A message helper that fills its own struct or array from its arguments and from settings of its file
// (`hdr.max_cpus = ncpus; hdr.buf_size = buf_size; return send_all(fd, &hdr, sizeof hdr);`, where
// `static int ncpus` and `static unsigned long buf_size` are set while the program parses its options
// and starts) sends, each call, bytes the call computes: a setting nothing changes around the helper's
// calls is, for them, as fixed as a constant. The file must hold every change of the variable (it is
// `static` at file scope: no other file can name it), and none may be where the helper's calls are:
// not in the helper (a sequence number it increments keeps state from call to call), nor in a function
// that calls it or in anything that calls (a counter bumped between two messages, by the caller or by a
// function it calls, sends what changed between). A variable other files can name, or one changed
// where the calls are, stays outside what a call computes.
//
// The facts are read from the file's text, not from a syntax tree: a function may come from a parse of
// part of the file (see parser.ts `functions`), and the declarations and the other functions are
// outside it.

/** The last file read, and its answers by `helper/name`. */
let lastFile:
  { readonly text: string; readonly code: string; readonly answers: Map<string, boolean> } | undefined;

/**
 * True when `name`, read in the body of the function `helper`, is a settled variable of the file
 * `text`: declared `static` at file scope (at the start of a line, outside every function), never
 * `extern`, and changed (assigned, or a member or element of it; incremented; its address taken;
 * handed to a call as its first argument, where the C library's copiers and formatters write) in no
 * function that is `helper`, calls it, or is reached by calls from those (within the file). Comments
 * and string literals are not read.
 */
export function settledVariable(name: string, helper: string, text: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name) || !/^[A-Za-z_]\w*$/.test(helper)) return false;
  if (lastFile?.text !== text) lastFile = { text, code: codeOnly(text), answers: new Map() };
  const key = `${helper}/${name}`;
  const known = lastFile.answers.get(key);
  if (known !== undefined) return known;
  const { code } = lastFile;
  const settled = fileStatic(name, code) && !changedAround(name, helper, code);
  lastFile.answers.set(key, settled);
  return settled;
}

/** `text` with comments, string and character literals blanked (offsets and newlines kept). */
export function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) =>
    m.replace(/[^\n]/g, ' '),
  );
}

/** A `static` declaration of `name` at file scope, and no `extern` one. */
function fileStatic(name: string, code: string): boolean {
  const declared = new RegExp(`^static\\b[^;{}()]*\\b${name}\\b[^;{}()]*;`, 'm');
  const shared = new RegExp(`^extern\\b[^;{}()]*\\b${name}\\b`, 'm');
  return declared.test(code) && !shared.test(code);
}

/**
 * True when a function where the helper's calls are may change `name`: the helper, a function of the
 * file that calls it, or any function of the file those call, and so on (a `bump()` between two calls
 * changes the variable as `g++` there would).
 */
function changedAround(name: string, helper: string, code: string): boolean {
  const spans = functionSpans(code);
  const byName = new Map<string, string>();
  for (const fn of spans) if (fn.name !== undefined) byName.set(fn.name, code.slice(fn.from, fn.to));
  const calls = new RegExp(`\\b${helper}\\s*\\(`);
  const around = new Set<string>([helper]);
  for (const [fn, body] of byName) if (calls.test(body)) around.add(fn);
  const pending = [...around];
  while (pending.length > 0) {
    const body = byName.get(pending.pop() as string);
    if (body === undefined) continue;
    if (changes(name, body)) return true;
    for (const m of body.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
      const callee = m[1] as string;
      if (byName.has(callee) && !around.has(callee)) {
        around.add(callee);
        pending.push(callee);
      }
    }
  }
  return false;
}

/** The top-level brace blocks of `code` that follow a parameter list: the functions' bodies, named. */
export function functionSpans(code: string): { name: string | undefined; from: number; to: number }[] {
  const spans: { name: string | undefined; from: number; to: number }[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0 && start >= 0) {
        const head = /(\w+)\s*\([^;{}]*\)[^;{}()]*$/.exec(code.slice(Math.max(0, start - 400), start));
        spans.push({ name: head?.[1], from: start, to: i + 1 });
      }
    }
  }
  return spans;
}

/**
 * True when `body` may change `name`: assigns it or a member or element of it, increments or
 * decrements it, takes its address, or hands it to a call as its first argument (`memcpy(g, ...)`).
 * A member of the same name (`hdr.count = count`) is not the variable. Reads nothing else: a bitwise
 * `&` or a parenthesised list counts as a change too (never the reverse).
 */
function changes(name: string, body: string): boolean {
  const place = `(?<!\\.\\s*|->\\s*)\\b${name}\\b(?:\\s*(?:\\.\\s*\\w+|->\\s*\\w+|\\[[^\\]]*\\]))*`;
  return [
    new RegExp(`${place}\\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)`),
    new RegExp(`${place}\\s*(?:\\+\\+|--)`),
    new RegExp(`(?:\\+\\+|--)\\s*${place}`),
    new RegExp(`(?<!&)&\\s*${place}`),
    new RegExp(`\\(\\s*${place}\\s*,`),
  ].some((r) => r.test(body));
}
