// A batch run parses only the top-level parts of a file that can matter (parts.ts): the parts that
// name something of interest, a set that grows with what the parsed parts define, until it stops.
// On the corpus trees only about a fifth of the lines of the files that name a write function are in
// definitions that call one; the rest need no parse.
import type { Node, Tree } from 'web-tree-sitter';
import { cWriteFunctions } from '../catalogue';
import type { AnalyzerSettings } from '../settings';
import { fileMacros, type CMacro } from './macros';
import { MacroExpander } from './macroExpansions';
import { isStaticDefinition } from './origins';
import type { CParser } from './parser';
import { chooseParts, partCuts, unguarded } from './parts';
import { PLAIN_WRITE } from './steps';
import { accessorReturn } from './messageAccessors';
import { openerPattern } from './returnedKinds';
import { functionName } from './syntax';
import { bodiesOf, mayWriteThroughParameter, type FunctionBody } from './wrapperChains';
import { maySendOneIovec } from './iovecHelpers';
import type { CWrapper } from './writes';

/** The syntax a file's analysis reads: its function definitions (in order) and its same-file macros. */
export interface FileSyntax {
  functions(): Node[];
  macros(): Map<string, CMacro>;
}

/** What decides which names matter, from the analyzer. */
export interface Interest {
  readonly settings: AnalyzerSettings;
  /** Wrappers known before the file (workspace, settings). */
  readonly settingWrappers: ReadonlyMap<string, CWrapper>;
  /** Macros of the included headers whose definitions write: a part using one may write through it. */
  readonly headerWriters?: ReadonlySet<string>;
  /**
   * The functions whose result is a byte stream (the catalogue's, the user's, other files'): a part
   * that calls one, or another opener, and returns is parsed for what it returns (see returnedKinds.ts).
   */
  readonly openers: ReadonlySet<string>;
  /**
   * Some function of the file calls a parameter with three arguments (see
   * CFunctionFact.callsParameterWithThree): a part defining one may write through what it is given.
   */
  readonly throughParameter: boolean;
  /** Members other files store write helpers in (`->m`): a part calling through one may write. */
  readonly members?: readonly string[];
  /** The file's own wrappers among `bodies`, with the file's `macros` known. */
  wrappersOf(bodies: readonly FunctionBody[], macros: ReadonlyMap<string, CMacro>): readonly CWrapper[];
}

/**
 * What a part needs to hold anything the analysis reads: a function body, or a macro definition. A
 * part without either (a header's run of prototypes naming a write function) is not parsed.
 */
const HOLDS_DEFINITION = /\{|#\s*define\b/;

/** Finds a call of one of `names`, also through a line continuation (a macro body). */
function callOf(names: Iterable<string>): RegExp {
  // A write through a member's function pointer (`->m`) is called as `c->m(`.
  const words = [...names].map((n) => n.replace(/^->/, '')).filter((n) => /^\w+$/.test(n));
  return words.length > 0 ? new RegExp(`\\b(?:${words.join('|')})[\\s\\\\]*\\(`) : /(?!)/;
}

/**
 * Parses the parts of `text` (`blanked` is what the parser reads, less an include guard: see
 * {@link unguarded}) that every whole-file rule of the
 * analysis needs, and their function definitions (with the parser's error recovery), in document
 * order. A part is parsed when it calls a name of interest: a write function, a known wrapper, a
 * same-file macro or wrapper (found in the parts parsed), or a static function that writes to a plain
 * descriptor (its callers decide whether its parameter is a stream); or when it returns from a part
 * calling an opener (a function that may return a descriptor of a known kind: see returnedKinds.ts). Names found in parsed parts choose more parts, parsed in turn, until no new part is chosen.
 * Call `release` when done with the nodes.
 */
export function interestingParts(
  text: string,
  blanked: string,
  parser: CParser,
  interest: Interest,
): { functions: Node[]; macros: Map<string, CMacro>; release(): void } {
  const source = unguarded(blanked);
  const cuts = partCuts(source);
  const done = new Set<number>();
  const trees: Tree[] = [];
  const releases: (() => void)[] = [];
  const functions: Node[] = [];
  const macros = new Map<string, CMacro>();
  const defines = /#\s*define\s+\w+\(/.test(text);
  const writeFunctions = cWriteFunctions(interest.settings);
  const names = new Set([
    ...writeFunctions.keys(),
    ...interest.settingWrappers.keys(),
    ...(interest.headerWriters ?? []),
    ...(interest.members ?? []),
  ]);
  const plain = PLAIN_WRITE.test(text);
  const opener = openerPattern(interest.openers);
  let pattern = callOf(names);
  // An accessor returning a descriptor the file opens names no opener (see messageAccessors.ts).
  const accessor = opener.test(text) ? accessorReturn(text) : undefined;
  // A helper writing with a function it is given names no write function (see wrapperChains.ts).
  const through = interest.throughParameter;
  // Nor does a helper that sends one iovec with sendmsg() (see iovecHelpers.ts).
  const iovec = maySendOneIovec(text);
  // What makes a part wanted whatever the names of interest, by part: each round asks again of every
  // part not chosen yet, and only the names change.
  const always = new Map<number, boolean>();
  const wantedAnyway = (part: string, index: number) => {
    let answer = always.get(index);
    if (answer === undefined) {
      answer =
        (opener.test(part) && /\breturn\b/.test(part)) ||
        (accessor?.test(part) ?? false) ||
        (through && mayWriteThroughParameter(part)) ||
        (iovec && maySendOneIovec(part));
      always.set(index, answer);
    }
    return answer;
  };
  const wanted = (part: string, index: number) =>
    HOLDS_DEFINITION.test(part) && (pattern.test(part) || wantedAnyway(part, index));
  try {
    for (;;) {
      const ranges = chooseParts(text, cuts, wanted, done);
      if (ranges.length === 0) break;
      const tree = parser.parseRanges(source, ranges);
      trees.push(tree);
      const parsed = parser.functions(tree, source);
      releases.push(() => parsed.release());
      functions.push(...parsed.functions);
      functions.sort((a, b) => a.startIndex - b.startIndex);
      const before = names.size;
      if (defines)
        for (const [name, macro] of fileMacros(tree.rootNode, writeFunctions)) macros.set(name, macro);
      for (const name of macros.keys()) names.add(name);
      // A function may write only through a macro whose expansion calls a writer (see macroExpansions.ts).
      if (defines)
        for (const name of new MacroExpander(text, undefined, () => false).matching(pattern)) names.add(name);
      const bodies = bodiesOf(functions, text);
      for (const w of interest.wrappersOf(bodies, macros)) names.add(w.name);
      if (plain) {
        for (const b of bodies) {
          if (!PLAIN_WRITE.test(b.text) || !isStaticDefinition(b.fn)) continue;
          const name = functionName(b.fn);
          if (name) names.add(name);
        }
      }
      if (names.size === before) break;
      pattern = callOf(names);
    }
  } catch (error) {
    for (const release of releases) release();
    for (const t of trees) t.delete();
    throw error;
  }
  return {
    functions,
    macros,
    release: () => {
      for (const release of releases) release();
      for (const t of trees) t.delete();
    },
  };
}
