/**
 * The three ways upload-pack is run (git-upload-pack(1), gitprotocol-http(5)):
 * - a session, on a pipe or a socket: the advertisement, then the client's requests and the
 *   answers, until the pack or the client's end;
 * - `--advertise-refs` (git's alias `--http-backend-info-refs`): the advertisement alone, and exit
 *   without reading anything (smart HTTP's `GET info/refs`);
 * - `--stateless-rpc`: no advertisement; one request, read from the input, answered, and exit
 *   (smart HTTP's `POST git-upload-pack`). The client carries the state from one request to the
 *   next: it sends its wants again each time, and the haves found common so far.
 *
 * What a stateless serve does differently, as git's upload-pack does it (each checked against
 * `git upload-pack --stateless-rpc`):
 * - v0: the advertisement of `--advertise-refs` offers `no-done`; an empty request is the client
 *   hanging up (exit 128); a flush without `done` ends the request after its acknowledgments; a
 *   want may name any object reachable from a ref, since the refs may have moved between the
 *   client's GET and its POST;
 * - v2: `--advertise-refs` sends the capability advertisement; a request is one command (what
 *   follows it is not read), and an empty input or a lone flush serves nothing, with success.
 */
import type { PktReader } from '../protocol/pktReader';
import { UploadPackError } from './errors';
import type { UploadPackOptions } from './options';

/** How one run of the server talks to its client (see the file's comment). */
export type ServeMode = 'session' | 'advertise' | 'request';

/** The mode the command line asks for: `--advertise-refs` wins, with or without `--stateless-rpc`. */
export function serveModeOf(options: Pick<UploadPackOptions, 'advertiseRefs' | 'statelessRpc'>): ServeMode {
  if (options.advertiseRefs) return 'advertise';
  return options.statelessRpc ? 'request' : 'session';
}

/**
 * Refuses an empty v0 stateless request, in git's words: its client always sends at least a
 * flush, so an input that ends at once means it went away.
 *
 * @throws {@link UploadPackError} when `reader` is at the end of its input.
 */
export function requireRequest(reader: PktReader): void {
  if (reader.atEnd()) {
    throw new UploadPackError('the remote end hung up unexpectedly (an empty stateless request)');
  }
}
