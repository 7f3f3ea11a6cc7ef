// Fix-all picks and applies edits in linear time now; it must pick and produce exactly what the plain
// definition does (compare every chosen edit, replace one edit at a time), on random edit sets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Finding, TextEdit } from 'writev-lint';
import { applyEdits, fixAllEdits } from 'writev-lint/out/analyzer/edits';
import { lineEndingOf, withLineEnding } from 'writev-lint/out/analyzer/fixes/text';

function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/** The definition: a fix joins unless its new edits overlap each other or an edit chosen before. */
function plainFixAllEdits(findings: readonly Finding[]): TextEdit[] {
  const chosen: TextEdit[] = [];
  const key = (e: TextEdit) => `${e.span.start}:${e.span.end}:${e.newText}`;
  const seen = new Set<string>();
  for (const finding of findings) {
    const fresh = (finding.fix?.edits ?? []).filter((e) => !seen.has(key(e)));
    if (fresh.some((e, i) => fresh.some((f, j) => i < j && overlaps(e, f)))) continue;
    if (fresh.some((e) => chosen.some((c) => overlaps(c, e)))) continue;
    for (const e of fresh) {
      seen.add(key(e));
      chosen.push(e);
    }
  }
  return chosen.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

/** The definition: each edit replaced in the text, from the last to the first. */
function plainApply(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end))
    out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

const editArb = fc
  .tuple(fc.nat(60), fc.nat(6), fc.constantFrom('', 'x', '#include <sys/uio.h>\n', 'ab'))
  .map(([start, length, newText]) => ({ span: { start, end: start + length }, newText }));
const findingsArb = fc.array(
  fc
    .array(editArb, { minLength: 1, maxLength: 3 })
    .map((edits) => ({ fix: { title: 't', edits, safety: 'safe' } }) as unknown as Finding),
  { maxLength: 12 },
);

describe('fix-all edits', () => {
  it('leaves out the unsafe fixes unless asked for them (property)', () => {
    const mixedArb = fc.array(
      fc
        .tuple(fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.constantFrom('safe', 'unsafe'))
        .map(([edits, safety]) => ({ fix: { title: 't', edits, safety } }) as unknown as Finding),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(mixedArb, (findings) => {
        const safe = findings.filter((f) => f.fix?.safety === 'safe');
        assert.deepEqual(fixAllEdits(findings), plainFixAllEdits(safe));
        assert.deepEqual(fixAllEdits(findings, true), plainFixAllEdits(findings));
      }),
      { numRuns: 1000 },
    );
  });

  it('chooses the same edits as comparing each with every chosen edit (property)', () => {
    fc.assert(
      fc.property(findingsArb, (findings) => {
        assert.deepEqual(fixAllEdits(findings), plainFixAllEdits(findings));
      }),
      { numRuns: 2000 },
    );
  });

  it('applies non-overlapping edits as replacing them one at a time does (property)', () => {
    fc.assert(
      fc.property(findingsArb, fc.string({ minLength: 70, maxLength: 80 }), (findings, text) => {
        // Fix builders never make overlapping edits, nor two insertions at one place.
        const edits: TextEdit[] = [];
        for (const e of plainFixAllEdits(findings))
          if (e.span.start !== e.span.end && !edits.some((c) => overlaps(c, e))) edits.push(e);
        assert.equal(applyEdits(text, edits), plainApply(text, edits));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the line ending a file uses most, and rewrites inserted breaks with it', () => {
    assert.equal(lineEndingOf('a\r\nb\r\nc\n'), '\r\n');
    assert.equal(lineEndingOf('a\rb\rc\r\n'), '\r');
    assert.equal(lineEndingOf('a\nb\r\nc\n'), '\n');
    assert.equal(lineEndingOf('no break'), '\n');
    assert.equal(withLineEnding('{\n\tx;\r\n}\r', '\r\n'), '{\r\n\tx;\r\n}\r\n');
  });
});
