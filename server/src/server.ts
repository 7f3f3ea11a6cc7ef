import { createConnection, ProposedFeatures, TextDocumentSyncKind } from 'vscode-languageserver/node';

// The language server's entry point; the analyzer's capabilities are wired in as they land.
const connection = createConnection(ProposedFeatures.all);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
  serverInfo: { name: 'writev' },
}));

connection.listen();
