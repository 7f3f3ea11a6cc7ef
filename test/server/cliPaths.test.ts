// Every output format names a hostile file name so that its consumer reads back exactly that file:
// SARIF URIs resolve to it (`#` and `?` are not a fragment and a query), JUnit attributes keep its line
// breaks, GitHub annotations and JSON formats carry it whole, and a text line cannot be forged by a
// line break in a name. Through the installed bin.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cFunction, findingLines, lintBin } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-paths-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Names relative to the tree, each holding one finding. */
const NAMES = [
  'dir#1/a.c',
  'dir#1/what?.c',
  'pct%41.c',
  'colon:first.c',
  'quote"amp&lt<gt>apos\'.c',
  'line\nbreak.c',
  'tab\tand space.c',
  'comma,equals=plus+.c',
];

const tree = join(tmp, 'tree');
mkdirSync(join(tree, 'dir#1'), { recursive: true });
for (const name of NAMES) writeFileSync(join(tree, name), cFunction('send'));

function lint(format: string): string {
  const result = lintBin(['--format', format, '.'], { cwd: tree });
  assert.equal(result.status, 1, result.stderr);
  return result.stdout;
}

const sorted = (names: string[]) => [...names].sort();

describe('hostile file names in every format', () => {
  it('SARIF: each URI, resolved against %SRCROOT%, is the file itself', () => {
    const log = JSON.parse(lint('sarif')) as {
      runs: {
        originalUriBaseIds: Record<string, { uri: string }>;
        results: {
          locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[];
        }[];
      }[];
    };
    const run = log.runs[0]!;
    const base = run.originalUriBaseIds['%SRCROOT%']!.uri;
    assert.equal(base, pathToFileURL(tree).href + '/');
    const files = run.results.map((r) => {
      const at = r.locations[0]!.physicalLocation.artifactLocation;
      assert.equal(at.uriBaseId, '%SRCROOT%');
      const url = new URL(at.uri, base);
      assert.equal(url.hash, '', `${at.uri}: no fragment`);
      assert.equal(url.search, '', `${at.uri}: no query`);
      return fileURLToPath(url);
    });
    assert.deepEqual(sorted(files), sorted(NAMES.map((n) => join(tree, n))));
  });

  it('JUnit: attributes and text give back each name, line breaks included', () => {
    const xml = lint('junit');
    const unescape = (s: string) =>
      s.replace(/&(#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
        e.startsWith('#')
          ? String.fromCharCode(Number(e.slice(1)))
          : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]!,
      );
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1]!);
    assert.ok(suites.every((s) => !/[\n\t<&]/.test(s.replace(/&(#\d+|amp|lt|gt|quot|apos);/g, ''))));
    assert.deepEqual(sorted(suites.map(unescape)), sorted(NAMES));
  });

  it('GitHub annotations: the file property decodes to each name', () => {
    const lines = lint('github').trim().split('\n');
    assert.equal(lines.length, NAMES.length, 'one line per finding: no name breaks a line');
    const decode = (s: string) => s.replace(/%(25|0D|0A|3A|2C)/g, (m) => decodeURIComponent(m));
    const files = lines.map((l) => decode(/ file=([^,]*),/.exec(l)![1]!));
    assert.deepEqual(sorted(files), sorted(NAMES));
  });

  it('JSON and rdjson: the path is each name', () => {
    const json = JSON.parse(lint('json')) as { findings: { path: string }[] };
    assert.deepEqual(sorted(json.findings.map((f) => f.path)), sorted(NAMES));
    const rd = JSON.parse(lint('rdjson')) as { diagnostics: { location: { path: string } }[] };
    assert.deepEqual(sorted(rd.diagnostics.map((d) => d.location.path)), sorted(NAMES));
  });

  it('text: one line per finding; a name with a control character is quoted', () => {
    const lines = findingLines(lint('text'));
    assert.equal(lines.length, NAMES.length);
    assert.ok(lines.some((l) => l.startsWith('"line\\nbreak.c":3:')));
    assert.ok(lines.some((l) => l.startsWith('"tab\\tand space.c":3:')));
    assert.ok(lines.some((l) => l.startsWith('dir#1/what?.c:3:')));
  });
});
