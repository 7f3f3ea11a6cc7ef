// What the fact base reads of a function-like macro that assigns (c/assigningMacros.ts): an
// upper-case one assigning only its arguments is no more opaque than the assignment written out, yet
// no reader; one that jumps, calls its parameter or assigns a name of its own stays opaque, and so does
// a lower-case one. A function handing a file-scope name to an upper-case call may change that name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';

/**
 * The fact of `name` among those `text` gives: a macro's own (a braced body after `#define NAME(s)` is
 * read as a definition too, which the macro's fact then decides for).
 */
function factOf(text: string, name: string) {
  const facts = cFunctionFacts(text).filter((f) => f.name === name);
  const fact = text.startsWith('#define') ? facts.find((f) => !f.exported) : facts[0];
  assert.ok(fact, `${name} read`);
  return fact;
}

describe('C macros that assign only what they are handed', () => {
  it('reads an upper-case macro assigning its argument as no opaque call, and no reader', () => {
    const fact = factOf('#define TERMINATE(s) { s[sizeof(s) - 1] = 0; }\n', 'TERMINATE');
    assert.equal(fact.opaque, false);
    assert.equal(fact.readsOnly, undefined);
    assert.equal(factOf('#define ZERO(x) do { memset(x, 0, sizeof(x)); } while (0)\n', 'ZERO').opaque, false);
  });

  it('keeps opaque what jumps, calls a parameter, assigns another name, or is spelled in lower case', () => {
    assert.equal(factOf('#define BAIL(s) { s[0] = 0; return; }\n', 'BAIL').opaque, true);
    assert.equal(factOf('#define APPLY(f, s) { s[0] = 0; f(s); }\n', 'APPLY').opaque, true);
    assert.equal(factOf('#define COUNT(s) { s[0] = 0; counter++; }\n', 'COUNT').opaque, true);
    assert.equal(factOf('#define terminate(s) { s[sizeof(s) - 1] = 0; }\n', 'terminate').opaque, true);
  });

  it('takes a file-scope name handed to an upper-case call as changed, not a parameter or a local', () => {
    const fact = factOf(
      'char line[64];\nvoid reset(char *p, int n)\n{\n\tchar own[8];\n\tCLEAR(line);\n\tCLEAR(p);\n\tCLEAR(own);\n\tCHECK(n + 1);\n}\n',
      'reset',
    );
    assert.deepEqual(fact.assigns, ['line']);
  });
});
