// Weak definitions: `int hook(void) __attribute__((weak));` before `int hook(void) { ... }`, or
// `#pragma weak hook`. The linker keeps such a body only where no other object file defines the name:
// a library's default (a libc's `puts` helper writing to fd 1, which the stdio object's own definition
// replaces once stdio is linked), a firmware's empty hook a board file fills in. So where another file of
// the tree defines the name without the attribute, the weak body says nothing of what a call does, in
// its own file or any other: that definition decides (see WrapperIndex's replaced definitions). A weak
// body alone in the tree is what the tree's programs link, and is read as any body is.
//
// Read from the text alone, as the function facts are (see functionFacts.ts): the attribute on a
// declaration or a definition of the name, spelled directly or through an object-like macro the file
// defines as it (`#define WEAK __attribute__((weak))`), and `#pragma weak name` (`name = target` too:
// the alias is the weak name).
import type { CFunctionFact } from './functionFacts';

/** An attribute list naming `weak` (`__attribute__((weak))`, `((__weak__, alias(...)))`). */
const WEAK_ATTRIBUTE = /__attribute__\s*\(\((?:[^()]|\([^()]*\))*?\b(?:__)?weak(?:__)?\b/g;

/** `#pragma weak name` (and `name = target`). */
const WEAK_PRAGMA = /^[ \t]*#[ \t]*pragma[ \t]+weak[ \t]+([A-Za-z_]\w*)/gm;

/** An object-like macro whose whole body is such an attribute list (`#define WEAK __attribute__((weak))`). */
const WEAK_MACRO = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(__attribute__\s*\(\([^\n]*\)\))[ \t]*$/gm;

/** Names before `(` that are no declared function's. */
const NOT_NAMES = new Set(['__attribute__', '__declspec', '__asm__', 'asm', '__asm', 'alias', 'section']);

/**
 * The functions `clean` (a C text, comments and literals blanked as cFunctionFacts blanks them)
 * declares or defines weak. Empty for most files: the text is searched for the word first.
 */
export function weakNames(clean: string): Set<string> {
  const names = new Set<string>();
  // Every spelling read below holds the word in lower case (a macro's too: its body is an attribute
  // list naming it), and a plain search is cheaper than a case-blind one over every file.
  if (!clean.includes('weak')) return names;
  for (const m of clean.matchAll(WEAK_PRAGMA)) names.add(m[1]!);
  const spellings = [WEAK_ATTRIBUTE.source];
  for (const m of clean.matchAll(WEAK_MACRO)) {
    WEAK_ATTRIBUTE.lastIndex = 0;
    if (WEAK_ATTRIBUTE.test(m[2]!)) spellings.push(`\\b${m[1]!}\\b(?!\\s*\\()`);
  }
  WEAK_ATTRIBUTE.lastIndex = 0;
  const uses = new RegExp(spellings.join('|'), 'g');
  for (const m of clean.matchAll(uses)) {
    if (directiveLine(clean, m.index)) continue;
    const name = declaredName(clean, m.index, m.index + m[0].length);
    if (name !== undefined) names.add(name);
  }
  return names;
}

/**
 * `facts` with those of the functions `clean` declares weak marked {@link CFunctionFact.weak}
 * (the same array when it declares none).
 */
export function markedWeak(clean: string, facts: CFunctionFact[]): CFunctionFact[] {
  const weak = weakNames(clean);
  if (weak.size === 0) return facts;
  return facts.map((f) => (weak.has(f.name) && f.exported && !f.weak ? { ...f, weak: true as const } : f));
}

/** True when `at` stands on a preprocessor line (a macro's own definition). */
function directiveLine(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*#/.test(text.slice(start, at));
}

/**
 * The function the declaration or definition holding `clean[from..to)` names: the statement around it
 * runs from the previous `;`, brace or directive line to the next `;` or `{`; its name is the word
 * before the first `(` that is not an attribute's (a declarator's parenthesised name aside).
 */
function declaredName(clean: string, from: number, to: number): string | undefined {
  let start = from;
  while (start > 0) {
    const c = clean[start - 1];
    if (c === ';' || c === '{' || c === '}') break;
    if (c === '\n' && directiveLine(clean, start - 1)) break;
    start--;
  }
  let end = to;
  while (end < clean.length && clean[end] !== ';' && clean[end] !== '{') end++;
  // The attribute lists blanked (their parentheses are no parameter list).
  const statement = clean.slice(start, end).replace(/__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)/g, ' ');
  for (const m of statement.matchAll(/([A-Za-z_]\w*)\s*\(/g)) {
    if (NOT_NAMES.has(m[1]!)) continue;
    return m[1];
  }
  return undefined;
}

/**
 * The weak definitions of `files` (each file's function facts) that another file's definition
 * replaces: by file, the names whose weak body there is not the one linked. A definition replaces a
 * weak one when it is exported and not weak itself, in another file (a file defining a name both ways
 * under `#if` alternatives replaces nothing). Empty when no file declares a function weak.
 */
export function replacedDefinitions(
  files: Iterable<readonly [string, readonly CFunctionFact[] | undefined]>,
): Map<string, Set<string>> {
  const weak: [string, string][] = [];
  const strong = new Map<string, string | null>();
  for (const [file, facts] of files)
    for (const f of facts ?? []) {
      if (!f.exported) continue;
      if (f.weak) weak.push([file, f.name]);
      // A name's one strong file, or null once a second file defines it strong too.
      else if (strong.get(f.name) !== file) strong.set(f.name, strong.has(f.name) ? null : file);
    }
  const replaced = new Map<string, Set<string>>();
  for (const [file, name] of weak) {
    const by = strong.get(name);
    if (by === undefined || by === file) continue;
    const names = replaced.get(file);
    if (names) names.add(name);
    else replaced.set(file, new Set([name]));
  }
  return replaced;
}
