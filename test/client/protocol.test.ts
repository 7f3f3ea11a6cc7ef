import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  DIAGNOSTIC_SOURCE,
  DiagnosticCode,
  FIX_ALL_KIND,
  LINT_WORKSPACE_METHOD,
} from '@writev/client/out/protocol';
import { FIX_ALL_KIND as SERVER_FIX_ALL_KIND } from 'writev-lint/out/lsp/convert';
import { LintWorkspaceRequest } from 'writev-lint/out/lsp/protocol';
import { Analyzer, DEFAULT_SETTINGS } from 'writev-lint';

describe('the client-server contract', () => {
  it('names the same custom request and fix-all kind as the server', () => {
    assert.equal(LINT_WORKSPACE_METHOD, LintWorkspaceRequest.method);
    assert.equal(FIX_ALL_KIND, SERVER_FIX_ALL_KIND);
  });

  it("matches the analyzer's diagnostic codes", async () => {
    const analyzer = await Analyzer.create();
    const findings = analyzer.analyze(
      'x.c',
      [
        'void f(int fd, const char *a, const char *b, const char **items, int nr)',
        '{',
        '\tint i;',
        '\twrite_or_die(fd, a, 1);',
        '\twrite_or_die(fd, b, 1);',
        '\tfor (i = 0; i < nr; i++)',
        '\t\twrite_or_die(fd, items[i], 1);',
        '}',
        '',
      ].join('\n'),
      DEFAULT_SETTINGS,
    );
    const codes = new Set(findings.map((f) => f.code));
    assert.deepEqual([...codes].sort(), [DiagnosticCode.adjacentWrites, DiagnosticCode.loopWrites]);
    assert.equal(DIAGNOSTIC_SOURCE, 'writev');
  });
});
