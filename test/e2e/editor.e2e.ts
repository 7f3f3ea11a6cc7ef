// End to end in a real VS Code (code-server 4.100.3 = VS Code 1.100.3) driven through Debian's chromium:
// the built .vsix installed into a fresh profile, a fixture workspace, and the checks a user would make.
// Run by `npm run test:e2e` (which packages the .vsix first) and by `npm test`.
import { strict as assert } from 'node:assert';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumMissing, launchChromium } from './browser';
import {
  ensureCodeServer,
  installExtension,
  makeDirs,
  startCodeServer,
  type CodeServerDirs,
  type RunningCodeServer,
} from './codeServer';
import { writeUserSettings, writeWorkspace, writeWorkspaceSettings } from './fixtures';
import { probeServer } from './serverProbe';
import { PATIENCE, Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..', '..');
const CACHE = process.env.WRITEV_E2E_CACHE ?? join(ROOT, '.cache');
const VSIX = join(ROOT, 'writev.vsix');
// Screenshots go to docs/ (committed, shown in the README) only when asked, so a test run leaves the tree clean.
const SHOTS = process.env.WRITEV_UPDATE_SCREENSHOTS
  ? join(ROOT, 'docs', 'screenshots')
  : join(ROOT, 'out', 'test', 'screenshots');
const ACTIVATION_BUDGET_MS = 100;

const log = (line: string): void => void process.stderr.write(`# e2e: ${line}\n`);

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
async function eventually<T>(what: string, check: () => T | undefined, ms = PATIENCE): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every file under `dir` whose name ends with `suffix`. */
function findFiles(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f));
}

describe('the extension in code-server', { skip: chromiumMissing(), timeout: 15 * 60_000 }, () => {
  let root: string;
  let dirs: CodeServerDirs;
  let workspace: string;
  let server: RunningCodeServer;
  let browser: Browser;
  /** Why the hint checks cannot run, or undefined when the bundled server has the analyzer. */
  let hintsMissing: string | undefined;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package (npm run test:e2e does)`);
    const entry = ensureCodeServer(CACHE, log);
    root = mkdtempSync(join(tmpdir(), 'writev-e2e-'));
    dirs = makeDirs(root);
    writeUserSettings(dirs.userData);
    workspace = writeWorkspace(root);
    installExtension(entry, dirs, VSIX);
    const caps = await probeServer(join(ROOT, 'dist', 'server.js'));
    hintsMissing = caps.codeActionProvider
      ? undefined
      : 'the bundled server announces no code actions yet (the analyzer of issue 5 is not merged into this build)';
    server = await startCodeServer(entry, dirs, workspace);
    log(`code-server ${server.url} (pid ${server.pid}), profile ${root}`);
    browser = await launchChromium(dirs.env);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (root && !process.env.WRITEV_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  });

  /** The extension's log file in the profile, once it exists. */
  const extensionLog = (): string | undefined =>
    findFiles(join(dirs.userData, 'logs'), join('writev.writev', 'writev.log')).map((f) =>
      readFileSync(f, 'utf8'),
    )[0];

  it(`activates on a C file in under ${ACTIVATION_BUDGET_MS} ms, as VS Code measures it`, async (t: TestContext) => {
    const wb = await Workbench.open(browser, server.url, server.port, workspace);
    try {
      await wb.openFile('sideband.c');
      await wb.page.locator('.statusbar-item', { hasText: /^C$/ }).first().waitFor({ timeout: PATIENCE });
      const ours = await eventually(
        'the activation line in the writev log',
        () => /activated in .*/.exec(extensionLog() ?? '')?.[0],
      );
      await wb.runCommand('Developer: Show Running Extensions');
      const row = wb.page
        .locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'writev' })
        .first();
      await row.waitFor({ timeout: PATIENCE });
      const text = await row.innerText();
      const ms = Number(/Activation: (\d+)ms/.exec(text)?.[1]);
      t.diagnostic(`VS Code: ${ms} ms; the extension's log: ${ours}`);
      writeFileSync(join(SHOTS, '..', 'activation.txt'), `VS Code activation: ${ms} ms\n${ours}\n`);
      assert.ok(Number.isFinite(ms), `no activation time in: ${text}`);
      assert.ok(ms < ACTIVATION_BUDGET_MS, `activation took ${ms} ms`);
    } finally {
      await wb.close();
    }
  });

  describe('hints', () => {
    let wb: Workbench;
    after(async () => wb?.close());

    it('shows the hints of a C file and a TS file in the Problems panel, and none for clean code', async (t) => {
      if (hintsMissing) return t.skip(hintsMissing);
      wb = await Workbench.open(browser, server.url, server.port, workspace);
      await wb.openFile('clean.c');
      await wb.openFile('record.ts');
      await wb.openFile('sideband.c');
      await wb.waitForProblem(/record\.ts/);
      const c = await wb.waitForProblem(/adjacent-writes[\s\S]*Ln 11/);
      assert.match(await c.innerText(), /writev/);
      const rows = await (await wb.problems()).filter({ hasText: /adjacent-writes/ }).allInnerTexts();
      assert.equal(rows.length, 2, rows.join('\n'));
      assert.equal(await (await wb.problems()).filter({ hasText: 'clean.c' }).count(), 0);
      await wb.page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: PATIENCE });
      await wb.page.screenshot({ path: join(SHOTS, 'hints.png') });
    });

    it('applies the quick fix: the text becomes one gathered write and the hint goes away', async (t) => {
      if (hintsMissing) return t.skip(hintsMissing);
      const marker = await wb.waitForProblem(/adjacent-writes[\s\S]*Ln 11/);
      await marker.click();
      await wb.page.keyboard.press('Control+.');
      const fix = wb.page.locator('.action-widget .monaco-list-row', { hasText: /writev/i }).first();
      await fix.waitFor({ timeout: PATIENCE });
      await wb.page.screenshot({ path: join(SHOTS, 'quick-fix.png') });
      await fix.click();
      await wb.page.keyboard.press('Control+S');
      const file = join(workspace, 'src', 'sideband.c');
      const fixed = await eventually('the fixed file on disk', () => {
        const text = readFileSync(file, 'utf8');
        return /writev_or_die|writev_in_full/.test(text) ? text : undefined;
      });
      assert.match(fixed, /struct iovec/);
      assert.doesNotMatch(fixed, /write_or_die\(fd, hdr, 5\);\s*write_or_die\(fd, data, len\);/);
      await wb.waitForNoProblem(/adjacent-writes[\s\S]*Ln 11/);
    });

    it('takes a settings change: turning TypeScript off drops the TS hint', async (t) => {
      if (hintsMissing) return t.skip(hintsMissing);
      await wb.waitForProblem(/record\.ts/);
      writeWorkspaceSettings(workspace, { 'writev.languages.typescript': false });
      await wb.waitForNoProblem(/record\.ts/);
      writeWorkspaceSettings(workspace, {});
      await wb.waitForProblem(/record\.ts/);
    });
  });

  describe('benchmarks', () => {
    let wb: Workbench;
    after(async () => wb?.close());

    it('runs the benchmarks from the command palette into a panel with a table and a chart', async () => {
      wb = await Workbench.open(browser, server.url, server.port, workspace);
      await wb.openFile('record.ts');
      await wb.runCommand('writev: Run Benchmarks');
      // The suite picker: every suite is picked the first time; accept.
      await wb.page
        .locator('.quick-input-widget .quick-input-title', { hasText: 'writev: Run Benchmarks' })
        .waitFor({ timeout: PATIENCE });
      await wb.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: PATIENCE });
      await wb.page.keyboard.press('Enter');
      const panel = wb.webview();
      await panel.locator('#status', { hasText: /^Done: \d+ cases\.$/ }).waitFor({ timeout: PATIENCE });
      assert.match((await panel.locator('#run').innerText()) ?? '', /size tiny/);
      assert.ok((await panel.locator('section.case table.results').count()) >= 2);
      await panel.locator('canvas.chart-time').first().waitFor({ timeout: PATIENCE });
      await panel.locator('canvas.chart-syscalls').first().waitFor({ timeout: PATIENCE });
      const runs = await panel.locator('section.case table.results tbody tr td:nth-child(5)').allInnerTexts();
      assert.ok(runs.length > 0 && runs.every((r) => r === '2'), `tiny runs each mode twice: ${runs}`);
      await wb.page.keyboard.press('Control+B'); // hide the side bar: room for the panel in the picture
      await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: PATIENCE });
      await wb.page.screenshot({ path: join(SHOTS, 'benchmarks.png') });
    });

    it('takes a settings change: writev.benchmarks.runs applies to the next run', async () => {
      writeWorkspaceSettings(workspace, { 'writev.benchmarks.runs': 3 });
      const panel = wb.webview();
      const runsColumn = panel.locator('section.case table.results tbody tr td:nth-child(5)');
      // VS Code picks up the edited settings.json through its file watcher: run again until it has.
      let runs: string[] = [];
      const deadline = Date.now() + PATIENCE;
      while (Date.now() < deadline && !(runs.length > 0 && runs.every((r) => r === '3'))) {
        await panel.locator('#rerun:not([disabled])').click({ timeout: PATIENCE });
        const attempt = Date.now() + 15_000;
        do {
          await wb.page.waitForTimeout(250); // polling the page: no event says "the next run finished"
          runs = await runsColumn.allInnerTexts();
        } while (Date.now() < attempt && !(runs.length > 0 && runs.every((r) => r === '3')));
      }
      assert.ok(runs.length > 0 && runs.every((r) => r === '3'), `runs per mode: ${runs}`);
      writeWorkspaceSettings(workspace, {});
    });
  });
});
