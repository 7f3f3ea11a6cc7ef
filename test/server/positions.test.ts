// Offsets to LSP positions and back: the line breaks an editor counts, UTF-16 characters, clamping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineIndex } from 'writev-lint';

describe('LineIndex', () => {
  it('counts \\n, \\r\\n and a lone \\r as line breaks, as the editor does', () => {
    const text = 'a\nbb\r\nccc\rd';
    const lines = new LineIndex(text);
    assert.deepEqual(lines.positionAt(text.indexOf('bb')), { line: 1, character: 0 });
    assert.deepEqual(lines.positionAt(text.indexOf('ccc') + 2), { line: 2, character: 2 });
    assert.deepEqual(lines.positionAt(text.indexOf('d')), { line: 3, character: 0 });
    assert.equal(lines.offsetAt({ line: 3, character: 0 }), text.indexOf('d'));
    assert.equal(lines.lineStart(text.indexOf('ccc') + 1), text.indexOf('ccc'));
  });

  it('counts characters in UTF-16 code units (an astral character is two)', () => {
    const text = 'x = "\u{1F600}"; write(1, x, 4);';
    const lines = new LineIndex(text);
    assert.deepEqual(lines.positionAt(text.indexOf('write')), { line: 0, character: 10 });
  });

  it('clamps offsets to the text and characters to their line', () => {
    const lines = new LineIndex('ab\ncd');
    assert.deepEqual(lines.positionAt(-5), { line: 0, character: 0 });
    assert.deepEqual(lines.positionAt(99), { line: 1, character: 2 });
    assert.equal(lines.offsetAt({ line: 0, character: 40 }), 2);
    assert.equal(lines.offsetAt({ line: 7, character: 0 }), 5);
  });
});
