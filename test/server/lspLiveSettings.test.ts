// Settings changed while the language server runs must leave it where a fresh start with those settings
// would: for each change an editor makes at runtime (a language turned off and on again, severities,
// unknownDescriptors, exclude, per-folder settings, a .writev-lint.json created, edited and deleted, a
// workspace folder removed and added), the open documents' diagnostics, quick fixes and fix-all edits
// are compared with those of a server started afresh in that state. Pulled diagnostics, as VS Code asks.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CodeAction, Diagnostic, InitializeParams } from 'vscode-languageserver-protocol';
import { TestServer } from './lspClient';

/** Two workspace folders: `a` with C and TS (and their wrappers in lib/, never opened), `b` with JS. */
const FILES: Record<string, string> = {
  'a/src/pair.c': `#include <unistd.h>

void send_pair(int fd, const char *hdr, const char *body, size_t n)
{
\twrite_or_die(fd, hdr, 4);
\twrite_or_die(fd, body, n);
}

void send_items(int fd, const char **items, int nr)
{
\tint i;

\tfor (i = 0; i < nr; i++)
\t\twrite_or_die(fd, items[i], 8);
}

void raw_pair(int fd, const char *a, const char *b)
{
\twrite(fd, a, 1);
\twrite(fd, b, 1);
}
`,
  // Its hint needs the workspace's wrapper index: log_line() is defined in lib/log.c.
  'a/src/calls.c': `void log_line(const char *line);

void log_pair(const char *key, const char *value)
{
\tlog_line(key);
\tlog_line(value);
}
`,
  'a/lib/log.c': `int log_fd = 2;

void log_line(const char *line)
{
\twrite_str_in_full(log_fd, line);
}
`,
  // The second hint needs the index too: logLine() is exported by lib/log.ts.
  'a/src/record.ts': `import { writeSync } from 'node:fs';
import { logLine } from '../lib/log';

export function sendRecord(fd: number, header: Buffer, payload: Buffer): void {
  writeSync(fd, header);
  writeSync(fd, payload);
}

export function logPair(key: Uint8Array, value: Uint8Array): void {
  logLine(key);
  logLine(value);
}
`,
  'a/lib/log.ts': `import { writeInFull } from '@writev/runtime';

export const logFd = 2;

export function logLine(buf: Uint8Array): void {
  writeInFull(logFd, buf);
}
`,
  'b/hot.js': `const { writeSync } = require('node:fs');

function greet(name) {
  writeSync(1, 'hello, ');
  writeSync(1, name);
}
module.exports = { greet };
`,
};
const OPEN = ['a/src/pair.c', 'a/src/calls.c', 'a/src/record.ts', 'b/hot.js'];
const LANGUAGE_ID: Record<string, string> = { '.c': 'c', '.ts': 'typescript', '.js': 'javascript' };
// A client that pulls diagnostics and is asked to pull again, as VS Code; no dynamic registrations,
// so the server takes the workspace folders as soon as it is initialised.
const CAPABILITIES: InitializeParams['capabilities'] = {
  workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
  textDocument: { diagnostic: { dynamicRegistration: false } },
};

type FolderName = 'a' | 'b';

/** Everything a user can change that the test changes. */
interface State {
  /** The editor's `writev` section per workspace folder (VS Code's folder settings in a multi-root workspace). */
  readonly editor: Readonly<Record<FolderName, unknown>>;
  /** The content of a/.writev-lint.json; undefined: there is none. */
  readonly config?: unknown;
  readonly folders: readonly FolderName[];
  /** Files whose text differs from {@link FILES}, as edited and saved in the editor. */
  readonly sources?: Readonly<Record<string, string>>;
}

/** What a user sees of one open document. */
interface DocumentView {
  readonly diagnostics: Diagnostic[];
  /** The code actions offered at each diagnostic (fixes, then "Disable ... for this line"). */
  readonly actions: CodeAction[][];
  /** What source.fixAll.writev offers for the whole document. */
  readonly fixAll: CodeAction[];
}

const tmp = mkdtempSync(join(tmpdir(), 'writev-lsp-live-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(tmp, path)), { recursive: true });
  writeFileSync(join(tmp, path), text);
}
const folderPath = (f: FolderName) => join(tmp, f);
const uriOf = (path: string) => `file://${join(tmp, path)}`;
const CONFIG = join(tmp, 'a', '.writev-lint.json');

/** The client's answer to `workspace/configuration` for a scope, from the folder holding it. */
function settingsFor(state: State): (scopeUri: string | undefined) => unknown {
  return (scopeUri) => {
    const folder = (['a', 'b'] as const).find((f) => scopeUri?.startsWith(uriOf(f)));
    return folder ? state.editor[folder] : {};
  };
}

/** Opens every document of {@link OPEN} at version 1. */
async function openAll(server: TestServer): Promise<void> {
  for (const path of OPEN) {
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri: uriOf(path),
        languageId: LANGUAGE_ID[extname(path)],
        version: 1,
        text: FILES[path],
      },
    });
  }
}

/**
 * Resolves once every workspace folder's wrapper index is complete: `writev/lintWorkspace` waits for
 * each folder's latest indexing run before it walks the folder. Only then do a fresh and a live
 * server have the same facts to analyse with.
 */
async function indexed(server: TestServer): Promise<void> {
  const result = await server.connection.sendRequest<{ cancelled: boolean }>('writev/lintWorkspace', {});
  assert.equal(result.cancelled, false);
}

/** The diagnostics, quick fixes and fix-all of every open document, as the client would get them. */
async function view(server: TestServer): Promise<Record<string, DocumentView>> {
  const seen: Record<string, DocumentView> = {};
  for (const path of OPEN) {
    const uri = uriOf(path);
    const report = await server.connection.sendRequest<{ kind: string; items: Diagnostic[] }>(
      'textDocument/diagnostic',
      { textDocument: { uri } },
    );
    assert.equal(report.kind, 'full', 'no previous result was named');
    const actions: CodeAction[][] = [];
    for (const d of report.items) {
      actions.push(
        await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: d.range,
          context: { diagnostics: [d] },
        }),
      );
    }
    const fixAll = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: {
        start: { line: 0, character: 0 },
        end: { line: FILES[path]!.split('\n').length, character: 0 },
      },
      context: { diagnostics: [], only: ['source.fixAll.writev'] },
    });
    seen[path] = { diagnostics: report.items, actions, fixAll };
  }
  return seen;
}

/**
 * Opens, saves and closes each of `paths`, as a user saving a file in the editor. The diagnostics are
 * pulled after the open, as VS Code does: the server then knows the file's settings, and handles the
 * save before the next message arrives.
 */
async function saveEach(
  server: TestServer,
  paths: readonly string[],
  textOf = (path: string) => FILES[path],
): Promise<void> {
  for (const path of paths) {
    const textDocument = { uri: uriOf(path) };
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: {
        ...textDocument,
        languageId: LANGUAGE_ID[extname(path)],
        version: 1,
        text: textOf(path),
      },
    });
    await server.connection.sendRequest('textDocument/diagnostic', { textDocument });
    await server.connection.sendNotification('textDocument/didSave', { textDocument });
    await server.connection.sendNotification('textDocument/didClose', { textDocument });
  }
}

/** The number of diagnostics per open document: what each step expects, to show the change took. */
function counts(seen: Record<string, DocumentView>): Record<string, number> {
  return Object.fromEntries(Object.entries(seen).map(([path, v]) => [path, v.diagnostics.length]));
}

/** Writes a/.writev-lint.json as `state` says (or removes it); returns the LSP change type, if any. */
function writeConfig(state: State): 1 | 2 | 3 | undefined {
  const existed = existsSync(CONFIG);
  if (state.config === undefined) {
    if (!existed) return undefined;
    unlinkSync(CONFIG);
    return 3; // Deleted
  }
  writeFileSync(CONFIG, JSON.stringify(state.config));
  return existed ? 2 : 1; // Changed : Created
}

/** What a server started afresh in `state` (the config file already on disk) shows. */
async function fresh(state: State): Promise<Record<string, DocumentView>> {
  const server = await TestServer.start(state.folders.map(folderPath), CAPABILITIES, undefined, (s) => {
    s.settingsFor = settingsFor(state);
  });
  try {
    await openAll(server);
    await indexed(server);
    return await view(server);
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

const DEFAULTS: State = { editor: { a: {}, b: {} }, folders: ['a', 'b'] };
const BOTH_EDITORS = (settings: unknown): State => ({ ...DEFAULTS, editor: { a: settings, b: settings } });
const ALL = { 'a/src/pair.c': 3, 'a/src/calls.c': 1, 'a/src/record.ts': 2, 'b/hot.js': 1 };

const NO_C_WRAPPER = FILES['a/lib/log.c']!.replace('write_str_in_full(log_fd, line);', '(void)line;');
const NO_TS_WRAPPER = FILES['a/lib/log.ts']!.replace('writeInFull(logFd, buf);', 'void buf;');

/**
 * The steps, in order, each from the state the one before left; `expect` is the counts in the new
 * state. Each distinct state costs a fresh server, so changes that cannot hide one another share one.
 */
const STEPS: {
  name: string;
  state: State;
  /** What the user does next, in the new state. */
  then?: (server: TestServer) => Promise<void>;
  expect: Record<string, number>;
}[] = [
  {
    name: 'TypeScript turned off',
    state: BOTH_EDITORS({ languages: { typescript: false } }),
    expect: { ...ALL, 'a/src/record.ts': 0 },
  },
  { name: 'TypeScript turned on again', state: DEFAULTS, expect: ALL },
  {
    name: 'C and JavaScript turned off',
    state: BOTH_EDITORS({ languages: { c: false, javascript: false } }),
    expect: { ...ALL, 'a/src/pair.c': 0, 'a/src/calls.c': 0, 'b/hot.js': 0 },
  },
  { name: 'C and JavaScript turned on again', state: DEFAULTS, expect: ALL },
  {
    name: 'each folder its own settings: in one, lib/ excluded (its wrappers leave the index), severities, a rule off, unknown descriptors quiet',
    state: {
      ...DEFAULTS,
      editor: {
        a: {
          exclude: ['lib/'],
          severity: { adjacentWrites: 'hint', loopWrites: 'off' },
          unknownDescriptors: 'quiet',
        },
        b: { severity: { adjacentWrites: 'error' } },
      },
    },
    // Saving an excluded file must not bring its wrappers back.
    then: (server) => saveEach(server, ['a/lib/log.c', 'a/lib/log.ts']),
    expect: { ...ALL, 'a/src/pair.c': 1, 'a/src/calls.c': 0, 'a/src/record.ts': 1 },
  },
  { name: 'the folder settings removed', state: DEFAULTS, expect: ALL },
  {
    name: 'a .writev-lint.json created, with overrides (one for the C wrappers, whose file is saved)',
    state: {
      ...DEFAULTS,
      config: {
        unknownDescriptors: 'quiet',
        overrides: [
          { files: ['src/*.ts'], languages: { typescript: false } },
          { files: ['lib/'], languages: { c: false } },
        ],
      },
    },
    // A save reads the file's wrappers with the file's own settings: so must the walk.
    then: (server) => saveEach(server, ['a/lib/log.c']),
    expect: { ...ALL, 'a/src/pair.c': 2, 'a/src/calls.c': 0, 'a/src/record.ts': 0 },
  },
  { name: 'the .writev-lint.json deleted', state: DEFAULTS, expect: ALL },
  {
    name: 'a TS wrapper edited to write nothing, and saved: its caller open elsewhere',
    state: { ...DEFAULTS, sources: { 'a/lib/log.ts': NO_TS_WRAPPER } },
    expect: { ...ALL, 'a/src/record.ts': 1 },
  },
  {
    name: 'the C wrapper too',
    state: { ...DEFAULTS, sources: { 'a/lib/log.ts': NO_TS_WRAPPER, 'a/lib/log.c': NO_C_WRAPPER } },
    expect: { ...ALL, 'a/src/calls.c': 0, 'a/src/record.ts': 1 },
  },
  { name: 'the wrappers restored and saved', state: DEFAULTS, expect: ALL },
  {
    name: 'the folder holding the wrappers removed',
    state: { ...DEFAULTS, folders: ['b'] },
    expect: { ...ALL, 'a/src/calls.c': 0, 'a/src/record.ts': 1 },
  },
  { name: 'the folder added again', state: { ...DEFAULTS, folders: ['b', 'a'] }, expect: ALL },
];

describe('language server: settings changed while it runs', { timeout: 120_000 }, () => {
  let live: TestServer;
  let state = DEFAULTS;
  const references = new Map<string, Promise<Record<string, DocumentView>>>();
  /** The view of a fresh server in `s`, started once per distinct state. */
  const reference = (s: State) => {
    // The order of the folders does not matter to what a fresh server shows.
    const key = JSON.stringify({ ...s, folders: [...s.folders].sort() });
    let found = references.get(key);
    if (!found) references.set(key, (found = fresh(s)));
    return found;
  };

  before(async () => {
    live = await TestServer.start(DEFAULTS.folders.map(folderPath), CAPABILITIES, undefined, (s) => {
      s.settingsFor = settingsFor(DEFAULTS);
    });
    await openAll(live);
    await indexed(live);
  });
  after(async () => {
    assert.equal(await live.stop(), 0);
  });

  /** Makes the live server's world `next`, telling it as an editor would. */
  async function change(next: State): Promise<void> {
    const textOf = (path: string) => next.sources?.[path] ?? FILES[path];
    const edited = Object.keys({ ...state.sources, ...next.sources });
    for (const path of edited) writeFileSync(join(tmp, path), textOf(path)!);
    await saveEach(live, edited, textOf);
    const changeType = writeConfig(next);
    if (changeType !== undefined) {
      await live.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${CONFIG}`, type: changeType }],
      });
    }
    if (JSON.stringify(next.editor) !== JSON.stringify(state.editor)) {
      live.settingsFor = settingsFor(next);
      // VS Code pushes the section without a scope; the server asks for each scope again.
      await live.connection.sendNotification('workspace/didChangeConfiguration', {
        settings: { writev: next.editor.a },
      });
    }
    const added = next.folders.filter((f) => !state.folders.includes(f));
    const removed = state.folders.filter((f) => !next.folders.includes(f));
    if (added.length > 0 || removed.length > 0) {
      const folder = (f: FolderName) => ({ uri: `file://${folderPath(f)}`, name: f });
      await live.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: added.map(folder), removed: removed.map(folder) },
      });
    }
    state = next;
    await indexed(live);
  }

  it('shows at start what a fresh server shows', async () => {
    const seen = await view(live);
    assert.deepEqual(counts(seen), ALL);
    assert.deepEqual(seen, await reference(DEFAULTS));
  });

  for (const step of STEPS) {
    it(`${step.name}: the diagnostics, quick fixes and fix-all of a fresh server in that state`, async () => {
      await change(step.state);
      await step.then?.(live);
      await indexed(live);
      const seen = await view(live);
      assert.deepEqual(counts(seen), counts(await reference(step.state)));
      assert.deepEqual(seen, await reference(step.state));
      assert.deepEqual(counts(seen), step.expect);
    });
  }
});
