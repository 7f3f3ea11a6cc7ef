// The search for `target = call(...)` assignments that message descriptors are read from finds, from
// each `=`, exactly what the pattern's own global search finds: the same targets, callees, arguments
// and places, in texts made to catch where the two could part (a target run cut by the last match's
// 300 characters of arguments, targets that start after `->` or a digit, comparisons, other spaces).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ASSIGNED_CALL, assignedCalls } from 'writev-lint/out/analyzer/c/messageDescriptors';

function byPattern(text: string) {
  return [...text.matchAll(ASSIGNED_CALL)].map((m) => ({
    target: m[1]!,
    callee: m[2]!,
    args: m[3]!,
    index: m.index,
  }));
}

const TEXTS = [
  'int fd = socket(AF_INET, SOCK_DGRAM, 0);',
  'c->sock = socket(AF_UNIX, SOCK_STREAM, 0); s.fd=open("/dev/ttyS0", O_RDWR);',
  'foo(a)->fd = socket(x); v[i] = (int) open(p, 0); x->y>=f(z); a -= g(); b == h(); c != k();',
  'if (x == socket(1)) return; y <= z(2); 9abc = open(q); _q = creat("/proc/x");',
  `r = f(${'a'.repeat(296)}fd = socket(AF_INET, SOCK_DGRAM, 0);`,
  `r = f(${'b'.repeat(298)}->fd = socket(AF_INET, SOCK_DGRAM, 0); t = g();`,
  'x\u00a0=\u00a0socket(1);\ny\t=\n(int)\nopen("/dev/i2c", 2);\n= = =;\n=',
  'a = b = c = d(e = f(g));',
  '',
];

describe('assignedCalls', () => {
  for (const [i, text] of TEXTS.entries())
    it(`finds what the pattern's global search finds (text ${i})`, () => {
      assert.deepEqual(assignedCalls(text), byPattern(text));
    });

  it('finds what the pattern finds in every fixture', () => {
    const dir = join(__dirname, '..', '..', '..', 'test', 'server', 'fixtures', 'c');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.c'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      assert.deepEqual(assignedCalls(text), byPattern(text), name);
    }
  });
});
