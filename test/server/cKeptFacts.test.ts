// The function facts of an edited document are read again only where its text changed (keptFacts.ts):
// after any sequence of edits they must equal a fresh reading of the same text. Random edits, most of
// them next to a brace or at the edge of how far back a definition's head is read, where reusing a
// reading too eagerly would show.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CAnalyzer } from 'writev-lint/out/analyzer/c/analyzeC';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';
import { KeptFacts } from 'writev-lint/out/analyzer/c/keptFacts';
import { CParser, loadCLanguage } from 'writev-lint/out/analyzer/c/parser';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { FIXTURES } from './helpers';

/** The largest C fixtures: the most definitions to reuse or read again. */
function largestFixtures(count: number): string[] {
  const dir = join(FIXTURES, 'c');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.c'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)
    .slice(0, count);
}

/** What an edit inserts: the characters that open, close or hide definitions, and plain ones. */
const PIECES = ['{', '}', '(', ')', '/*', '*/', '"', "'", '#', '\n', ';', '=', 'x', ' ', '\\\n'];
const MORE = ['#define f(x) g(x)\n', 'static ', 'int f(void) {', 'const char *', '->', 'extern "C" {'];

/** Random edits of `text` from a seed: each call returns the next version. */
function editor(text: string, seed: number): () => string {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return () => {
    let at = Math.floor(random() * text.length);
    if (random() < 0.6) {
      // Next to a brace, or where the reach of the head of the definition at that brace ends.
      const brace = text.indexOf(random() < 0.5 ? '{' : '}', at);
      if (brace >= 0) at = Math.max(0, brace + Math.floor(random() * 5) - 2 - (random() < 0.3 ? 1001 : 0));
    }
    const kind = random();
    if (kind < 0.45) text = text.slice(0, at) + pick([...PIECES, ...MORE]) + text.slice(at);
    else if (kind < 0.75) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 5));
    else if (kind < 0.8) text = text.slice(0, at) + text.slice(at + 2000);
    else if (kind < 0.95) text = text.slice(0, at) + pick(PIECES) + text.slice(at + 1);
    // Otherwise the same text again (an analysis of the same version).
    return text;
  };
}

describe('C function facts kept across edits', () => {
  it('equal a fresh reading after every edit of real-sized files', () => {
    for (const [n, file] of largestFixtures(4).entries()) {
      const kept = new KeptFacts();
      const next = editor(readFileSync(file, 'utf8'), 17 + n);
      for (let edit = 0; edit < 250; edit++) {
        const text = next();
        assert.deepEqual(kept.facts('doc', text), cFunctionFacts(text), `${file}, edit ${edit}`);
      }
    }
  });

  it('are kept per document, and a closed document starts afresh', () => {
    const kept = new KeptFacts();
    const a = 'static int one(int fd) { return put(fd); }\n';
    const b = 'static int two(const char *s) { x = 1; return other(s); }\n';
    assert.deepEqual(kept.facts('a', a), cFunctionFacts(a));
    assert.deepEqual(kept.facts('b', b), cFunctionFacts(b));
    assert.deepEqual(kept.facts('a', a + b), cFunctionFacts(a + b));
    kept.forget('a');
    assert.deepEqual(kept.facts('a', b + a), cFunctionFacts(b + a));
  });

  it('give an edited document the findings a fresh analysis finds', async () => {
    const parser = new CParser(await loadCLanguage());
    const editing = new CAnalyzer(parser);
    const [file] = largestFixtures(1);
    const next = editor(readFileSync(file!, 'utf8'), 5);
    for (let edit = 0; edit < 12; edit++) {
      const text = next();
      const reader = new CAnalyzer(parser);
      const fresh = reader.analyze(text, DEFAULT_SETTINGS, 'fresh');
      reader.forget('fresh');
      const found = editing.analyze(text, DEFAULT_SETTINGS, 'doc');
      assert.deepEqual(found.functions, fresh.functions, `edit ${edit}`);
      assert.deepEqual(found.findings, fresh.findings, `edit ${edit}`);
    }
  });
});
