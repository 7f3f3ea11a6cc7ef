// Loads the C grammar (web-tree-sitter + the tree-sitter-c wasm, no native build) and keeps one syntax
// tree per open document, reparsed incrementally on each change.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// A require, not an import: bundlers then pick the package's CommonJS build, which finds its files
// from __filename (its ES module build needs import.meta.url, which a CommonJS bundle does not have).
import TreeSitter = require('web-tree-sitter');
import type { Edit, Language, Tree } from 'web-tree-sitter';

const { Parser } = TreeSitter;

let loading: Promise<Language> | undefined;

/** Finds a wasm file beside the running script (the dist/ bundle) or in its npm package. */
function locate(file: string, packagePath: string): string {
  const beside = join(__dirname, file);
  return existsSync(beside) ? beside : require.resolve(packagePath);
}

/** Loads the C grammar once per process; later calls share the same promise. */
export function loadCLanguage(): Promise<Language> {
  loading ??= (async () => {
    await Parser.init({
      locateFile: (name: string) => locate(name, `web-tree-sitter/${name}`),
    });
    return TreeSitter.Language.load(locate('tree-sitter-c.wasm', 'tree-sitter-c/tree-sitter-c.wasm'));
  })();
  return loading;
}

/**
 * Blanks attribute-like macros (`NORETURN`, `MAYBE_UNUSED`...) that the grammar cannot know, replacing
 * each with spaces of the same length so every offset stays valid for the original text.
 */
export function blankMacros(text: string, pattern: RegExp | undefined): string {
  return pattern ? text.replace(pattern, (match) => ' '.repeat(match.length)) : text;
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
