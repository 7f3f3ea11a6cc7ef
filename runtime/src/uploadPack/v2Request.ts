/**
 * Reading one protocol v2 request as git's server reads it: the command and the capability lines
 * in any order up to a delim or a flush, then the arguments up to the flush; the session's end at
 * a lone flush or when the input stops before a request's first packet is whole.
 */
import { packetText } from '../protocol/pktLine';
import type { PktReader } from '../protocol/pktReader';
import { UploadPackError } from './errors';

/** One request: its command, capability lines and arguments. */
export interface Request {
  readonly command: string;
  readonly args: string[];
}

/**
 * Takes one capability line of a request, as git's server does: `agent` and `server-option` with
 * or without a value, `object-format` only naming the repository's own format; anything else
 * (a command's name included) is refused.
 */
function takeCapability(line: string, objectFormat: string): void {
  const [key, value] = line.split(/=(.*)/s, 2) as [string, string | undefined];
  if (key === 'agent' || key === 'server-option') return;
  if (key !== 'object-format') throw new UploadPackError(`unknown capability '${line}'`);
  if (value === undefined) throw new UploadPackError('object-format capability requires an argument');
  if (value !== 'sha1' && value !== 'sha256') throw new UploadPackError(`unknown object format '${value}'`);
  if (value !== objectFormat) {
    throw new UploadPackError(`mismatched object format: server ${objectFormat}; client ${value}`);
  }
}

/**
 * Reads one request; `undefined` at the end of the session: a lone flush, or the client gone
 * before its request's first packet was whole (git ends the session there without an error;
 * a request cut after that packet is the client hanging up).
 */
export function readRequest(
  reader: PktReader,
  objectFormat: string,
  commands: ReadonlySet<string>,
): Request | undefined {
  let packet = reader.nextUnlessEnded();
  if (packet === undefined || packet.kind === 'flush') return undefined;
  let command: string | undefined;
  // The command and the capabilities come in any order, up to a delim or a flush.
  while (packet.kind === 'data') {
    const line = packetText(packet.payload);
    if (line.startsWith('command=')) {
      const name = line.slice('command='.length);
      if (command !== undefined) {
        throw new UploadPackError(
          `command '${name}' requested after already requesting command '${command}'`,
        );
      }
      if (!commands.has(name)) throw new UploadPackError(`invalid command '${name}'`);
      command = name;
    } else takeCapability(line, objectFormat);
    packet = reader.next();
    if (packet === undefined) throw new UploadPackError('the client hung up inside a request');
  }
  if (packet.kind === 'response-end') {
    throw new UploadPackError('protocol error: unexpected response-end packet in a request');
  }
  if (command === undefined) throw new UploadPackError('no command requested');
  const args: string[] = [];
  if (packet.kind === 'delim') {
    for (;;) {
      packet = reader.next();
      if (packet === undefined) throw new UploadPackError('the client hung up inside a request');
      if (packet.kind === 'flush') break;
      if (packet.kind !== 'data') {
        throw new UploadPackError(`expected flush after ${command} arguments, got a ${packet.kind} packet`);
      }
      args.push(packetText(packet.payload));
    }
  }
  return { command, args };
}
