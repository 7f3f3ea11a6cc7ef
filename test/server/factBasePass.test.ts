// Between the CLI's passes, the fact base picks the files to analyse again: a file whose function writes
// twice and calls a helper another file defines that turns out quiet. Analysing one again is as costly as
// the first time (a parse, every function read), and it can only change the findings where the first
// analysis asked about a name that the fact base now finds quiet: a file whose questions all keep their
// answers is left with its first-pass findings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import type { FileWrappers } from 'writev-lint/out/analyzer/wrapperIndex';
import { factBasePass } from 'writev-lint/out/cli/factBase';
import { analyzer } from './helpers';

/** A file of helpers that only compute (`seal` through the file's own `mix`). */
const HELPERS: FileWrappers = {
  c: [],
  ts: [],
  functions: [
    { name: 'mix', exported: false, calls: [], opaque: false },
    { name: 'seal', exported: true, calls: ['mix', 'htonl'], opaque: false },
  ],
};

/** A caller whose function writes twice and calls `seal`, having asked the rules about `loud`. */
function caller(loud: readonly string[] | undefined, own: FileWrappers['functions'] = []): FileWrappers {
  return {
    c: [],
    ts: [],
    functions: [
      {
        name: 'framed',
        exported: true,
        calls: ['seal', 'write', 'frame'],
        repeated: ['write'],
        opaque: false,
      },
      ...(own ?? []),
    ],
    ...(loud && { loud }),
  };
}

function redo(callers: FileWrappers): readonly string[] {
  return factBasePass(
    [
      ['/t/helpers.c', HELPERS],
      ['/t/callers.c', callers],
    ],
    [DEFAULT_SETTINGS],
  ).redo;
}

describe('the fact base between the passes', () => {
  it('a file whose analysis asked about a helper now known quiet is analysed again', () => {
    assert.deepEqual(redo(caller(['seal'])), ['/t/callers.c']);
  });

  it('a file whose analysis asked about no name the fact base changed keeps its first findings', () => {
    assert.deepEqual(redo(caller([])), []);
    // `puts` prints for the fact base as it did for the first pass: the answer stands.
    assert.deepEqual(redo(caller(['puts'])), []);
  });

  it("a file's own function that becomes quiet through another file's helper counts as a change", () => {
    const own = [{ name: 'frame', exported: false, calls: ['seal'], opaque: false }];
    assert.deepEqual(redo(caller(['frame'], own)), ['/t/callers.c']);
    const printing = [{ name: 'frame', exported: false, calls: ['seal', 'puts'], opaque: false }];
    assert.deepEqual(redo(caller(['frame'], printing)), []);
  });

  it('a file whose questions are unknown (an index entry, an older cache) is analysed again', () => {
    assert.deepEqual(redo(caller(undefined)), ['/t/callers.c']);
  });

  it('the analysis names the calls it asked about and was told may print', async () => {
    const text = `#include <unistd.h>
void seal(char *f);
static int sum(const char *s) { int n = 0; while (*s) n += *s++; return n; }
int framed(char *f, const char *body, int n)
{
\tseal(f);
\twrite(1, f, 8);
\tsum(body);
\twrite(1, body, n);
\treturn 0;
}
`;
    const { wrappers } = (await analyzer()).inspect('/t/callers.c', text, DEFAULT_SETTINGS);
    // seal() is defined elsewhere (unknown before the fact base); sum() is the file's own and quiet.
    assert.ok(wrappers.loud?.includes('seal'), JSON.stringify(wrappers.loud));
    assert.ok(!wrappers.loud?.includes('sum'), JSON.stringify(wrappers.loud));
  });
});
