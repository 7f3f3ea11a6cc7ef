// Incremental latency: a 4,000-line C file open in the language server (over stdio, as an editor
// drives it); each didChange is timed until the diagnostics for that version arrive.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { percentile } from '@writev/runtime';

/**
 * Generates `lines` lines of C: 12-line functions, one in `every` of which writes a header and a
 * payload (a finding); the others compute and call (parsed and read all the same).
 */
export function generatedC(lines: number, every = 1): string {
  const out: string[] = ['#include <unistd.h>', ''];
  // The layout lengthArgument() counts on: two lines first, then FUNCTION_LINES a function.
  for (let i = 0; out.length < lines; i++) {
    const writes = i % every === 0;
    out.push(
      `/* record ${i}: a header and a payload */`,
      `static int send_record_${i}(int fd, const char *hdr, const char *buf, size_t len)`,
      '{',
      `\tif (len > ${i} + 4096)`,
      '\t\treturn -1;',
      writes
        ? `\tif (write_in_full(fd, hdr, ${(i % 5) + 1}) < 0)`
        : `\tif (checksum(fd, hdr, ${(i % 5) + 1}) < 0)`,
      '\t\treturn error_errno("header");',
      writes ? '\tif (write_in_full(fd, buf, len) < 0)' : '\tif (update_total(buf, len) < 0)',
      '\t\treturn error_errno("payload");',
      '\treturn 0;',
      '}',
      '',
    );
  }
  return out.slice(0, lines).join('\n') + '\n';
}

/** The lines {@link generatedC} gives each function. */
const FUNCTION_LINES = 12;

/**
 * Where {@link generatedC}'s function `fn` (from 0) gives its first write (or, in a function without
 * writes, its first call) a length: a one-digit constant, an edit of which leaves the file as valid.
 */
export function lengthArgument(fn: number, every = 1): { line: number; character: number } {
  const call = fn % every === 0 ? '\tif (write_in_full(fd, hdr, ' : '\tif (checksum(fd, hdr, ';
  // After the include and its blank line, the function's comment, head, brace, test and return.
  return { line: 2 + FUNCTION_LINES * fn + 5, character: call.length };
}

/** Result of {@link measureIncremental}: latencies in milliseconds. */
export interface IncrementalResult {
  readonly lines: number;
  readonly edits: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly findings: number;
  /** Findings after the last edit: as many as on opening, as the edits keep the file as valid. */
  readonly findingsAfter: number;
  /**
   * CPU milliseconds the server spent per timed edit (from /proc; undefined elsewhere): what the
   * edits cost whatever else the machine runs, where the latencies also count waiting for a core.
   */
  readonly cpuPerEdit?: number;
}

/** CPU milliseconds (user and system) process `pid` has used, from /proc; undefined where unreadable. */
export function processCpuMs(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Clock ticks of 10 ms: USER_HZ is 100 on every Linux architecture Node runs on.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Opens a generated file of `lines` lines (a write sequence in one function of `every`) and times
 * `edits` single-character edits inside functions (after warm-up).
 */
export async function measureIncremental(
  serverJs: string,
  lines = 4000,
  edits = 300,
  every = 1,
): Promise<IncrementalResult> {
  const child = spawn(process.execPath, [serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiting = new Map<number, (p: PublishDiagnosticsParams) => void>();
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.version !== undefined) waiting.get(p.version)?.(p);
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) =>
    params.items.map(() => ({})),
  );
  connection.listen();
  try {
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { configuration: true } },
    });
    await connection.sendNotification('initialized', {});
    const uri = `file://${join(process.cwd(), 'bench-incremental.c')}`;
    const text = generatedC(lines, every);
    const published = (version: number) =>
      new Promise<PublishDiagnosticsParams>((resolve) => waiting.set(version, resolve));
    let first = published(1);
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text },
    });
    const findings = (await first).diagnostics.length;
    const samples: number[] = [];
    let findingsAfter = findings;
    const warmup = 20;
    let cpuBefore: number | undefined;
    for (let v = 2; v < edits + warmup + 2; v++) {
      // Type into a header length anywhere in the file: a real edit inside a write sequence, which
      // leaves the file as valid as it was (whole functions only: the text may stop inside the last).
      const fn = (v * 37) % Math.floor(lines / FUNCTION_LINES - 1);
      const { line, character } = lengthArgument(fn, every);
      first = published(v);
      if (v === warmup + 2) cpuBefore = processCpuMs(child.pid);
      const started = process.hrtime.bigint();
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [
          {
            range: { start: { line, character }, end: { line, character: character + 1 } },
            text: String(v % 9),
          },
        ],
      });
      findingsAfter = (await first).diagnostics.length;
      if (v >= warmup + 2) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const cpuAfter = processCpuMs(child.pid);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    return {
      lines,
      edits: samples.length,
      p50: percentile(samples, 50),
      p95: percentile(samples, 95),
      max: Math.max(...samples),
      findings,
      findingsAfter,
      ...(cpuBefore !== undefined &&
        cpuAfter !== undefined && { cpuPerEdit: (cpuAfter - cpuBefore) / samples.length }),
    };
  } finally {
    // Never leave the server behind, even when a measurement fails.
    if (child.exitCode === null) child.kill();
  }
}
