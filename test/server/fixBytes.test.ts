// writev-lint --fix changes only the bytes of its edits: Latin-1 bytes, a UTF-8 BOM and the file's
// line endings survive, checked on the files on disk (and with gcc), and by a property test that
// feeds random bytes in random encodings and line-ending mixes through --fix on C and TS files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { main } from 'writev-lint/out/cli/main';
import { FIXTURES } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-fixbytes-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function fix(...paths: string[]): Promise<{ status: number; err: string }> {
  let err = '';
  // Every fix, the unsafe ones too: each must keep the bytes it does not edit.
  const status = await main(
    ['--fix', '--unsafe-fixes', ...paths],
    { out: () => undefined, err: (t) => (err += t) },
    tmp,
  );
  return { status, err };
}

function gcc(file: string): string {
  const result = spawnSync(
    'gcc',
    ['-fsyntax-only', '-std=gnu11', '-Wall', '-Werror', '-I', join(FIXTURES, 'c'), file],
    { encoding: 'utf8' },
  );
  return result.status === 0 ? '' : `${result.stderr}${result.error?.message ?? ''}`;
}

/** A C function with two writes that --fix gathers (its text changes; the rest must not). */
const SEQUENCE = (name: string, eol: string) =>
  [
    `void ${name}(int fd, const char *buf, size_t len)`,
    '{',
    '\tif (write_in_full(fd, "a", 1) < 0)',
    '\t\tdie("short write");',
    '\tif (write_in_full(fd, buf, len) < 0)',
    '\t\tdie("short write");',
    '}',
    '',
  ].join(eol);

describe('writev-lint --fix keeps every byte it does not edit', () => {
  it('keeps Latin-1 bytes in a string literal and a comment (no U+FFFD)', async () => {
    const file = join(tmp, 'latin1.c');
    const head = Buffer.from(
      '#include "git-style.h"\n/* caf\xe9 cr\xe8me */\nconst char *s = "\xe9t\xe9";\n',
      'latin1',
    );
    writeFileSync(file, Buffer.concat([head, Buffer.from(SEQUENCE('emit_record', '\n'))]));
    const { status, err } = await fix(file);
    assert.equal(status, 0, err);
    const after = readFileSync(file);
    assert.ok(after.includes(Buffer.from('/* caf\xe9 cr\xe8me */', 'latin1')), 'comment bytes kept');
    assert.ok(after.includes(Buffer.from('"\xe9t\xe9"', 'latin1')), 'string literal bytes kept');
    assert.ok(!after.includes(Buffer.from('\ufffd')), 'no replacement character');
    assert.match(after.toString('latin1'), /writev_in_full\(fd, iov, 2\)/);
  });

  it('keeps a UTF-8 BOM first, and the fixed file compiles', async () => {
    const file = join(tmp, 'bom.c');
    const source = `\ufeff/* caf\u00e9 */\n${SEQUENCE('emit_record', '\n')}`.replace(
      '/*',
      '#include "git-style.h"\n/*',
    );
    writeFileSync(file, source);
    assert.equal(gcc(file), '', 'compiles before');
    const { status, err } = await fix(file);
    assert.equal(status, 0, err);
    const after = readFileSync(file);
    assert.deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(after.indexOf(Buffer.from([0xef, 0xbb, 0xbf]), 3), -1, 'one BOM only');
    assert.match(after.toString('utf8'), /^\ufeff#include "git-style.h"\n/);
    assert.equal(gcc(file), '', 'compiles after');
  });

  it('puts the include on a line of its own in a BOM file without includes', async () => {
    const file = join(tmp, 'bom-noinclude.c');
    writeFileSync(file, `\ufeff${SEQUENCE('emit_record', '\n')}`);
    await fix(file);
    assert.match(readFileSync(file, 'utf8'), /^\ufeff#include <sys\/uio\.h>\nvoid emit_record/);
  });

  it('writes inserted lines with CRLF in a CRLF file and keeps the include line whole', async () => {
    const file = join(tmp, 'crlf.c');
    writeFileSync(
      file,
      `#include "git-style.h"\r\n#include <unistd.h>\r\n\r\n${SEQUENCE('emit_record', '\r\n')}`,
    );
    const { status, err } = await fix(file);
    assert.equal(status, 0, err);
    const after = readFileSync(file, 'latin1');
    assert.match(after, /^#include "git-style.h"\r\n#include <unistd.h>\r\n#include <sys\/uio.h>\r\n\r\n/);
    assert.equal(after.replace(/\r\n/g, '').search(/[\r\n]/), -1, 'every line ends with CRLF');
    assert.match(after, /writev_in_full\(fd, iov, 2\)/);
    assert.equal(gcc(file), '');
  });

  it('indents a fix in a file of lone CR line endings as in the same file with LF', async () => {
    const text = (eol: string) =>
      `#include "git-style.h"${eol}#include <unistd.h>${eol}${eol}${SEQUENCE('emit_record', eol)}`;
    const lf = join(tmp, 'lf-indent.c');
    const cr = join(tmp, 'cr-indent.c');
    writeFileSync(lf, text('\n'));
    writeFileSync(cr, text('\r'));
    const { status, err } = await fix(lf, cr);
    assert.equal(status, 0, err);
    const fixedLf = readFileSync(lf, 'latin1');
    assert.match(fixedLf, /\n\t\tif \(writev_in_full\(fd, iov, 2\) < 0\)/);
    assert.equal(readFileSync(cr, 'latin1'), fixedLf.replace(/\n/g, '\r'));
  });

  it('adds a line break before the include when the last include ends the file without one', async () => {
    const file = join(tmp, 'lastline.c');
    writeFileSync(file, `${SEQUENCE('emit_record', '\n')}#include "git-style.h"`);
    await fix(file);
    assert.match(readFileSync(file, 'utf8'), /\n#include "git-style.h"\n#include <sys\/uio.h>$/);
  });
});

/** Pieces of a generated file: text that must come back byte for byte, and the edited sequences. */
type Piece = { keep: Buffer } | { sequence: string };

const eolArb = fc.constantFrom('\n', '\r\n', '\r');
/** Random bytes for inside a block comment: anything but NUL and the comment's end. */
const commentBytes = (latin1: boolean) =>
  latin1
    ? fc.uint8Array({ minLength: 0, maxLength: 40 }).map((a) =>
        Buffer.from(a.filter((b) => b !== 0))
          .toString('latin1')
          .replace(/\*\//g, '* /'),
      )
    : fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/\0/g, '').replace(/\*\//g, '* /'));

/**
 * A C or TS file: a header ending in an include or import line, then comments and string literals
 * with random bytes between functions that --fix rewrites, each line with a random line ending.
 */
function fileArb(language: 'c' | 'ts') {
  return fc
    .record({
      latin1: fc.boolean(),
      bom: fc.boolean(),
      eol: eolArb,
      strayEols: fc.array(eolArb, { minLength: 8, maxLength: 8 }),
      functions: fc.integer({ min: 1, max: 4 }),
    })
    .chain((shape) =>
      fc
        .array(fc.tuple(commentBytes(shape.latin1), commentBytes(shape.latin1)), {
          minLength: shape.functions,
          maxLength: shape.functions,
        })
        .map((texts) => ({ shape, texts, language })),
    );
}

function build(input: {
  shape: { latin1: boolean; bom: boolean; eol: string; strayEols: string[] };
  texts: [string, string][];
  language: 'c' | 'ts';
}): {
  bytes: Buffer;
  pieces: Piece[];
} {
  const { shape, texts, language } = input;
  const encoding = shape.latin1 ? 'latin1' : 'utf8';
  const pieces: Piece[] = [];
  const keep = (text: string) => pieces.push({ keep: Buffer.from(text, encoding) });
  const eol = shape.eol;
  const stray = (i: number) => shape.strayEols[i % shape.strayEols.length];
  if (language === 'c') keep(`#include "git-style.h"${eol}`);
  // The import the fix adds goes after this statement, before its line break.
  else keep(`import * as fs from 'node:fs';`);
  texts.forEach(([comment, literal], i) => {
    const quoted = literal.replace(/[\\"'`\r\n\u2028\u2029]/g, '_');
    if (language === 'c') {
      keep(`/* ${comment} */${stray(i)}static const char *text${i} = "${quoted}";${eol}`);
      pieces.push({ sequence: SEQUENCE(`emit_record${i}`, eol) });
    } else {
      keep(
        `${i === 0 ? eol : ''}/* ${comment} */${stray(i)}export const text${i} = "${quoted}";${stray(i + 1)}fs.closeSync(${i});${eol}`,
      );
      pieces.push({
        sequence: [
          `export function send${i}(fd: number, buf: Buffer): void {`,
          "  fs.writeSync(fd, 'a');",
          '  fs.writeSync(fd, buf);',
          '}',
          '',
        ].join(eol),
      });
    }
  });
  keep(`/* end */${eol}`);
  const body = Buffer.concat(pieces.map((p) => ('keep' in p ? p.keep : Buffer.from(p.sequence, encoding))));
  return { bytes: shape.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body, pieces };
}

describe('writev-lint --fix on random bytes and encodings (property)', () => {
  for (const language of ['c', 'ts'] as const) {
    it(`changes only the edited ranges of ${language === 'c' ? 'C' : 'TS'} files`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fileArb(language), async (input) => {
          const { bytes, pieces } = build(input);
          const file = join(tmp, `fuzz${n++}.${language}`);
          writeFileSync(file, bytes);
          const { status, err } = await fix(file);
          assert.ok(status === 0 || status === 1, err);
          const after = readFileSync(file);
          // The BOM, then each kept piece in order, byte for byte; only sequences may change, and
          // what the fix wrote between them uses the file's line ending on every line.
          let at = 0;
          if (input.shape.bom) {
            assert.deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
            at = 3;
          }
          const breaks = new Set<string>();
          for (const piece of pieces) {
            if (!('keep' in piece)) continue;
            const found = after.indexOf(piece.keep, at);
            assert.ok(
              found >= at,
              `kept bytes ${JSON.stringify(piece.keep.toString('latin1'))} found in order`,
            );
            for (const b of after
              .subarray(at, found)
              .toString('latin1')
              .match(/\r\n|\r|\n/g) ?? [])
              breaks.add(b);
            at = found + piece.keep.length;
          }
          assert.equal(at, after.length, 'the file ends with its own last bytes');
          assert.deepEqual([...breaks], [input.shape.eol], 'the line ending of the fixed lines');
          assert.match(
            after.toString('latin1'),
            language === 'c'
              ? /writev_in_full\(fd, iov, 2\)/
              : /writevInFull\(fd, \[Buffer\.from\('a'\), buf\]\)/,
          );
        }),
        { numRuns: 25 },
      );
    });
  }
});
