/**
 * The environment of the git processes the server starts. Git's own transports clear the variables
 * that would point a git command at another repository before they start an upload-pack (GIT_DIR,
 * GIT_COMMON_DIR, GIT_OBJECT_DIRECTORY, ...), so a server started from a hook, a script run inside
 * another repository, or an HTTP server with GIT_DIR set still serves the repository it was named.
 * The same variables are cleared here for every git child, which is then pointed at the served
 * repository explicitly. `GIT_CONFIG` is cleared too: it redirects only `git config`, and would make
 * the configuration read differ from the one `git pack-objects` uses. `GIT_NAMESPACE` and the
 * command-line configuration (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`...) are kept: a server
 * is told its namespace and extra settings that way, as `git http-backend` passes them on.
 *
 * The environment those children start from is the process's, or, for a serve run inside an HTTP
 * server's process, the one that serve was given ({@link withServeEnv}): concurrent serves in one
 * process must not share `process.env`, which one of them would have to change.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The variables cleared for git children (see the module comment). */
export const REPOSITORY_VARIABLES: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_INDEX_FILE',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_PREFIX',
  'GIT_CONFIG',
];

/**
 * `env` without {@link REPOSITORY_VARIABLES}, plus `extra`. A fresh object; `env` is not modified.
 */
export function gitChildEnv(env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of REPOSITORY_VARIABLES) delete out[name];
  return { ...out, ...extra };
}

/** What a serve run inside another program's process carries to the git children it starts. */
interface ServeScope {
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

const serveStore = new AsyncLocalStorage<ServeScope>();

/**
 * Runs `fn` with `env` as the environment of the git children it starts (see {@link serveEnv}),
 * through every await and callback `fn` starts; other code in the process is not affected. When
 * `signal` aborts, the git children still running are stopped (see {@link serveSignal}): a serve
 * given up (client gone, idle timeout, shutdown) does not wait for a slow git first.
 */
export function withServeEnv<T>(env: NodeJS.ProcessEnv, fn: () => T, signal?: AbortSignal): T {
  return serveStore.run(signal ? { env, signal } : { env }, fn);
}

/** The environment git children start from: the serve's own (see {@link withServeEnv}), else `process.env`. */
export function serveEnv(): NodeJS.ProcessEnv {
  return serveStore.getStore()?.env ?? process.env;
}

/** The signal that stops the serve's git children, if the serve was given one. */
export function serveSignal(): AbortSignal | undefined {
  return serveStore.getStore()?.signal;
}
