// The language server reads the helpers a header defines as its includers' own: a header edited outside
// the editor re-diagnoses the files that include it.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { TestServer } from './lspClient';

const work = mkdtempSync(join(tmpdir(), 'writev-lsp-headers-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The header before: its helper only counts what it is given. */
const QUIET_HEADER = `#include <stddef.h>

static inline void emit(int fd, const char *s, size_t n, size_t *total)
{
\t(void)fd;
\t(void)s;
\t*total += n;
}
`;

/** The header after: its helper writes all of its buffer. */
const WRITING_HEADER = `#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

static inline void emit(int fd, const char *s, size_t n, size_t *total)
{
\tsize_t off = 0;

\twhile (off < n) {
\t\tssize_t w = write(fd, s + off, n - off);
\t\tif (w < 0)
\t\t\treturn;
\t\toff += (size_t)w;
\t}
\t*total += n;
}
`;

const CALLER = `#include <stddef.h>
#include "emit.h"

void greet(const char *name, size_t n, size_t *total)
{
\temit(1, "hello, ", 7, total);
\temit(1, name, n, total);
}
`;

describe('the language server: helpers defined in headers', () => {
  it("a header's helper made to write re-diagnoses the files that include it", async () => {
    const dir = mkdtempSync(join(work, 'tree-'));
    writeFileSync(join(dir, 'emit.h'), QUIET_HEADER);
    writeFileSync(join(dir, 'caller.c'), CALLER);
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const caller = `file://${join(dir, 'caller.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: caller, languageId: 'c', version: 1, text: CALLER },
      });
      await server.published(caller, 1);
      const findings = () => server.diagnostics.get(caller)?.diagnostics.length;
      assert.equal(findings(), 0, 'emit() does not write yet');
      writeFileSync(join(dir, 'emit.h'), WRITING_HEADER);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'emit.h')}`, type: 2 }],
      });
      await server.until('the includer re-diagnosed with the header helper writing', () =>
        findings() === 1 ? true : undefined,
      );
      writeFileSync(join(dir, 'emit.h'), QUIET_HEADER);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'emit.h')}`, type: 2 }],
      });
      await server.until('the includer re-diagnosed with the header helper quiet again', () =>
        findings() === 0 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it("a loop over a header's write macro in one file makes a helper for the files that call it", async () => {
    const dir = mkdtempSync(join(work, 'macros-'));
    cpSync(join(FIXTURES, 'c-headermacrowriters'), dir, { recursive: true });
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const proto = `file://${join(dir, 'proto.c')}`;
      const text = readFileSync(join(dir, 'proto.c'), 'utf8');
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: proto, languageId: 'c', version: 1, text },
      });
      await server.until('the caller diagnosed with the helper read through the macro', () => {
        const found = server.diagnostics.get(proto)?.diagnostics ?? [];
        return found.length === 1 && found[0]!.range.start.line === 6 ? true : undefined;
      });
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it("a helper writing only through a header's macro over another file's helper gives its callers runs", async () => {
    const dir = mkdtempSync(join(work, 'chains-'));
    cpSync(join(FIXTURES, 'c-headermacrochains'), dir, { recursive: true });
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const notify = `file://${join(dir, 'notify.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: notify,
          languageId: 'c',
          version: 1,
          text: readFileSync(join(dir, 'notify.c'), 'utf8'),
        },
      });
      // notify.c's markers: one run in each of its three functions, once the folder is indexed.
      const lines = () =>
        (server.diagnostics.get(notify)?.diagnostics ?? []).map((d) => d.range.start.line + 1);
      const found = (want: number[]) => () => (lines().join() === want.join() ? true : undefined);
      await server.until('notify.c diagnosed through lines.c, trace.h and trace.c', found([19, 30, 41]));
      // trace.c's helper made quiet outside the editor: lines.c's helpers, which call it only through
      // the macros, are read again, and so is notify.c.
      const trace = join(dir, 'trace.c');
      const writing = readFileSync(trace, 'utf8');
      const traceChanged = () =>
        server.connection.sendNotification('workspace/didChangeWatchedFiles', {
          changes: [{ uri: `file://${trace}`, type: 2 }],
        });
      writeFileSync(trace, writing.replace('write(fd, buf, len)', '(ssize_t)len'));
      await traceChanged();
      await server.until('notify.c re-diagnosed with the traced helper quiet', found([]));
      writeFileSync(trace, writing);
      await traceChanged();
      await server.until('notify.c re-diagnosed with the traced helper writing again', found([19, 30, 41]));
      // An edit of one helper's body in the editor, saved: its callers lose their run, the others keep theirs.
      const helpers = `file://${join(dir, 'lines.c')}`;
      const text = readFileSync(join(dir, 'lines.c'), 'utf8');
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: helpers, languageId: 'c', version: 1, text },
      });
      const quiet = text.replace('return HMC_SEND_STR(fd, line);', 'return (int)strlen(line) + fd;');
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: helpers, version: 2 },
        contentChanges: [{ text: quiet }],
      });
      await server.connection.sendNotification('textDocument/didSave', { textDocument: { uri: helpers } });
      await server.until('notify.c re-diagnosed with hmc_send_line() quiet', found([30, 41]));
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
