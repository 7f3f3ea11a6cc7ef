// Functions of a file that write nothing to a descriptor they are given, read from their bodies: a
// wait until the descriptor is writable (`select()` on it) that logs its failures elsewhere. A
// write-in-full loop that waits with such a function in its EAGAIN branch still makes one write per
// call, whatever the wait's name says: a name that reads as I/O (`wait_for_write(fd, timeout)`) is only
// a guess where no body is read, and a body wins over it. Read from the text alone, as the fact base
// reads bodies (the batch run parses only the parts that call writes, and a wait calls none): what the
// text does not show plainly (a call through a pointer, a second definition under `#if`) leaves the
// parameter written.
import { IO_NAME_PATTERN, libraryWaits } from '../catalogue';
import { functionMacros } from './functionFacts';

/** Comments, string and character literals, blanked (same length) before reading a body. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Names that look like calls but are not. */
const KEYWORDS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'do', 'else', 'case']);

/** How deep calls of the file's own functions are followed, the parameter passed down. */
const DEPTH = 3;

/**
 * For the file `text`: the parameters (by index) a function defined there writes nothing to, or
 * undefined when its body is not read (no single definition in the file). A parameter is written when
 * the body hands it (or a name copied from it) to a call, before any format string, that is not
 * `quiet` (no output), a library wait, or one of the file's functions that writes nothing to it in turn.
 * A function-like macro of the file or of `included` (its headers' definitions) with no function of
 * its name is read as its expansion stands at its use, where a helper's reading takes a call whose name
 * does not read as I/O for no write: `#define write_ready(fd, t) poll_one((fd), POLLOUT, (t))`
 * writes nothing to `fd`, whatever file defines `poll_one`.
 */
export function silentParameters(
  text: string,
  quiet: (name: string) => boolean,
  included?: string,
): (name: string) => ReadonlySet<number> | undefined {
  const file = definitionsOf(text);
  const macro = macrosOf(text, included);
  const definitionOf = (name: string) => {
    const def = file(name);
    if (def) return { def, expands: false };
    const expansion = macro(name);
    return expansion && { def: expansion, expands: true };
  };
  const answers = new Map<string, ReadonlySet<number> | undefined>();
  const silent = (name: string, index: number, depth: number): boolean => {
    const found = definitionOf(name);
    if (!found || index >= found.def.params.length) return false;
    const { def, expands } = found;
    const names = copies(def.body, def.params[index]!);
    return calledWith(def.body, names).every(
      ({ callee, arg }) =>
        callee !== undefined &&
        callee !== name &&
        (quiet(callee) ||
          libraryWaits(callee) ||
          (expands &&
            !def.params.includes(callee) &&
            !IO_NAME_PATTERN.test(callee) &&
            !file(callee) &&
            !macro(callee)) ||
          (depth < DEPTH && silent(callee, arg, depth + 1))),
    );
  };
  return (name) => {
    if (answers.has(name)) return answers.get(name);
    const def = definitionOf(name)?.def;
    const answer = def ? new Set(def.params.map((_, k) => k).filter((k) => silent(name, k, 0))) : undefined;
    answers.set(name, answer);
    return answer;
  };
}

/** A function's one definition in a file: its parameter names and its body (blanked). */
interface Definition {
  readonly params: readonly string[];
  readonly body: string;
}

/**
 * The definitions of the last file asked about, by name. A file's analysis asks once for each
 * reading of its helpers (every round of its partial parse, then with the fact base's answers),
 * each time with other answers for what is quiet: the blanked text and the definitions found in it
 * are the same every time, and finding one searches the whole file.
 */
let lastFile: { text: string; clean?: string; found: Map<string, Definition | undefined> } | undefined;

/** {@link definition} in `text` (blanked once), remembered for the last text asked about. */
function definitionsOf(text: string): (name: string) => Definition | undefined {
  if (lastFile?.text !== text) lastFile = { text, found: new Map() };
  const file = lastFile;
  return (name) => {
    if (file.found.has(name)) return file.found.get(name);
    file.clean ??= text.replace(NOISE, (m) =>
      m.startsWith('"') ? `"${' '.repeat(m.length - 2)}"` : ' '.repeat(m.length),
    );
    const def = definition(file.clean, name);
    file.found.set(name, def);
    return def;
  };
}

/** The function-like macros of the last file and headers asked about (see {@link macrosOf}). */
let lastMacros:
  { text: string; included: string | undefined; found?: Map<string, Definition | undefined> } | undefined;

/**
 * The function-like macros `text` and `included` define, by name: those defined once (the file's own
 * first, as the preprocessor would see them), as a {@link Definition} of their expansion.
 */
function macrosOf(text: string, included: string | undefined): (name: string) => Definition | undefined {
  // Asked again for every reading of the same file's helpers, with the same headers: cleaning the
  // headers' text each time cost as much as a pass over it.
  if (lastMacros?.text !== text || lastMacros.included !== included) lastMacros = { text, included };
  const memo = lastMacros;
  return (name) => {
    let found = memo.found;
    if (!found) {
      found = memo.found = new Map();
      for (const source of [text, included ?? '']) {
        if (!source.includes('#')) continue;
        const own = new Map<string, Definition | undefined>();
        const clean = source.replace(NOISE, (c) =>
          c.startsWith('"') ? `"${' '.repeat(c.length - 2)}"` : c.replace(/[^\n]/g, ' '),
        );
        for (const m of functionMacros(clean)) {
          const params = m[2]!.split(',').map((p) => p.trim());
          const body = m[3]!.replace(/\\\r?\n/g, ' ');
          own.set(m[1]!, own.has(m[1]!) ? undefined : { params, body: `{${body}}` });
        }
        for (const [n, d] of own) if (!found.has(n)) found.set(n, d);
      }
    }
    return found.get(name);
  };
}

/** The one definition of `name` in `clean`: its parameter names and its body, or undefined. */
function definition(clean: string, name: string): Definition | undefined {
  const header = new RegExp(`(?:^|[\\s*])${name}\\s*\\(([^()]*)\\)\\s*\\{`, 'gm');
  const found = [...clean.matchAll(header)];
  if (found.length !== 1) return undefined;
  const m = found[0]!;
  const open = m.index + m[0].length - 1;
  let depth = 0;
  for (let k = open; k < clean.length; k++) {
    const c = clean[k];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const params = m[1]!
        .split(',')
        .map((p) => /([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$/.exec(p.trim())?.[1] ?? '');
      return { params, body: clean.slice(open, k + 1) };
    }
  }
  return undefined;
}

/** `param` and the names the body copies it into (`int s = fd;`, `s = fd + 0;`), two levels deep. */
function copies(body: string, param: string): Set<string> {
  const names = new Set([param]);
  for (let round = 0; round < 2; round++) {
    for (const m of body.matchAll(/([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?=(?!=)([^;]*)/g)) {
      if ([...names].some((n) => new RegExp(`\\b${n}\\b`).test(m[2]!))) names.add(m[1]!);
    }
  }
  return names;
}

/**
 * The calls in `body` given one of `names` before any format string: the callee (undefined for a
 * call through a pointer or a member) and the argument's index.
 */
function calledWith(body: string, names: ReadonlySet<string>): { callee?: string; arg: number }[] {
  const found: { callee?: string; arg: number }[] = [];
  for (let at = body.indexOf('('); at >= 0; at = body.indexOf('(', at + 1)) {
    const before = /([A-Za-z_]\w*)?\s*$/.exec(body.slice(Math.max(0, at - 80), at));
    const callee = before?.[1];
    if (callee && KEYWORDS.has(callee)) continue;
    const direct = callee !== undefined && !/(->|\.)\s*$/.test(body.slice(0, at - callee.length));
    // A parenthesis after no name is a cast or a grouping, unless a call through a pointer follows it.
    if (!callee && !/\)\s*$/.test(body.slice(0, at))) continue;
    const args = argumentsAt(body, at);
    const format = args.findIndex((a) => a.trim().startsWith('"'));
    args.forEach((a, k) => {
      if (format >= 0 && k > format) return;
      if ([...names].some((n) => new RegExp(`\\b${n}\\b`).test(a)))
        found.push(direct ? { callee, arg: k } : { arg: k });
    });
  }
  return found;
}

/** The top-level arguments of the call whose `(` is at `open`. */
function argumentsAt(body: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let k = open; k < body.length; k++) {
    const c = body[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        args.push(body.slice(start, k));
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(body.slice(start, k));
      start = k + 1;
    }
  }
  return args;
}
