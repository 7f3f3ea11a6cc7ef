// How the wrapper index names a TS/JS module: its path without the extension (`./out.js` and
// `./out.ts` are one module). Kept apart from the TS front end so using it does not load the compiler.

/** A module path without its extension, the key the wrapper index uses. */
export function moduleKey(path: string): string {
  return path.replace(/\.(d\.)?[mc]?[jt]sx?$/, '');
}
