// The habits reviewers bring from ESLint and ruff: --select / --ignore by code, --output-file,
// --statistics, the full text format (source line and caret) beside the concise one, and the GitLab
// Code Quality and Checkstyle formats, read back by a real XML parser. Each flag and format through the
// installed bin at least once; the other cases run main() in this process, which loads the analyzer once.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv from 'ajv';
import { cFunction, lintBin, lintHere } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-habits-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Two files: two adjacent-writes findings (one fixable) and one loop-writes finding. */
const LOOP = [
  'void each(int fd, const char **lines, const size_t *len, int n)',
  '{',
  '\tint i;',
  '\tfor (i = 0; i < n; i++)',
  '\t\twrite_or_die(fd, lines[i], len[i]);',
  '}',
  '',
].join('\n');
writeFileSync(join(tmp, 'a.c'), cFunction('alpha') + cFunction('beta'));
writeFileSync(join(tmp, 'b.c'), LOOP);

/** writev-lint on a.c and b.c through the installed bin, as a user runs it. */
function lintThroughBin(args: string[]) {
  return lintBin([...args, '--no-config-lookup', 'a.c', 'b.c'], { cwd: tmp });
}

/** The same run through main() in this process (which takes operands as given: by their full paths). */
function lint(args: string[]) {
  return lintHere([...args, '--no-config-lookup', join(tmp, 'a.c'), join(tmp, 'b.c')], { cwd: tmp });
}

interface JsonReport {
  findings: { code: string; path: string; line: number; fixable: boolean }[];
}

const codes = (out: string) => (JSON.parse(out) as JsonReport).findings.map((f) => f.code);

describe('--select and --ignore', () => {
  it('report only the selected codes, or all but the ignored ones, and the exit status follows', async () => {
    assert.deepEqual(codes((await lint(['--format', 'json'])).stdout), [
      'adjacent-writes',
      'adjacent-writes',
      'loop-writes',
    ]);
    assert.deepEqual(codes(lintThroughBin(['--format', 'json', '--select', 'loop-writes']).stdout), [
      'loop-writes',
    ]);
    assert.deepEqual(codes(lintThroughBin(['--format', 'json', '--ignore', 'loop-writes']).stdout), [
      'adjacent-writes',
      'adjacent-writes',
    ]);
    const none = await lint(['--select', 'loop-writes', '--ignore', 'loop-writes']);
    assert.deepEqual([none.status, none.stdout], [0, '']);
  });

  it('name an unknown code and list the known ones, exit 2', async () => {
    const result = await lint(['--select', 'adjacent-writes,adjacent-write']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--select: unknown code "adjacent-write" \(the codes are adjacent-writes, /);
  });
});

describe('off as a severity in a config file', () => {
  it('turns a rule off: none of its findings, the others as before', async () => {
    const dir = mkdtempSync(join(tmp, 'off-'));
    writeFileSync(join(dir, 'a.c'), cFunction('alpha'));
    writeFileSync(join(dir, 'b.c'), LOOP);
    writeFileSync(join(dir, '.writev-lint.json'), JSON.stringify({ severity: { adjacentWrites: 'off' } }));
    const result = lintBin(['--format', 'json', 'a.c', 'b.c'], { cwd: dir });
    assert.deepEqual(codes(result.stdout), ['loop-writes'], result.stderr);
    writeFileSync(join(dir, '.writev-lint.json'), JSON.stringify({ severity: { loopWrites: 'of' } }));
    const typo = await lintHere([join(dir, 'a.c')], { cwd: dir });
    assert.equal(typo.status, 2);
    assert.match(
      typo.stderr,
      /severity\.loopWrites: expected one of error, warning, information, hint, off, got "of"/,
    );
  });
});

describe('--output-file', () => {
  it('writes the report to the file, nothing to standard output, the same report as printed', async () => {
    const printed = await lint(['--format', 'json']);
    const file = join(tmp, 'report.json');
    writeFileSync(file, 'an older report that is replaced whole\n');
    const result = lintThroughBin(['--format', 'json', '--output-file', 'report.json']);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(readFileSync(file, 'utf8'), printed.stdout);
  });

  it('says which file it could not write, and exits 2', async () => {
    const result = await lint(['--output-file', 'no/such/folder/report.txt']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /cannot write the report to no\/such\/folder\/report\.txt: ENOENT/);
  });
});

describe('--statistics', () => {
  it('prints the count of each code, most frequent first, with how many are fixable', () => {
    const result = lintThroughBin(['--statistics']);
    assert.equal(result.status, 1);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t').map((c) => c.trim()));
    assert.deepEqual(
      rows.map((r) => r.slice(0, 3)),
      [
        ['2', 'adjacent-writes', '[*] 2 fixable'],
        ['1', 'loop-writes', '[ ]'],
      ],
    );
  });
});

describe('text formats', () => {
  it('full, the default, shows the line of the first write with carets under it; concise is one line a finding', async () => {
    const concise = lintThroughBin(['--format', 'concise']);
    const full = (await lint(['--format', 'full'])).stdout;
    assert.equal(lintThroughBin([]).stdout, full, 'text is full by default');
    assert.equal((await lint(['--format', 'text'])).stdout, full);
    assert.equal(concise.stdout.trim().split('\n').length, 3);
    const first = concise.stdout.split('\n')[0]!;
    assert.ok(
      full.startsWith(
        `${first}\n  |\n3 |     write_or_die(fd, "a", 1);\n  |     ^^^^^^^^^^^^^^^^^^^^^^^^^\n`,
      ),
    );
    // Each finding keeps its line, in the same order.
    const heads = full.split('\n').filter((l) => /^[ab]\.c:/.test(l));
    assert.deepEqual(heads, concise.stdout.trim().split('\n'));
  });
});

describe('--format gitlab', () => {
  it('is a Code Quality report: the fields GitLab requires, unique fingerprints', () => {
    const result = lintThroughBin(['--format', 'gitlab']);
    assert.equal(result.status, 1);
    // The fields and values GitLab's Code Quality documentation lists as required.
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        required: ['description', 'check_name', 'fingerprint', 'severity', 'location'],
        properties: {
          description: { type: 'string', minLength: 1 },
          check_name: { type: 'string', minLength: 1 },
          fingerprint: { type: 'string', pattern: '^[0-9a-f]{32}$' },
          severity: { enum: ['info', 'minor', 'major', 'critical', 'blocker'] },
          location: {
            type: 'object',
            required: ['path', 'lines'],
            properties: {
              path: { type: 'string' },
              lines: {
                type: 'object',
                required: ['begin'],
                properties: { begin: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } },
              },
            },
          },
        },
      },
    };
    const issues = JSON.parse(result.stdout) as { fingerprint: string; location: { path: string } }[];
    const validate = new Ajv({ allErrors: true }).compile(schema);
    assert.ok(validate(issues), JSON.stringify(validate.errors));
    assert.equal(issues.length, 3);
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, 3);
    assert.deepEqual(
      issues.map((i) => i.location.path),
      ['a.c', 'a.c', 'b.c'],
    );
  });
});

describe('--format checkstyle', () => {
  it('parses as XML and gives back each file, line, column, severity and source', () => {
    const name = 'odd "<&>" name.c';
    writeFileSync(join(tmp, name), cFunction('gamma'));
    const result = lintBin(['--format', 'checkstyle', '--no-config-lookup', 'b.c', name], { cwd: tmp });
    assert.equal(result.status, 1);
    // sax: a strict, real XML parser (no entity left unescaped, no tag unclosed gets past it).
    const sax = require('sax') as SaxModule;
    const parser = sax.parser(true, {});
    const seen: { tag: string; attributes: Record<string, string> }[] = [];
    parser.onopentag = (node) => seen.push({ tag: node.name, attributes: node.attributes });
    parser.onerror = (error) => assert.fail(error);
    parser.write(result.stdout).close();
    assert.deepEqual(
      seen.map((s) => s.tag),
      ['checkstyle', 'file', 'error', 'file', 'error'],
    );
    const files = seen.filter((s) => s.tag === 'file').map((s) => s.attributes.name);
    assert.deepEqual(files, ['b.c', name]);
    const errors = seen.filter((s) => s.tag === 'error').map((s) => s.attributes);
    assert.deepEqual(
      errors.map((e) => [e.line, e.column, e.severity, e.source]),
      [
        ['4', '2', 'info', 'writev-lint.loop-writes'],
        ['3', '2', 'warning', 'writev-lint.adjacent-writes'],
      ],
    );
  });
});

/** The part of sax this test uses (sax ships no types). */
interface SaxModule {
  parser(
    strict: boolean,
    options: object,
  ): {
    onopentag: (node: { name: string; attributes: Record<string, string> }) => void;
    onerror: (error: Error) => void;
    write(text: string): { close(): void };
  };
}
