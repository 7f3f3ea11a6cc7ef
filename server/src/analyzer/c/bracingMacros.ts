// Macros whose expansion opens or closes a brace: a definition's head and end written by a header
// (`#define BEGIN_ACTION(name) static int name(struct conn *c, const char *msg) {` ... `#define
// END_ACTION return ret; }`), or a block's (`#define EACH_CONN(c) for (c = conns; c; c = c->next) {`).
// The grammar reads what the file shows: between two such uses it finds statements with no function
// around them, and nothing of that body was read. The compiler reads the expansions, so the analysis
// does too: each use is replaced by its expansion in a copy of the file, the copy is read as any file
// is, and its findings are mapped back onto the original text (macroExpansions.ts's regions: an
// expansion is written on its use's first line, the line breaks the use took kept after it, so every
// other line keeps its number). A fix that would edit inside an expansion is not offered: the use shows
// nothing to rewrite. What a macro is comes from its definition, in the file or in a header the file
// includes (carried by the fact base, see FileWrappers.bracing), whatever its name: no name is known
// beforehand. A name defined twice (`#ifdef` alternatives), or a use whose expansion cannot be read,
// leaves the file as written, as do uses whose braces do not pair up with the file's own. The same
// header's statement macros (`#define CODESTART_ACTION` with an empty body, or whole statements) are
// expanded too where one stands alone on its line, as such bodies use them: the grammar cannot read a
// lone word before the next statement, and the compiler sees nothing there.
import type { Finding } from '../model';
import { blankedKeepingLines, braceBalance, LITERALS_AND_COMMENTS } from './comments';
import { lineMatches } from './lineMatches';
import { mapFinding, type Region } from './macroExpansions';
import { splitArgs, TOKEN } from './macros';

/**
 * `#define name body` or `#define name(params) body` (group 2: the parameter list, written right after
 * the name as C wants it), the body running on over `\`-continued lines. Sticky: tried only at the
 * lines that say `define` (see lineMatches.ts).
 */
const DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n\\]|\\[\s\S])*)/my;

/** Macros within macros read at most this deep. */
const MAX_DEPTH = 8;

/** Longest expansion read: a definition's head, or a block's, is far shorter. */
const MAX_EXPANSION = 4000;

/** A macro definition read for its expansion. */
interface Definition {
  /** The parameters' names; undefined for an object-like macro. */
  readonly params?: readonly string[];
  /** The last parameter is `...`: `__VA_ARGS__` takes the arguments from there on. */
  readonly variadic: boolean;
  /** The body, comments taken out and continuation lines joined. */
  readonly body: string;
  /** A statement macro (see statementWord): expanded only where a use stands alone on its line. */
  readonly word?: true;
  /** A statement word defined twice over: never expanded (see addDefinitions). */
  readonly unknown?: true;
}

/** A definition as the sticky {@link DEFINE} matched it: its name, parameter list and body. */
interface Written {
  readonly name: string;
  readonly params: string | undefined;
  readonly body: string;
  /** The whole `#define`, as written. */
  readonly define: string;
}

/** The body of a definition as written: comments out, continued lines joined. */
function cleanBody(written: string): string {
  return written
    .replace(/\\\r?\n/g, ' ')
    .replace(LITERALS_AND_COMMENTS, (c) => (c.startsWith('/') ? ' ' : c))
    .trim();
}

/** The definitions of `text`, in order. */
function writtenDefines(text: string): Written[] {
  if (!text.includes('define')) return [];
  return lineMatches(text, 'define', DEFINE).map((m) => ({
    name: m[1]!,
    params: m[2],
    body: cleanBody(m[3]!),
    define: m[0].trim(),
  }));
}

/** The names a body holds (not inside a literal). */
function namesIn(body: string): string[] {
  return (body.match(TOKEN) ?? []).filter((t) => /^[A-Za-z_]/.test(t));
}

/**
 * The definitions of `text` (a header's, for its includers) whose expansion opens or closes a brace:
 * their bodies' braces do not pair up, or they name such a macro of the same text. Each as written (a
 * `#define` with its continued lines), in order. Empty for most texts.
 */
export function bracingDefines(text: string): string[] {
  if (!text.includes('define') || !/[{}]/.test(text)) return [];
  const all = writtenDefines(text);
  const bracing = new Set(all.filter((d) => braceBalance(d.body) !== 0).map((d) => d.name));
  if (bracing.size === 0) return [];
  // A macro written over one of those (`#define BEGIN_CMD(n) BEGIN_FN(n, struct cmd *c)`) opens what it does.
  for (let grew = true; grew;) {
    grew = false;
    for (const d of all)
      if (!bracing.has(d.name) && namesIn(d.body).some((n) => bracing.has(n))) {
        bracing.add(d.name);
        grew = true;
      }
  }
  // And the header's statement macros (`#define CODESTART_ACTION /* nothing */`), which a body made by
  // its bracing macros may use alone on a line, with no `;` after them: the grammar cannot read such a
  // word before the next statement, and the compiler sees only its expansion.
  return all.filter((d) => bracing.has(d.name) || statementWord(d.params, d.body)).map((d) => d.define);
}

/** An object-like macro whose body is nothing or whole statements (`x = 0;`): a use stands alone. */
function statementWord(params: string | undefined, body: string): boolean {
  return params === undefined && (body === '' || body.endsWith(';')) && braceBalance(body) === 0;
}

/** The definition `params` (as written, with its parentheses, or undefined) and `body` make; null if unreadable. */
function definitionOf(params: string | undefined, body: string): Definition | null {
  if (params === undefined)
    return { variadic: false, body, ...(statementWord(params, body) && { word: true }) };
  const names = params
    .slice(1, -1)
    .split(',')
    .map((p) => p.trim());
  if (names.length === 1 && names[0] === '') names.pop();
  const variadic = names[names.length - 1] === '...';
  const named = variadic ? names.slice(0, -1) : names;
  // A named variadic parameter (`args...`) is a GNU extension not read here.
  return named.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? { params: named, variadic, body } : null;
}

/** The definitions read from a header list (the fact base hands the same list to each includer). */
const readIncluded = new WeakMap<readonly string[], Map<string, Definition | null>>();

/** A statement word defined twice over: left as written, as a word no rule reads. */
const UNKNOWN_WORD: Definition = { variadic: false, body: '', word: true, unknown: true };

/**
 * `into` with the definitions of `written` added where `into` has no definition of that name; a name
 * `written` defines twice over, differently, is null (which one a build compiles the code does not say),
 * or for a statement word, {@link UNKNOWN_WORD}.
 */
function addDefinitions(into: Map<string, Definition | null>, written: readonly Written[]): void {
  const mine = new Map<string, string>();
  const added = new Set<string>();
  for (const d of written) {
    const key = `${d.params ?? ''}${d.body}`;
    const before = mine.get(d.name);
    if (before === undefined) {
      mine.set(d.name, key);
      if (into.has(d.name)) continue;
      into.set(d.name, definitionOf(d.params, d.body));
      added.add(d.name);
    } else if (before !== key && added.has(d.name)) {
      const was = into.get(d.name);
      into.set(d.name, was?.word && statementWord(d.params, d.body) ? UNKNOWN_WORD : null);
    }
  }
}

/** The definitions of the headers' bracing macros (see {@link bracingDefines}), read once per list. */
function includedDefinitions(included: readonly string[]): Map<string, Definition | null> {
  let found = readIncluded.get(included);
  if (!found) {
    found = new Map();
    addDefinitions(
      found,
      included.flatMap((d) => writtenDefines(d)),
    );
    readIncluded.set(included, found);
  }
  return found;
}

/** `text` with comments, literals and preprocessor directives blanked: the same offsets and lines. */
function codeOnly(text: string): string {
  const bare = text.replace(LITERALS_AND_COMMENTS, (c) => blankedKeepingLines(c));
  return bare.replace(/^[ \t]*#(?:[^\n\\]|\\[\s\S])*/gm, (d) => blankedKeepingLines(d));
}

/** Reads expansions of the bracing macros of one file. */
class Expander {
  constructor(private readonly definitions: ReadonlyMap<string, Definition | null>) {}

  /**
   * What a use of `name` with `args` (undefined for an object-like use) expands to, the bracing macros
   * in it expanded in turn (not those of `outer`); undefined when it cannot be read.
   */
  expand(name: string, args: readonly string[] | undefined, outer: ReadonlySet<string>): string | undefined {
    const d = this.definitions.get(name);
    if (!d || outer.size >= MAX_DEPTH || (d.params === undefined) !== (args === undefined)) return undefined;
    const substituted = substitute(d, args ?? []);
    return substituted === undefined ? undefined : this.rescan(substituted, new Set(outer).add(name));
  }

  /** `text` with each use of a bracing macro expanded (undefined when one cannot be). */
  rescan(text: string, outer: ReadonlySet<string>): string | undefined {
    const tokens = text.match(TOKEN) ?? [];
    let out = '';
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (outer.has(token) || !this.definitions.has(token) || this.definitions.get(token)?.unknown) {
        out += token;
        continue;
      }
      const d = this.definitions.get(token);
      let args: string[] | undefined;
      let next = i;
      if (d?.params !== undefined) {
        let open = i + 1;
        while (open < tokens.length && /^\s$/.test(tokens[open]!)) open++;
        // A function-like macro's name without its arguments is no use of it.
        if (tokens[open] !== '(') {
          out += token;
          continue;
        }
        let depth = 0;
        let close = open;
        for (; close < tokens.length; close++) {
          if (tokens[close] === '(') depth++;
          else if (tokens[close] === ')' && --depth === 0) break;
        }
        args = close < tokens.length ? splitArgs(tokens.slice(open + 1, close).join('')) : undefined;
        if (!args) return undefined;
        next = close;
      }
      const expanded = this.expand(token, args, outer);
      if (expanded === undefined) return undefined;
      out += expanded;
      i = next;
    }
    return out.length > MAX_EXPANSION ? undefined : out;
  }
}

/**
 * `d`'s body with `args` in place of its parameters, `#x` made a string and `a ## b` pasted, as the
 * preprocessor does; undefined when the count of arguments does not fit.
 */
function substitute(d: Definition, args: readonly string[]): string | undefined {
  const params = d.params ?? [];
  // `F()` gives one empty argument, which a macro of no parameters takes as none.
  const given = params.length === 0 && args.length === 1 && args[0]!.trim() === '' ? [] : args;
  if (d.params && (d.variadic ? given.length < params.length : given.length !== params.length))
    return undefined;
  const rest = given.slice(params.length).join(', ');
  const value = (token: string): string | undefined => {
    if (token === '__VA_ARGS__' && d.variadic) return rest;
    const k = params.indexOf(token);
    return k < 0 ? undefined : given[k]!.trim();
  };
  const tokens = d.body.match(TOKEN) ?? [];
  const blank = (k: number) => k < tokens.length && /^\s$/.test(tokens[k]!);
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '#') {
      let j = i + 1;
      while (blank(j)) j++;
      if (tokens[j] === '#') {
        // `a ## b`: the two sides joined, the blanks around the operator dropped.
        out = out.replace(/\s+$/, '');
        i = j;
        while (blank(i + 1)) i++;
        continue;
      }
      const stringized = d.params && j < tokens.length ? value(tokens[j]!) : undefined;
      if (stringized !== undefined) {
        out += `"${stringized.replace(/["\\]/g, '\\$&')}"`;
        i = j;
        continue;
      }
    }
    out += value(token) ?? token;
  }
  return out;
}

/** One use of a bracing macro in a file: its span, its expansion and the braces that opens less closes. */
interface Use {
  readonly start: number;
  readonly end: number;
  readonly name: string;
  readonly expansion: string;
  readonly balance: number;
}

/** The file read with its bracing macros expanded (see the file comment). */
export interface BracedCopy {
  /** The copy: each use replaced by its expansion, on the use's first line. */
  readonly text: string;
  /** The names of the macros expanded, each once. */
  readonly macros: readonly string[];
  /** A finding read in the copy, at its place in the original text (see mapFinding). */
  mapFinding(f: Finding): Finding;
}

/**
 * `text` (a C file) with the uses of its own bracing macros and of those `included` (its headers'
 * {@link bracingDefines}) expanded; undefined when there is none, or their braces do not pair up with
 * the file's (see the file comment). Does not modify `included`.
 */
export function expandBracingMacros(text: string, included: readonly string[]): BracedCopy | undefined {
  const own = bracingDefines(text);
  if (own.length === 0 && included.length === 0) return undefined;
  const definitions = new Map<string, Definition | null>();
  addDefinitions(definitions, writtenDefines(own.join('\n')));
  for (const [name, d] of includedDefinitions(included)) if (!definitions.has(name)) definitions.set(name, d);
  if (definitions.size === 0) return undefined;
  const names = new RegExp(`\\b(?:${[...definitions.keys()].join('|')})\\b`, 'g');
  // Most includers of a header use none of its bracing macros: a search of the raw text first.
  names.lastIndex = 0;
  if (!names.test(text)) return undefined;
  const code = codeOnly(text);
  const expander = new Expander(definitions);
  const uses: Use[] = [];
  names.lastIndex = 0;
  for (let m = names.exec(code); m; m = names.exec(code)) {
    const name = m[0];
    const d = definitions.get(name);
    // A name defined twice over: which definition the build reads the file does not say.
    if (!d) return undefined;
    let end = m.index + name.length;
    if (d.unknown || (d.word && !aloneOnLine(code, m.index, end))) continue;
    let args: string[] | undefined;
    if (d.params !== undefined) {
      const open = /^\s*\(/.exec(code.slice(end, end + 200));
      // A function-like macro's name without its arguments is no use of it.
      if (!open) continue;
      const close = closingParen(code, end + open[0].length - 1);
      if (close === undefined) return undefined;
      args = splitArgs(text.slice(end + open[0].length, close));
      if (!args) return undefined;
      end = close + 1;
      names.lastIndex = end;
    }
    const expansion = expander.expand(name, args, new Set());
    if (expansion === undefined) return undefined;
    uses.push({ start: m.index, end, name, expansion, balance: braceBalance(expansion) });
  }
  if (!uses.some((u) => u.balance !== 0)) return undefined;
  // The uses open what they close, or what the file's own braces leave open or closed.
  const opened = uses.reduce((sum, u) => sum + u.balance, 0);
  if (opened !== 0 && opened + braceBalance(code) !== 0) return undefined;
  const regions: Region[] = [];
  let copy = '';
  let copied = 0;
  for (const use of uses) {
    const breaks = (text.slice(use.start, use.end).match(/\n/g) ?? []).join('');
    copy += text.slice(copied, use.start);
    const start = copy.length;
    copy += use.expansion.replace(/\s*\n\s*/g, ' ');
    regions.push({
      from: { start: use.start, end: use.end },
      to: { start, end: copy.length },
      name: use.name,
      breaks: breaks.length,
    });
    copy += breaks;
    copied = use.end;
  }
  copy += text.slice(copied);
  return {
    text: copy,
    macros: [...new Set(uses.map((u) => u.name))],
    mapFinding: (f) => {
      const mapped = mapFinding(f, regions);
      if (!f.fix || mapped.fix) return mapped;
      // The fix was dropped for an edit inside an expansion: the message says so, as for any run
      // without one.
      const edited = regions.find((r) =>
        f.fix!.edits.some((e) => e.span.start < r.to.end && e.span.end > r.to.start),
      );
      const why = `a write is in the expansion of the macro ${edited?.name ?? ''}, which a fix at its use cannot rewrite`;
      return { ...mapped, message: `${mapped.message} (no automatic fix: ${why})` };
    },
  };
}

/** The offset of the `)` closing the `(` at `open` in `code` (blanked: see codeOnly), or undefined. */
function closingParen(code: string, open: number): number | undefined {
  let depth = 0;
  const last = Math.min(code.length, open + MAX_EXPANSION);
  for (let i = open; i < last; i++) {
    const c = code[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return undefined;
}

/** Whether `code[start..end)` is all its line holds but blanks. */
function aloneOnLine(code: string, start: number, end: number): boolean {
  const from = code.lastIndexOf('\n', start - 1) + 1;
  const to = code.indexOf('\n', end);
  return code.slice(from, start).trim() === '' && code.slice(end, to < 0 ? code.length : to).trim() === '';
}
