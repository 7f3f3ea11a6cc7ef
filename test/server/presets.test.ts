// Presets: one project's own C helpers (OpenSSH's `atomicio` and `sshbuf` accessors...) are known, with
// their gathered twins, when the user names the project in `"presets"`, in a `.writev-lint.json` or the
// editor's settings, in the CLI and the language server alike; an unknown name is a usage error that
// names the key. Without the preset only what the code shows is known: `atomicio(vwrite, ...)` read
// from its calls, the accessors taken to do no output, a hint without a fix that says so.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, parseSettings, SettingsError } from 'writev-lint';
import { PRESET_NAMES, PRESETS } from 'writev-lint/out/analyzer/presets';
import { lintRun } from './cliHelpers';
import { analyzer } from './helpers';
import { TestServer } from './lspClient';

/**
 * OpenSSH's way to send a header and a message: two `atomicio(vwrite, ...)` calls in one condition,
 * the second's buffer and length read through `sshbuf` accessors (called again in the check).
 */
const OPENSSH_SEND = `#include <sys/types.h>
#include <unistd.h>
struct sshbuf;
size_t atomicio(ssize_t (*f)(int, void *, size_t), int fd, void *buf, size_t n);
#define vwrite (ssize_t (*)(int, void *, size_t))write
const unsigned char *sshbuf_ptr(const struct sshbuf *);
size_t sshbuf_len(const struct sshbuf *);

int send_msg(int fd, unsigned char *hdr, struct sshbuf *m)
{
	if (atomicio(vwrite, fd, hdr, 4) != 4 ||
	    atomicio(vwrite, fd, (void *)sshbuf_ptr(m), sshbuf_len(m)) != sshbuf_len(m))
		return -1;
	return 0;
}
`;

const tmp = mkdtempSync(join(tmpdir(), 'writev-presets-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder holding `a.c` (OPENSSH_SEND) and, if given, a `.writev-lint.json` with `config`. */
function project(name: string, config?: object): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.c'), OPENSSH_SEND);
  if (config) writeFileSync(join(dir, '.writev-lint.json'), JSON.stringify(config));
  return dir;
}

describe('the presets setting', () => {
  it('is empty by default, keeps each name once, and refuses an unknown name with the key path', () => {
    assert.deepEqual(DEFAULT_SETTINGS.presets, []);
    assert.deepEqual(parseSettings({ presets: ['redis', 'openssh', 'redis'] }).presets, ['redis', 'openssh']);
    assert.throws(
      () => parseSettings({ presets: ['opensh'] }),
      (e: unknown) =>
        e instanceof SettingsError &&
        /writev\.presets\[0\]: .*"opensh"; did you mean openssh\?/.test(e.message),
    );
    assert.throws(() => parseSettings({ presets: 'openssh' }), /writev\.presets: expected a list/);
  });

  it('describes every preset, and each preset gives something', () => {
    for (const name of PRESET_NAMES) {
      const preset = PRESETS[name];
      assert.ok(preset.description.length > 0, name);
      const given = [preset.writeFunctions, preset.pure, preset.quiet].some(
        (list) => (list?.length ?? 0) > 0,
      );
      assert.ok(given, `${name} knows at least one helper`);
    }
  });
});

describe('a preset in the analyzer', () => {
  it("without it, reads OpenSSH's atomicio() from its calls: a hint without a fix, saying what it assumed", async () => {
    const found = (await analyzer()).analyze('a.c', OPENSSH_SEND, DEFAULT_SETTINGS);
    assert.deepEqual(
      found.map((f) => [f.code, f.fix]),
      [['adjacent-writes-unknown-fd', undefined]],
    );
    assert.match(found[0]!.message, /atomicio\(\) is not defined in the code read/);
    assert.match(
      found[0]!.message,
      /taken that sshbuf_ptr\(\), sshbuf_len\(\), whose body is not in the code read/,
    );
  });

  it('with "openssh", gathers the run into atomiciov(writev, ...) across the sshbuf accessors', async () => {
    const settings = parseSettings({ presets: ['openssh'] });
    const found = (await analyzer()).analyze('a.c', OPENSSH_SEND, settings);
    assert.equal(found.length, 1);
    assert.match(found[0]!.message, /into one atomiciov\(\)/);
    const fixed = found[0]!.fix?.edits.map((e) => e.newText).join('') ?? '';
    assert.match(fixed, /atomiciov\(writev, fd, /);
  });

  it('the accessors being read-only comes from the preset: with atomicio given as a write function alone, they are an assumption', async () => {
    const settings = parseSettings({
      writeFunctions: [{ name: 'atomicio', language: 'c', fd: 1, buf: 2, len: 3 }],
    });
    const found = (await analyzer()).analyze('a.c', OPENSSH_SEND, settings);
    assert.deepEqual(
      found.map((f) => [f.code, f.fix]),
      [['adjacent-writes', undefined]],
    );
    assert.match(found[0]!.message, /taken that sshbuf_ptr\(\), sshbuf_len\(\)/);
  });
});

describe("BusyBox's preset", () => {
  const source = `void full_write2_str(const char *str);
void usage(const char *applet)
{
\tfull_write2_str("usage: ");
\tfull_write2_str(applet);
\tfull_write2_str("\\n");
}
`;

  it('knows full_write2_str writes to stderr: three calls, one finding, none without the preset', async () => {
    const a = await analyzer();
    const found = a.analyze('usage.c', source, parseSettings({ presets: ['busybox'] }));
    assert.deepEqual(
      found.map((f) => [f.code, f.target, f.syscalls]),
      [['adjacent-writes', '2', 3]],
    );
    assert.deepEqual(a.analyze('usage.c', source, DEFAULT_SETTINGS), []);
  });
});

describe('presets in writev-lint', () => {
  it('reads "presets" from .writev-lint.json', async () => {
    const withPreset = project('cli-openssh', { presets: ['openssh'] });
    const run = await lintRun([join(withPreset, 'a.c')], withPreset);
    assert.equal(run.status, 1, run.err);
    assert.match(
      run.out,
      /^a\.c:11:2: warning: 2 syscalls to fd can become one: .*atomiciov\(\) \[\*\] \[adjacent-writes\]$/m,
    );
    // Without the preset: the hint without a fix, at the lower severity of an assumption.
    const plainDir = project('cli-plain');
    const plain = await lintRun([join(plainDir, 'a.c')], plainDir);
    assert.equal(plain.status, 1, plain.out);
    assert.match(plain.out, /^a\.c:11:2: info: if fd is a byte stream .*\[adjacent-writes-unknown-fd\]$/m);
  });

  it('stops with exit status 2 naming the file and the key for an unknown preset', async () => {
    const dir = project('cli-typo', { presets: ['openssh', 'busybx'] });
    const run = await lintRun([join(dir, 'a.c')], dir);
    assert.equal(run.status, 2);
    assert.match(
      run.err,
      /\.writev-lint\.json: presets\[1\]: expected one of .*"busybx"; did you mean busybox\?/,
    );
    assert.equal(run.out, '');
  });
});

describe('presets in the language server', () => {
  let server: TestServer;
  let withPreset: string;
  let plain: string;
  before(async () => {
    withPreset = project('lsp-openssh', { presets: ['openssh'] });
    plain = project('lsp-plain');
    server = await TestServer.start([withPreset, plain], { workspace: { configuration: true } });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it("applies a folder's .writev-lint.json presets, and none elsewhere", async () => {
    const open = (dir: string) => {
      const uri = `file://${join(dir, 'a.c')}`;
      void server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version: 1, text: OPENSSH_SEND },
      });
      return uri;
    };
    const found = await server.published(open(withPreset), 1);
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.code]),
      [[10, 'adjacent-writes']],
    );
    const hint = await server.published(open(plain), 1);
    assert.deepEqual(
      hint.map((d) => [d.range.start.line, d.code]),
      [[10, 'adjacent-writes-unknown-fd']],
    );
  });
});
