// A `goto label` handed to a macro as an argument is joined into one word of the same length, so the
// call parses; a `goto` statement, and one in a literal or a comment, stay.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinJumpArguments } from 'writev-lint/out/analyzer/c/jumpArguments';

describe('jump arguments', () => {
  it('joins a goto argument into one word of the same length', () => {
    assert.equal(joinJumpArguments('  M(fd, buf, goto out);'), '  M(fd, buf, goto_out);');
    assert.equal(joinJumpArguments('  M(fd,\n    goto  fail);'), '  M(fd,\n    goto__fail);');
  });

  it('leaves statements, literals and comments', () => {
    for (const text of [
      '  goto out;',
      '  if (x) goto out;',
      '  puts("(a, goto out)");',
      '  x = 1; /* f(a, goto out) */',
    ])
      assert.equal(joinJumpArguments(text), text);
  });
});
