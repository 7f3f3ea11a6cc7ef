// Writers handed to a function other files see, read across the tree. A helper visible to other files
// that takes the function it writes with (`put_field(out, fd, k, v)` calling `out(fd, k, strlen(k));
// out(fd, ": ", 2); ...`) is called from anywhere; where every mention of its name in the tree is a
// call handing it the same write helper (read from its body, see passedWriters.ts), each call through
// the parameter is a call of that helper, as boundWriters.ts finds for a file's `static` one. The
// helper's file tells the fact base which of its functions take such a parameter (a "taker"); every
// file naming a taker tells what it hands it; the fact base binds a parameter only when every file
// whose functions call the taker told, all alike. Read from the text alone: only a file whose function
// facts show a definition calling a parameter with three arguments can define a taker, and only a
// file whose text names a taker is searched for its calls.
import { argumentTexts, calledThrice } from './boundWriters';
import { parameterName } from './parameterName';
import type { CFunctionFact } from './functionFacts';
import type { ParameterIndex } from './parameterIndexes';

/** A taker's parameter that it calls with three arguments: the function, and the parameter's index. */
export type WriterTaker = ParameterIndex;

/**
 * What one mention of a taker hands it at a taker's parameter: the name of the function handed, or ''
 * for anything else (an expression, or a mention that is no call: its address taken).
 */
export type HandedWriter = readonly [name: string, index: number, handed: string];

/** The takers by name: their parameters' indexes. */
export type WriterTakers = ReadonlyMap<string, ReadonlySet<number>>;

/** What every call in the tree binds takers' parameters to: by name, the index and the helper's name. */
export type TreeBound = ReadonlyMap<string, ReadonlyMap<number, string>>;

/** No taker. */
export const NO_TAKERS: WriterTakers = new Map();

/** Nothing bound. */
export const NO_TREE_BOUND: TreeBound = new Map();

/** Comments, string and character literals: blanked before the braces are counted. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** `text` with comments and literals blanked, its lines and offsets kept. */
function cleaned(text: string): string {
  return text.replace(NOISE, (m) => m.replace(/[^\n]/g, ' '));
}

/**
 * The parameters of `text`'s functions that are not `static` which their bodies call with three
 * arguments (`out(fd, buf, n)`, as a write helper's), sorted by name. Only the functions whose facts
 * (`functions`, the file's) say they call a parameter so are looked for: most files define none.
 */
export function writerTakers(text: string, functions: readonly CFunctionFact[]): WriterTaker[] {
  const names = functions.filter((f) => f.exported && f.callsParameterWithThree).map((f) => f.name);
  if (names.length === 0) return [];
  const clean = cleaned(text);
  const found: WriterTaker[] = [];
  for (const name of [...new Set(names)].sort()) {
    for (const m of clean.matchAll(new RegExp(`\\b${name}\\s*\\(`, 'g'))) {
      const params = argumentTexts(clean, m.index + m[0].length);
      if (!params) continue;
      // A definition: its parameter list's `)` is followed by its body's `{`.
      const close = closingParen(clean, m.index + m[0].length);
      const open = close === undefined ? -1 : clean.slice(close + 1).search(/\S/) + close + 1;
      if (close === undefined || clean[open] !== '{') continue;
      const end = matchingBrace(clean, open);
      const inside = clean.slice(open, end);
      params.forEach((p, index) => {
        const param = /\(\s*\*\s*([A-Za-z_]\w*)\s*\)/.exec(p)?.[1] ?? parameterName(p.trim());
        if (param && calledThrice(param, inside)) found.push([name, index]);
      });
      break;
    }
  }
  return found;
}

/** The index of the `)` closing the list that opens just before `from`, or undefined. */
function closingParen(text: string, from: number): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length && i < from + 4096; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return i;
  }
  return undefined;
}

/** The index just past the `}` closing the brace at `open` (or the text's end). */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * What each mention of a taker (`takers`) in `text` hands it, in order; the takers' own definitions
 * and prototypes are no mentions (their arguments declare parameters). Empty unless the text names a
 * taker.
 */
export function handedWriters(text: string, takers: WriterTakers): HandedWriter[] {
  const named = [...takers.keys()].filter((name) => text.includes(name));
  if (named.length === 0) return [];
  const clean = cleaned(text);
  const found: HandedWriter[] = [];
  for (const name of named) {
    const indexes = [...(takers.get(name) ?? [])];
    for (const m of clean.matchAll(new RegExp(`\\b${name}\\b\\s*(\\()?`, 'g'))) {
      if (m[1] === undefined) {
        for (const i of indexes) found.push([name, i, '']);
        continue;
      }
      const args = argumentTexts(clean, m.index + m[0].length);
      if (!args) continue;
      for (const i of indexes) {
        const arg = args[i]?.trim() ?? '';
        // A declaration: the argument declares a parameter (`out_fn out`, `int (*out)(int, ...)`).
        if (/\(\s*\*|^[A-Za-z_][\w\s*]*[\s*][A-Za-z_]\w*$/.test(arg)) continue;
        const bare = arg.replace(/^&\s*/, '');
        found.push([name, i, /^[A-Za-z_]\w*$/.test(bare) ? bare : '']);
      }
    }
  }
  return found;
}

/**
 * The takers' parameters every mention in the tree binds to one name: `files` are the tree's files'
 * function facts and what each told it hands the takers ({@link handedWriters}). A taker called by a
 * file that told nothing of it (read before the taker was known), mentioned otherwise than called,
 * handed anything but a name, or two names, is left out; so is one defined twice.
 */
export function treeBound(
  files: Iterable<{
    readonly functions?: readonly CFunctionFact[];
    readonly writersHanded?: readonly HandedWriter[];
  }>,
  takers: WriterTakers,
): TreeBound {
  if (takers.size === 0) return NO_TREE_BOUND;
  const handed = new Map<string, Map<number, string | undefined>>();
  const defined = new Map<string, number>();
  const callers = new Map<string, number>();
  const telling = new Map<string, number>();
  for (const w of files) {
    const calls = new Set<string>();
    for (const f of w.functions ?? []) {
      if (takers.has(f.name) && f.exported) defined.set(f.name, (defined.get(f.name) ?? 0) + 1);
      for (const c of f.calls) if (takers.has(c)) calls.add(c);
    }
    for (const c of calls) callers.set(c, (callers.get(c) ?? 0) + 1);
    const told = new Set<string>();
    for (const [name, index, arg] of w.writersHanded ?? []) {
      told.add(name);
      const byIndex = handed.get(name) ?? new Map<number, string | undefined>();
      const before = byIndex.get(index);
      byIndex.set(index, arg === '' || (byIndex.has(index) && before !== arg) ? undefined : arg);
      handed.set(name, byIndex);
    }
    for (const name of told) if (calls.has(name)) telling.set(name, (telling.get(name) ?? 0) + 1);
  }
  const bound = new Map<string, Map<number, string>>();
  for (const [name, byIndex] of handed) {
    if (defined.get(name) !== 1 || (callers.get(name) ?? 0) !== (telling.get(name) ?? 0)) continue;
    const found = new Map<number, string>();
    for (const [index, arg] of byIndex) if (arg !== undefined) found.set(index, arg);
    if (found.size > 0) bound.set(name, found);
  }
  return bound;
}
