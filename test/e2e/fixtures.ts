import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The fixture workspace, written fresh for every run (the quick fix edits it): a C file in Git's style
 * and a TypeScript file, each with one sequence of two writes to one descriptor that the analyzer
 * reports as `adjacent-writes`.
 */
export const FIXTURE_FILES: Record<string, string> = {
  'src/sideband.c': `#include "git-compat-util.h"
#include "write-or-die.h"

/* Sends one side-band packet: a 5-byte header (length and band), then the data. */
static void send_sideband_packet(int fd, int band, const char *data, size_t len)
{
\tchar hdr[5];

\txsnprintf(hdr, sizeof(hdr), "%04x", (unsigned)(len + 5));
\thdr[4] = band;
\twrite_or_die(fd, hdr, 5);
\twrite_or_die(fd, data, len);
}
`,
  'src/record.ts': `import { writeSync } from 'node:fs';

/** Sends a record: its header, then its payload. */
export function sendRecord(fd: number, header: Buffer, payload: Buffer): void {
  writeSync(fd, header);
  writeSync(fd, payload);
}
`,
  // Never opened by the tests: only writev.lintWorkspace brings its hint into the Problems panel.
  'lib/unopened.c': `#include "git-compat-util.h"

/* Greets the world, in two syscalls. */
void greet(int fd)
{
\twrite_or_die(fd, "hello, ", 7);
\twrite_or_die(fd, "world\\n", 6);
}
`,
  // Traced by the trace tests: one line per key and value, two small writes each.
  'src/hot.js': `const { writeSync } = require('node:fs');

/** Prints each key and value with writes of their own. */
function dump(fd, pairs) {
  for (const [key, value] of pairs) {
    writeSync(fd, key);
    writeSync(fd, \`=\${value}\\n\`);
  }
}

dump(1, Array.from({ length: 100 }, (_, i) => [\`k\${i}\`, i]));
`,
  'src/clean.c': `#include <unistd.h>

/* One write, nothing to gather: no hint. */
void say(int fd, const char *msg, size_t n)
{
\twrite(fd, msg, n);
}
`,
};

/** The user settings of the test profile: quiet, and tiny benchmarks. */
export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'files.autoSave': 'off',
  'editor.minimap.enabled': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'window.commandCenter': false,
  // The fixture has no @types/node: keep TypeScript's own errors out of the Problems panel.
  'typescript.validate.enable': false,
  'javascript.validate.enable': false,
  // VS Code's own TypeScript support is not under test: one tsserver per window rather than a syntax
  // server beside it, and no typings installer fetching type packages for the fixture's imports.
  'typescript.tsserver.useSyntaxServer': 'never',
  'typescript.disableAutomaticTypeAcquisition': true,
  'writev.benchmarks.size': 'tiny',
};

/** Writes the workspace under `root` (in its folder `name`) and returns its path. */
export function writeWorkspace(root: string, name = 'workspace'): string {
  const workspace = join(root, name);
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    const file = join(workspace, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  writeWorkspaceSettings(workspace, {});
  return workspace;
}

/** Replaces the workspace's .vscode/settings.json, as a user editing it would. */
export function writeWorkspaceSettings(workspace: string, settings: Record<string, unknown>): void {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** Writes the profile's user settings into a code-server user-data folder. */
export function writeUserSettings(userData: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    `${JSON.stringify({ ...USER_SETTINGS, ...extra }, null, 2)}\n`,
  );
}
