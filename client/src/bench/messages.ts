/**
 * The messages between the benchmark panel (extension host) and its webview (media/benchmarks.js),
 * and the state the webview persists so the panel restores after a reload. Plain JSON only.
 */
import type { BenchSize, CaseResult } from '@writev/runtime/bench';
import type { CaseView } from './caseView';

/** A run as the panel's header describes it. */
export interface RunInfo {
  suites: string[];
  size: BenchSize;
  /** ISO 8601 start time. */
  startedAt: string;
}

/** A finished case: the raw result (for export) and its formatted view. */
export interface PanelCase {
  result: CaseResult;
  view: CaseView;
}

/** What the webview keeps with `setState` and the serializer hands back on reload. */
export interface PanelState {
  run: RunInfo | undefined;
  /** The status line ("Running writev / side-band: one writev, run 2 of 5"). */
  status: string;
  running: boolean;
  cases: PanelCase[];
}

/** Extension host to webview. */
export type ToWebview =
  /** Replace everything shown (a new run, or the state restored after a reload). */
  | { type: 'state'; state: PanelState }
  | { type: 'status'; status: string; running: boolean }
  | { type: 'case'; case: PanelCase };

/** Webview to extension host. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'export'; format: 'json' | 'markdown' }
  | { type: 'rerun' }
  | { type: 'cancel' };

/** The state of a panel that has shown nothing yet. */
export const EMPTY_STATE: PanelState = {
  run: undefined,
  status: 'No results yet.',
  running: false,
  cases: [],
};

/** True when `value` looks like a {@link PanelState} (it comes back from disk after a reload). */
export function isPanelState(value: unknown): value is PanelState {
  const v = value as Partial<PanelState> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.cases) && typeof v.status === 'string';
}
