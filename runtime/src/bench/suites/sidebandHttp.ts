/**
 * The sideband suite's HTTP servers: `git http-backend` (through the CGI gateway) and
 * writev-upload-pack's smart HTTP handler, each behind its own Node HTTP server in the bench's
 * process, and a v2 request to either.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import { createGitHttpBackendHandler } from '../../http/cgiBackend';
import { createSmartHttpHandler } from '../../http/smartHttp';

/** git configuration in the environment for one thread of delta search: the same pack every run. */
export const ONE_PACK_THREAD: NodeJS.ProcessEnv = {
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'pack.threads',
  GIT_CONFIG_VALUE_0: '1',
};

/** A Node HTTP server on 127.0.0.1 with `handler`, and its base URL. */
async function listen(handler: RequestListener): Promise<{ server: Server; base: URL }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the HTTP server has no port');
  return { server, base: new URL(`http://127.0.0.1:${address.port}/`) };
}

async function closeServer(server: Server): Promise<void> {
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}

/** Both servers, listening; `close` stops them and drops their connections. */
export interface HttpPair {
  /** git http-backend's base URL. */
  readonly backend: URL;
  /** writev-upload-pack's handler's base URL. */
  readonly smart: URL;
  close(): Promise<void>;
}

/**
 * Serves `root` with git http-backend (its children get `gitEnv`) and with the smart HTTP handler
 * running the bundled writev-upload-pack (`oursEnv`). Both handlers are made first (either may
 * refuse), then the servers: a server left listening after a failure would keep the bench process
 * alive.
 */
export async function startHttpPair(
  root: string,
  gitEnv: NodeJS.ProcessEnv,
  oursEnv: NodeJS.ProcessEnv,
): Promise<HttpPair> {
  const backendHandler = createGitHttpBackendHandler({ root, env: gitEnv });
  // writev-upload-pack serves inside the handler's process, as writev-git-http runs it.
  const smartHandler = createSmartHttpHandler({ root, env: oursEnv });
  const backend = await listen(backendHandler);
  const smart = await listen(smartHandler).catch(async (error: unknown) => {
    await closeServer(backend.server);
    throw error;
  });
  return {
    backend: backend.base,
    smart: smart.base,
    close: async () => {
      await Promise.all([backend.server, smart.server].map((server) => closeServer(server)));
    },
  };
}

/** POSTs `body` as a v2 upload-pack request; resolves with the answer (kept only when `keep`). */
export function postV2(
  base: URL,
  body: Buffer,
  keep: boolean,
): Promise<{ status: number; bytes: number; tail: string; data?: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: base.hostname,
      port: base.port,
      path: '/repo.git/git-upload-pack',
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': 'application/x-git-upload-pack-request',
        Accept: 'application/x-git-upload-pack-result',
        'Git-Protocol': 'version=2',
        'Content-Length': body.length,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let tail = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        tail = Buffer.concat([tail, chunk.subarray(-4)]).subarray(-4);
        if (keep) chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          tail: tail.toString('latin1'),
          ...(keep ? { data: Buffer.concat(chunks) } : {}),
        }),
      );
    });
    req.end(body);
  });
}
