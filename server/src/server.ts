// The language server's entry point (bundled to dist/server.js). The transport comes from the command
// line, as vscode-languageclient passes it: `--stdio`, `--node-ipc` or `--socket=N`.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { Analyzer } from './analyzer/analyzer';
import { Session } from './lsp/session';

const connection = createConnection(ProposedFeatures.all);

// The grammar loads while the client starts; `initialize` is answered once it has loaded.
const ready = Analyzer.create();
ready.catch((error: unknown) => {
  // stderr, not console.error: in stdio mode the connection takes over the console.
  process.stderr.write(`writev: cannot load the C grammar: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
new Session(connection, ready).listen();
