import { randomBytes } from 'node:crypto';

/** Where the panel's assets are, as webview URIs (`asWebviewUri`), and the webview's CSP source. */
export interface PanelAssets {
  cspSource: string;
  script: string;
  chart: string;
  style: string;
}

/** A fresh nonce for one page load: 128 random bits, base64. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of the panel: nothing but our own styles and the nonce'd scripts. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The panel's HTML: a static shell. Results arrive later by `postMessage`, never by rewriting the
 * HTML, so the page (and its charts) keep their state while a run streams in.
 */
export function panelHtml(assets: PanelAssets, nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(assets.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(assets.style)}">
<title>writev benchmarks</title>
</head>
<body>
<header>
  <h1>writev benchmarks</h1>
  <p id="run" class="run"></p>
  <p id="status" class="status" role="status" aria-live="polite"></p>
  <div class="actions">
    <button id="rerun" type="button">Run Again</button>
    <button id="cancel" type="button">Cancel</button>
    <button id="export-json" type="button" class="secondary">Export JSON…</button>
    <button id="export-markdown" type="button" class="secondary">Export Markdown…</button>
  </div>
</header>
<main id="cases"></main>
<script nonce="${attr(nonce)}" src="${attr(assets.chart)}"></script>
<script nonce="${attr(nonce)}" src="${attr(assets.script)}"></script>
</body>
</html>
`;
}
