/**
 * Which upload-pack the HTTP handler runs. It is run as `git http-backend` runs git's own:
 * `<command> --stateless-rpc [--advertise-refs] <git dir>`, so any upload-pack that accepts those
 * flags can serve, `git upload-pack` included.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A program and the arguments that come before the handler's own. */
export interface UploadPackCommand {
  /** The program (a path, or a name looked up on `PATH`). */
  readonly file: string;
  /** Its leading arguments, e.g. `['upload-pack']` for `git`. */
  readonly args: readonly string[];
}

/** git's own upload-pack: `git upload-pack`. */
export const GIT_UPLOAD_PACK: UploadPackCommand = { file: 'git', args: ['upload-pack'] };

/**
 * A command line as git's `--upload-pack` takes it: run by `/bin/sh`, with the handler's arguments
 * appended (`<command> "$@"`), so it may hold options and quoted paths.
 */
export function shellCommand(command: string): UploadPackCommand {
  return { file: '/bin/sh', args: ['-c', `${command} "$@"`, command] };
}

/**
 * This package's `writev-upload-pack`, run by the current Node: the bundled bin, looked up beside
 * this module (the bundled `writev-git-http.js` sits next to it) or one folder up (this module
 * compiled into `dist/http/`).
 *
 * @throws Error naming the places looked at when the bundle has not been built.
 */
export function writevUploadPack(): UploadPackCommand {
  const places = [join(__dirname, 'writev-upload-pack.js'), join(__dirname, '..', 'writev-upload-pack.js')];
  const bin = places.find((place) => existsSync(place));
  if (bin === undefined) {
    throw new Error(
      `writev-upload-pack is not built: none of ${places.join(', ')} exists (run node esbuild.mjs)`,
    );
  }
  return { file: process.execPath, args: [bin] };
}
