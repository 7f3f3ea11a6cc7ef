// Loads the C grammar (web-tree-sitter + the tree-sitter-c wasm, no native build) and keeps one syntax
// tree per open document, reparsed incrementally on each change.
// A require, not an import: bundlers then pick the package's CommonJS build, which finds its files
// from __filename (its ES module build needs import.meta.url, which a CommonJS bundle does not have).
import TreeSitter = require('web-tree-sitter');
import type { Edit, Language, Node, Range, Tree } from 'web-tree-sitter';
import { cGrammar } from './grammar';
import { continuesDirective } from './continuedDirectives';
import { conditionalHeaders, splitDefinitions } from './splitHeaders';
import { functionDefinitions, HOLDS_FUNCTIONS } from './syntax';
import { blankedKeepingLines } from './comments';
import { blankPairedConditionals } from './pairedConditionals';
import { blankAlternativeOpeners } from './alternativeOpeners';
import { blankAlternativeHeads } from './alternativeHeads';
import { blankNestedPairedConditionals } from './nestedPairedConditionals';
import { joinJumpArguments } from './jumpArguments';
import { rememberNodeTypes } from './nodeTypes';
import { rememberDescendants } from './descendantMemo';
import { blankWrappedHeadMacros } from './wrappedHeadMacros';
import { renameShadowingMacros } from './shadowingMacros';
import { blankOutsideConditions } from './conditionWords';
import { blankOldStylePointers } from './oldStylePointers';
import { blankAttributeGroups } from './attributeGroups';
import { blankHeadWords } from './headWords';
import { blankHeadConditionals } from './headConditionals';
import { blankInnerConditionals } from './innerConditionals';
import { lineByLine } from './textChanges';

const { Parser } = TreeSitter;

rememberNodeTypes();
rememberDescendants();

let loading: Promise<Language> | undefined;

/** Loads the C grammar once per thread (from {@link cGrammar}); later calls share the same promise. */
export function loadCLanguage(): Promise<Language> {
  loading ??= (async () => {
    const { runtime, language } = cGrammar();
    await Parser.init({
      // web-tree-sitter instantiates its runtime through this hook when given (Emscripten's).
      instantiateWasm: (
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) => {
        done(new WebAssembly.Instance(runtime, imports), runtime);
        return {};
      },
    });
    return TreeSitter.Language.loadSync(language);
  })();
  return loading;
}

/**
 * Blanks attribute-like macros (`NORETURN`, `MAYBE_UNUSED`...) that the grammar cannot know, replacing
 * each with spaces of the same length so every offset stays valid for the original text. The tests of
 * conditional directives keep them (`#if UNUSED` tests a macro; see conditionWords.ts).
 */
export function blankMacros(text: string, pattern: RegExp | undefined): string {
  const blanked = pattern ? blankOutsideConditions(text, pattern) : text;
  const heads = blankWrappedHeadMacros(
    blankHeadWords(
      blankDefinitionMacros(
        blankDeclarationMacros(renameShadowingMacros(joinJumpArguments(blankAttributeGroups(blanked)))),
      ),
    ),
    NOT_ATTRIBUTES,
  );
  return blankOldStylePointers(
    blankAlternativeHeads(
      blankAlternativeOpeners(
        blankNestedPairedConditionals(
          blankPairedConditionals(
            blankInnerConditionals(blankUnfinishedConditionals(blankHeadConditionals(heads))),
          ),
        ),
      ),
    ),
  );
}

/** Words that may stand first in a declaration, before its type: C's own, never a macro to blank. */
const DECLARATION_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'auto register static extern const volatile restrict inline typedef signed unsigned short long ' +
    'int char float double void _Bool _Complex ' +
    'struct union enum return else case goto sizeof _Thread_local __thread __extension__ __restrict ' +
    '__inline __inline__ __volatile__ __const _Atomic _Noreturn'
  ).split(' '),
);

/**
 * A word before a declaration's type and name (`__do_close int fd = -EBADF;`, `_cleanup_free_ char
 * *p;`, `g_autofree gchar *s;`): three words in a row cannot start a C declaration unless the first
 * is a macro (a cleanup attribute, mostly) from a header the analyzer does not read. Group 1: what
 * comes before the word on its line; group 2: the word.
 */
const DECLARATION_MACRO =
  /^([ \t]*)([A-Za-z_]\w*)(?=[ \t]+(?:(?:const|volatile|unsigned|signed|struct|union|enum)[ \t]+)*[A-Za-z_]\w*[ \t*]+[A-Za-z_]\w*[ \t]*(?:=|;|,|\[))/gm;

/**
 * `text` with each word {@link DECLARATION_MACRO} finds blanked (spaces of the same length), so the
 * grammar reads the declaration behind it; the words C itself puts there stay.
 */
function blankDeclarationMacrosOf(text: string): string {
  if (!/[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t*]+[A-Za-z_]\w*[ \t]*[=;,[]/.test(text)) return text;
  return text.replace(DECLARATION_MACRO, (match, lead: string, word: string) =>
    DECLARATION_KEYWORDS.has(word) ? match : lead + ' '.repeat(word.length),
  );
}

/**
 * {@link blankDeclarationMacrosOf}, line by line: neither {@link DECLARATION_MACRO} nor its first test
 * reads past a line's end, so only the lines an edit changed are searched again (see lineByLine).
 */
const blankDeclarationMacros = lineByLine(blankDeclarationMacrosOf);

/** Words that end a statement's start or name a construct: never an attribute macro before a name. */
const NOT_ATTRIBUTES: ReadonlySet<string> = new Set(
  (
    'if while for switch return sizeof do else case goto void typeof __typeof__ _Alignof alignof ' +
    '_Alignas alignas _Generic _Static_assert static_assert defined asm __asm__ __asm __attribute__ ' +
    '__attribute __declspec'
  ).split(' '),
);

/**
 * A macro call between a definition's type and its name (`static int ATTR_NONNULL(1) f(int *p)`, `static
 * ElfW(Addr) f(...)`): the grammar cannot read a word and a parenthesis there, and loses the whole
 * function. Searched from its end, a `)` followed by a blank or a `*`, the function's name and its `(`
 * (group 1: the name); the line up to that `)` must then be {@link DEFINITION_HEAD}.
 */
const AFTER_MACRO = /\)[ \t*]+\**[ \t]*([A-Za-z_]\w*)[ \t]*\(/g;

/**
 * A line's start up to such a `)`: type words (group 1), the macro's name (group 2) and its arguments
 * (group 3), each one token (`1, 2`, `Addr`, nothing), as an attribute's or a type macro's are and a
 * parameter list (`int fd`) is not.
 */
const DEFINITION_HEAD =
  /^([ \t]*(?:[A-Za-z_]\w*[ \t*]+)+?)([A-Za-z_]\w*)([ \t]*\([ \t]*(?:\w+[ \t]*(?:,[ \t]*\w+[ \t]*)*)?\))$/;

/**
 * `text` with each macro call {@link AFTER_MACRO} and {@link DEFINITION_HEAD} find blanked (spaces of
 * the same length), so the grammar reads the definition behind it; a construct of C's own there (`if
 * (x) f(`, `int f(void) LOCKED(m)`) is left as it is.
 */
function blankDefinitionMacros(text: string): string {
  let out: string[] | undefined;
  let copied = 0;
  for (const m of text.matchAll(AFTER_MACRO)) {
    const close = m.index + 1;
    const head = DEFINITION_HEAD.exec(text.slice(text.lastIndexOf('\n', m.index) + 1, close));
    if (!head) continue;
    const [, before, name, args] = head as unknown as [string, string, string, string];
    const words = before.match(/[A-Za-z_]\w*/g) ?? [];
    if (
      NOT_ATTRIBUTES.has(name) ||
      NOT_ATTRIBUTES.has(m[1]!) ||
      /^[ \t]*\([ \t]*void[ \t]*\)$/.test(args) ||
      words.some((w) => NOT_ATTRIBUTES.has(w) && w !== 'void')
    )
      continue;
    const start = close - name.length - args.length;
    (out ??= []).push(text.slice(copied, start), ' '.repeat(close - start));
    copied = close;
  }
  return out ? out.join('') + text.slice(copied) : text;
}

/**
 * A line ending in `=` right before an `#endif`: a conditional group that holds only the start of a
 * statement (`#ifdef DEBUG` / `int n =` / `#endif` / `write(fd, buf, len);`), which the grammar cannot
 * close, and then reads the statement after it into the broken one.
 */
const UNFINISHED_END = /=[ \t]*\r?\n[ \t]*#[ \t]*endif\b/g;

/**
 * `text` with each conditional group {@link UNFINISHED_END} finds blanked, directives included (spaces,
 * the line ends kept): the statement after it reads as it does when the group's condition is false.
 * Only a group of its own (`#if`, `#ifdef` or `#ifndef` to `#endif`, no `#else`, `#elif` or other
 * directive inside) is blanked.
 */
function blankUnfinishedConditionals(text: string): string {
  let out: string[] | undefined;
  let copied = 0;
  for (const m of text.matchAll(UNFINISHED_END)) {
    const endifStart = text.lastIndexOf('\n', m.index + m[0].length - 1) + 1;
    const endifEnd = text.indexOf('\n', endifStart);
    // The lines before the #endif, back to the first directive: the group's opening, or not ours.
    let line = endifStart;
    let opening: number | undefined;
    while (line > copied) {
      line = text.lastIndexOf('\n', line - 2) + 1;
      const directive = /^[ \t]*#[ \t]*(\w+)/.exec(text.slice(line, text.indexOf('\n', line)));
      if (!directive) continue;
      if (/^if(?:n?def)?$/.test(directive[1]!)) opening = line;
      break;
    }
    if (opening === undefined) continue;
    const end = endifEnd === -1 ? text.length : endifEnd;
    (out ??= []).push(text.slice(copied, opening), blankedKeepingLines(text.slice(opening, end)));
    copied = end;
  }
  return out ? out.join('') + text.slice(copied) : text;
}

/** The regular expression that finds the given macro names as whole words (undefined for none). */
export function macroPattern(names: readonly string[]): RegExp | undefined {
  const safe = names.filter((name) => /^[A-Za-z_]\w*$/.test(name));
  return safe.length > 0 ? new RegExp(`\\b(?:${safe.join('|')})\\b`, 'g') : undefined;
}

interface Parsed {
  text: string;
  tree: Tree;
}

/**
 * Parses C documents, keeping the last tree of each keyed document so the next version of it parses
 * incrementally. The edit between versions is found by comparing texts (common prefix and suffix,
 * widened to whole lines so that blanked macros never straddle its edges); callers need not track
 * the editor's change events.
 */
export class CParser {
  private readonly parser: InstanceType<typeof Parser>;
  private readonly trees = new Map<string, Parsed>();

  /** `language` comes from {@link loadCLanguage}. */
  constructor(language: Language) {
    this.parser = new Parser();
    this.parser.setLanguage(language);
  }

  /**
   * Parses `text` (already blanked). With a `key`, reuses and then replaces that key's previous tree;
   * the returned tree stays owned by this parser. Without one, the caller owns the tree and must
   * `delete()` it.
   */
  parse(text: string, key?: string): Tree {
    const previous = key === undefined ? undefined : this.trees.get(key);
    let old: Tree | undefined;
    if (previous) {
      if (previous.text === text) return previous.tree;
      old = previous.tree;
      old.edit(lineEdit(previous.text, text));
    }
    const tree = this.parser.parse(text, old ?? null);
    if (!tree) throw new Error(`C parser returned no tree for ${key ?? 'a document'} (${text.length} chars)`);
    old?.delete();
    if (key !== undefined) this.trees.set(key, { text, tree });
    return tree;
  }

  /**
   * Parses only `ranges` of `text` (already blanked; `[start, end)` offsets, sorted, not overlapping),
   * as one input: the nodes keep their offsets in the whole text. The caller owns the tree and must
   * `delete()` it.
   */
  parseRanges(text: string, ranges: readonly (readonly [number, number])[]): Tree {
    const lines = new LineStarts(text);
    const included: Range[] = ranges.map(([from, to]) => ({
      startIndex: from,
      endIndex: to,
      startPosition: lines.pointAt(from),
      endPosition: lines.pointAt(to),
    }));
    const last = ranges[ranges.length - 1]?.[1] ?? 0;
    // Each read gets the rest of the range it falls in (given the whole text, the parser copies it
    // all); node.text reads through this too, anywhere, hence the binary search.
    const tree = this.parser.parse(
      (index) => {
        if (index >= last) return '';
        let low = 0;
        let high = ranges.length - 1;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (ranges[mid]![1] > index) high = mid;
          else low = mid + 1;
        }
        return text.slice(index, ranges[low]![1]); // low < ranges.length: `last` is past index
      },
      null,
      { includedRanges: included },
    );
    if (!tree) throw new Error(`C parser returned no tree for ${ranges.length} parts (${text.length} chars)`);
    return tree;
  }

  /**
   * The function definitions of `tree` (parsed from `text`), with those a syntax error swallowed
   * recovered. tree-sitter recovers from a junk line such as `xx write_in_full(fd, a, 3);` with an
   * ERROR node (or a statement) that can run on through the following functions, whose tokens then
   * hang in it loose or as top-level statements of no function: every function after the junk would
   * be lost. So each item with an error that runs past a line starting with `}` (the end of a
   * top-level definition in nearly every C style), up to the end of such a line after it, is cut
   * after such lines: the definition holding the error is parsed on its own, and the rest in halves,
   * each again cut where an error still swallows, so the error stays in its own function. The
   * functions between such items come from the first parse: once an error ends, tree-sitter is back
   * at the top level (parsing again from the first error to the end of the file, as this once did,
   * found the same functions on real trees at a higher cost). This costs about one parse of the
   * ranges (tree-sitter's error recovery makes the parse that swallowed much slower than a clean
   * one; parsing each definition alone would pay a fixed cost per parse for every function).
   * A local error (an unknown macro inside one function) costs nothing more. Call `release` when
   * done with the nodes.
   */
  functions(tree: Tree, text: string): { functions: Node[]; release(): void } {
    const trees: Tree[] = [];
    const found = this.definitions(tree.rootNode, text, trees);
    const releaseAll = () => {
      for (const t of trees) t.delete();
    };
    const ranges = tree.rootNode.hasError ? swallowedRanges(tree.rootNode, text, found) : [];
    if (ranges.length === 0) {
      const all = tree.rootNode.hasError ? this.conditionalDefinitions(found, text, trees) : found;
      return { functions: all, release: releaseAll };
    }
    const functions = found.filter(
      (fn) => !ranges.some(([from, to]) => fn.startIndex < to && fn.endIndex > from),
    );
    const lines = new LineStarts(text);
    const parseRange = (from: number, to: number): Tree | undefined => {
      const range: Range = {
        startIndex: from,
        endIndex: to,
        startPosition: lines.pointAt(from),
        endPosition: lines.pointAt(to),
      };
      // The input ends with the range: given the whole text, the parser copies on past it.
      const part = this.parser.parse((index) => (index < to ? text.slice(index, to) : ''), null, {
        includedRanges: [range],
      });
      return part ?? undefined;
    };
    for (const [from, to] of ranges) {
      const cuts = cutPoints(text, from, to);
      const accept = (part: Tree, before: number) => {
        trees.push(part);
        functions.push(...this.definitions(part.rootNode, text, trees).filter((fn) => fn.endIndex <= before));
      };
      // Parts [cuts[i], cuts[j]) parsed as one; where an error still swallows, cut there.
      // Callers pass 0 <= i, j < cuts.length, so the `cuts[...]!` reads below are in bounds.
      const solve = (i: number, j: number): void => {
        if (i >= j || text.slice(cuts[i], cuts[j]).trim() === '') return;
        const part = parseRange(cuts[i]!, cuts[j]!);
        if (!part) return;
        const swallowing = j - i === 1 ? -1 : firstSwallowing(part.rootNode, text);
        if (swallowing === -1) return accept(part, Infinity);
        let k = i;
        while (cuts[k + 1]! <= swallowing) k++;
        if (k > i) accept(part, cuts[k]!);
        else part.delete();
        broken(k, j);
      };
      // Part k holds the start of a swallowing error: it alone, then the rest in halves (so that
      // many broken functions cost a few parses of the range, not one each).
      const broken = (k: number, j: number): void => {
        solve(k, k + 1);
        const mid = (k + 1 + j) >>> 1;
        solve(k + 1, mid);
        solve(mid, j);
      };
      broken(0, cuts.length - 1);
    }
    functions.sort((a, b) => a.startIndex - b.startIndex);
    return { functions: this.conditionalDefinitions(functions, text, trees), release: releaseAll };
  }

  /**
   * `found` with the definitions whose declarator is an `#if` choice (see conditionalHeaders) that no
   * function of `found` holds: each parsed from the type before the conditional, the first group that
   * reads as a declarator, and the body up to its closing line; the trees parsed are added to `trees`.
   */
  private conditionalDefinitions(found: Node[], text: string, trees: Tree[]): Node[] {
    const more: Node[] = [];
    for (const header of conditionalHeaders(text)) {
      if (found.some((fn) => fn.startIndex <= header.body && header.body < fn.endIndex)) continue;
      const close = closingLineEnd(text, header.body, text.length + 1);
      const end = close === -1 ? text.length : close;
      for (const group of header.groups) {
        const parts = [...(header.prefix ? [header.prefix] : []), group, [header.body, end] as const];
        const part = this.parseRanges(text, parts);
        const fn = functionDefinitions(part.rootNode).find(
          (f) => f.childForFieldName('body')?.startIndex === header.body,
        );
        if (fn && !fn.childForFieldName('declarator')?.hasError) {
          trees.push(part);
          more.push(fn);
          break;
        }
        part.delete();
      }
    }
    if (more.length === 0) return found;
    return [...found, ...more].sort((a, b) => a.startIndex - b.startIndex);
  }

  /**
   * The function definitions under `root` (a tree of `text`), with those whose header is written once
   * per configuration (splitHeaders.ts) parsed from the first header and the body; the trees parsed
   * for them are added to `trees`, for the caller to delete.
   */
  private definitions(root: Node, text: string, trees: Tree[]): Node[] {
    const found = functionDefinitions(root);
    if (!root.hasError) return found;
    for (const parts of splitDefinitions(root)) {
      const part = this.parseRanges(text, parts);
      const [start, end] = [parts[0][0], parts[1][1]];
      const fn = functionDefinitions(part.rootNode).find((f) => f.startIndex === start && f.endIndex === end);
      if (!fn) {
        part.delete();
        continue;
      }
      trees.push(part);
      found.push(fn);
    }
    return found.sort((a, b) => a.startIndex - b.startIndex);
  }

  /** Drops the tree kept for `key` (a closed document). */
  forget(key: string): void {
    this.trees.get(key)?.tree.delete();
    this.trees.delete(key);
  }
}

/** The single edit that turns `before` into `after`, widened to whole lines. */
export function lineEdit(before: string, after: string): Edit {
  const max = Math.min(before.length, after.length);
  // Compare in chunks first (native string equality), then character by character.
  const CHUNK = 512;
  let start = 0;
  while (start + CHUNK <= max && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK))
    start += CHUNK;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  const room = max - start;
  while (
    tail + CHUNK <= room &&
    before.slice(before.length - tail - CHUNK, before.length - tail) ===
      after.slice(after.length - tail - CHUNK, after.length - tail)
  ) {
    tail += CHUNK;
  }
  while (
    tail < room &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  start = before.lastIndexOf('\n', start - 1) + 1;
  let oldEnd = before.length - tail;
  let newEnd = after.length - tail;
  const lineEnd = before.indexOf('\n', oldEnd);
  const grow = lineEnd === -1 ? before.length - oldEnd : lineEnd - oldEnd;
  oldEnd += grow;
  newEnd += grow;
  // Rows and columns by counting newlines in the prefix and in the two changed middles only.
  const point = (text: string, from: number, row: number, to: number) => {
    let r = row;
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) r++;
    return { row: r, column: to - (text.lastIndexOf('\n', to - 1) + 1) };
  };
  const startPoint = point(before, 0, 0, start);
  const oldEndPoint = point(before, start, startPoint.row, oldEnd);
  const newEndPoint = point(after, start, startPoint.row, newEnd);
  return new TreeSitter.Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: startPoint,
    oldEndPosition: oldEndPoint,
    newEndPosition: newEndPoint,
  });
}

/**
 * The parts of the text to parse again: each item holding an error that runs past a line starting
 * with `}` (see {@link firstSwallowing}), from its start to the end of the first such line at or after
 * its end, widened over any function of `found` that it cuts, ranges that meet merged. What lies
 * between them parsed as it should (tree-sitter is back at the top level after an error ends), so
 * only these are parsed again: on the corpus trees, a third of what parsing from the first such
 * error to the end of the file took.
 */
function swallowedRanges(root: Node, text: string, found: readonly Node[]): [number, number][] {
  const items: Node[] = [];
  if (root.type === 'ERROR') {
    if (closingLineEnd(text, root.startIndex, root.endIndex) !== -1) items.push(root);
  } else {
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop() as Node;
      for (const child of node.namedChildren) {
        if (!child?.hasError) continue;
        if (child.type !== 'ERROR' && HOLDS_FUNCTIONS.has(child.type)) stack.push(child);
        else if (closingLineEnd(text, child.startIndex, child.endIndex) !== -1) items.push(child);
      }
    }
  }
  const ranges: [number, number][] = [];
  for (const item of items.sort((a, b) => a.startIndex - b.startIndex)) {
    let end = item.endIndex;
    for (;;) {
      const cut = lineAfterClosing(text, end);
      const cutFunction = found.find((fn) => fn.startIndex < cut && fn.endIndex > cut);
      if (!cutFunction) {
        end = cut;
        break;
      }
      end = cutFunction.endIndex;
    }
    const last = ranges[ranges.length - 1];
    if (last && item.startIndex <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([item.startIndex, end]);
  }
  return ranges;
}

/** The offset just after the first line starting with `}` that ends at or after `from` (or the text's end). */
function lineAfterClosing(text: string, from: number): number {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  let brace = text.startsWith('}', lineStart) ? lineStart - 1 : text.indexOf('\n}', lineStart);
  if (brace === -1) return text.length;
  const newline = text.indexOf('\n', brace + 2);
  let end = newline === -1 ? text.length : newline + 1;
  while (end < from) {
    brace = text.indexOf('\n}', end - 1);
    if (brace === -1) return text.length;
    const next = text.indexOf('\n', brace + 2);
    end = next === -1 ? text.length : next + 1;
  }
  return end;
}

/**
 * Where the first item holding an error that runs past a line starting with `}` before its own end
 * begins (where one error swallowed what follows it), or -1. Preprocessor blocks are entered.
 */
function firstSwallowing(root: Node, text: string): number {
  // When nothing made sense, the root itself is the ERROR node.
  if (root.type === 'ERROR')
    return closingLineEnd(text, root.startIndex, root.endIndex) === -1 ? -1 : root.startIndex;
  let first = -1;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    for (const child of node.namedChildren) {
      if (!child?.hasError || (first !== -1 && child.startIndex >= first)) continue;
      if (child.type !== 'ERROR' && HOLDS_FUNCTIONS.has(child.type)) stack.push(child);
      else if (closingLineEnd(text, child.startIndex, child.endIndex) !== -1) first = child.startIndex;
    }
  }
  return first;
}

/**
 * The offset just after the first line in [from, to) that starts with `}`, when that is before `to`
 * (a `}` ending the region itself does not count); -1 when there is none.
 */
function closingLineEnd(text: string, from: number, to: number): number {
  let brace = text.indexOf('\n}', from);
  // A `}` that continues a macro's definition closes no function (see continuedDirectives.ts).
  while (brace !== -1 && continuesDirective(text, brace)) brace = text.indexOf('\n}', brace + 2);
  if (brace === -1 || brace + 2 >= to) return -1;
  const newline = text.indexOf('\n', brace + 2);
  const end = newline === -1 ? text.length : newline + 1;
  return end < to ? end : -1;
}

/** `start`, the offsets after each line in [start, end) that starts with `}`, and `end`. */
function cutPoints(text: string, start: number, end: number): number[] {
  const cuts = [start];
  for (let cut = closingLineEnd(text, start, end); cut !== -1; cut = closingLineEnd(text, cut, end))
    cuts.push(cut);
  cuts.push(end);
  return cuts;
}

/** Rows and columns of offsets, from the offsets where lines start. */
class LineStarts {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  pointAt(offset: number): { row: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { row: low, column: offset - this.starts[low]! }; // starts holds 0, so low is in bounds
  }
}
