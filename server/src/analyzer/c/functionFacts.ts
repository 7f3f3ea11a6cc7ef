// What each C function of a file calls, read from the text alone: the facts the whole-tree fact base is
// built from. A statement between two writes that calls a function of the project is crossed only when
// that function is known to do no output, and real programs define such helpers (a checksum, a header
// filler, an accessor) in the same file or another one. Every file of a tree is read this way, so it
// must cost about as little as one search of the text: no parse. What the text does not show plainly
// (a K&R definition, a call through a pointer, a body cut short by a `}` in column 0 of a string) leaves
// the function unknown or opaque, never quiet by mistake.
import { sharedStateReader } from './sharedStateAccessors';
import {
  C_LIBRARY_QUIET,
  C_PURE_FUNCTIONS,
  C_QUIET_FUNCTIONS,
  digestName,
  ioName,
  MESSAGE_CATALOGUE,
} from '../catalogue';
import { assignedNames } from './assignedGlobals';
import { assignsOnlyArguments, handedNames } from './assigningMacros';
import { conditionalDefines } from './conditionalDefines';
import { parameterDeclarations, parameterName } from './parameterName';
import { returnsStatic } from './staticReturns';
import { markedWeak } from './weakDefinitions';
import { memberParameters } from './memberParameters';
import { aliasedAssignments } from './pointerAliases';
import { writableWait, writableWaitCall } from './writableWaits';
import { makesTerminalRequest } from './terminalRequests';
import { endingCall } from './leavingFunctions';

/** What one function definition of a file calls. */
export interface CFunctionFact {
  readonly name: string;
  /** Visible to other files (not `static`). */
  readonly exported: boolean;
  /** The names it calls, each once. */
  readonly calls: readonly string[];
  /** Of those, the names it calls more than once (a function that writes twice calls a writer twice). */
  readonly repeated?: readonly string[];
  /** It calls through a pointer or a member (`ops->write(...)`, `(*fn)(...)`): it may do anything. */
  readonly opaque: boolean;
  /**
   * Indexes of the parameters through which it cannot change its caller's memory: scalars passed by
   * value, and pointers to `const` (see {@link readOnlyParameters}).
   */
  readonly readOnly?: readonly number[];
  /**
   * The pointer parameters its body reaches only through members (`p->mac[i] ^= x`), by index, with
   * the members it names (see memberParameters.ts): a call handed an object there changes no other
   * part of it.
   */
  readonly memberParams?: readonly (readonly [number, readonly string[]])[];
  /**
   * Its body is short and assigns and increments nothing (an accessor: `return l->fd;`): with pure
   * calls only, calling it twice gives the same value and changes nothing (see pureFunctions).
   */
  readonly readsOnly?: true;
  /**
   * Exported: the one function every `return` of its body gives the value of (`return
   * open_conn(host);`), failure values (`-1`, `-EINVAL`) aside: whatever that function returns, this
   * one does (see returnedKinds.ts).
   */
  readonly returnsCall?: string;
  /**
   * A function-like macro defined only under a preprocessor condition (see conditionalDefines.ts):
   * where the condition is false, the name is what it would be without the macro.
   */
  readonly conditional?: true;
  /**
   * It returns static storage, which its next call overwrites (see staticReturns.ts): two writes
   * sending two of its results cannot be gathered.
   */
  readonly returnsStatic?: true;
  /**
   * Exported and declared weak (see weakDefinitions.ts): another file's definition of the name, where
   * the tree has one, replaces this body at link time.
   */
  readonly weak?: true;
  /**
   * The names its body assigns or fills that are neither its parameters nor declared in it: the
   * file-scope variables a call of it changes (see assignedGlobals.ts). Its callees' are not included.
   */
  readonly assigns?: readonly string[];
  /**
   * The index of the parameter whose descriptor its one wait waits for to take output, and nothing else
   * (see writableWaits.ts): its select() or poll() is no pacing wait and no output.
   */
  readonly awaitsWritable?: number;
  /**
   * It calls `ioctl()` with a request that changes a terminal's settings (see terminalRequests.ts): that
   * call waits as tcsetattr() does (see waitingFunctions.ts).
   */
  readonly setsTerminal?: true;
  /**
   * It calls one of its parameters with three arguments (`out(fd, s, n)`, `(*f)(fd, s, n)`): a helper
   * that may write through a function it is given (see wrapperChains.ts, passedWriters.ts).
   */
  readonly callsParameterWithThree?: true;
  /**
   * Its body holds no `return` and its last statement is a call of this name (`_exit(1);`, `die();`):
   * when that call never returns, neither does this function (see leavingFunctions.ts).
   */
  readonly endsIn?: string;
}

/** Bodies longer than this are not read for {@link CFunctionFact.readsOnly}: accessors are short. */
const ACCESSOR_LENGTH = 400;

/** An assignment (plain or compound) or an increment, in text without comments and literals. */
const MUTATION = /(?<![=!<>])=(?!=)|<<=|>>=|\+\+|--/;

/** Comments, string and character literals: blanked before reading calls. */
const NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Names that look like calls but are not. */
const KEYWORDS = new Set([
  'if',
  'while',
  'for',
  'switch',
  'return',
  'sizeof',
  'do',
  'else',
  'case',
  '_Alignof',
  'alignof',
  'typeof',
  '__typeof__',
  'defined',
  '__attribute__',
  '__builtin_expect',
  'likely',
  'unlikely',
]);

/** The head of a linkage block, its string blanked (`extern "C" {` read as `extern     {`). */
const EXTERN_BLOCK = /\bextern\s*$/;

/**
 * Reads the definition whose body is `clean[open..close]` (`clean`: the text with comments and
 * literals blanked), as {@link readDefinition} does; a reader may answer from an earlier reading.
 */
export type DefinitionReader = (clean: string, open: number, close: number) => CFunctionFact | undefined;

/**
 * The functions `text` defines, with what each calls (see the file comment). `read` reads each
 * definition found (default {@link readDefinition}).
 */
export function cFunctionFacts(text: string, read: DefinitionReader = readDefinition): CFunctionFact[] {
  const clean = text.replace(NOISE, ' ');
  const facts: CFunctionFact[] = [];
  // Where each fact's body stands (its `{` and `}`), for what it stores through a pointer.
  const bodies: [number, number][] = [];
  // Braces at depth 0 open the file's definitions: a function's body follows its parameter list's `)`.
  let depth = 0;
  let open = -1;
  // The next `{` and the next `}`, each searched for again only once passed: searching both from
  // every brace read the text between a brace and the next one of the other kind over and over.
  let nextOpen = clean.indexOf('{');
  let nextClose = clean.indexOf('}');
  while (nextOpen >= 0 || nextClose >= 0) {
    if (nextOpen >= 0 && (nextClose < 0 || nextOpen < nextClose)) {
      // `extern "C" {` (a header's C++ guard) holds definitions, it is none: its `}` is met at depth 0
      // and passed over below, as an unbalanced one is.
      if (depth === 0 && EXTERN_BLOCK.test(clean.slice(Math.max(0, nextOpen - 40), nextOpen))) {
        nextOpen = clean.indexOf('{', nextOpen + 1);
        continue;
      }
      if (depth++ === 0) open = nextOpen;
      nextOpen = clean.indexOf('{', nextOpen + 1);
      continue;
    }
    const at = nextClose;
    nextClose = clean.indexOf('}', at + 1);
    if (depth === 0) continue; // unbalanced (#if alternatives): skip it
    if (--depth !== 0) continue;
    const fact = read(clean, open, at);
    if (fact) {
      facts.push(fact);
      bodies.push([open, at]);
    }
  }
  const all = aliasedAssignments(clean, facts, bodies);
  for (const fact of macroFacts(clean)) all.push(fact);
  return markedWeak(clean, all);
}

/**
 * `#define name(params) body`, the body running on over `\`-continued lines. The parameters are names,
 * the last of them may be variadic (`...`, `args...`): a list holding anything else (a `(`, half typed
 * in the editor) defines no function-like macro for the preprocessor, and its words are no names to
 * look for in the body.
 */
const FUNCTION_MACRO =
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([ \t]*(?:(?:[A-Za-z_]\w*[ \t]*,[ \t]*)*(?:[A-Za-z_]\w*[ \t]*(?:\.\.\.)?|\.\.\.)[ \t]*)?)\)((?:[^\n\\]|\\[\s\S])*)/gm;

/** {@link FUNCTION_MACRO} read where a line starts (sticky). */
const FUNCTION_MACRO_HERE = new RegExp(FUNCTION_MACRO.source, 'my');

/**
 * The matches of {@link FUNCTION_MACRO} in `clean`, as its global search finds them, tried only at the
 * start of the lines that hold `define` (a search trying every line of every file was a visible part
 * of reading one): a match starts a line (after any line terminator `^` knows) and holds a `define`.
 */
export function functionMacros(clean: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  let from = 0;
  for (let at = clean.indexOf('define'); at >= 0; at = clean.indexOf('define', at + 1)) {
    let line = at;
    while (line > from && !isLineEnd(clean.charCodeAt(line - 1))) line--;
    if (line < from || (line === from && from > 0 && !isLineEnd(clean.charCodeAt(from - 1)))) continue;
    FUNCTION_MACRO_HERE.lastIndex = line;
    const m = FUNCTION_MACRO_HERE.exec(clean);
    if (!m) continue;
    found.push(m);
    from = FUNCTION_MACRO_HERE.lastIndex;
  }
  return found;
}

/**
 * The file's function-like macros, read as functions are: what their expansion calls, and whether it
 * only reads (`#define le32(x) bswap_32(x)` is as pure as a function of that body). Upper-case ones are
 * taken to only read already (see the library table); a lower-case one used in a test between two
 * writes is otherwise a call nobody read. File-local: another file may define the name otherwise.
 */
function macroFacts(clean: string): CFunctionFact[] {
  if (!clean.includes('#')) return [];
  const macros = functionMacros(clean);
  // Which defines are conditional is read only for a file that defines a function-like macro.
  if (macros.length === 0) return [];
  const facts: CFunctionFact[] = [];
  const conditional = conditionalDefines(clean);
  for (const m of macros) {
    facts.push({
      name: m[1]!,
      ...macroBodyFact(m[1]!, m[2]!, m[3]!),
      ...(conditional.has(m.index) && { conditional: true }),
    });
  }
  return facts;
}

/** What a function-like macro's definition says of its calls, whatever its name. */
type MacroBodyFact = Omit<CFunctionFact, 'name' | 'conditional'>;

/**
 * The facts {@link macroBodyFact} read, by parameter list and body. The second pass reads the
 * definitions of the headers each file includes as that file's own: the files of a tree include the
 * same headers, and the same texts were read for every one of them.
 */
const macroBodyFacts = new Map<string, MacroBodyFact>();
const MACRO_BODY_FACTS = 1 << 14;

/**
 * The facts of a macro of parameters `paramList` (as written between its parentheses) and body `body`
 * (blanked as {@link cFunctionFacts} blanks the text): what it calls, and whether it only reads.
 */
function macroBodyFact(name: string, paramList: string, body: string): MacroBodyFact {
  // Only an upper-case name's reading depends on the name (see assigningMacros.ts).
  const upper = /^[A-Z][A-Z0-9_]*$/.test(name);
  // A parameter list holds no line feed: the key is unambiguous.
  const key = `${upper ? name : ''}\n${paramList}\n${body}`;
  let fact = macroBodyFacts.get(key);
  if (fact !== undefined) return fact;
  // The body follows the parameter list's `)`, which is all that callsIn reads before it.
  const { calls, repeated, opaque } = callsIn(`)${body}`, 1, body.length + 1);
  // A macro's parameter called (`#define APPLY(f, x) f(x)`) calls whatever the caller names; one
  // that assigns changes its caller's variables, named or not (no copy of its arguments is made);
  // a statement macro may return or jump out of its caller. None of these is a function's call.
  // An upper-case one assigning only what it is handed is its caller's own assignment, which its
  // callers read as handing it those names (see assigningMacros.ts).
  const params = paramList.split(',').map((p) => p.trim());
  const statements = MUTATION.test(body) || /[;{]|\b(?:return|goto|break|continue)\b/.test(body);
  const through = opaque || calls.some((c) => params.includes(c)) || statements;
  // Still no reader: it changes what it is handed.
  const readsOnly = body.length < ACCESSOR_LENGTH && !through;
  fact = {
    exported: false,
    calls: calls.filter((c) => !params.includes(c)),
    ...(repeated.length > 0 && { repeated }),
    opaque: through && !(upper && !opaque && assignsOnlyArguments(name, params, body, calls)),
    ...(readsOnly && { readsOnly }),
    ...(calls.includes('ioctl') && makesTerminalRequest(body) && { setsTerminal: true as const }),
  };
  if (macroBodyFacts.size >= MACRO_BODY_FACTS) macroBodyFacts.clear();
  macroBodyFacts.set(key, fact);
  return fact;
}

/** How far back from a body's `{` a definition's head is looked for. */
const HEAD_REACH = 1000;

/**
 * Where the text {@link readDefinition} reads for a body opening at `open` starts: it reads
 * `clean[definitionStart(open)..close)` and nothing else, and its answer depends on nothing else but
 * where `open` stands in that stretch (which also tells whether the stretch starts the file).
 */
export function definitionStart(open: number): number {
  // The head is looked for back to HEAD_REACH before the `{`, and a `#` there is a directive's only
  // after a line feed: the character before the reach is read too.
  return Math.max(0, open - HEAD_REACH - 1);
}

/** The function whose body is `clean[open..close]`, if the text before `open` is a definition's head. */
export function readDefinition(clean: string, open: number, close: number): CFunctionFact | undefined {
  return definitionReading(clean, open, close).fact;
}

/**
 * {@link readDefinition}'s answer, with where the text it read starts: it read `clean[from..close]`
 * and nothing else, and the answer depends on nothing else but where `open` stands in that stretch.
 * Mostly the end of the statement or definition before the head, a few lines back: an edit of the
 * function before leaves the reading of this one as it was ({@link definitionStart} is the bound of
 * every reading, a thousand characters back).
 */
export function definitionReading(
  clean: string,
  open: number,
  close: number,
): { fact: CFunctionFact | undefined; from: number } {
  const stop = { at: -1 };
  const fact = readHead(clean, open, close, stop);
  // The head's search back stopped at `stop.at` (the `;`, brace or directive before it, whose
  // character before was read when it was a `#`), or ran to its reach, or was never made.
  return { fact, from: stop.at >= 0 ? Math.max(0, stop.at - 1) : definitionStart(open) };
}

/** {@link readDefinition}; `stop.at` is set where the search back for the head's start stopped. */
function readHead(
  clean: string,
  open: number,
  close: number,
  stop: { at: number },
): CFunctionFact | undefined {
  const limit = Math.max(0, open - HEAD_REACH);
  let i = open - 1;
  while (i >= limit && isSpace(clean.charCodeAt(i))) i--;
  if (clean[i] !== ')') return undefined;
  // Back from the `)` to its `(`.
  let depth = 0;
  for (; i >= limit; i--) {
    const c = clean.charCodeAt(i);
    if (c === 41) depth++;
    else if (c === 40 && --depth === 0) break;
    else if (c === 59 || c === 123 || c === 125) return undefined;
  }
  if (i < limit) return undefined;
  let j = i - 1;
  while (j >= limit && isSpace(clean.charCodeAt(j))) j--;
  // `int (set_errno)(int errnum)`: a name in parentheses, which a function-like macro of that name
  // (the header's faster spelling) does not expand.
  const parenthesised = clean[j] === ')';
  if (parenthesised) {
    j--;
    while (j >= limit && isSpace(clean.charCodeAt(j))) j--;
  }
  const end = j + 1;
  while (j >= limit && isWord(clean.charCodeAt(j))) j--;
  const name = clean.slice(j + 1, end);
  if (parenthesised) {
    while (j >= limit && isSpace(clean.charCodeAt(j))) j--;
    if (clean[j] !== '(') return undefined;
    j--;
  }
  if (name === '' || name.charCodeAt(0) <= 57 || KEYWORDS.has(name)) return undefined;
  // The head starts after the previous statement, directive or definition.
  let k = j;
  while (k >= limit) {
    const c = clean.charCodeAt(k);
    if (c === 59 || c === 125 || c === 123 || (c === 35 && (k === 0 || clean.charCodeAt(k - 1) === 10)))
      break;
    k--;
  }
  if (k >= limit) stop.at = k;
  const qualifiers = withoutTrailingAttributes(clean.slice(k + 1, j + 1));
  // A type before the name (`int `, `char *`): a macro call at file level (`FOO(x) {`) or an
  // initialiser (`= {`) is no definition.
  if (!/[\w*]\s*$/.test(qualifiers) || /=\s*$/.test(qualifiers)) return undefined;
  const { calls, repeated, opaque } = callsIn(clean, open + 1, close);
  const paramList = clean.slice(i + 1, end0(clean, i));
  const readOnly = readOnlyParameters(paramList);
  // An accessor of no parameters may name its steps in initialized locals (see sharedStateAccessors.ts).
  const inner = clean.slice(open + 1, close);
  const memberParams = paramList.includes('*') ? memberParameters(paramList, inner) : [];
  const readsOnly =
    close - open < ACCESSOR_LENGTH &&
    !opaque &&
    (!MUTATION.test(inner) || sharedStateReader(paramList, inner, MUTATION));
  const exported = !/\bstatic\b/.test(qualifiers);
  const returnsCall = exported ? returnedCall(clean, open, close) : undefined;
  const staticResult = returnsStatic(clean, open, close);
  const body = clean.slice(open + 1, close);
  const assigns = assignedNames(
    body,
    new Set(paramList.split(',').map((p) => parameterName(p.trim()))),
    // What it hands an upper-case call, which may be a macro assigning it (see assigningMacros.ts).
    handedNames(body, calls),
  );
  const endsIn = endingCall(body);
  const awaitsWritable = calls.some(writableWaitCall)
    ? writableWait(clean.slice(i + 1, end0(clean, i)), clean.slice(open + 1, close))
    : undefined;
  return {
    name,
    exported,
    calls,
    ...(repeated.length > 0 && { repeated }),
    opaque,
    ...(readOnly.length > 0 && { readOnly }),
    ...(memberParams.length > 0 && { memberParams }),
    ...(readsOnly && { readsOnly }),
    ...(returnsCall !== undefined && { returnsCall }),
    ...(staticResult && { returnsStatic: true as const }),
    ...(assigns.length > 0 && { assigns }),
    ...(awaitsWritable !== undefined && { awaitsWritable }),
    ...(calls.includes('ioctl') && makesTerminalRequest(body) && { setsTerminal: true as const }),
    ...(callsParameterWithThree(paramList, body, calls) && {
      callsParameterWithThree: true as const,
    }),
    ...(endsIn !== undefined && { endsIn }),
  };
}

/** A pointer to a function declared in a parameter list (`int (*out)(int, ...)`): its name. */
const POINTER_PARAMETER = /\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(/g;

/**
 * Whether `body` calls one of the parameters `paramList` declares with three arguments: a name both
 * declared there and called (`calls`), or a function pointer it declares (called `f(...)`, `(f)(...)`
 * or `(*f)(...)`, which read as no call of a name).
 */
function callsParameterWithThree(paramList: string, body: string, calls: readonly string[]): boolean {
  const pointers = paramList.includes('(*')
    ? [...paramList.matchAll(POINTER_PARAMETER)].map((m) => m[1]!)
    : [];
  const called = calls.filter((name) => paramList.includes(name));
  if (pointers.length === 0 && called.length === 0) return false;
  const declared = new Set([...parameterDeclarations(paramList).map(parameterName), ...pointers]);
  return [...called, ...pointers].some((name) => declared.has(name) && callsWithThreeArguments(name, body));
}

/**
 * Whether `body` calls `name` with three arguments (`name(fd, s, n)`, `(*name)(fd, s, n)`), the count
 * perhaps a call itself (`strlen(s)`, `sizeof(h)`: one level of parentheses in it).
 */
export function callsWithThreeArguments(name: string, body: string): boolean {
  return new RegExp(`[(*\\s]${name}\\s*\\)?\\s*\\([^,()]+,[^,]+,(?:[^,()]|\\([^()]*\\))+\\)`).test(body);
}

/**
 * A definition's specifiers (`qualifiers`, the head's text before the name) without the attributes
 * written after its type: `static int ATTR_NONNULL(1) name(...)`, `void __attribute__((cold)) name(...)`.
 * Such an attribute is a compiler's attribute specifier (`__attribute__`, `__declspec`) or an
 * upper-case macro called there, which a project's header defines as one (or as nothing, for another
 * compiler): the name after it is still the function's. The specifiers as they stand when they end in
 * anything else, or when nothing is left before the attributes (`FOO(x) name(...)`, a macro's use at file
 * level, is no definition this reads).
 */
function withoutTrailingAttributes(qualifiers: string): string {
  let rest = qualifiers;
  for (;;) {
    let end = rest.length - 1;
    while (end >= 0 && isSpace(rest.charCodeAt(end))) end--;
    if (rest[end] !== ')') return rest;
    let depth = 0;
    let open = end;
    for (; open >= 0; open--) {
      const c = rest.charCodeAt(open);
      if (c === 41) depth++;
      else if (c === 40 && --depth === 0) break;
    }
    if (open < 0) return qualifiers;
    let start = open - 1;
    while (start >= 0 && isSpace(rest.charCodeAt(start))) start--;
    const wordEnd = start + 1;
    while (start >= 0 && isWord(rest.charCodeAt(start))) start--;
    const word = rest.slice(start + 1, wordEnd);
    if (!ATTRIBUTE_WORD.test(word)) return qualifiers;
    rest = rest.slice(0, start + 1);
    if (!/\S/.test(rest)) return qualifiers;
  }
}

/** An attribute specifier's keyword, or an upper-case macro's name (a letter in it: not `_`). */
const ATTRIBUTE_WORD = /^(?:__attribute(?:__)?|__declspec|_*[A-Z][A-Z0-9_]*)$/;

/**
 * The function every `return` of the body `clean[open..close]` gives the value of, failure values
 * aside (see {@link CFunctionFact.returnsCall}); undefined when a return gives anything else.
 */
function returnedCall(clean: string, open: number, close: number): string | undefined {
  let callee: string | undefined;
  const returns = /\breturn\b/g;
  returns.lastIndex = open;
  for (let m = returns.exec(clean); m && m.index < close; m = returns.exec(clean)) {
    const semi = clean.indexOf(';', returns.lastIndex);
    if (semi < 0 || semi > close) return undefined;
    let value = clean.slice(returns.lastIndex, semi).trim();
    while (value.startsWith('(') && value.endsWith(')') && balanced(value.slice(1, -1)))
      value = value.slice(1, -1).trim();
    if (FAILURE_VALUE.test(value)) continue;
    const call = CALL_VALUE.exec(value);
    if (!call || KEYWORDS.has(call[1]!) || !balanced(call[2]!)) return undefined;
    if (callee !== undefined && callee !== call[1]) return undefined;
    callee = call[1];
  }
  return callee;
}

/** A failure's value: -1 or a negative constant. */
const FAILURE_VALUE = /^-\s*(?:\d+|[A-Z][A-Z0-9_]*)$/;

/** A call and nothing else: its name and what stands between its outer parentheses. */
const CALL_VALUE = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/;

/** True when the parentheses of `text` pair up. */
function balanced(text: string): boolean {
  let depth = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 40) depth++;
    else if (c === 41 && --depth < 0) return false;
  }
  return depth === 0;
}

/** The index of the `)` that closes the `(` at `open`. */
function end0(text: string, open: number): number {
  let depth = 0;
  for (let k = open; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return k;
  }
  return text.length;
}

/** Type words of a scalar: a parameter of such a type is a copy of the caller's value. */
const SCALAR_WORD =
  /^(const|volatile|register|unsigned|signed|int|long|short|char|bool|_Bool|float|double|size_t|ssize_t|off_t|off64_t|pid_t|uid_t|gid_t|mode_t|time_t|socklen_t|ptrdiff_t|u?intptr_t|u?int(8|16|32|64)_t|u(8|16|32|64)|s(8|16|32|64)|__u(8|16|32|64)|__s(8|16|32|64))$/;

/**
 * Which parameters of a definition's list (`text`, between the parentheses) cannot carry a change
 * back to the caller: a scalar passed by value (`size_t n`, `enum mode m`), or one pointer to `const`
 * (`const char *s`, `char const *s`, `const struct hdr *h`). Anything else may: another pointer, an
 * array, a struct (its pointers still point at the caller's memory), a type the text alone cannot
 * tell (`foo_t x` may be a pointer), and everything after `...`.
 */
export function readOnlyParameters(text: string): number[] {
  const found: number[] = [];
  const params = parameterDeclarations(text);
  params.forEach((param, index) => {
    if (/[([]/.test(param) || param === '...' || param === 'void') return;
    const stars = countOf(param, '*');
    if (stars === 1) {
      if (/\bconst\b/.test(param.slice(0, param.indexOf('*')))) found.push(index);
      return;
    }
    if (stars > 1) return;
    const words = param.split(/\s+/);
    const type = words.length > 1 ? words.slice(0, -1) : words;
    if (type[0] === 'enum' ? type.length === 2 : type.every((w) => SCALAR_WORD.test(w))) found.push(index);
  });
  return found;
}

/**
 * Library functions and macros without a body in the tree that do no output: the catalogue's (also
 * spelled with leading underscores, as `__cpu_to_be32`), and upper-case function-like macros and
 * checksum or digest functions not named like I/O (`MIN`, `ARRAY_SIZE`, `crc32`; `be32_to_cpu` aside).
 */
export function libraryQuiet(name: string): boolean {
  let quiet = libraryAnswers.get(name);
  if (quiet === undefined) {
    // `__cpu_to_be32`, `__builtin_memcpy`: the library's internal spelling of a name it also exports.
    const bare = name.replace(/^__builtin_/, '').replace(/^_+/, '');
    quiet =
      (bare !== name && bare !== '' && libraryQuiet(bare)) ||
      C_LIBRARY_QUIET.has(name) ||
      MESSAGE_CATALOGUE.has(name) ||
      C_PURE_FUNCTIONS.has(name) ||
      C_QUIET_FUNCTIONS.test(name) ||
      ((/^[A-Z][A-Z0-9_]*$/.test(name) || digestName(name)) && !ioName(name));
    // The fact base asks once per call of every function of a tree, most of them for the same few
    // thousand names: the two pattern tests were most of its resolution. Bounded, as a long editing
    // session keeps asking about new names.
    if (libraryAnswers.size >= LIBRARY_ANSWERS) libraryAnswers.clear();
    libraryAnswers.set(name, quiet);
  }
  return quiet;
}

/** {@link libraryQuiet}'s answers so far (the tables it reads are constants). */
const libraryAnswers = new Map<string, boolean>();
const LIBRARY_ANSWERS = 1 << 16;

/**
 * The functions of `facts` that do no output, given `known` (names quiet elsewhere: other files'
 * functions and the library). Read to a fixed point: a function is quiet when everything it calls is,
 * its own file's functions included (mutual recursion stays quiet unless some call in it is not).
 */
export function quietFunctions(
  facts: readonly CFunctionFact[],
  known: (name: string) => boolean,
): Set<string> {
  const own = new Map<string, CFunctionFact>();
  // A name defined twice (under #if alternatives) is quiet only if every definition is.
  const twice = new Set<string>();
  for (const f of facts) {
    if (own.has(f.name)) twice.add(f.name);
    own.set(f.name, f);
  }
  const quiet = new Set(facts.filter((f) => !f.opaque).map((f) => f.name));
  // The names some definition of which is opaque (asked of each name defined twice, every round).
  const opaque = new Set(facts.filter((f) => f.opaque).map((f) => f.name));
  for (const name of opaque) quiet.delete(name);
  for (let changed = true; changed;) {
    changed = false;
    for (const f of facts) {
      if (!quiet.has(f.name)) continue;
      // A wait for its descriptor to take output only is none (see writableWaits.ts).
      const loud = f.calls.some(
        (c) =>
          !(f.awaitsWritable !== undefined && writableWaitCall(c)) &&
          (own.has(c) ? !quiet.has(c) : !known(c)),
      );
      if (loud || (twice.has(f.name) && opaque.has(f.name))) {
        quiet.delete(f.name);
        changed = true;
      }
    }
  }
  return quiet;
}

/**
 * The functions of `facts` that are pure: each reads only ({@link CFunctionFact.readsOnly}) and calls
 * only pure functions, its file's own or those `known` says are (the library's, other files'). A
 * greatest fixed point, as for quietFunctions; a name defined twice is pure only if both are.
 */
export function pureFunctions(
  facts: readonly CFunctionFact[],
  known: (name: string) => boolean,
): Set<string> {
  const own = new Set(facts.map((f) => f.name));
  const pure = new Set(facts.filter((f) => f.readsOnly).map((f) => f.name));
  for (const f of facts) if (!f.readsOnly) pure.delete(f.name);
  // The names found impure, whose callers are looked at again; and each own name's callers. One
  // look at each function, then at the callers of each name that leaves (the rounds over every
  // function until none changed were a visible part of an edit's analysis, twice per keystroke).
  const gone: string[] = [];
  const callers = new Map<string, CFunctionFact[]>();
  for (const f of facts) {
    if (!pure.has(f.name)) continue;
    for (const c of f.calls) if (own.has(c)) (callers.get(c) ?? callers.set(c, []).get(c)!).push(f);
    if (f.calls.some((c) => (own.has(c) ? !pure.has(c) : !known(c)))) pure.delete(f.name);
  }
  for (const name of own) if (!pure.has(name)) gone.push(name);
  while (gone.length > 0) {
    for (const f of callers.get(gone.pop()!) ?? []) {
      if (!pure.has(f.name)) continue;
      pure.delete(f.name);
      gone.push(f.name);
    }
  }
  return pure;
}

/**
 * How many times `char` occurs in `text`. Counted along the text: splitting each parameter at its
 * `*`s was most of the time spent reading a file's parameter lists.
 */
function countOf(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/** Identifier characters: letters, digits, `_`. */
function isWord(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
  );
}

/** The characters after which `^` matches in a multiline pattern. */
function isLineEnd(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * The names called in `text[from..to)`, and whether something is called through a pointer or a member.
 * Read by looking back from each `(`: a search for names followed by `(` tried every character.
 */
function callsIn(
  text: string,
  from: number,
  to: number,
): { calls: string[]; repeated: string[]; opaque: boolean } {
  const calls = new Set<string>();
  const repeated = new Set<string>();
  let opaque = false;
  for (let i = text.indexOf('(', from); i >= 0 && i < to; i = text.indexOf('(', i + 1)) {
    let j = i - 1;
    while (j >= from && isSpace(text.charCodeAt(j))) j--;
    const end = j + 1;
    while (j >= from && isWord(text.charCodeAt(j))) j--;
    if (j + 1 === end) {
      // `(*fn)(x)` calls through a pointer; `(size_t)(a + b)` is a cast.
      if (text[end - 1] === ')') {
        const inner = text.lastIndexOf('(', end - 1);
        if (inner >= from && /^\(\s*\*/.test(text.slice(inner, end))) opaque = true;
      }
      continue;
    }
    const name = text.slice(j + 1, end);
    if (name.charCodeAt(0) <= 57 || KEYWORDS.has(name)) continue;
    let k = j;
    while (k >= from && isSpace(text.charCodeAt(k))) k--;
    if (text[k] === '.' || (text[k] === '>' && text[k - 1] === '-')) opaque = true;
    else if (calls.has(name)) repeated.add(name);
    else calls.add(name);
  }
  return { calls: [...calls], repeated: [...repeated], opaque };
}
