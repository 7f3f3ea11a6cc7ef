// The language server's entry point (bundled to dist/server.js). The transport comes from the command
// line, as vscode-languageclient passes it: `--stdio`, `--node-ipc` or `--socket=N`.
import { format } from 'node:util';
import {
  createConnection,
  ProposedFeatures,
  StreamMessageWriter,
  type Connection,
} from 'vscode-languageserver/node';
import { Analyzer } from './analyzer/analyzer';
import { FrameFilter } from './lsp/framing';
import { DIAGNOSTICS_JSON } from './lsp/diagnosticsJson';
import { Session } from './lsp/session';

/** Writes to stderr, which the editor keeps as the server's log even when the connection is gone. */
function stderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * Over stdio the frames pass through a {@link FrameFilter}, so a malformed one is reported and
 * skipped instead of leaving the JSON-RPC reader deaf to every message after it.
 */
function connect(): Connection {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  const input = process.stdin.pipe(
    new FrameFilter((problem) => {
      const message = `writev: bad LSP input: ${problem.message} (${problem.skipped} bytes)`;
      stderr(message);
      // Reports come with data, which flows only once the connection below exists.
      made.console.error(message);
    }),
  );
  // The diagnostics' JSON is kept from one message to the next (see diagnosticsJson.ts).
  const output = new StreamMessageWriter(process.stdout, {
    charset: 'utf-8',
    contentTypeEncoder: DIAGNOSTICS_JSON,
  });
  // The input stays a stream, so that the library still ends the process when the editor closes it;
  // it reads each side on its own (a stream, or a reader or writer), which its typings do not list.
  const made = createConnection(ProposedFeatures.all, input, output as unknown as NodeJS.WritableStream);
  // stdout carries the protocol: what the process prints goes to the editor's log instead, as the
  // library does itself when it owns stdio.
  const toLog =
    (send: (message: string) => void) =>
    (...args: unknown[]) =>
      send(format(...args));
  console.log = toLog((m) => made.console.log(m));
  console.info = toLog((m) => made.console.info(m));
  console.warn = toLog((m) => made.console.warn(m));
  console.error = toLog((m) => made.console.error(m));
  console.debug = toLog((m) => made.console.log(m));
  // The two that print to stdout besides log and info.
  console.dir = toLog((m) => made.console.log(m));
  console.table = toLog((m) => made.console.log(m));
  return made;
}

const connection = connect();

// A failure no handler caught is logged with its stack, and the session goes on: one bad document or
// config file must not take the editor's hints away for every other file.
process.on('unhandledRejection', (error: unknown) => {
  const message = `writev: internal error (please report it): ${(error as Error)?.stack ?? String(error)}`;
  stderr(message);
  connection.console.error(message);
});

// The grammar loads while the client starts; `initialize` is answered once it has loaded.
const ready = Analyzer.create();
ready.catch((error: unknown) => {
  // stderr, not console.error: in stdio mode the connection takes over the console.
  stderr(`writev: cannot load the C grammar: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
new Session(connection, ready).listen();
