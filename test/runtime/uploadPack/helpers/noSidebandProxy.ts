/**
 * A client that asks for no side-band, made of the real git client: run as git's `--upload-pack`
 * (`node noSidebandProxy.js <server command...>`), it starts the server and relays both ways,
 * removing `side-band` and `side-band-64k` from the advertisement's capabilities. Git then
 * chooses neither and reads the pack bare, as an old or minimal client does.
 */
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}

/** The first pkt-line with the side-band capabilities removed (its length recomputed). */
function withoutSideband(line: Buffer): Buffer {
  const text = line.subarray(4).toString('latin1');
  const nul = text.indexOf('\0');
  if (nul < 0) return line;
  const caps = text
    .slice(nul + 1)
    .split(' ')
    .filter((cap) => cap !== 'side-band' && cap !== 'side-band-64k' && cap !== 'side-band-64k\n')
    .join(' ');
  const payload = `${text.slice(0, nul + 1)}${caps.endsWith('\n') ? caps : `${caps}\n`}`;
  return Buffer.from(`${(payload.length + 4).toString(16).padStart(4, '0')}${payload}`, 'latin1');
}

const [file, ...args] = process.argv.slice(2);
const server = spawn(file!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
let head: Buffer | undefined = Buffer.alloc(0);
server.stdout.on('data', (chunk: Buffer) => {
  if (head === undefined) return writeAll(1, chunk);
  head = Buffer.concat([head, chunk]);
  if (head.length < 4) return;
  const length = parseInt(head.subarray(0, 4).toString('latin1'), 16);
  if (head.length < length) return;
  const rest = head.subarray(length);
  writeAll(1, withoutSideband(head.subarray(0, length)));
  writeAll(1, rest);
  head = undefined;
});
process.stdin.pipe(server.stdin);
server.stdin.on('error', () => undefined);
server.on('close', (status, signal) => process.exit(status ?? (signal ? 128 : 1)));
