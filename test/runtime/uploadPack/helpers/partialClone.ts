import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { decodePktLines, delimPkt, encodePktLine, flushPkt } from '@writev/runtime';
import { gitEnv } from '../../helpers/gitEnv';
import { ours, theirs } from './advertisement';
import { git, run, type Finished, type Scratch, uploadPackCommand } from './gitRepo';

/** The environment that selects protocol v2 for a server run directly. */
export const V2 = { GIT_PROTOCOL: 'version=2' };

/** Git configuration given through the environment (as `git -c` does), for both servers. */
export function configEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const entries = Object.entries(settings);
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(entries.length) };
  for (const [i, [key, value]] of entries.entries()) {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  }
  return env;
}

/** A v2 request: a command, its capabilities, its arguments, and (by default) the closing flush. */
export function v2Command(name: string, args: readonly string[], end = true): Buffer {
  return Buffer.concat([
    encodePktLine(`command=${name}\n`),
    encodePktLine('object-format=sha1\n'),
    delimPkt(),
    ...args.map((arg) => encodePktLine(`${arg}\n`)),
    flushPkt(),
    ...(end ? [flushPkt()] : []),
  ]);
}

/** A v0 request: wants (capabilities on the first), other lines, a flush and `done`. */
export function v0Request(wants: readonly string[], caps: string, lines: readonly string[] = []): Buffer {
  return Buffer.concat([
    ...wants.map((oid, i) => encodePktLine(`want ${oid}${i === 0 ? ` ${caps}` : ''}\n`)),
    ...lines.map((line) => encodePktLine(`${line}\n`)),
    flushPkt(),
    encodePktLine('done\n'),
  ]);
}

/**
 * Every packet of a reply up to the pack data, as text: `<flush>`/`<delim>` for the special ones,
 * a band prefix shown as `\1`, `\3`, each payload exactly (its newline, or the lack of one). The agent line is left out (each server names itself), and
 * what this server does not implement yet (`object-info`, `shallow` in `fetch=`).
 * Pack data and progress (bands 1 and 2 after the `packfile` header) are left out.
 */
export function replyPackets(stdout: Buffer): string[] {
  const lines: string[] = [];
  let inPack = false;
  for (const p of decodePktLines(stdout)) {
    if (p.kind !== 'data') {
      lines.push(`<${p.kind}>`);
      continue;
    }
    const band = p.payload[0]!;
    if (inPack && (band === 1 || band === 2)) continue;
    // The payload exactly, its newline (or the lack of one) included.
    const payload = Buffer.from(p.payload);
    const text = band <= 3 ? `\\${band}${payload.subarray(1).toString('utf8')}` : payload.toString('utf8');
    // What differs by design or is not implemented here: the agent, shallow, object-info.
    if (/^(agent=|object-info\n?$)/.test(text)) continue;
    if (text.startsWith('fetch=')) {
      lines.push(text.replace(/\bshallow ?/, ''));
      continue;
    }
    if (/^(\\1)?packfile\n$/.test(text)) inPack = true;
    lines.push(text);
  }
  return lines;
}

/** The text a reply carries on a side band (2: progress and messages, 3: the error). */
export function bandText(stdout: Buffer, band: 2 | 3): string {
  return decodePktLines(stdout)
    .filter((p) => p.kind === 'data' && p.payload[0] === band)
    .map((p) => Buffer.from((p as { payload: Uint8Array }).payload.subarray(1)).toString('utf8'))
    .join('');
}

/** The pack bytes of a reply: band-1 payloads from the one that starts with `PACK`. */
export function packBytes(stdout: Buffer): Buffer {
  const chunks: Uint8Array[] = [];
  for (const p of decodePktLines(stdout)) {
    if (p.kind !== 'data' || p.payload[0] !== 1) continue;
    const body = p.payload.subarray(1);
    if (chunks.length > 0 || Buffer.from(body.subarray(0, 4)).toString('latin1') === 'PACK')
      chunks.push(body);
  }
  return Buffer.concat(chunks);
}

/** The object ids a pack holds, sorted (indexed by `git index-pack` in `scratch`). */
export function packObjects(pack: Buffer, scratch: Scratch, name: string): string[] {
  assert.equal(pack.subarray(0, 4).toString('latin1'), 'PACK', 'a pack was sent');
  const file = scratch.path(`${name}.pack`);
  writeFileSync(file, pack);
  git(scratch.dir, ['index-pack', file]);
  return git(scratch.dir, ['show-index'], { input: readFileSync(file.replace(/\.pack$/, '.idx')) })
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[1]!)
    .sort();
}

/** Runs both servers on one request. */
export async function bothServers(
  repo: string,
  input: Buffer,
  env: NodeJS.ProcessEnv,
  oursEnv: NodeJS.ProcessEnv = {},
): Promise<{ ours: Finished; git: Finished }> {
  const [mine, theirsResult] = await Promise.all([
    ours(repo, input, { ...env, ...oursEnv }),
    theirs(repo, input, env),
  ]);
  return { ours: mine, git: theirsResult };
}

/** The last line git or we wrote on stderr (the `fatal:` line). */
export function fatalLine(stderr: string): string {
  return stderr.trim().split('\n').at(-1) ?? '';
}

/** `fatal: <message>` with our server's prefix removed, to compare with git's. */
export function gitWords(stderr: string): string {
  return fatalLine(stderr).replace(/^fatal: writev-upload-pack: /, 'fatal: ');
}

/** The objects of a clone, promisor-missing ones marked `?`, sorted. */
export function objectsOf(repo: string): string {
  return git(repo, ['rev-list', '--objects', '--all', '--missing=print'])
    .split('\n')
    .filter(Boolean)
    .sort()
    .join('\n');
}

/** Which server a client command runs: ours (through `--upload-pack`) or git's own. */
export type Side = 'ours' | 'git';

/** The `--upload-pack` arguments for a side. */
export function uploadPackArgs(side: Side): string[] {
  return side === 'ours' ? [`--upload-pack=${uploadPackCommand()}`] : [];
}

/** Runs the real git client; fails the test with its stderr when it fails. */
export async function client(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Finished> {
  const result = await run('git', args, { cwd, env: gitEnv(env), timeoutMs: 60_000 });
  assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
  return result;
}
