// Function-like macros read as the code they expand to, at their use. A project hides writes and their
// checks in its own macros (`#define SEND_REPLY(v) do { log(...); ret = put(&v, sizeof(v), fd); } while
// (0)`): a use of one whose definition the file (or an included header) shows is replaced, in a copy of
// the function's text, by that definition's body with the arguments put in place, and the copy is
// parsed and read as any code is, so every rule applies to what the compiler sees. A statement macro's
// `do { ... } while (0)` (or bare braces) is taken off at a statement use: its statements then stand in
// the block around it, as they run. The expansion is written on the use's first line (the lines it
// took are kept as empty lines), so the rest of the function keeps its lines; findings are mapped back
// onto the original text, where anything inside an expansion is at its use, and a fix that would edit
// inside an expansion is not offered: the change belongs in the macro, or the use cannot show it. (The
// caller keeps the runs the uses show read as written: their fixes copy the uses.)
import type { Node, Tree } from 'web-tree-sitter';
import type { Block, Finding, Span, Step } from '../model';
import { splitArgs, TOKEN } from './macros';
import { namedKids } from './syntax';
import { LITERALS_AND_COMMENTS } from './comments';
import { lineMatches } from './lineMatches';

/** A function-like macro the file defines once: what a use of it expands to. */
interface Definition {
  readonly params: readonly string[];
  /** The last parameter is `...`: `__VA_ARGS__` takes the arguments from there on. */
  readonly variadic: boolean;
  /** The body, comments taken out and continuation lines joined. */
  readonly body: string;
}

/**
 * `#define name(params) body`, the body running on over `\`-continued lines. Sticky: tried only at
 * the lines that say `define` (see lineMatches.ts).
 */
const DEFINITION = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n\\]|\\[\s\S])*)/my;

/** Longest expansion read: a body that grows past this is not code worth reading as one statement. */
const MAX_EXPANSION = 4000;

/** Macros within macros read at most this deep. */
const MAX_DEPTH = 8;

/** The last texts read (the file's, its headers'): each function of a file asks. */
const last: { text: string; found: Map<string, Definition | null> }[] = [];

/**
 * The function-like macros `text` defines, by name; null for a name defined twice (`#ifdef`
 * alternatives: which one a build compiles the code does not say) or in a way not read here
 * (stringizing `#`, pasting `##`, a named variadic parameter).
 */
function definitionsIn(text: string, slot: number): Map<string, Definition | null> {
  const kept = last[slot];
  if (kept?.text === text) return kept.found;
  const found = new Map<string, Definition | null>();
  if (text.includes('define'))
    for (const m of lineMatches(text, 'define', DEFINITION)) {
      const name = m[1]!;
      // A name defined twice is read as neither definition.
      const read = found.has(name) ? null : readDefinition(m[2]!, m[3]!);
      found.set(name, read);
    }
  last[slot] = { text, found };
  return found;
}

/**
 * The definitions {@link readDefinition} read, by parameter list and body. The files of a tree include
 * the same headers: each file's analysis reads their definitions again, the same texts.
 */
const readDefinitions = new Map<string, Definition | null>();
const READ_DEFINITIONS = 1 << 14;

/**
 * What a use of a macro of `params` (as written between the parentheses) and `body` (as written,
 * continuation lines included) expands to; null for one not read here (see {@link definitionsIn}).
 */
function readDefinition(paramList: string, written: string): Definition | null {
  const key = `${paramList}\n${written}`;
  let read = readDefinitions.get(key);
  if (read !== undefined) return read;
  const params = paramList.split(',').map((p) => p.trim());
  if (params.length === 1 && params[0] === '') params.pop();
  const body = written
    .replace(/\\\r?\n/g, ' ')
    .replace(LITERALS_AND_COMMENTS, (c) => (c.startsWith('/') ? ' ' : c))
    .trim();
  const variadic = params[params.length - 1] === '...';
  const named = variadic ? params.slice(0, -1) : params;
  const readable =
    named.every((p) => /^[A-Za-z_]\w*$/.test(p)) &&
    !/#/.test(body.replace(LITERALS_AND_COMMENTS, (c) => (c.startsWith('/') ? c : '""')));
  read = readable ? { params: named, variadic, body } : null;
  if (readDefinitions.size >= READ_DEFINITIONS) readDefinitions.clear();
  readDefinitions.set(key, read);
  return read;
}

/** The names each definition's body holds, read once (definitions are shared: see readDefinition). */
const bodyNames = new WeakMap<Definition, readonly string[]>();

/** Whether `d`'s body holds a name of `names` (as a token, not inside a literal). */
function namesAny(d: Definition, names: ReadonlySet<string>): boolean {
  let held = bodyNames.get(d);
  if (!held) {
    held = [...new Set((d.body.match(TOKEN) ?? []).filter((t) => /^[A-Za-z_]/.test(t)))];
    bodyNames.set(d, held);
  }
  return held.some((n) => names.has(n));
}

/** What the macros of a file (and of the headers it includes) expand to. */
export class MacroExpander {
  private readonly own: Map<string, Definition | null>;
  private readonly headers: Map<string, Definition | null>;

  /**
   * `text`: the file; `included`: its headers' definitions; `kept`: names left as calls, which other
   * rules read at their use (a macro of one write, a gate).
   */
  constructor(
    text: string,
    included: string | undefined,
    private readonly kept: (name: string) => boolean,
  ) {
    this.own = definitionsIn(text, 0);
    this.headers = included === undefined ? new Map<string, Definition | null>() : definitionsIn(included, 1);
  }

  /** The definitions read, as text: what a function's findings depend on besides its own text. */
  fingerprint(): string {
    const all = [...this.own, ...[...this.headers].filter(([name]) => !this.own.has(name))];
    return all.map(([name, d]) => `${name}(${d?.params.join(',') ?? '?'})${d?.body ?? ''}`).join('\n');
  }

  private definition(name: string): Definition | undefined {
    // Asked of every name token of every expansion: `kept` reads the file's text (a gate's definition).
    let found = this.definitions.get(name);
    if (found === undefined) {
      found = this.read(name) ?? null;
      this.definitions.set(name, found);
    }
    return found ?? undefined;
  }

  /** {@link MacroExpander.definition}'s answers so far (null: none). */
  private readonly definitions = new Map<string, Definition | null>();

  private read(name: string): Definition | undefined {
    if (this.kept(name)) return undefined;
    // The file's own definition, else a header's: either one, defined once.
    const own = this.own.get(name);
    if (own !== undefined) return own ?? undefined;
    return this.headers.get(name) ?? undefined;
  }

  /** The macros whose expansion `wanted` matches (given their parameters' names as arguments). */
  matching(wanted: RegExp): string[] {
    const names = new Set([...this.own.keys(), ...this.headers.keys()]);
    // A writer's name in an expansion comes from some body (there is no pasting): none, no match.
    if (![...names].some((name) => wanted.test(this.definition(name)?.body ?? ''))) return [];
    return [...names].filter((name) => {
      const d = this.definition(name);
      if (!d) return false;
      // A body naming no macro expands to itself (its parameters given their own names): it is read
      // as written, without a rescan asking of each of its tokens whether it is a macro to expand.
      if (!namesAny(d, names)) return d.body.length <= MAX_EXPANSION && wanted.test(d.body);
      const expansion = this.expand(name, [...d.params, ...(d.variadic ? ['__VA_ARGS__'] : [])]);
      return expansion !== undefined && wanted.test(expansion);
    });
  }

  /** A call of any macro this expander reads (undefined when it reads none): a cheap first look. */
  uses(): RegExp | undefined {
    if (this.pattern === null) {
      const names = [...new Set([...this.own.keys(), ...this.headers.keys()])].filter((n) => this.knows(n));
      this.pattern = names.length > 0 ? new RegExp(`\\b(?:${names.join('|')})\\s*\\(`) : undefined;
    }
    return this.pattern;
  }

  private pattern: RegExp | undefined | null = null;

  /** True when `name` is a macro this expander reads. */
  knows(name: string): boolean {
    return this.definition(name) !== undefined;
  }

  /**
   * The text a use of `name` with `args` (their text) expands to, macros in it expanded in turn (but
   * not those of `outer`, as C leaves a macro's own name in its expansion alone); undefined when it
   * cannot be read.
   */
  expand(name: string, args: readonly string[], outer: ReadonlySet<string> = new Set()): string | undefined {
    // A parameter used twice in a body expands its argument twice, at every depth: the same uses come
    // back many times over in nested macros (a header's `MAX(a, b)` inside its other macros).
    const key = JSON.stringify([name, args, [...outer].sort()]);
    if (this.expansions.has(key)) return this.expansions.get(key);
    const expansion = this.expandOnce(name, args, outer);
    this.expansions.set(key, expansion);
    return expansion;
  }

  /** {@link MacroExpander.expand}'s answers so far, by name, arguments and the macros around. */
  private readonly expansions = new Map<string, string | undefined>();

  private expandOnce(name: string, args: readonly string[], outer: ReadonlySet<string>): string | undefined {
    const d = this.definition(name);
    if (!d || outer.size >= MAX_DEPTH) return undefined;
    // `F()` gives one empty argument, which a macro of no parameters takes as none.
    const given = d.params.length === 0 && args.length === 1 && args[0]!.trim() === '' ? [] : args;
    if (d.variadic ? given.length < d.params.length : given.length !== d.params.length) return undefined;
    const rest = given.slice(d.params.length).join(', ');
    const substituted = (d.body.match(TOKEN) ?? [])
      .map((token) => {
        if (token === '__VA_ARGS__' && d.variadic) return rest;
        const i = d.params.indexOf(token);
        return i < 0 ? token : given[i]!.trim();
      })
      .join('');
    const inner = new Set(outer).add(name);
    return this.rescan(substituted, inner);
  }

  /** `text` with every use of a macro this expander reads expanded (undefined when one cannot be). */
  private rescan(text: string, outer: ReadonlySet<string>): string | undefined {
    const tokens = text.match(TOKEN) ?? [];
    // The tokens follow one another over the whole text: what is not expanded is copied from the text
    // a stretch at a time (`copied`: the offset it is copied up to), not a token at a time. Only a
    // name token may be a macro's name.
    let out = '';
    let copied = 0;
    let at = 0;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const start = at;
      at += token.length;
      if (!isNameStart(token.charCodeAt(0)) || outer.has(token) || !this.knows(token)) continue;
      let open = i + 1;
      while (open < tokens.length && /^\s$/.test(tokens[open]!)) open++;
      if (tokens[open] !== '(') continue;
      let depth = 0;
      let close = open;
      for (; close < tokens.length; close++) {
        if (tokens[close] === '(') depth++;
        else if (tokens[close] === ')' && --depth === 0) break;
      }
      const args = close < tokens.length ? splitArgs(tokens.slice(open + 1, close).join('')) : undefined;
      const expanded = args && this.expand(token, args, outer);
      if (expanded === undefined) return undefined;
      out += text.slice(copied, start) + expanded;
      for (let k = i + 1; k <= close; k++) at += tokens[k]!.length;
      copied = at;
      i = close;
    }
    out += text.slice(copied);
    return out.length > MAX_EXPANSION ? undefined : out;
  }
}

/** Whether a character code starts a name (a macro's name is one). */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** One use replaced: its span in the original text, and in the expanded copy. */
export interface Region {
  readonly from: Span;
  readonly to: Span;
  /** The macro used. */
  readonly name: string;
  /** The line breaks the use took, kept after its expansion (which is written on one line). */
  readonly breaks: number;
}

/** A function's text with its macro uses expanded, parsed. */
export interface ExpandedFunction {
  /** The function in the copy's syntax tree. */
  readonly fn: Node;
  /** The whole file's text with the function's uses expanded (what the rules read as `ctx.text`). */
  readonly text: string;
  /**
   * Marks the writes of `blocks` (read from the copy) that are in an expansion as having no fix: the
   * use shows no write call to rewrite.
   */
  mark(blocks: readonly Block[]): void;
  /** The findings read in the copy, at their places in the original text. */
  mapFinding(f: Finding): Finding;
  /** Frees the copy's tree. */
  release(): void;
}

/** `{ stmts }` or `do { stmts } while (0)`: the statements, when taking the wrapper off changes nothing. */
function unwrappedStatement(text: string): string | undefined {
  const m = /^\s*(do\s*)?\{([\s\S]*)\}\s*(while\s*\(\s*0\s*\))?\s*;?\s*$/.exec(text);
  if (!m || !!m[1] !== !!m[3]) return undefined;
  const inner = m[2]!;
  // Braces must pair up inside (`{ a; } x; { b; }` is no one block), and a `break` or `continue` in
  // a `do ... while (0)` leaves it, not the loop around the use.
  let depth = 0;
  for (const token of inner.match(TOKEN) ?? []) {
    if (token === '{') depth++;
    else if (token === '}' && --depth < 0) return undefined;
  }
  if (depth !== 0 || (m[1] && /\b(?:break|continue)\b/.test(inner))) return undefined;
  return inner.trim();
}

/**
 * `fn` (a function of the file `text`, from the tree `fnTree` parsed from its blanked copy) with the
 * uses of macros `expander` reads and whose expansion `wanted` matches replaced by their expansions,
 * parsed with `parse`; undefined when there is none, or the copy does not parse as cleanly as the
 * function did.
 */
export function expandFunction(
  fn: Node,
  text: string,
  expander: MacroExpander,
  wanted: RegExp,
  parse: (text: string, range: readonly [number, number]) => Tree,
): ExpandedFunction | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  if (!expander.uses()?.test(fn.text)) return undefined;
  const uses: { span: Span; text: string; name: string }[] = [];
  const stack: Node[] = [body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const callee = node.type === 'call_expression' ? node.childForFieldName('function') : null;
    const argsNode = node.childForFieldName('arguments');
    if (callee?.type === 'identifier' && argsNode && !argsNode.hasError && expander.knows(callee.text)) {
      const args = namedKids(argsNode)
        .filter((a) => a.type !== 'comment')
        .map((a) => text.slice(a.startIndex, a.endIndex));
      const expansion = expander.expand(callee.text, args);
      if (expansion !== undefined && wanted.test(expansion)) {
        // A statement use of a statement macro: its statements, without the wrapper (and the `;`).
        // Where the use is a statement of its own (`if (c) M(x); else ...`, a loop's body), they keep
        // braces: one statement still, and a block, not a `do` that reads as a loop.
        const statement = node.parent?.type === 'expression_statement' ? node.parent : undefined;
        const inBlock = ['compound_statement', 'case_statement'].includes(statement?.parent?.type ?? '');
        const inner = statement && unwrappedStatement(expansion);
        const at = inner !== undefined && statement ? statement : node;
        const code = inner === undefined ? `${expansion}` : inBlock ? inner : `{ ${inner} }`;
        const span = { start: at.startIndex, end: at.endIndex };
        uses.push({ span, text: code.replace(/\s*\n\s*/g, ' '), name: callee.text });
        continue;
      }
    }
    for (const child of namedKids(node)) stack.push(child);
  }
  if (uses.length === 0) return undefined;
  uses.sort((a, b) => a.span.start - b.span.start);
  const regions: Region[] = [];
  // The copy the rules read, and the one parsed: the function's text as the file's parse read it
  // (blanked; the same offsets), only its range being read.
  const blanked = (from: number, to: number) =>
    fn.text.slice(Math.max(from, fn.startIndex) - fn.startIndex, Math.min(to, fn.endIndex) - fn.startIndex);
  let copy = text.slice(0, uses[0]!.span.start);
  let parsed = text.slice(0, fn.startIndex) + blanked(fn.startIndex, uses[0]!.span.start);
  for (let i = 0; i < uses.length; i++) {
    const use = uses[i]!;
    const lines = (text.slice(use.span.start, use.span.end).match(/\n/g) ?? []).join('');
    const start = copy.length;
    copy += use.text;
    parsed += use.text;
    regions.push({ from: use.span, to: { start, end: copy.length }, name: use.name, breaks: lines.length });
    const next = uses[i + 1]?.span.start ?? fn.endIndex;
    copy += lines + text.slice(use.span.end, next);
    parsed += lines + blanked(use.span.end, next);
  }
  copy += text.slice(fn.endIndex);
  const end = fn.endIndex + copy.length - text.length;
  const tree = parse(parsed, [fn.startIndex, end]);
  const expanded = functionAt(tree.rootNode, fn.startIndex, end);
  if (!expanded || (expanded.hasError && !fn.hasError)) {
    tree.delete();
    return undefined;
  }
  return {
    fn: expanded,
    text: copy,
    mark: (blocks) => {
      for (const block of blocks) markSteps(block.steps, regions);
    },
    mapFinding: (f) => mapFinding(f, regions),
    release: () => tree.delete(),
  };
}

/** The function definition spanning `[start, end)` under `root`. */
function functionAt(root: Node, start: number, end: number): Node | undefined {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'function_definition' && node.startIndex === start && node.endIndex === end)
      return node;
    for (const child of namedKids(node))
      if (child.startIndex <= start && child.endIndex >= end) stack.push(child);
  }
  return undefined;
}

/** `steps` (and the steps nested in them) with each write inside a region marked as having no fix. */
function markSteps(steps: readonly Step[], regions: readonly Region[]): void {
  const list = steps as Step[];
  for (let i = 0; i < list.length; i++) {
    const step = list[i]!;
    if (step.kind === 'branch') for (const arm of step.arms) markSteps(arm.steps, regions);
    else if (step.kind === 'loop') markSteps(step.body, regions);
    if (step.kind !== 'write') continue;
    const region = regions.find((r) => step.span.start < r.to.end && step.span.end > r.to.start);
    if (!region) continue;
    const why = `the write is in the expansion of the macro ${region.name}(), which a fix at its use cannot rewrite`;
    list[i] = { ...step, template: undefined, noFix: step.noFix ?? why };
  }
}

/** `f` read in the expanded copy, at its places in the original text (see the file comment). */
export function mapFinding(f: Finding, regions: readonly Region[]): Finding {
  const at = (offset: number, side: 'start' | 'end'): number => {
    let delta = 0;
    for (const r of regions) {
      if (offset <= r.to.start) break;
      if (offset < r.to.end) return r.from[side];
      // Past the use: the copy holds its expansion and then the line breaks it took.
      if (offset < r.to.end + r.breaks) return r.from.end;
      delta += r.to.end - r.to.start + r.breaks - (r.from.end - r.from.start);
    }
    return offset - delta;
  };
  const span = (s: Span): Span => ({ start: at(s.start, 'start'), end: at(s.end, 'end') });
  const inside = (s: Span) => regions.some((r) => s.start < r.to.end && s.end > r.to.start);
  const fix = f.fix && !f.fix.edits.some((e) => inside(e.span)) ? f.fix : undefined;
  return {
    ...f,
    span: span(f.span),
    related: f.related.map((r) => ({ ...r, span: span(r.span) })),
    fix: fix && { ...fix, edits: fix.edits.map((e) => ({ ...e, span: span(e.span) })) },
  };
}
