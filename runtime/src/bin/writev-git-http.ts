#!/usr/bin/env node
/**
 * writev-git-http: serves a folder of git repositories read-only over smart HTTP,
 *
 *   writev-git-http --port 8080 /srv/git        # then: git clone http://127.0.0.1:8080/project.git
 *
 * Each request is served by this package's writev-upload-pack inside the server's process; with
 * `--spawn`, by a writev-upload-pack process per request, and with `--upload-pack <command>`, by
 * `<command> --stateless-rpc [--advertise-refs] <repository>` (git's own, say). Pushes (`git-receive-pack`), paths that leave the folder and
 * anything but a repository get a 4xx answer with a one-line reason; refusals and upload-pack's own
 * complaints are reported on stderr.
 *
 * Exits 129 with the usage for bad options, 128 when the folder or the address cannot be used, 0
 * after SIGINT or SIGTERM (running clones are stopped).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createSmartHttpHandler } from '../http/smartHttp';
import { shellCommand } from '../http/uploadPackCommand';
import { UsageError } from '../usageError';

const USAGE =
  'usage: writev-git-http --port <n> [--host <address>] [--spawn | --upload-pack <command>]\n' +
  '                       [--max-request-bytes <n>] [--request-timeout <s>] [--idle-timeout <s>] <folder>\n' +
  '  --host               the address to listen on (default 127.0.0.1: this machine only)\n' +
  '  --spawn              run writev-upload-pack as a process per request (default: inside this one)\n' +
  "  --upload-pack        an upload-pack to run per request, a shell command as git's --upload-pack\n" +
  '                       takes it ("git upload-pack" serves with git\'s own)\n' +
  '  --max-request-bytes  the largest request body, after gzip (default 10485760)\n' +
  '  --request-timeout    seconds a request body may take to arrive (default 60)\n' +
  '  --idle-timeout       seconds upload-pack may stay silent before it is stopped (default 600)\n';

const EXIT_USAGE = 129;
const EXIT_FATAL = 128;

interface Options {
  port: number;
  host: string;
  folder: string;
  uploadPack?: string;
  spawn: boolean;
  maxRequestBytes?: number;
  requestTimeoutMs?: number;
  idleTimeoutMs?: number;
}

function whole(value: string, option: string, min: number, max: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, not '${value}'`);
  }
  return n;
}

function parseOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'upload-pack': { type: 'string' },
        spawn: { type: 'boolean' },
        'max-request-bytes': { type: 'string' },
        'request-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('. ')[0]!);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  if (values.port === undefined) throw new UsageError('--port is needed (0 picks a free port)');
  if (positionals.length !== 1) throw new UsageError('exactly one <folder> of repositories is needed');
  const options: Options = {
    port: whole(values.port, '--port', 0, 65535),
    host: values.host,
    folder: positionals[0]!,
    spawn: values.spawn ?? false,
  };
  if (values['upload-pack'] !== undefined) {
    if (values['upload-pack'].trim() === '') throw new UsageError('--upload-pack is empty');
    if (options.spawn) throw new UsageError('--spawn and --upload-pack cannot be used together');
    options.uploadPack = values['upload-pack'];
  }
  if (values['max-request-bytes'] !== undefined) {
    options.maxRequestBytes = whole(values['max-request-bytes'], '--max-request-bytes', 1, 2 ** 40);
  }
  if (values['request-timeout'] !== undefined) {
    options.requestTimeoutMs = whole(values['request-timeout'], '--request-timeout', 1, 86400) * 1000;
  }
  if (values['idle-timeout'] !== undefined) {
    options.idleTimeoutMs = whole(values['idle-timeout'], '--idle-timeout', 1, 86400) * 1000;
  }
  return options;
}

function say(line: string): void {
  process.stderr.write(`writev-git-http: ${line}\n`);
}

function main(): void {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n${USAGE}`);
    process.exit(EXIT_USAGE);
  }
  let handler;
  try {
    handler = createSmartHttpHandler({
      root: options.folder,
      ...(options.uploadPack !== undefined ? { uploadPack: shellCommand(options.uploadPack) } : {}),
      spawn: options.spawn,
      maxRequestBytes: options.maxRequestBytes,
      requestTimeoutMs: options.requestTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      log: say,
    });
  } catch (err) {
    say(`fatal: ${(err as Error).message}`);
    process.exit(EXIT_FATAL);
  }
  const server = createServer(handler);
  server.on('error', (err) => {
    say(`fatal: cannot listen on ${options.host}:${options.port}: ${err.message}`);
    process.exit(EXIT_FATAL);
  });
  server.listen(options.port, options.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : options.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    process.stdout.write(`writev-git-http: serving ${options.folder} at http://${host}:${port}/\n`);
  });
  const shutDown = (): void => {
    handler.terminate();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
}

main();
