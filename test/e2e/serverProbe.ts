import { spawn } from 'node:child_process';

/** What the bundled server says it can do, from its `initialize` answer. */
export interface ServerCapabilities {
  codeActionProvider?: unknown;
  diagnosticProvider?: unknown;
  [key: string]: unknown;
}

/**
 * Starts `server` (a bundled language server) over stdio, sends `initialize`, and returns the
 * capabilities it announces, then stops it. The end-to-end tests check hints only against a server
 * that announces code actions, so they say "analyzer not built yet" instead of timing out on it.
 */
export function probeServer(server: string, timeoutMs = 15_000): Promise<ServerCapabilities> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${server} did not answer initialize within ${timeoutMs} ms`));
    }, timeoutMs);
    let buffered = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const headerEnd = buffered.indexOf('\r\n\r\n');
        if (headerEnd === -1) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, headerEnd).toString())?.[1]);
        if (buffered.length < headerEnd + 4 + length) return;
        const message = JSON.parse(
          buffered.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'),
        ) as {
          id?: number;
          result?: { capabilities: ServerCapabilities };
        };
        buffered = buffered.subarray(headerEnd + 4 + length);
        if (message.id === 1 && message.result) {
          clearTimeout(timer);
          child.kill('SIGTERM');
          resolve(message.result.capabilities);
        }
      }
    });
    child.on('error', reject);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null },
    });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
