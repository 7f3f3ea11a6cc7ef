// Code passed to page.evaluate runs in the browser, so these files need the DOM types.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { caseView } from '@writev/client/out/bench/caseView';
import type { PanelState, ToWebview } from '@writev/client/out/bench/messages';
import { recordedResults, ROOT } from './helpers';
import {
  chromiumMissing,
  launchChromium,
  openPanel,
  servePanel,
  THEMES,
  type ThemeName,
} from './webviewHarness';

const skip = chromiumMissing();
const shots = join(ROOT, 'out', 'test', 'screenshots');

/** Posts a message to the page as the extension host would. */
async function post(page: Page, message: ToWebview): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, '*'), message);
}

/** What the page recorded: posted messages, CSP violations, saved state. */
function recorded(page: Page): Promise<{ posted: unknown[]; csp: string[]; state: PanelState | undefined }> {
  return page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return {
      posted: w.__posted as unknown[],
      csp: w.__csp as string[],
      state: w.__state as PanelState | undefined,
    };
  });
}

/** How many pixels of a canvas are painted. */
function paintedPixels(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (canvases) =>
    (canvases as HTMLCanvasElement[]).map((c) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    }),
  );
}

describe('the benchmark panel in chromium', { skip }, () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof servePanel>>;
  const results = recordedResults();
  const run = {
    suites: ['writev', 'input-buffer'],
    size: 'tiny' as const,
    startedAt: '2026-01-01T12:00:00.000Z',
  };

  before(async () => {
    mkdirSync(shots, { recursive: true });
    server = await servePanel();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Each theme's streamed page, kept open by its rendering test for the tests after it (recolouring,
   * restoring): a page with every case's charts costs the browser more than any check made on it.
   */
  const streamed = new Map<ThemeName, Page>();
  /** The streamed page of `theme`: the rendering test's, or a page of its own if that test failed first. */
  const streamedPage = async (theme: ThemeName): Promise<Page> =>
    streamed.get(theme) ?? (await streamRun(theme)).page;

  async function streamRun(theme: ThemeName): Promise<{ page: Page; errors: string[] }> {
    const page = await openPanel(browser, server.url, theme);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'),
    );
    await post(page, { type: 'state', state: { run, status: 'Starting…', running: true, cases: [] } });
    for (const result of results) {
      await post(page, { type: 'status', status: `${result.suite} / ${result.case}`, running: true });
      await post(page, { type: 'case', case: { result, view: caseView(result) } });
    }
    await post(page, { type: 'status', status: `Done: ${results.length} cases.`, running: false });
    await page.waitForFunction((n) => document.querySelectorAll('section.case').length === n, results.length);
    return { page, errors };
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`renders a table and charts per case, in the ${theme} theme, without CSP violations`, async () => {
      const { page, errors } = await streamRun(theme);
      const tables = await page.$$eval('section.case table.results', (ts) =>
        ts.map((t) =>
          [...(t as HTMLTableElement).tBodies[0]!.rows].map((r) => [...r.cells].map((c) => c.textContent)),
        ),
      );
      assert.equal(tables.length, results.length);
      for (const [i, result] of results.entries()) {
        const view = caseView(result);
        assert.deepEqual(
          tables[i]!.map((row) => row[0]),
          view.rows.map((r) => r.command),
        );
        assert.equal(tables[i]![0]![1], `${view.rows[0]!.mean} ± ${view.rows[0]!.stddev}`);
        assert.equal(tables[i]![0]![2], `${view.rows[0]!.min} … ${view.rows[0]!.max}`);
      }
      const summaries = await page.$$eval('.summary li', (lis) => lis.map((li) => li.textContent));
      assert.ok(
        summaries.every((s) => / ± \d+\.\d\d times faster than /.test(s ?? '')),
        summaries.join('\n'),
      );
      const time = await paintedPixels(page, 'canvas.chart-time');
      const syscalls = await paintedPixels(page, 'canvas.chart-syscalls');
      assert.equal(time.length, results.length);
      assert.ok(syscalls.length >= 1);
      assert.ok(
        [...time, ...syscalls].every((n) => n > 1000),
        `painted pixels: ${time.join(',')} / ${syscalls.join(',')}`,
      );
      assert.equal(await page.textContent('#status'), `Done: ${results.length} cases.`);

      const { csp, state } = await recorded(page);
      assert.deepEqual(csp, []);
      assert.deepEqual(errors, []);
      assert.equal(state?.cases.length, results.length);
      // The theme reaches the page through --vscode-* variables only.
      const colors = await page.evaluate(() => ({
        body: getComputedStyle(document.body).color,
        tick: (
          window as unknown as {
            Chart: { getChart(c: Element): { options: { scales: { x: { ticks: { color: string } } } } } };
          }
        ).Chart.getChart(document.querySelector('canvas.chart-time')!).options.scales.x.ticks.color,
      }));
      assert.equal(colors.tick, THEMES[theme].vars['--vscode-foreground']);
      assert.equal(colors.body, theme === 'light' ? 'rgb(59, 59, 59)' : 'rgb(204, 204, 204)');
      await page.screenshot({ path: join(shots, `webview-${theme}.png`), fullPage: true });
      streamed.set(theme, page);
    });
  }

  it('recolours its charts when the theme changes', async () => {
    const page = await streamedPage('light');
    await page.evaluate(
      (dark) => (window as unknown as { __applyTheme(t: unknown): void }).__applyTheme(dark),
      THEMES.dark,
    );
    await page.waitForFunction(
      (fg) =>
        (
          window as unknown as {
            Chart: { getChart(c: Element): { options: { scales: { y: { ticks: { color: string } } } } } };
          }
        ).Chart.getChart(document.querySelector('canvas.chart-time')!).options.scales.y.ticks.color === fg,
      THEMES.dark.vars['--vscode-foreground'],
    );
    await page.close();
  });

  it('restores from its saved state after a reload, without any message', async () => {
    const page = await streamedPage('dark');
    const { state } = await recorded(page);
    await page.close();
    const reloaded = await openPanel(browser, server.url, 'dark', state);
    await reloaded.waitForFunction(
      (n) => document.querySelectorAll('section.case canvas.chart-time').length === n,
      results.length,
    );
    assert.equal(await reloaded.textContent('#status'), `Done: ${results.length} cases.`);
    await reloaded.close();
  });

  it('asks the extension host to export, cancel and run again', async () => {
    const page = await openPanel(browser, server.url, 'light');
    await post(page, { type: 'state', state: { run, status: 'running', running: true, cases: [] } });
    assert.equal(await page.isDisabled('#export-json'), true, 'nothing to export yet');
    await page.click('#cancel');
    await post(page, { type: 'case', case: { result: results[0]!, view: caseView(results[0]!) } });
    await post(page, { type: 'status', status: 'Done', running: false });
    await page.click('#export-json');
    await page.click('#export-markdown');
    await page.click('#rerun');
    const { posted } = await recorded(page);
    assert.deepEqual(posted, [
      { type: 'ready' },
      { type: 'cancel' },
      { type: 'export', format: 'json' },
      { type: 'export', format: 'markdown' },
      { type: 'rerun' },
    ]);
    await page.close();
  });
});
