// Suppression comments in C and TS/JS, through the analyzer (as the CLI and the server both see
// them): every directive form, code lists, block ranges, unknown codes, unused directives, and the
// edit the editor's "Disable <code> for this line" quick fix makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, DEFAULT_SETTINGS, LineIndex, type Finding } from 'writev-lint';
import { disableLineEdit } from 'writev-lint/out/analyzer/suppressions';
import { findComments } from 'writev-lint/out/analyzer/comments';
import { analyzer } from './helpers';

const REPORT = { ...DEFAULT_SETTINGS, reportUnusedDirectives: true };

/** `line:code` (1-based lines) of each finding, and the message of each unused-directive one. */
async function lint(path: string, text: string, settings = DEFAULT_SETTINGS): Promise<string[]> {
  const found = (await analyzer()).analyze(path, text, settings);
  const lines = new LineIndex(text);
  return found.map(
    (f: Finding) =>
      `${lines.positionAt(f.span.start).line + 1}:${f.code}${f.code === 'unused-directive' ? ` ${f.message}` : ''}`,
  );
}

const cPair = (indent = '\t') => `${indent}write_or_die(fd, "a", 1);\n${indent}write_or_die(fd, "b", 1);\n`;
const cLoop = '\tfor (i = 0; i < n; i++)\n\t\twrite_or_die(fd, v[i], 1);\n';
const c = (body: string) => `void f(int fd, char **v, int n)\n{\n\tint i;\n${body}}\n`;

describe('suppression comments in C', () => {
  it('finds both hints when nothing is suppressed', async () => {
    assert.deepEqual(await lint('a.c', c(cPair() + cLoop)), ['4:adjacent-writes', '6:loop-writes']);
  });

  it('disable-next-line, as // or /* */, with no code, one code, or a list', async () => {
    for (const comment of [
      '// writev-lint-disable-next-line',
      '/* writev-lint-disable-next-line adjacent-writes */',
      '// writev-lint-disable-next-line loop-writes, adjacent-writes -- headers go first',
      '/* writev-lint-disable-next-line adjacent-writes loop-writes */',
    ]) {
      assert.deepEqual(await lint('a.c', c(`\t${comment}\n${cPair()}${cLoop}`)), ['7:loop-writes'], comment);
    }
    const other = c(`\t// writev-lint-disable-next-line loop-writes\n${cPair()}`);
    assert.deepEqual(await lint('a.c', other), ['5:adjacent-writes'], 'another code suppresses nothing');
  });

  it('disable-line at the end of the first write, and only that line', async () => {
    const text = c(
      `\twrite_or_die(fd, "a", 1); /* writev-lint-disable-line adjacent-writes */\n\twrite_or_die(fd, "b", 1);\n${cLoop}`,
    );
    assert.deepEqual(await lint('a.c', text), ['6:loop-writes']);
    const second = c(
      `\twrite_or_die(fd, "a", 1);\n\twrite_or_die(fd, "b", 1); // writev-lint-disable-line\n`,
    );
    assert.deepEqual(await lint('a.c', second), ['4:adjacent-writes'], 'the second write is not the first');
  });

  it('a loop is suppressed from the line of its for, or of its write', async () => {
    const above = c(`\t// writev-lint-disable-next-line loop-writes\n${cLoop}`);
    assert.deepEqual(await lint('a.c', above), []);
    const write = c(
      '\tfor (i = 0; i < n; i++)\n\t\twrite_or_die(fd, v[i], 1); // writev-lint-disable-line loop-writes\n',
    );
    assert.deepEqual(await lint('a.c', write), []);
  });

  it('a disable ... enable block covers the lines between, per code; without enable, to the end', async () => {
    const block = c(
      `\t/* writev-lint-disable */\n${cPair()}\t/* writev-lint-enable */\n\tflush_all();\n${cPair()}`,
    );
    assert.deepEqual(await lint('a.c', block), ['9:adjacent-writes']);
    const open = c(`\t/* writev-lint-disable adjacent-writes */\n${cPair()}${cLoop}${cPair()}`);
    assert.deepEqual(await lint('a.c', open), ['7:loop-writes']);
    const partly = c(
      `\t// writev-lint-disable\n${cPair()}\tflush_all();\n\t// writev-lint-enable adjacent-writes\n${cPair()}${cLoop}\t// writev-lint-enable\n${cLoop}`,
    );
    assert.deepEqual(await lint('a.c', partly), ['9:adjacent-writes', '14:loop-writes']);
  });

  it('ignores directive text in strings and in comments that do not start with it', async () => {
    const text = c(
      `\tputs("// writev-lint-disable-next-line");\n\t/* see writev-lint-disable-next-line */\n${cPair()}`,
    );
    assert.deepEqual(await lint('a.c', text), ['6:adjacent-writes']);
  });

  it('--report-unused-directives: unused ones, unused codes, unknown codes and directives, stray enable', async () => {
    const text = c(
      [
        '\t// writev-lint-disable-next-line adjacent-writes',
        cPair().trimEnd(),
        '\t// writev-lint-disable-next-line',
        '\tflush_all();',
        '\t/* writev-lint-disable-next-line adjacent-writes, loop-writes */',
        cPair().trimEnd(),
        '\t// writev-lint-disable-next-line adjacent-write',
        '\t// writev-lint-disable-nextline',
        '\t// writev-lint-enable',
        '',
      ].join('\n'),
    );
    assert.deepEqual(await lint('a.c', text), []);
    assert.deepEqual(await lint('a.c', text, REPORT), [
      '7:unused-directive unused writev-lint-disable-next-line directive (nothing to suppress here)',
      '9:unused-directive unused writev-lint-disable-next-line directive (no loop-writes finding here)',
      '12:unused-directive unknown code adjacent-write in writev-lint-disable-next-line; did you mean adjacent-writes?',
      '13:unused-directive unknown directive writev-lint-disable-nextline; did you mean writev-lint-disable-next-line?',
      '14:unused-directive writev-lint-enable without a writev-lint-disable before it',
    ]);
  });

  it('a suppressed finding is not fixed by fix-all either', async () => {
    const a = await analyzer();
    const text = c(`\t// writev-lint-disable-next-line\n${cPair()}`);
    const findings = a.analyze('a.c', text, DEFAULT_SETTINGS);
    assert.deepEqual(findings, []);
    assert.equal(a.fixAll('a.c', text, findings), undefined);
    assert.notEqual(a.fixAll('a.c', c(cPair()), a.analyze('a.c', c(cPair()), DEFAULT_SETTINGS)), undefined);
  });

  it('fix-all removes unused comments and unused codes, keeping the reason and the other lines', async () => {
    const a = await analyzer();
    const text = c(
      [
        '\t// writev-lint-disable-next-line',
        '\ti = 0;',
        '\t/* writev-lint-disable-next-line loop-writes, adjacent-writes -- header first */',
        cPair().trimEnd(),
        '\tflush_all(); // writev-lint-disable-line',
        '',
      ].join('\r\n'),
    );
    const findings = a.analyze('a.c', text, REPORT);
    assert.deepEqual(
      findings.map((f) => f.fix?.title),
      [
        'Remove the unused writev-lint-disable-next-line comment',
        'Remove loop-writes from the writev-lint-disable-next-line comment',
        'Remove the unused writev-lint-disable-line comment',
      ],
    );
    const fixed = a.fixAll('a.c', text, findings);
    assert.equal(
      fixed,
      c(
        [
          '\ti = 0;',
          '\t/* writev-lint-disable-next-line adjacent-writes -- header first */',
          cPair().trimEnd(),
          '\tflush_all();',
          '',
        ].join('\r\n'),
      ),
    );
    assert.deepEqual(a.analyze('a.c', fixed ?? '', REPORT), []);
  });

  it('counts lines the same in CRLF files', async () => {
    const text = c(`\t// writev-lint-disable-next-line\n${cPair()}${cLoop}`).replace(/\n/g, '\r\n');
    assert.deepEqual(await lint('a.c', text), ['7:loop-writes']);
  });
});

describe('suppression comments in TS/JS', () => {
  // The `if` ends a run: the next pair is a finding of its own.
  // The log line ends the run, so that two pairs in one function are two findings (an early exit would
  // not: writes after it join the run as conditional ones).
  const pair = "  fs.writeSync(fd, a);\n  fs.writeSync(fd, b);\n  console.error('sent');\n";
  const ts = (body: string) =>
    `import * as fs from 'node:fs';\nexport function f(fd: number, a: Uint8Array, b: Uint8Array): void {\n${body}}\n`;

  it('every form works in TS and JS alike', async () => {
    assert.deepEqual(await lint('a.ts', ts(pair)), ['3:adjacent-writes']);
    for (const path of ['a.ts', 'a.js']) {
      const text = (body: string) =>
        path.endsWith('.js') ? ts(body).replace(/: \w+(\[\])?/g, '') : ts(body);
      assert.deepEqual(
        await lint(path, text(`  // writev-lint-disable-next-line adjacent-writes\n${pair}`)),
        [],
      );
      assert.deepEqual(
        await lint(
          path,
          text('  fs.writeSync(fd, a); /* writev-lint-disable-line */\n  fs.writeSync(fd, b);\n'),
        ),
        [],
      );
      assert.deepEqual(
        await lint(
          path,
          text(`  /* writev-lint-disable adjacent-writes */\n${pair}  /* writev-lint-enable */\n${pair}`),
        ),
        ['8:adjacent-writes'],
      );
    }
  });

  it('does not take // in strings, templates or regular expressions for a comment', async () => {
    const body =
      '  const s = `// writev-lint-disable-next-line ${a.length} //`;\n  const r = /\\/\\/ writev-lint-disable-next-line/;\n' +
      pair;
    assert.deepEqual(await lint('a.ts', ts(body)), ['5:adjacent-writes']);
    assert.deepEqual(
      findComments('const t = `a ${ {b: 1}["b"] } // not`; /* yes */ x = 4 / 2; // also', 'typescript').map(
        (k) => k.body,
      ),
      [' yes ', ' also'],
    );
  });

  it('reports an unused directive and an unknown code in TS', async () => {
    const text = ts(
      `  // writev-lint-disable-next-line loop-writes, adjacent-writes\n${pair}  // writev-lint-disable-line foo\n`,
    );
    assert.deepEqual(await lint('a.ts', text, REPORT), [
      '3:unused-directive unused writev-lint-disable-next-line directive (no loop-writes finding here)',
      '7:unused-directive unknown code foo in writev-lint-disable-line (codes: adjacent-writes, adjacent-writes-unknown-fd, loop-writes)',
    ]);
  });
});

describe('the "Disable <code> for this line" edit', () => {
  async function disable(path: string, text: string, index = 0): Promise<string> {
    const found = (await analyzer()).analyze(path, text, DEFAULT_SETTINGS);
    const finding = found[index];
    assert.ok(finding, 'a finding to disable');
    const code = finding.code === 'unused-directive' ? assert.fail('not a rule') : finding.code;
    return applyEdits(text, [disableLineEdit(text, path.endsWith('.c') ? 'c' : 'typescript', finding, code)]);
  }

  it('inserts a C comment with the line indentation and the file line ending, and the hint goes away', async () => {
    const text = c(`\tif (n) {\n${cPair('\t\t')}\t}\n`).replace(/\n/g, '\r\n');
    const fixed = await disable('a.c', text);
    assert.ok(
      fixed.includes(
        '\tif (n) {\r\n\t\t/* writev-lint-disable-next-line adjacent-writes */\r\n\t\twrite_or_die',
      ),
    );
    assert.deepEqual(await lint('a.c', fixed), []);
  });

  it('inserts a // comment in TS, and adds a second code to the comment already there', async () => {
    const text = `import * as fs from 'node:fs';\nexport function f(fd: number, v: Uint8Array[]): void {\n    for (const b of v) fs.writeSync(fd, b);\n}\n`;
    const fixed = await disable('a.ts', text);
    assert.ok(
      fixed.includes('\n    // writev-lint-disable-next-line loop-writes\n    for (const b of v)'),
      fixed,
    );
    assert.deepEqual(await lint('a.ts', fixed), []);
    const both = `${c(`\t// writev-lint-disable-next-line loop-writes\n${cPair()}`)}`;
    const added = await disable('a.c', both);
    assert.ok(added.includes('\t// writev-lint-disable-next-line loop-writes, adjacent-writes\n'), added);
    assert.deepEqual(await lint('a.c', added, REPORT), [
      '4:unused-directive unused writev-lint-disable-next-line directive (no loop-writes finding here)',
    ]);
  });
});

describe('lone CR line endings (old Mac files)', () => {
  const cr = (text: string) => text.replace(/\r?\n/g, '\r');
  const ts = (comment: string) =>
    "import { writeSync } from 'node:fs';\nexport function f(fd: number): void {\n" +
    `  ${comment}\n  writeSync(fd, 'a');\n  writeSync(fd, 'b');\n}\n`;

  it('a // comment in C ends at its line, so the findings after it are reported', async () => {
    const text = `// the header\n${c(cPair() + cLoop)}`;
    assert.deepEqual(await lint('a.c', cr(text)), await lint('a.c', text));
    assert.deepEqual(await lint('a.c', cr(text)), ['5:adjacent-writes', '7:loop-writes']);
  });

  it('C suppressions apply to the line they name', async () => {
    const text = c(`\t// writev-lint-disable-next-line adjacent-writes\n${cPair()}${cLoop}`);
    assert.deepEqual(await lint('a.c', cr(text)), ['7:loop-writes']);
  });

  it('TS suppressions apply, and a // comment ends at its line', async () => {
    assert.deepEqual(await lint('a.ts', cr(ts('// a note'))), ['4:adjacent-writes']);
    assert.deepEqual(await lint('a.ts', cr(ts('// writev-lint-disable-next-line adjacent-writes'))), []);
    assert.deepEqual(
      await lint('a.ts', cr(ts('// writev-lint-disable-next-line')), REPORT),
      [],
      'the directive suppresses the finding, so it is not unused either',
    );
    const comments = findComments(cr(ts('// one\r// two')), 'typescript');
    assert.deepEqual(
      comments.map((k) => k.body),
      [' one', ' two'],
    );
  });
});
