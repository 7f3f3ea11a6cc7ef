// Status codes known by name. C code names its success and failure codes (`#define ERR_NONE 0`,
// `enum { ST_OK = 0, ST_ERR = -1 }`, often in a project header) and tests a helper's result against the
// name (`if (put(fd, s, n) != ST_OK)`, `== RET_FAIL`) or returns it (`return ST_OK;`). Where the file or
// a header it includes gives a name the value 0 or -1, a test or a return of the name reads as it would
// with the number: `!= ST_OK` is `!= 0`, the bare status test of a helper that is 0 on success.

import { lineMatches } from './lineMatches';
import { uncast } from './castConstants';

/**
 * `#define NAME value` with an integer value (in parentheses or not), on one line (sticky: see
 * lineMatches).
 */
const OBJECT_DEFINE =
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*(-?[ \t]*\d+)[uUlL]*[ \t]*\)?[ \t]*(?:\/[*/].*)?$/my;

/**
 * `#define NAME value` whose value casts an integer to an integer type (`((size_t)-1)`: see
 * castConstants.ts), on one line (sticky).
 */
const CAST_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(\([^\n/]*\))[ \t]*(?:\/[*/].*)?$/my;

/** A `)` before `-1`, as a cast of -1 (or of `(-1)`) is spelled. */
const CAST_MINUS_ONE = /\)[ \t]*\(?[ \t]*-[ \t]*1\b/;

/** An enum's member list: `enum [tag] { ... }`. */
const ENUM_BODY = /\benum\b[^{;()]*\{([^{}]*)\}/g;

/** Comments and preprocessor lines inside an enum's member list. */
const ENUM_NOISE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|^[ \t]*#[^\n]*/gm;

/** One enum member: its name and, if given, an integer initializer. */
const MEMBER = /^([A-Za-z_]\w*)(?:\s*=\s*(?:\(\s*)?(-?\s*\d+)[uUlL]*(?:\s*\))?|\s*=[\s\S]*)?$/;

/** The values a name may be given that make it a status code here: success 0, failure -1. */
const STATUS_VALUES: ReadonlySet<number> = new Set([0, -1]);

/**
 * The names `text` defines as the integer 0 or -1, with the value: object-like `#define`s and enum
 * members (explicit, or counted from the member before, the first one 0). A name `text` defines more
 * than once with different values (`#if` alternatives, two enums) is left out, as is one defined with
 * any other value: which one a build sees the text does not say. The text is read as written, without
 * preprocessing.
 */
export function statusConstants(text: string): ReadonlyMap<string, number> {
  // A file's analysis asks, and then what it gives its includers (a header's codes, a source file's
  // uses of codes it does not define) asks again of the same text.
  if (text === lastConstants.text) return lastConstants.found;
  const found = new Map<string, number>();
  for (const [name, value] of integerConstants(text)) if (STATUS_VALUES.has(value)) found.set(name, value);
  lastConstants = { text, found };
  return found;
}

/** {@link statusConstants}'s last answer. */
let lastConstants: { text: string; found: ReadonlyMap<string, number> } = { text: '', found: new Map() };

/**
 * The names `text` gives one integer value, with the value: object-like `#define`s of an integer (or
 * of a cast of -1) and enum members (explicit, or counted from the member before, the first one 0). A
 * name defined more than once with different values is left out. The text is read as written.
 */
export function integerConstants(text: string): ReadonlyMap<string, number> {
  if (text === lastIntegers.text) return lastIntegers.found;
  const values = new Map<string, number | null>();
  const give = (name: string, value: number) => {
    const before = values.get(name);
    values.set(name, before === undefined || before === value ? value : null);
  };
  if (text.includes('define'))
    for (const m of lineMatches(text, 'define', OBJECT_DEFINE))
      give(m[1]!, Number(m[2]!.replace(/\s+/g, '')));
  // Only -1 is a status value a cast is put on (`(size_t)-1`): the file must spell a cast of it.
  if (text.includes('define') && CAST_MINUS_ONE.test(text))
    for (const m of lineMatches(text, 'define', CAST_DEFINE)) {
      const value = uncast(m[2]!);
      if (value !== m[2]! && !value.includes('(')) give(m[1]!, Number(value));
    }
  if (text.includes('enum'))
    for (const m of text.matchAll(ENUM_BODY)) {
      let next: number | undefined = 0;
      for (const item of m[1]!.replace(ENUM_NOISE, ' ').split(',')) {
        const member = MEMBER.exec(item.trim());
        if (!member) {
          // Not one member (an attribute, an unbalanced list): the count is lost from here.
          if (item.trim() !== '') next = undefined;
          continue;
        }
        const explicit = member[2];
        // `= EXPR` other than an integer: the value is not known, nor those counted from it.
        const value =
          explicit !== undefined
            ? Number(explicit.replace(/\s+/g, ''))
            : item.includes('=')
              ? undefined
              : next;
        if (value !== undefined) give(member[1]!, value);
        next = value === undefined ? undefined : value + 1;
      }
    }
  const found = new Map<string, number>();
  for (const [name, value] of values) if (value !== null) found.set(name, value);
  lastIntegers = { text, found };
  return found;
}

/** {@link integerConstants}'s last answer. */
let lastIntegers: { text: string; found: ReadonlyMap<string, number> } = { text: '', found: new Map() };

/**
 * `text` with a name `codes` knows replaced by its value (`ST_OK` gives `0`), or `text` itself:
 * what a test or a return of the name compares with.
 */
export function codeText(text: string, codes: ReadonlyMap<string, number> | undefined): string {
  const value = codes?.get(text);
  return value === undefined ? uncast(text) : String(value);
}

/** An upper-case name compared with (`!= ST_OK`), returned (`return ST_OK`) or assigned (`= ST_OK`). */
const CODE_USE = /(?:[!=]=|\breturn\b|(?<![=!<>+\-*/%&|^])=)\s*\(?\s*([A-Z][A-Z0-9_]*)\b(?!\s*\()/g;

/**
 * The upper-case names `text` compares a value with, returns or assigns, that it does not define as a
 * code itself: where a header of the tree gives one of them 0 or -1, the file reads differently with
 * that header's codes (the batch run's second pass asks for them). Each name once.
 */
export function codeUses(text: string): string[] {
  const own = statusConstants(text);
  const found = new Set<string>();
  for (const m of codeUseMatches(text)) if (!own.has(m[1]!)) found.add(m[1]!);
  return [...found];
}

/** {@link CODE_USE} read where it is tried (sticky). */
const CODE_USE_HERE = new RegExp(CODE_USE.source, 'y');

/**
 * The matches of {@link CODE_USE} in `text`, as its global search finds them, tried only where one can
 * start (a `=`, a `!`, a `return`): the search tried every character of every file, a visible part of
 * reading the whole tree.
 */
function codeUseMatches(text: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  let equals = text.indexOf('=');
  let not = text.indexOf('!');
  let ret = text.indexOf('return');
  for (;;) {
    let at = equals;
    if (not >= 0 && (at < 0 || not < at)) at = not;
    if (ret >= 0 && (at < 0 || ret < at)) at = ret;
    if (at < 0) return found;
    CODE_USE_HERE.lastIndex = at;
    const m = CODE_USE_HERE.exec(text);
    // Past the match, or past this place: matches do not overlap, as the global search's do not.
    const next = m ? CODE_USE_HERE.lastIndex : at + 1;
    if (m) found.push(m);
    if (equals >= 0 && equals < next) equals = text.indexOf('=', next);
    if (not >= 0 && not < next) not = text.indexOf('!', next);
    if (ret >= 0 && ret < next) ret = text.indexOf('return', next);
  }
}
