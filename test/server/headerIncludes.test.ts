// Which includes of a C file may name the project's own headers, and where they are in the tree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectIncludes, resolveInclude } from 'writev-lint/out/analyzer/headerIncludes';

describe('project includes', () => {
  it('keeps quoted names, folder names and bare names that are not the system headers', () => {
    const text = [
      '#include <stdio.h>',
      '#include <unistd.h>',
      '#include <sys/socket.h>',
      '#include "common.h"',
      '#  include <iostuff.h>',
      '#include <helper/log.h>',
      '/* #include <commented.h> */',
    ].join('\n');
    assert.deepEqual(projectIncludes(text), ['common.h', 'sys/socket.h', 'iostuff.h', 'helper/log.h']);
  });

  it("resolves a bare angle-bracket name to the tree's only header of that name", () => {
    const headers = new Set(['/p/src/util/iostuff.h', '/p/src/util/msg.h', '/p/src/global/msg.h']);
    assert.equal(resolveInclude('/p/src/master/trigger.c', 'iostuff.h', headers), '/p/src/util/iostuff.h');
    // Two headers of one name, equally near: which one the build picks is unknown.
    assert.equal(resolveInclude('/p/src/master/trigger.c', 'msg.h', headers), undefined);
    assert.equal(resolveInclude('/p/src/master/trigger.c', 'stdio.h', headers), undefined);
  });
});
