import * as path from 'node:path';
import type { ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/** Starts the writev language server for C, TypeScript and JavaScript files. */
export async function activate(context: ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc },
  };
  client = new LanguageClient('writev', 'writev', serverOptions, {
    documentSelector: ['c', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact'].map(
      (language) => ({ scheme: 'file', language }),
    ),
  });
  await client.start();
}

/** Stops the language server. */
export async function deactivate(): Promise<void> {
  await client?.stop();
}
