// Statements that are a call of a function-like macro (`RETURN(611);`, `need(p);`). A macro may hide
// a `return`, a `goto` or a `break`: a run must not cross one that leaves, as the code after it does not
// run after the writes before it. The file's own definition says what the macro does, whatever its
// case, and so does an included header's; an upper-case name neither defines is a macro from a header
// the analyzer does not read, which could do anything, so a statement of it ends a run. A lower-case
// name none defines is taken for a function.

/** An upper-case name, as C spells macros. */
const MACRO = /^[A-Z][A-Z0-9_]*$/;

/** What leaves the code around a macro's expansion. */
const LEAVES = /\b(?:return|goto|break|continue|exit|_exit|abort|longjmp|siglongjmp)\b/;

/** `#define name(params) body`, the body running on over `\`-continued lines. */
const DEFINITION = /#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n\\]|\\[\s\S])*)/g;

/**
 * A macro that assigns its second argument to its first only while the first holds success:
 * `{ if (e >= 0) { e = (f); } }`, bare or in `do ... while (0)`, the test either way round.
 */
export interface GateMacro {
  /** The parameters' positions: the status tested and assigned, and the expression run. */
  readonly status: number;
  readonly value: number;
  /** The test, the status parameter left out: `>=0`, `!=-1`, `>0`. */
  readonly success: string;
}

/** `if (P OP K) P = (Q);` with optional braces, parentheses, `do ... while (0)`. */
const GATE =
  /^\s*(?:do\s*)?\{?\s*if\s*\(\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*(>=|!=|>)\s*(-?\s*\d+)\s*\)\s*\{?\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*=\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*;\s*\}?\s*\}?\s*(?:while\s*\(\s*0\s*\)\s*)?;?\s*$/;

/** The gate a macro's body makes of its parameters (see {@link GateMacro}), if any. */
function gateOf(params: string, body: string): GateMacro | undefined {
  const m = GATE.exec(body.replace(/\\\n/g, ' '));
  if (!m || m[1] !== m[4] || m[1] === m[5]) return undefined;
  const names = params.split(',').map((p) => p.trim());
  const status = names.indexOf(m[1]!);
  const value = names.indexOf(m[5]!);
  if (status < 0 || value < 0) return undefined;
  return { status, value, success: `${m[2]}${m[3]!.replace(/\s+/g, '')}` };
}

/**
 * A macro that asserts an expression of one of its parameters: `assert(io_ok(a))`, bare, in
 * parentheses or in `do { ... } while (0)`, or another such macro's use (`AN(x)` as `CHECK((x) != 0)`).
 */
export interface AssertionMacro {
  /** The position of the parameter the assertion reads. */
  readonly param: number;
  /** The functions the asserted expression calls besides the argument's own (`io_ok`). */
  readonly calls: readonly string[];
}

/** `do { ... } while (0)` around a body, or braces, or parentheses, or a trailing `;`. */
const WRAPPING = [
  /^do\s*\{([\s\S]*)\}\s*while\s*\(\s*0\s*\)\s*;?$/,
  /^\{([\s\S]*)\}$/,
  /^\(([\s\S]*)\)$/,
  /^([\s\S]*);$/,
];

/**
 * `NAME(E)` alone in a macro's body (`assert(E);`, `(void)`, wrappings of {@link WRAPPING} taken off):
 * the name and E's text; undefined for any other body.
 */
function soleCall(body: string): { name: string; arg: string } | undefined {
  let text = body.trim();
  for (let again = true; again;) {
    again = false;
    for (const w of WRAPPING) {
      const m = w.exec(text);
      if (m && balanced(m[1]!)) {
        text = m[1]!.trim().replace(/^\(\s*void\s*\)\s*/, '');
        again = true;
      }
    }
  }
  const m = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(text);
  return m && balanced(m[2]!) && !m[2]!.includes(';') ? { name: m[1]!, arg: m[2]! } : undefined;
}

/** True when every parenthesis and brace of `text` closes in it, in order. */
export function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The `if` a macro body starts with (after what `head` matches, which ends at the test's opening
 * parenthesis): its test, parentheses matched, and the text after it; undefined when the body does not
 * start so or the parentheses never close.
 */
export function leadingIf(
  body: string,
  head: RegExp = /^\s*if\s*\(/,
): { readonly test: string; readonly rest: string } | undefined {
  const start = head.exec(body);
  if (!start) return undefined;
  let depth = 1;
  let i = start[0].length;
  for (; i < body.length && depth > 0; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')') depth--;
  }
  return depth === 0 ? { test: body.slice(start[0].length, i - 1), rest: body.slice(i) } : undefined;
}

/** What changes memory in an expression: an assignment or an increment (`==`, `<=`, `!=`, `>=` do not). */
const CHANGES = /(?:^|[^=!<>])=(?!=)|\+\+|--/;

/**
 * The assertion a macro's body makes of its parameters (see {@link AssertionMacro}), if any; `others`
 * reads a macro the body calls in turn (a name it is not given is taken for a function).
 */
function assertionOf(
  params: string,
  body: string,
  others: (name: string) => { params: string; body: string } | undefined,
  depth = 0,
): AssertionMacro | undefined {
  const sole = soleCall(body.replace(/\\\n/g, ' '));
  if (!sole || depth > 3) return undefined;
  const all = params.split(',').map((p) => p.trim());
  const names = all.filter((p) => /^[A-Za-z_]\w*$/.test(p));
  const expr = sole.arg;
  if (CHANGES.test(expr.replace(/\s+/g, ''))) return undefined;
  const used = names.filter((n) => n && new RegExp(`\\b${n}\\b`).test(expr));
  if (used.length !== 1) return undefined;
  const param = all.indexOf(used[0]!);
  const calls = [...expr.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((c) => c[1]!);
  if (sole.name === 'assert') return { param, calls };
  // `AN(x)` as `CHECK((x) != 0)`: the inner macro must assert its one argument, which this one builds.
  const inner = others(sole.name);
  if (!inner) return undefined;
  const deeper = assertionOf(inner.params, inner.body, others, depth + 1);
  if (!deeper || inner.params.split(',').length !== 1) return undefined;
  return { param, calls: [...calls, ...deeper.calls] };
}

interface Definitions {
  readonly text: string;
  readonly leaves: ReadonlyMap<string, boolean>;
  readonly gates: ReadonlyMap<string, GateMacro | undefined>;
  /** Every definition's parameters and body, by name (the last one of a name defined twice). */
  readonly bodies: ReadonlyMap<string, { params: string; body: string }>;
  /** Every body of each name, in order (`#if` alternatives each define it once). */
  readonly alternatives: ReadonlyMap<string, string[]>;
  /** Whether every definition of each name tests its one argument (see {@link testsArgument}). */
  readonly tests: ReadonlyMap<string, boolean>;
}

/** The last text read, per kind: each statement of a function asks, and one file is read at a time. */
const last: Definitions[] = [];

/**
 * The function-like macros `text` defines, each with whether its expansion may leave. A name defined
 * twice (`#if` alternatives) leaves if either definition does. `slot`: which last text to keep (the
 * file's or its headers').
 */
function definitions(text: string, slot = 0): Definitions {
  const kept = last[slot];
  if (kept?.text === text) return kept;
  const leaves = new Map<string, boolean>();
  const gates = new Map<string, GateMacro | undefined>();
  const bodies = new Map<string, { params: string; body: string }>();
  const alternatives = new Map<string, string[]>();
  const tests = new Map<string, boolean>();
  if (text.includes('define'))
    for (const m of text.matchAll(DEFINITION)) {
      const name = m[1]!;
      const kind = kindOf(m[2] ?? '', m[3] ?? '');
      tests.set(name, (tests.get(name) ?? true) && kind.tests);
      alternatives.set(name, [...(alternatives.get(name) ?? []), m[3] ?? '']);
      leaves.set(name, !!leaves.get(name) || kind.leaves);
      // A name defined twice is a gate only where every definition is the same one.
      const gate = kind.gate;
      const before = gates.has(name) ? gates.get(name) : gate;
      gates.set(name, JSON.stringify(before) === JSON.stringify(gate) ? gate : undefined);
      // Under `#if` alternatives, a name is an assertion only where every definition is one.
      if (bodies.has(name) && bodies.get(name)!.body.trim() !== (m[3] ?? '').trim())
        bodies.set(name, { params: '', body: '' });
      else bodies.set(name, { params: m[2] ?? '', body: m[3] ?? '' });
    }
  const read = { text, leaves, gates, bodies, alternatives, tests };
  last[slot] = read;
  return read;
}

/** What one definition's parameters and body make a statement of its macro do. */
interface DefinitionKind {
  /** It starts by testing its one argument (see {@link testsArgument}). */
  readonly tests: boolean;
  /** Its expansion may leave the code around it. */
  readonly leaves: boolean;
  readonly gate: GateMacro | undefined;
}

/**
 * The kinds {@link kindOf} read, by parameter list and body. The files of a tree include the same
 * headers: each file's analysis reads their definitions again, the same texts.
 */
const kinds = new Map<string, DefinitionKind>();
const KINDS = 1 << 14;

/** What a definition of parameters `params` and body `body` (as written) makes a statement do. */
function kindOf(params: string, body: string): DefinitionKind {
  // A parameter list holds no line feed: the key is unambiguous.
  const key = `${params}\n${body}`;
  let kind = kinds.get(key);
  if (kind === undefined) {
    kind = { tests: testsArgument(params, body), leaves: LEAVES.test(body), gate: gateOf(params, body) };
    if (kinds.size >= KINDS) kinds.clear();
    kinds.set(key, kind);
  }
  return kind;
}

/** Calls a status test may make besides its argument: branch hints, which change no value. */
const HINT_CALLS = /^(?:__builtin_expect\w*|_*(?:un)?likely|_*predict_(?:true|false))$/;

/** Names before `(` that are no calls. */
const NO_CALLS = new Set(['if', 'while', 'sizeof', 'do']);

/**
 * True when a macro of parameters `params` and body `body` starts by testing its one argument:
 * `if (((r) = (x)) != OK) goto fail`, bare or in `do { ... } while (0)` or braces, the parameter named
 * once, in the test of that first `if`, which calls nothing but branch hints. A statement of it
 * evaluates the argument once, where it stands, and goes on or leaves by its value, as a status check
 * written out would.
 */
function testsArgument(params: string, body: string): boolean {
  const list = params.split(',').map((p) => p.trim());
  const param = list[0];
  if (list.length !== 1 || !param || !/^[A-Za-z_]\w*$/.test(param)) return false;
  const code = body.replace(/\\\r?\n/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const test = leadingIf(code, /^\s*(?:do\s*)?\{?\s*if\s*\(/)?.test;
  if (test === undefined) return false;
  const uses = (text: string) => (text.match(new RegExp(`\\b${param}\\b`, 'g')) ?? []).length;
  if (uses(test) !== 1 || uses(code) !== 1) return false;
  const called = [...test.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!);
  return called.every((c) => HINT_CALLS.test(c) || NO_CALLS.has(c));
}

/**
 * True when every definition the file (`text`), or else a header it includes (`included`), gives
 * `name` starts by testing its one argument (`#define CHECK(x) if ((r = (x)) != OK) goto fail`): a
 * statement of it (`CHECK(put(fd, s, n));`) makes the call of its argument where it stands and checks
 * its result, whatever the macro's case.
 */
export function argumentTest(name: string, text: string, included?: string): boolean {
  return (
    definitions(text).tests.get(name) ??
    (included === undefined ? undefined : definitions(included, 1).tests.get(name)) ??
    false
  );
}

/**
 * True when a statement calling `name` may leave the code around it: the file (`text`), or else a
 * header it includes (`included`, their definitions), defines it as a function-like macro with a body
 * that does, or it is spelled as a macro and neither defines it.
 */
export function macroStatementLeaves(name: string, text: string, included?: string): boolean {
  return (
    definitions(text).leaves.get(name) ??
    (included === undefined ? undefined : definitions(included, 1).leaves.get(name)) ??
    MACRO.test(name)
  );
}

/**
 * The gate a statement calling `name` makes (see {@link GateMacro}): from the file's definition
 * (`text`), or else an included header's; undefined where neither defines it so.
 */
export function gateMacro(name: string, text: string, included?: string): GateMacro | undefined {
  const own = definitions(text);
  if (own.leaves.has(name)) return own.gates.get(name);
  return included === undefined ? undefined : definitions(included, 1).gates.get(name);
}

/**
 * The assertion a statement calling `name` makes (see {@link AssertionMacro}): from the file's
 * definition (`text`), or else an included header's; undefined where neither defines it so. An
 * assertion aborts when it fails, and reads only: it is part of the check of the result it reads.
 */
export function assertionMacro(name: string, text: string, included?: string): AssertionMacro | undefined {
  const own = definitions(text);
  const headers = included === undefined ? undefined : definitions(included, 1);
  const find = (n: string) => own.bodies.get(n) ?? headers?.bodies.get(n);
  const def = find(name);
  return def ? assertionOf(def.params, def.body, find) : undefined;
}

/**
 * Every body the file (`text`), or else an included header (`included`), gives the function-like macro
 * `name` (one per `#if` alternative), continuation lines as written; undefined where neither defines it.
 */
export function macroBodies(name: string, text: string, included?: string): readonly string[] | undefined {
  return (
    definitions(text).alternatives.get(name) ??
    (included === undefined ? undefined : definitions(included, 1).alternatives.get(name))
  );
}

/**
 * The function-like macros `text` defines, each with whether a statement of it leaves, and the gate or
 * assertion it makes: what {@link macroStatementLeaves}, {@link gateMacro} and {@link assertionMacro}
 * answer from the file (for a cache of their answers).
 */
export function macroStatementKinds(text: string): string[] {
  const { leaves, gates } = definitions(text);
  return [...leaves]
    .map(([name, away]) => {
      const gate = gates.get(name);
      const asserts = assertionMacro(name, text);
      const kind =
        (gate ? `gate(${gate.status},${gate.value},${gate.success})` : '') +
        (asserts ? `assert(${asserts.param},${asserts.calls.join(',')})` : '');
      return `${name}:${away ? 'leaves' : 'stays'}${kind}`;
    })
    .sort();
}
