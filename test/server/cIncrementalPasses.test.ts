// The whole-text passes an edited document's analysis makes at every keystroke keep what they found
// in the text before and search again only the lines an edit changed (head words, declaration macros,
// writer-word calls, the blanked text and macros of the silent-call reading). After any run of edits,
// each must give what a fresh pass over the same text gives: a second copy of each module, whose
// state is set back to an empty text before each version, reads each version afresh (from an empty
// text, every line is a changed line). Random edits of every fixture, most of them characters that
// open or close comments, literals, directives, heads and statements.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { pureFunctions, type CFunctionFact } from 'writev-lint/out/analyzer/c/functionFacts';
import { changedLines, changedLinesFree, lineByLine } from 'writev-lint/out/analyzer/c/textChanges';
import { FIXTURES } from './helpers';

/** Every C source and header under the fixtures. */
function fixtureFiles(dir = FIXTURES): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) return fixtureFiles(path);
    return /\.[ch]$/.test(f) ? [path] : [];
  });
}

/** What an edit inserts. */
const PIECES = [
  '{',
  '}',
  '(',
  ')',
  ';',
  '\n',
  ' ',
  'x',
  '/*',
  '*/',
  '"',
  "'",
  '#',
  '\\',
  '*',
  '\n\n',
  'a\n',
  'if (n) ',
  'static ',
  'UNUSED ',
  ') {',
  'int',
  ' write',
  'send_it(1, b, n)',
  'write_in_full(fd, "x", 1);\n',
  '#define W(a, b) xwrite(a, b, 1)\n',
  'wait_for(fd) { poll(fd); }\n',
];

/**
 * A module loaded anew, with the modules of `alsoFresh` it imports (those keeping a state of their
 * own): its own copy of every state they keep. The copies cached before stay cached.
 */
function freshCopy<T>(path: string, alsoFresh: readonly string[] = []): T {
  const paths = [path, ...alsoFresh].map((p) => require.resolve(p));
  const cached = paths.map((p) => require.cache[p]);
  for (const p of paths) delete require.cache[p];
  try {
    return require(paths[0]!) as T;
  } finally {
    paths.forEach((p, k) => {
      if (cached[k]) require.cache[p] = cached[k];
      else delete require.cache[p];
    });
  }
}

/** A seed for `path`'s random edits (FNV-1a of its characters, below the generator's modulus). */
function seedOf(path: string): number {
  let hash = 2166136261;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 16777619) >>> 0;
  return hash % 2147483648;
}

/** Runs `edits` random edits of each fixture through `incremental`, each version checked against `fresh`. */
function checkEdits(
  name: string,
  incremental: (text: string) => string,
  fresh: (text: string) => string,
  edits = 12,
): number {
  let compared = 0;
  for (const file of fixtureFiles()) {
    // Each file's edits come from a stream of its own, seeded by its path: a fixture added or changed
    // elsewhere leaves them as they were, so a failure here is this file's.
    let seed = seedOf(relative(FIXTURES, file));
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let text = readFileSync(file, 'utf8');
    incremental(text);
    for (let edit = 0; edit < edits; edit++) {
      const at = random(text.length + 1);
      text = text.slice(0, at) + PIECES[random(PIECES.length)]! + text.slice(at + random(5));
      assert.equal(incremental(text), fresh(text), `${name}: ${file}, edit ${edit}`);
      compared++;
    }
  }
  return compared;
}

type Parser = typeof import('writev-lint/out/analyzer/c/parser');
type CallSites = typeof import('writev-lint/out/analyzer/c/callSiteWriters');
type SilentCalls = typeof import('writev-lint/out/analyzer/c/silentCalls');

describe('whole-text passes after edits', () => {
  it('blank the text as a fresh blanking does (head words, declaration macros)', () => {
    const editing = freshCopy<Parser>('writev-lint/out/analyzer/c/parser', [
      'writev-lint/out/analyzer/c/headWords',
    ]);
    const reading = freshCopy<Parser>('writev-lint/out/analyzer/c/parser', [
      'writev-lint/out/analyzer/c/headWords',
    ]);
    const pattern = /\b(?:UNUSED|NORETURN|MAYBE_UNUSED)\b/g;
    const compared = checkEdits(
      'blankMacros',
      (t) => editing.blankMacros(t, pattern),
      (t) => {
        reading.blankMacros('', pattern);
        return reading.blankMacros(t, pattern);
      },
    );
    assert.ok(compared > 1000, `versions compared: ${compared}`);
  });

  it('find the calls of writer-named helpers a fresh search finds', () => {
    const editing = freshCopy<CallSites>('writev-lint/out/analyzer/c/callSiteWriters');
    const reading = freshCopy<CallSites>('writev-lint/out/analyzer/c/callSiteWriters');
    const known = (name: string) => name.length % 3 === 0;
    const read = (m: CallSites, t: string) => JSON.stringify(m.callSiteWriters(t, known, () => new Map()));
    checkEdits(
      'callSiteWriters',
      (t) => read(editing, t),
      (t) => {
        read(reading, '');
        return read(reading, t);
      },
    );
  });

  it('read the parameters each function writes nothing to as a fresh reading does', () => {
    const editing = freshCopy<SilentCalls>('writev-lint/out/analyzer/c/silentCalls');
    const reading = freshCopy<SilentCalls>('writev-lint/out/analyzer/c/silentCalls');
    const quiet = (name: string) => name.length % 2 === 0;
    // Every name the text calls, as a helper's reading asks.
    const read = (m: SilentCalls, t: string) => {
      const silent = m.silentParameters(t, quiet);
      const names = [...new Set([...t.matchAll(/([A-Za-z_]\w*)\s*\(/g)].map((c) => c[1]!))].slice(0, 40);
      return JSON.stringify(
        names.map((n) => {
          try {
            return [n, ...(silent(n) ?? ['none'])];
          } catch (error) {
            // A macro's parameter list the reading cannot take (an edit's garbage): both must fail alike.
            return [n, (error as Error).message];
          }
        }),
      );
    };
    checkEdits(
      'silentParameters',
      (t) => read(editing, t),
      (t) => {
        read(reading, 'x();');
        return read(reading, t);
      },
    );
  });
});

describe('changed lines', () => {
  it('are the whole lines an edit touched, the rest the same in both versions', () => {
    const before = 'one\ntwo three\nfour\n';
    const after = 'one\ntwo 3 three\nfour\n';
    const change = changedLines(before, after)!;
    assert.deepEqual(change, { start: 4, beforeEnd: 13, afterEnd: 15 });
    assert.equal(after.slice(change.start, change.afterEnd), 'two 3 three');
    assert.equal(changedLines(before, before), undefined);
    // An edit at the very end, with no line end after it.
    assert.deepEqual(changedLines('a\nb', 'a\nbc'), { start: 2, beforeEnd: 3, afterEnd: 4 });
    // An edit at the very start of a text that opens with a line end: the first line is changed.
    assert.deepEqual(changedLines('\n\nx\n', 'w();\n\nx\n'), { start: 0, beforeEnd: 0, afterEnd: 4 });
  });

  it('hold no comment, literal or directive character, and continue no line before', () => {
    const free = (before: string, after: string) =>
      changedLinesFree(before, after, changedLines(before, after)!, /[/*"'#\\]/);
    assert.equal(free('int a;\nint b;\n', 'int a;\nint bc;\n'), true);
    assert.equal(free('int a;\nint b;\n', 'int a;\nint b; /*\n'), false);
    assert.equal(free('int a;\nint "b";\n', 'int a;\nint "bc";\n'), false);
    assert.equal(free('#define A(x) \\\n  f(x)\n', '#define A(x) \\\n  g(x)\n'), false);
  });

  it('let a line-by-line pass work on the changed lines only, its answer the same', () => {
    let passed = '';
    const upper = lineByLine((text) => {
      passed = text;
      return text.replace(/x/g, 'X');
    });
    assert.equal(upper('ax\nb\ncx\n'), 'aX\nb\ncX\n');
    assert.equal(upper('ax\nbx\ncx\n'), 'aX\nbX\ncX\n');
    assert.equal(passed, 'bx');
    assert.equal(upper('ax\nbx\ncx\n'), 'aX\nbX\ncX\n');
  });
});

describe('pure functions', () => {
  /** The rounds over every function until none changes: the greatest fixed point, read plainly. */
  function byRounds(facts: readonly CFunctionFact[], known: (name: string) => boolean): Set<string> {
    const own = new Set(facts.map((f) => f.name));
    const pure = new Set(facts.filter((f) => f.readsOnly).map((f) => f.name));
    for (const f of facts) if (!f.readsOnly) pure.delete(f.name);
    for (let changed = true; changed;) {
      changed = false;
      for (const f of facts) {
        if (pure.has(f.name) && f.calls.some((c) => (own.has(c) ? !pure.has(c) : !known(c)))) {
          pure.delete(f.name);
          changed = true;
        }
      }
    }
    return pure;
  }

  it('are those the rounds to a fixed point find, in random call graphs', () => {
    let seed = 3;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let graph = 0; graph < 300; graph++) {
      // Names defined once or twice, calling each other, known library names and unknown ones.
      const names = Array.from({ length: 1 + random(12) }, (_, k) => `f${k}`);
      const callees = [...names, 'lib_pure', 'lib_other'];
      const facts: CFunctionFact[] = Array.from({ length: names.length + random(3) }, (_, k) => ({
        name: names[k % names.length]!,
        exported: false,
        calls: Array.from({ length: random(4) }, () => callees[random(callees.length)]!),
        opaque: false,
        ...(random(5) > 0 && { readsOnly: true as const }),
      }));
      const known = (name: string) => name === 'lib_pure';
      assert.deepEqual([...pureFunctions(facts, known)], [...byRounds(facts, known)], `graph ${graph}`);
    }
  });
});
