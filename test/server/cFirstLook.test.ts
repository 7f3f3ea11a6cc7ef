// A batch run (the CLI: no document key) looks at the text before parsing it and skips text that
// calls no write function; an editor run (keyed) always parses. The two must find the same: the look
// may let too much through, never too little.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, fixture, fixtures } from './helpers';

describe('the first look before a batch parse', () => {
  it('finds in every C fixture what an editor run finds', async () => {
    const a = await analyzer();
    const names = fixtures('c', '.c');
    assert.ok(names.length >= 10, `${names.length} fixtures`);
    for (const name of names) {
      const path = `/fixtures/${name}`;
      const text = fixture(name);
      const batch = a.analyze(path, text, DEFAULT_SETTINGS);
      const editor = a.analyze(path, text, DEFAULT_SETTINGS, { key: `first-look ${name}` });
      a.forget(`first-look ${name}`);
      assert.deepEqual(batch, editor, name);
    }
  });

  it('sees a write split from its parenthesis by a line continuation in a macro body', async () => {
    const a = await analyzer();
    const text = [
      '#include <string.h>',
      '#define PUT(s) write_or_die \\',
      '\t(1, s, strlen(s))',
      '',
      'void greet(const char *name)',
      '{',
      '\tPUT("hello ");',
      '\tPUT(name);',
      '}',
      '',
    ].join('\n');
    const findings = a.analyze('/virtual/put.c', text, DEFAULT_SETTINGS);
    assert.deepEqual(
      findings.map((f) => [f.code, f.syscalls]),
      [['adjacent-writes', 2]],
    );
  });

  it('reports nothing, and no wrapper, for text that calls no write function', async () => {
    const a = await analyzer();
    const text = 'static int twice(int x)\n{\n\treturn x * 2; /* write(1, "x", 1) in a comment */\n}\n';
    const result = a.inspect('/virtual/none.c', text, DEFAULT_SETTINGS);
    assert.deepEqual(result.findings, []);
    assert.deepEqual([result.wrappers.c, result.wrappers.ts], [[], []]);
    // What it calls is still recorded for the fact base: nothing, so it does no output; its one
    // parameter is an int passed by value, which it cannot change for its caller; and it assigns
    // nothing, so it is pure.
    assert.deepEqual(result.wrappers.functions, [
      { name: 'twice', exported: false, calls: [], opaque: false, readOnly: [0], readsOnly: true },
    ]);
  });
});
