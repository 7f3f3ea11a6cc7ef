/**
 * What the language status item says, as a pure function of the facts, so every state's wording is
 * unit-tested without an editor.
 */

/** The server's state (mirrors `ServerState` in context.ts, which imports vscode). */
export type StatusServerState = 'starting' | 'running' | 'stopped' | 'crashed';

/** The facts the status item shows. */
export interface StatusFacts {
  state: StatusServerState;
  /** The active editor's file name when the server analyses it, else undefined. */
  fileName: string | undefined;
  /** writev diagnostics in that file. */
  findings: number;
  /** Unexpected server exits in the recent window. */
  crashes: number;
}

/** The status item's content; `action` picks the command its link runs. */
export interface StatusView {
  text: string;
  detail: string;
  severity: 'information' | 'warning' | 'error';
  busy: boolean;
  action: { title: string; command: 'writev.restartServer' | 'writev.showOutput' };
}

const RESTART = { title: 'Restart', command: 'writev.restartServer' } as const;
const SHOW_LOG = { title: 'Show Log', command: 'writev.showOutput' } as const;

/** Turns the facts into the item's text, detail, severity and action. */
export function describeStatus(facts: StatusFacts): StatusView {
  const { state, fileName, findings, crashes } = facts;
  if (state === 'crashed') {
    return {
      text: '$(error) writev: server stopped',
      detail: `crashed${crashes > 1 ? ` ${crashes} times` : ''}; no hints until it restarts`,
      severity: 'error',
      busy: false,
      action: RESTART,
    };
  }
  if (state === 'stopped') {
    return { text: 'writev: stopped', detail: 'no hints', severity: 'warning', busy: false, action: RESTART };
  }
  if (state === 'starting') {
    return {
      text: 'writev: starting',
      detail: 'starting the server',
      severity: 'information',
      busy: true,
      action: SHOW_LOG,
    };
  }
  const count = findings === 0 ? 'no findings' : findings === 1 ? '1 finding' : `${findings} findings`;
  const recovered =
    crashes > 0 ? ` (restarted after ${crashes === 1 ? 'a crash' : `${crashes} crashes`})` : '';
  return {
    text: fileName === undefined ? 'writev' : `writev: ${count}`,
    detail: `${fileName === undefined ? 'server running' : `${fileName} analysed`}${recovered}`,
    severity: crashes > 0 ? 'warning' : 'information',
    busy: false,
    action: SHOW_LOG,
  };
}
