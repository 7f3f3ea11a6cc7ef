// What the webview page finds on `window`: VS Code's API and the Chart.js UMD bundle's global.
interface WebviewApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}
declare function acquireVsCodeApi(): WebviewApi<import('../client/src/bench/messages').PanelState>;
declare const Chart: typeof import('chart.js').Chart;
