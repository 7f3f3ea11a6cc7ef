// The editor suite's code-server cache: only a finished install counts, and a running install is seen
// (so the editor suite waits for npm test's background install rather than starting a second one).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  CODE_SERVER_VERSION,
  codeServerCacheDir,
  codeServerEntry,
  installed,
  installerRunning,
} from './codeServer';

describe("the editor suite's code-server cache", () => {
  const root = mkdtempSync(join(tmpdir(), 'writev-cs-cache-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('counts an install only when its stamp is written, not when code-server is merely unpacked', () => {
    const cache = join(root, 'stamp');
    const entry = codeServerEntry(cache);
    mkdirSync(dirname(entry), { recursive: true });
    writeFileSync(entry, '');
    assert.equal(installed(cache), false, 'entry.js without the stamp: an older, unfinished install');
    writeFileSync(join(cache, `code-server-${CODE_SERVER_VERSION}`, 'installed'), 'now\n');
    assert.equal(installed(cache), true);
  });

  it('sees an install in progress by its live process, and not one whose process is gone', async () => {
    const cache = join(root, 'running');
    mkdirSync(cache, { recursive: true });
    assert.equal(installerRunning(cache), undefined);
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      mkdirSync(join(cache, `code-server-${CODE_SERVER_VERSION}.partial-${pid}`));
      assert.equal(installerRunning(cache), pid);
    } finally {
      child.kill();
      await exited;
    }
    assert.equal(installerRunning(cache), undefined, 'the installing process has exited');
  });

  it('lives in the user cache folder unless WRITEV_E2E_CACHE names another', () => {
    const saved = { ...process.env };
    try {
      delete process.env.WRITEV_E2E_CACHE;
      process.env.XDG_CACHE_HOME = '/some/cache';
      assert.equal(codeServerCacheDir(), join('/some/cache', 'writev'));
      process.env.WRITEV_E2E_CACHE = '/elsewhere';
      assert.equal(codeServerCacheDir(), '/elsewhere');
    } finally {
      process.env = saved;
    }
  });
});
