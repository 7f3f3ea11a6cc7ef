// The command line of writev-language-server, checked before the server starts so that a user who runs
// it by hand gets help instead of vscode-languageserver's error about an unset input stream.
import { parseArgs } from 'node:util';

/** What the bin should do: start the server, or exit with `status` after printing `out`/`err`. */
export type ServerLaunch =
  | { readonly start: true }
  | { readonly start: false; readonly status: number; readonly out?: string; readonly err?: string };

/** The help text. */
export const SERVER_USAGE = `usage: writev-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>

The writev language server (LSP 3.17): diagnostics, quick fixes and source.fixAll.writev for C and TS/JS.
Editors start it themselves; see the README for Neovim, Helix and Emacs.

  --stdio            speak LSP on standard input and output
  --node-ipc         speak LSP over Node's IPC channel (a Node parent process)
  --socket=<port>    connect to a socket the client listens on
  --pipe=<name>      connect to a named pipe the client listens on
  --clientProcessId=<pid>  exit when that process exits (passed by vscode-languageclient)
  --version          print the version`;

/** Checks `argv` (without node and the script); `version` is the package's version. */
export function serverLaunch(argv: readonly string[], version: string): ServerLaunch {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stdio: { type: 'boolean' },
        'node-ipc': { type: 'boolean' },
        socket: { type: 'string' },
        pipe: { type: 'string' },
        clientProcessId: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    return {
      start: false,
      status: 2,
      err: `writev-language-server: ${(error as Error).message}\n${SERVER_USAGE}\n`,
    };
  }
  if (values.help) return { start: false, status: 0, out: `${SERVER_USAGE}\n` };
  if (values.version) return { start: false, status: 0, out: `${version}\n` };
  const transports = ['stdio', 'node-ipc', 'socket', 'pipe'].filter((t) => values[t] !== undefined);
  if (transports.length !== 1) {
    const problem =
      transports.length === 0 ? 'no transport given' : `one transport, not ${transports.join(' and ')}`;
    return { start: false, status: 2, err: `writev-language-server: ${problem}\n${SERVER_USAGE}\n` };
  }
  return { start: true };
}
