// The language server keeps the fact base of each workspace folder (every file's write helpers, the
// functions that do no output) and re-diagnoses the documents open elsewhere when a save or a change
// outside the editor changes it: a helper made to write in one file gives its callers in another file
// findings without an edit of theirs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHAIN_LOOP, chainTree } from './cliHelpers';
import { TestServer } from './lspClient';

const work = mkdtempSync(join(tmpdir(), 'writev-lsp-facts-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The helper before: it only counts what it is given. */
const QUIET_HELPER = `#include <stddef.h>

static size_t total;

void emit(int fd, const char *s, size_t n)
{
\t(void)fd;
\t(void)s;
\ttotal += n;
}
`;

/** The helper after: it writes all of its buffer to the descriptor. */
const WRITING_HELPER = `#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

void emit(int fd, const char *s, size_t n)
{
\tsize_t off = 0;

\twhile (off < n) {
\t\tssize_t w = write(fd, s + off, n - off);
\t\tif (w < 0)
\t\t\treturn;
\t\toff += (size_t)w;
\t}
}
`;

const CALLER = `#include <stddef.h>

void emit(int fd, const char *s, size_t n);

void greet(const char *name, size_t n)
{
\temit(1, "hello, ", 7);
\temit(1, name, n);
}
`;

function tree(): string {
  const dir = mkdtempSync(join(work, 'tree-'));
  writeFileSync(join(dir, 'helper.c'), QUIET_HELPER);
  writeFileSync(join(dir, 'caller.c'), CALLER);
  return dir;
}

async function openCaller(server: TestServer, dir: string): Promise<() => number | undefined> {
  const caller = `file://${join(dir, 'caller.c')}`;
  await server.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: caller, languageId: 'c', version: 1, text: CALLER },
  });
  await server.published(caller, 1);
  return () => server.diagnostics.get(caller)?.diagnostics.length;
}

/** A reply helper writing twice to the descriptor its caller hands it. */
const REPLY = `#include <string.h>
#include <unistd.h>

int reply(int fd, const char *code, const char *text)
{
\tif (write(fd, code, strlen(code)) < 0)
\t\treturn -1;
\treturn write(fd, text, strlen(text)) < 0 ? -1 : 0;
}
`;

/** Its caller before: a descriptor of unknown kind. */
const REPLYING = `int reply(int fd, const char *code, const char *text);

int answer(int conn)
{
\treturn reply(conn, "200 ", "ok");
}
`;

/** Its caller after: a datagram socket it opened, where each write is one datagram. */
const DATAGRAM_REPLYING = `#include <sys/socket.h>
#include <netinet/in.h>

int reply(int fd, const char *code, const char *text);

int answer(int conn)
{
\tint s = socket(AF_INET, SOCK_DGRAM, 0);

\t(void)conn;
\treturn reply(s, "200 ", "ok");
}
`;

describe('the language server: facts from other files', () => {
  it('saving a file that makes a helper write re-diagnoses its callers open in other files', async () => {
    const dir = tree();
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const findings = await openCaller(server, dir);
      assert.equal(findings(), 0, 'emit() does not write yet');
      const helper = `file://${join(dir, 'helper.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: helper, languageId: 'c', version: 1, text: QUIET_HELPER },
      });
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: helper, version: 2 },
        contentChanges: [{ text: WRITING_HELPER }],
      });
      // As an editor saves: the text on disk, then the notification (a walk of the folder still
      // under way reads the file from disk).
      writeFileSync(join(dir, 'helper.c'), WRITING_HELPER);
      await server.connection.sendNotification('textDocument/didSave', { textDocument: { uri: helper } });
      await server.until('the caller re-diagnosed with the helper writing', () =>
        findings() === 1 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('a helper changed outside the editor re-diagnoses its callers open in other files', async () => {
    const dir = tree();
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const findings = await openCaller(server, dir);
      assert.equal(findings(), 0, 'emit() does not write yet');
      // helper.c is not open: another program rewrites it, and the client reports the watched file.
      writeFileSync(join(dir, 'helper.c'), WRITING_HELPER);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'helper.c')}`, type: 2 }],
      });
      await server.until('the caller re-diagnosed with the helper writing', () =>
        findings() === 1 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('a caller changed outside the editor to hand a datagram socket re-diagnoses the helper open in another file', async () => {
    const dir = mkdtempSync(join(work, 'handed-'));
    writeFileSync(join(dir, 'reply.c'), REPLY);
    writeFileSync(join(dir, 'answer.c'), REPLYING);
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const reply = `file://${join(dir, 'reply.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: reply, languageId: 'c', version: 1, text: REPLY },
      });
      await server.published(reply, 1);
      const findings = () => server.diagnostics.get(reply)?.diagnostics.length;
      await server.until('reply() diagnosed: its caller hands it a descriptor of unknown kind', () =>
        findings() === 1 ? true : undefined,
      );
      writeFileSync(join(dir, 'answer.c'), DATAGRAM_REPLYING);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'answer.c')}`, type: 2 }],
      });
      await server.until('reply() re-diagnosed quiet: a caller hands it a datagram socket', () =>
        findings() === 0 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it("a helper built on another file's helper diagnoses its callers, and stops when the first one does", async () => {
    const dir = chainTree(mkdtempSync(join(work, 'chain-')));
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const main = `file://${join(dir, 'main.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: main,
          languageId: 'c',
          version: 1,
          text: readFileSync(join(dir, 'main.c'), 'utf8'),
        },
      });
      await server.published(main, 1);
      const findings = () => server.diagnostics.get(main)?.diagnostics.length;
      const messages = () =>
        server.diagnostics
          .get(main)
          ?.diagnostics.map((d) => (typeof d.message === 'string' ? d.message : d.message.value)) ?? [];
      // Once the folder is indexed: tell_cmd() and tell_int() write through loop.c's loop.
      await server.until('main.c diagnosed with the chain of helpers', () =>
        messages().length === 1 && /tell_cmd\(\) writes the bytes of the value/.test(messages()[0] ?? '')
          ? true
          : undefined,
      );
      const loop = `file://${join(dir, 'loop.c')}`;
      const changed = async (type: number) =>
        server.connection.sendNotification('workspace/didChangeWatchedFiles', {
          changes: [{ uri: loop, type }],
        });
      writeFileSync(join(dir, 'loop.c'), 'int x;\n');
      await changed(2);
      await server.until('main.c re-diagnosed without the loop', () => (findings() === 0 ? true : undefined));
      writeFileSync(join(dir, 'loop.c'), CHAIN_LOOP);
      await changed(2);
      await server.until('main.c re-diagnosed with the loop back', () =>
        findings() === 1 ? true : undefined,
      );
      rmSync(join(dir, 'loop.c'));
      await changed(3);
      await server.until('main.c re-diagnosed with the loop deleted', () =>
        findings() === 0 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
