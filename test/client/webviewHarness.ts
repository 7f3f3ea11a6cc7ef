// Code passed to page.evaluate runs in the browser, so these files need the DOM types.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeNonce, panelHtml } from '@writev/client/out/bench/panelHtml';
import { ROOT } from './helpers';

export { chromiumMissing, launchChromium } from '../e2e/browser';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.png': 'image/png',
};

/**
 * Serves the panel as VS Code would: the page from `panelHtml` with its CSP, and the assets from
 * media/ and dist/ on an origin of their own (the webview's `cspSource`).
 */
export async function servePanel(): Promise<{ url: string; close: () => Promise<void> }> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (path === '/panel.html') {
      const asset = (p: string): string => `${origin}/${p}`;
      const html = panelHtml(
        {
          cspSource: origin,
          script: asset('media/benchmarks.js'),
          chart: asset('dist/chart.umd.js'),
          style: asset('media/benchmarks.css'),
        },
        makeNonce(),
      );
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      return;
    }
    // A browser asks for a favicon on its first page; a webview never does.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (!/^\/(media|dist)\/[\w.-]+$/.test(path)) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(ROOT, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/panel.html`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A subset of the variables VS Code sets on a webview's <html>, for its Light and Dark Modern themes. */
export const THEMES = {
  light: {
    bodyClass: 'vscode-light',
    vars: {
      '--vscode-foreground': '#3b3b3b',
      '--vscode-descriptionForeground': '#3b3b3b',
      '--vscode-editor-background': '#ffffff',
      '--vscode-panel-border': '#e5e5e5',
      '--vscode-editorWidget-border': '#c8c8c8',
      '--vscode-button-background': '#005fb8',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-charts-blue': '#1a85ff',
      '--vscode-charts-orange': '#d18616',
      '--vscode-charts-green': '#388a34',
      '--vscode-charts-purple': '#652d90',
      '--vscode-charts-red': '#e51400',
      '--vscode-charts-yellow': '#bf8803',
      '--vscode-font-family': 'sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
    },
  },
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      '--vscode-foreground': '#cccccc',
      '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-editor-background': '#1f1f1f',
      '--vscode-panel-border': '#2b2b2b',
      '--vscode-editorWidget-border': '#454545',
      '--vscode-button-background': '#0078d4',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#313131',
      '--vscode-button-secondaryForeground': '#cccccc',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-charts-orange': '#d18616',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-purple': '#b180d7',
      '--vscode-charts-red': '#f14c4c',
      '--vscode-charts-yellow': '#cca700',
      '--vscode-font-family': 'sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
    },
  },
} as const;

/** The name of a theme above. */
export type ThemeName = keyof typeof THEMES;

/**
 * Opens the panel page with a stubbed `acquireVsCodeApi` that records what the page posts and keeps
 * its state (pass `state` to simulate a reload), and records CSP violations and page errors.
 */
export async function openPanel(
  browser: Browser,
  url: string,
  theme: ThemeName,
  state?: unknown,
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.addInitScript(
    ({ theme, state }) => {
      const w = window as unknown as Record<string, unknown>;
      w.__posted = [];
      w.__csp = [];
      w.__state = state;
      w.acquireVsCodeApi = () => ({
        postMessage: (m: unknown) => (w.__posted as unknown[]).push(m),
        getState: () => w.__state,
        setState: (s: unknown) => (w.__state = s),
      });
      document.addEventListener('securitypolicyviolation', (e) =>
        (w.__csp as string[]).push(`${e.violatedDirective} ${e.blockedURI}`),
      );
      // As VS Code does: variables on <html> (through the CSSOM, which the CSP allows), a class on <body>.
      const apply = (): void => {
        for (const [k, v] of Object.entries(theme.vars)) document.documentElement.style.setProperty(k, v);
        document.body.className = theme.bodyClass;
      };
      w.__applyTheme = (t: typeof theme) => {
        theme = t;
        apply();
      };
      document.addEventListener('DOMContentLoaded', apply);
    },
    { theme: THEMES[theme], state },
  );
  await page.goto(url);
  return page;
}
