// An accessor of no parameters that hands back state kept for the whole program or for the calling
// thread: `struct connection *threadlocal_get_conn(void) { struct threadlocal *t =
// pthread_getspecific(key); return t ? t->conn : NULL; }`. It changes nothing, and two calls in one
// thread give the same object, as long as nothing sets that state in between: it is pure in the sense
// the fact base gives the word, though its body declares a local with an initializer, which the plain
// accessor test (no `=` at all) refuses. A helper that finds its connection through it (`conn =
// get_conn(); write(conn->fd, ...)`) writes to one fixed connection per thread, the one
// `get_conn()->fd` names (see contextLocals.ts), and so do two calls of it in one function.
/** The C library's getters of thread-local storage (POSIX, C11, Windows): pure within a thread. */
export const THREAD_LOCAL_GETTERS: readonly string[] = [
  'pthread_getspecific',
  'tss_get',
  'TlsGetValue',
  'FlsGetValue',
];

/** A local declared with an initializer at a statement's start (`struct t *p = f(k);`, `int n = 0;`). */
const INITIALIZED_LOCAL =
  /(^|[;{}])\s*(?:const\s+|volatile\s+)*(?:struct\s+|union\s+|enum\s+)?(?!(?:return|else|case|goto|do)\b)[A-Za-z_]\w*(?:\s+|\s*\*+\s*)(?:const\s+)?\**\s*[A-Za-z_]\w*\s*=(?!=)/g;

/**
 * Whether a function whose parameter list is `paramList` and whose body is `body` (comments and literals
 * blanked) is such an accessor's body as far as assignments go: no parameters (`void` or none), and every
 * `=` in it (`mutation` finds them) is a local's initializer. Its calls are left to the pure functions'
 * fixed point (the library's thread-local getters are pure there, see catalogue.ts).
 */
export function sharedStateReader(paramList: string, body: string, mutation: RegExp): boolean {
  if (!/^\s*(?:void)?\s*$/.test(paramList)) return false;
  const rest = body.replace(INITIALIZED_LOCAL, (_m, head: string) => `${head} `);
  return !mutation.test(rest);
}
