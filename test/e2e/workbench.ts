// Code passed to page.evaluate runs in the browser, so this file needs the DOM types.
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';

/** How long a user-visible effect may take in a cold workbench on 2 cores. */
export const PATIENCE = 60_000;

/**
 * One browser page on the workbench, with the few gestures the tests need, written against the
 * selectors of VS Code 1.100 (see the shared notes). Every wait is for an element, never a sleep.
 */
export class Workbench {
  private constructor(readonly page: Page) {}

  /**
   * Opens the workbench on `folder` in a new page of `context`, optionally with `file` in an editor, and
   * waits for the explorer.
   */
  static async open(
    context: BrowserContext,
    url: string,
    port: number,
    folder: string,
    file?: string,
  ): Promise<Workbench> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    let target = `${url}/?folder=${encodeURIComponent(folder)}`;
    if (file) {
      const payload = JSON.stringify([['openFile', `vscode-remote://127.0.0.1:${port}${file}`]]);
      target += `&payload=${encodeURIComponent(payload)}`;
    }
    await page.goto(target);
    await page.locator('.monaco-workbench').waitFor({ timeout: PATIENCE });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: PATIENCE });
    return new Workbench(page);
  }

  /** The editor showing `name` (a tab title), once it is the active editor. */
  async editor(name: string): Promise<Locator> {
    // The active tab, not any tab of that name: a file opened earlier keeps its tab, and commands act
    // on the active editor.
    await this.page
      .locator(`.editor-group-container.active .tabs-container .tab.active[data-resource-name="${name}"]`)
      .waitFor({ timeout: PATIENCE });
    const editor = this.page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-lines').waitFor({ timeout: PATIENCE });
    return editor;
  }

  /** Opens a file of the workspace with Quick Open (Ctrl+P), as a user would. */
  async openFile(name: string): Promise<Locator> {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: PATIENCE });
    await input.fill(name);
    // Until the picker has applied the filter it lists the recently opened files, where Enter opens
    // whichever row has the focus, not necessarily `name` (which that list may show too).
    await this.page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
      .waitFor({ timeout: PATIENCE });
    await this.page.keyboard.press('Enter');
    return this.editor(name);
  }

  /**
   * Runs a command from the palette (F1) by its title, e.g. "writev: Run Benchmarks". In a fresh window
   * the palette can open before the extensions' commands are known, and it does not update its list:
   * open it again until the command is there.
   */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    const deadline = Date.now() + PATIENCE;
    for (;;) {
      await this.page.keyboard.press('F1');
      await input.waitFor({ timeout: PATIENCE });
      await input.fill(`>${title}`);
      try {
        await row.waitFor({ timeout: 5000 });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.page.keyboard.press('Enter');
  }

  /** Shows the Problems panel and returns its rows (file rows and marker rows). */
  async problems(): Promise<Locator> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ timeout: PATIENCE });
    return panel.locator('.monaco-list-row');
  }

  /** Waits until the Problems panel shows a marker row matching `text`; returns it. */
  async waitForProblem(text: string | RegExp): Promise<Locator> {
    const row = (await this.problems()).filter({ hasText: text }).first();
    await row.waitFor({ timeout: PATIENCE });
    return row;
  }

  /** Waits until no row of the Problems panel matches `text`. */
  async waitForNoProblem(text: string | RegExp): Promise<void> {
    const rows = (await this.problems()).filter({ hasText: text });
    await rows.first().waitFor({ state: 'detached', timeout: PATIENCE });
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) in the focused editor and moves the selection to the entry matching
   * `title` (apply it with Enter: the menu blocks pointer events while it opens). The menu asks the
   * language server, which may still be analysing: ask again until it offers the fix.
   */
  async quickFix(title: RegExp): Promise<void> {
    await this.page
      .locator('.editor-group-container.active .monaco-editor.focused')
      .waitFor({ timeout: PATIENCE });
    const entry = this.page.locator('.action-widget .monaco-list-row.action', { hasText: title }).first();
    const deadline = Date.now() + PATIENCE;
    for (;;) {
      await this.page.keyboard.press('Control+.');
      try {
        await entry.waitFor({ timeout: 5000 });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await this.page.keyboard.press('Escape');
      }
    }
    const focused = this.page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 10 && !title.test((await focused.getAttribute('aria-label')) ?? ''); i++) {
      await this.page.keyboard.press('ArrowDown');
    }
    assert.match((await focused.getAttribute('aria-label')) ?? '', title);
  }

  /**
   * Applies the quick fix `title` in the focused editor and waits until the editor's text matches
   * `applied`. A key press can be lost while the menu still renders: the fix is asked for once more, so
   * that a lost Enter and a fix that changes nothing fail with different messages. `onMenu` runs while
   * the menu is open, before the first Enter (a screenshot).
   */
  async applyQuickFix(title: RegExp, applied: RegExp, onMenu?: () => Promise<unknown>): Promise<void> {
    const text = this.page
      .locator('.editor-group-container.active .monaco-editor .view-lines', { hasText: applied })
      .first();
    for (let attempt = 1; ; attempt++) {
      await this.quickFix(title);
      if (attempt === 1) await onMenu?.();
      await this.page.keyboard.press('Enter');
      try {
        await text.waitFor({ timeout: PATIENCE / 4 });
        return;
      } catch {
        if (attempt === 2) {
          assert.fail(
            `the quick fix ${title} was offered twice, but after Enter the editor never showed ${applied}`,
          );
        }
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Saves the active editor (Ctrl+S) and waits until its tab `name` is no longer marked dirty, pressing
   * Ctrl+S once more if the first press was lost.
   */
  async save(name: string): Promise<void> {
    const clean = this.page
      .locator(
        `.editor-group-container.active .tabs-container .tab.active[data-resource-name="${name}"]:not(.dirty)`,
      )
      .first();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+S');
      try {
        await clean.waitFor({ timeout: PATIENCE / 4 });
        return;
      } catch (err) {
        if (attempt === 2) throw err;
      }
    }
  }

  /** The frame of the active webview's content (the benchmark panel). */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }

  /** Closes the page. */
  async close(): Promise<void> {
    await this.page.close();
  }
}
