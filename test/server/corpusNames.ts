// The names the corpus projects give their own functions, macros, types and globals, the names the
// system headers give, and where a name appears in the analyzer's string and regular-expression
// literals: what analyzerNames.test.ts compares.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Every file under `dir` whose name ends with one of `endings`, sorted. */
export function filesUnder(dir: string, endings: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && endings.some((e) => entry.name.endsWith(e))) {
      found.push(join(entry.parentPath, entry.name));
    }
  }
  return found.sort();
}

/** A name the corpus uses: the projects that use it, and the first place (`project/path:line`). */
export interface NameSource {
  readonly projects: Set<string>;
  readonly where: string;
}

/** C keywords and preprocessor operators: a `(` after them is no call. */
const KEYWORDS = new Set([
  'if',
  'while',
  'for',
  'switch',
  'return',
  'sizeof',
  'defined',
  'do',
  'else',
  'case',
  'goto',
  '_Alignof',
  'alignof',
  '__typeof__',
  'typeof',
  '__attribute__',
  '__asm__',
  'asm',
  '_Generic',
  '__has_include',
  '_Static_assert',
  'static_assert',
  '__builtin_offsetof',
  '__extension__',
  // Directives: `#endif (x)` is no call of `endif`.
  'endif',
  'elif',
  'ifdef',
  'ifndef',
  'include',
  'pragma',
  'undef',
]);

/** `text` with comments and string and character literals blanked (lines kept). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) =>
    m.replace(/[^\n]/g, ' '),
  );
}

/**
 * What a C file names at file scope, read with regular expressions (fast, and enough for names): every
 * identifier followed by `(` that is no keyword (functions defined, declared or called, function-like
 * macros: how a project's helpers from its own headers show up even when the header is not in the
 * corpus), macros defined, struct, union and enum tags, typedef names, and globals (declarations that
 * start a line at column 0, where C code puts them and no local). Locals and parameters are the
 * generic C vocabulary (`fd`, `buf`, `len`) and are left out.
 */
const NAME_PATTERNS: readonly RegExp[] = [
  /\b([A-Za-z_]\w*)\s*\(/g,
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)/gm,
  /\b(?:struct|union|enum)\s+([A-Za-z_]\w*)/g,
  /\btypedef\b[^;{}]*(?:\{[^{}]*\}[^;{}]*)?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?;/g,
  /^(?:(?:static|extern|const|volatile|unsigned|signed|struct|union|enum)\s+)*[A-Za-z_]\w*[\s*]+([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*[=;]/gm,
];

/** The 1-based line of each offset of `text`, by binary search over the line starts. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The project a corpus-relative path belongs to (its first folder). */
function projectOf(where: string): string {
  return where.split(/[\\/]/)[0] ?? where;
}

/** Adds `name` seen in `project` at `where` to `names`. */
function note(names: Map<string, NameSource>, name: string, project: string, where: () => string): void {
  const known = names.get(name);
  if (known) known.projects.add(project);
  else names.set(name, { projects: new Set([project]), where: where() });
}

/** The names the corpus files under `corpus` give at file scope (see {@link NAME_PATTERNS}). */
export function corpusNames(corpus: string): Map<string, NameSource> {
  const names = new Map<string, NameSource>();
  for (const file of filesUnder(corpus, ['.c', '.h'])) {
    const text = code(readFileSync(file, 'utf8'));
    const where = relative(corpus, file);
    const line = lineFinder(text);
    for (const pattern of NAME_PATTERNS) {
      for (const m of text.matchAll(pattern)) {
        const name = m[1];
        if (name === undefined || KEYWORDS.has(name)) continue;
        note(names, name, projectOf(where), () => `${where}:${line(m.index + m[0].lastIndexOf(name))}`);
      }
    }
  }
  return names;
}

/**
 * The absolute paths the corpus files spell in string literals (`"/var/run/foo.pid"`), those of two
 * components or more, each with the projects that spell it.
 */
export function corpusPaths(corpus: string): Map<string, NameSource> {
  const paths = new Map<string, NameSource>();
  for (const file of filesUnder(corpus, ['.c', '.h'])) {
    const text = readFileSync(file, 'utf8');
    const where = relative(corpus, file);
    const line = lineFinder(text);
    for (const m of text.matchAll(/"(\/[\w.+-]+(?:\/[\w.+-]+)+)\/?"/g)) {
      if (m[1] !== undefined) note(paths, m[1], projectOf(where), () => `${where}:${line(m.index)}`);
    }
  }
  return paths;
}

/**
 * The system headers the corpus includes (`#include <...>`) that this machine's compiler finds, read
 * through the preprocessor: every word of the expanded declarations and every macro name. These are
 * the C library's, POSIX's, Linux's and other installed libraries' names, not the projects' own.
 * Undefined when no `cc` can be run.
 */
export function systemNames(corpus: string): Set<string> | undefined {
  const headers = new Set<string>();
  for (const file of filesUnder(corpus, ['.c', '.h'])) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*#\s*include\s*<([\w./+-]+)>/gm)) {
      if (m[1] !== undefined) headers.add(m[1]);
    }
  }
  const source = [...headers]
    .sort()
    .map((h) => `#if __has_include(<${h}>)\n#include <${h}>\n#endif\n`)
    .join('');
  let expanded: string;
  try {
    // -dD keeps the #define lines in the output; an #error in one header (one that must not be included
    // directly) stops nothing else, so the output is read whatever the exit status.
    expanded = execFileSync('cc', ['-E', '-dD', '-D_GNU_SOURCE', '-x', 'c', '-'], {
      input: source,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch (error) {
    const out = (error as { stdout?: unknown }).stdout;
    if (typeof out !== 'string' || out.length === 0) return undefined;
    expanded = out;
  }
  const names = new Set<string>();
  for (const m of expanded.matchAll(/[A-Za-z_]\w*/g)) names.add(m[0]);
  return names;
}

/** A name found in the analyzer's source: the file (relative) and 1-based line. */
export interface AnalyzerHit {
  readonly name: string;
  readonly file: string;
  readonly line: number;
}

/** The alternatives of a regular expression's source at its top level (`a|b(c|d)` is `a`, `b(c|d)`). */
function topLevelAlternatives(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

/**
 * The words of a regular expression's source with each simple group's alternatives spelled out, so
 * that `POKE_U(16|32)` yields `POKE_U16` and `POKE_U32`. Groups are expanded innermost first; past
 * `limit` spellings the rest stay as written (their words are still read).
 */
export function regexWords(source: string, limit = 4096): Set<string> {
  let spellings = topLevelAlternatives(source);
  for (let round = 0; round < 32; round++) {
    const next: string[] = [];
    let changed = false;
    for (const s of spellings) {
      // An innermost group: no parenthesis inside; an optional quantifier after it.
      const m = /\(([^()]*)\)([?*]?)/.exec(s);
      if (!m || next.length > limit) {
        next.push(s);
        continue;
      }
      changed = true;
      const body = (m[1] ?? '').replace(/^\?[:=!]/, '');
      const alternatives = body.split('|');
      if (m[2]) alternatives.push('');
      for (const alt of alternatives) next.push(s.slice(0, m.index) + alt + s.slice(m.index + m[0].length));
    }
    spellings = next;
    if (!changed) break;
  }
  const words = new Set<string>();
  for (const s of spellings)
    for (const w of s.replace(/\\[a-zA-Z]/g, ' ').matchAll(/[A-Za-z_]\w*/g)) words.add(w[0]);
  return words;
}

/**
 * Each place in the TypeScript files under `dir` where one of `names` is a string literal or template
 * text without whitespace (a key, a callee, a path), or a whole word of one, or a word of a regular
 * expression (its groups spelled out): the analyzer looks C names up only through such data. Its own
 * identifiers (`includes`, `first`), messages (prose) and comments (an example named in documentation)
 * are not read.
 */
export function analyzerHits(
  dir: string,
  names: ReadonlySet<string>,
  skip: (file: string) => boolean,
): AnalyzerHit[] {
  const hits: AnalyzerHit[] = [];
  for (const file of filesUnder(dir, ['.ts'])) {
    const rel = relative(dir, file);
    if (skip(rel)) continue;
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      let words: Iterable<string> = [];
      // A module specifier names one of the analyzer's own files.
      const specifier =
        node.parent && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent));
      if (
        ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)
      ) {
        // Code, not prose: a message's words ("the call to") are English, a key ('fileno(stdout)') is a name.
        if (!/\s/.test(node.text) && !specifier)
          words = [node.text, ...(node.text.match(/[A-Za-z_]\w*/g) ?? [])];
      } else if (ts.isRegularExpressionLiteral(node)) {
        words = regexWords(node.text.slice(1, node.text.lastIndexOf('/')));
      }
      for (const word of new Set(words)) {
        if (names.has(word)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          hits.push({ name: word, file: rel, line });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return hits;
}
