// A helper's change seen in its callers: two files of a workspace folder open in the language server
// (over stdio, as an editor drives it), a helper in one and, in the other, a run of writes to stdout
// across a call to it. Each round edits and saves the helper so that it prints, or stops printing, which
// changes what the caller's run may cross; the time is taken from the save to the caller's new
// diagnostics. The target is that the server re-diagnoses the caller by itself; where it does not within
// the wait, the round says so, and the caller is then touched (a one-character edit) to time the
// re-analysis with the new facts, the part of the target the analyzer's speed decides.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { generatedC } from './incremental';

/** The helper file: `seal()` only computes, or (`prints`) also prints a note. */
export function helperText(prints: boolean): string {
  return `#include <stdio.h>
#include <string.h>

struct frame { unsigned int len; unsigned int sum; };

void seal(struct frame *f, const char *body, size_t n)
{
\tf->len = (unsigned int)n;
\tf->sum = (unsigned int)strlen(body);${prints ? '\n\tfputs("sealed\\n", stderr);' : ''}
}
`;
}

/** The caller file: `lines` lines of generated C, then a run to stdout across `seal()`. */
export function callerText(lines: number): string {
  // Whole functions only: the generated text stops at its line count, maybe inside one.
  const generated = generatedC(lines, 20);
  return `${generated.slice(0, generated.lastIndexOf('\n}\n') + 3)}
struct frame { unsigned int len; unsigned int sum; };
void seal(struct frame *f, const char *body, size_t n);

int framed(const char *body, size_t n, const char *trailer)
{
\tstruct frame f, t;

\tseal(&f, body, n);
\tif (write(STDOUT_FILENO, &f, sizeof f) != sizeof f)
\t\treturn -1;
\tseal(&t, trailer, strlen(trailer));
\tif (write(STDOUT_FILENO, body, n) != (ssize_t)n)
\t\treturn -1;
\tif (write(STDOUT_FILENO, &t, sizeof t) != sizeof t)
\t\treturn -1;
\treturn 0;
}
`;
}

/** What a publication says about the caller's findings: where each is and what it says. */
function signature(published: PublishDiagnosticsParams | undefined): string {
  if (!published) throw new Error('helper bench: no diagnostics for the caller');
  return JSON.stringify(published.diagnostics.map((d) => [d.range.start.line, d.message]));
}

/** Result of {@link measureHelperChange}: latencies in milliseconds. */
export interface HelperChangeResult {
  readonly rounds: number;
  /** Rounds in which the server re-diagnosed the caller by itself, and how long each took. */
  readonly pushed: readonly number[];
  /** The other rounds: save, then a one-character edit of the caller, to its new diagnostics. */
  readonly touched: readonly number[];
  /** How long a round waited for the server to re-diagnose the caller by itself. */
  readonly waitMs: number;
}

/**
 * Times `rounds` changes of a helper's body (each saved) until its caller in another open file
 * (`lines` lines long) shows the findings the new body implies. Throws when the caller's findings do
 * not follow the helper: the figure would be of something else.
 */
export async function measureHelperChange(
  serverJs: string,
  lines = 4000,
  rounds = 20,
  waitMs = 1000,
): Promise<HelperChangeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'writev-helper-bench-'));
  const helperPath = join(dir, 'seal.c');
  const callerPath = join(dir, 'framed.c');
  writeFileSync(helperPath, helperText(false));
  const caller = callerText(lines);
  writeFileSync(callerPath, caller);
  const child = spawn(process.execPath, [serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const helperUri = pathToFileURL(helperPath).href;
  const callerUri = pathToFileURL(callerPath).href;
  // Every publication for the caller, in order: a round waits for the next one after its change.
  let published: ((p: PublishDiagnosticsParams) => void) | undefined;
  const logs: string[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.uri === callerUri) published?.(p);
  });
  connection.onNotification('window/logMessage', (p: { message: string }) => {
    logs.push(p.message);
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) =>
    params.items.map(() => ({})),
  );
  connection.listen();
  /**
   * The caller's next diagnostics that `wanted` accepts (all when it is absent), or undefined after
   * `ms`. Publications it does not accept are skipped: on a busy machine a publication from the round
   * before (the analysis an edit of the caller started) can arrive after this round's change was sent,
   * and it shows the state before the change.
   */
  const next = (ms: number, wanted?: (findings: string) => boolean) =>
    new Promise<PublishDiagnosticsParams | undefined>((resolve) => {
      const timer = setTimeout(() => {
        published = undefined;
        resolve(undefined);
      }, ms);
      published = (p) => {
        if (wanted && !wanted(signature(p))) return;
        clearTimeout(timer);
        published = undefined;
        resolve(p);
      };
    });
  try {
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'bench' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true } },
    });
    await connection.sendNotification('initialized', {});
    // The folder's index is ready when the server logs it; the caller is opened after that.
    for (let waited = 0; !logs.some((l) => l.includes('indexed wrappers')); waited += 10) {
      if (waited > 30_000) throw new Error('helper bench: the server did not index its folder in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: helperUri, languageId: 'c', version: 1, text: helperText(false) },
    });
    let opened = next(30_000);
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: callerUri, languageId: 'c', version: 1, text: caller },
    });
    const quietFindings = signature(await opened);
    const pushed: number[] = [];
    const touched: number[] = [];
    let callerVersion = 1;
    let printingFindings: string | undefined;
    for (let round = 0; round < rounds; round++) {
      const prints = round % 2 === 0;
      const text = helperText(prints);
      const started = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
      // The findings the new body implies: the quiet ones, or (printing) the first other ones seen.
      const follows = (found: string) =>
        prints ? (printingFindings ?? found) === found && found !== quietFindings : found === quietFindings;
      const byItself = next(waitMs, follows);
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: helperUri, version: round + 2 },
        contentChanges: [{ text }],
      });
      writeFileSync(helperPath, text);
      await connection.sendNotification('textDocument/didSave', { textDocument: { uri: helperUri } });
      let got = await byItself;
      if (got) pushed.push(elapsed());
      else {
        // Not re-diagnosed by itself: touch the caller (a digit of its first function's bound).
        const edit = process.hrtime.bigint();
        opened = next(30_000, follows);
        callerVersion++;
        await connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: callerUri, version: callerVersion },
          contentChanges: [
            {
              range: { start: { line: 5, character: 11 }, end: { line: 5, character: 12 } },
              text: String(callerVersion % 9),
            },
          ],
        });
        got = await opened;
        if (!got)
          throw new Error(
            `helper bench: the caller's findings did not follow the helper in 30 s (with seal() ${prints ? 'printing' : 'quiet'}; when quiet: ${quietFindings})`,
          );
        touched.push(Number(process.hrtime.bigint() - edit) / 1e6);
      }
      const found = signature(got);
      if (prints) printingFindings ??= found;
      if (found !== (prints ? printingFindings : quietFindings) || printingFindings === quietFindings)
        throw new Error(
          `helper bench: the caller's findings did not follow the helper (with seal() ${prints ? 'printing' : 'quiet'}: ${found}; when quiet: ${quietFindings})`,
        );
    }
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    return { rounds, pushed, touched, waitMs };
  } finally {
    if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
