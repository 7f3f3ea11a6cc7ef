import { decodePktLines, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../../helpers/gitEnv';
import { run, runInProcess, type Finished } from './gitRepo';

/**
 * The parts of a v0 advertisement both servers must agree on: each `oid name` line, and the
 * `symref=` capabilities of the first line. The capability lists themselves differ by design (each
 * server names its own). Git before 2.41 answers an empty list with a bare flush and later ones
 * with a `capabilities^{}` line, as this server does: that line is not a ref and is left out.
 */
export function refLines(stdout: Buffer): string[] {
  const lines: string[] = [];
  for (const packet of decodePktLines(stdout)) {
    if (packet.kind !== 'data') break;
    const [ref, caps] = packetText(packet.payload).split('\0');
    if (ref!.endsWith(' capabilities^{}')) continue;
    const symrefs = (caps ?? '').split(' ').filter((cap) => cap.startsWith('symref='));
    lines.push([ref, ...symrefs].join(' '));
  }
  return lines;
}

/** The text lines of a reply (`<flush>` for a flush), in order. */
export function replyLines(stdout: Buffer): string[] {
  return decodePktLines(stdout).map((p) => (p.kind === 'data' ? packetText(p.payload) : `<${p.kind}>`));
}

/** A request of `wants` (capabilities on the first), a flush and `done`. */
export function wantRequest(wants: readonly string[], caps = 'side-band-64k ofs-delta'): Buffer {
  return Buffer.concat([
    ...wants.map((oid, i) => encodePktLine(`want ${oid}${i === 0 ? ` ${caps}` : ''}\n`)),
    flushPkt(),
    encodePktLine('done\n'),
  ]);
}

/**
 * Runs writev-upload-pack on `repo` with `input` and the given environment additions, in this
 * process (see {@link runInProcess}).
 */
export function ours(
  repo: string,
  input: Buffer,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<Finished> {
  return runInProcess([...args, repo], { env: gitEnv(env), input });
}

/** Runs `git upload-pack` on `repo` with `input` and the given environment additions. */
export function theirs(repo: string, input: Buffer, env: NodeJS.ProcessEnv): Promise<Finished> {
  return run('git', ['upload-pack', repo], { env: gitEnv(env), input });
}

/** Just the advertisement: a client that sends a flush at once, as `git ls-remote` does. */
export const LS_REMOTE = flushPkt();
